"""Change 5 (docs/rome.md, kept): the lemma rule follows the tense and aspect of the verb group, on the real
parser and encoder; on by default in the EMD and TED-SE, ``verb_groups=False`` gives the rule before it."""

from __future__ import annotations

import numpy as np
import pytest

from rome.core.encoder import get_encoder
from rome.core.parsing import get_parser
from rome.metric.semantic import semantic_similarity
from rome.metric.words import analyse, verb_group, word_rules

SIMPLE = "The committee approved the plan."
PROGRESSIVE = "The committee was approving the plan."
PERFECT = "The committee has approved the plan."
FUTURE = "The committee will approve the plan."
ACTIVE = "The committee is approving the plan."
PASSIVE = "The plan is being approved by the committee."
SERVES = "The hotel serves breakfast."
SERVED = "Breakfast is served by the hotel."


@pytest.fixture(scope="module")
def words():
    return analyse([SIMPLE, PROGRESSIVE, PERFECT, FUTURE, ACTIVE, PASSIVE, SERVES, SERVED], get_encoder(), get_parser())


def _verb(text: str) -> str:
    parsed = get_parser().parse_one(text)
    (group,) = [verb_group(parsed, t.i) for t in parsed.tokens if t.pos == "VERB"]
    return group


@pytest.mark.parametrize(("text", "group"), [
    (SIMPLE, "Tense=Past||"), (PROGRESSIVE, "Tense=Past||Prog"), (PERFECT, "Tense=Pres|Perf|"), (FUTURE, "Tense=||"),
    (ACTIVE, "Tense=Pres||Prog"), (PASSIVE, "Tense=Pres||Prog"), (SERVES, "Tense=Pres||"), (SERVED, "Tense=Pres||"),
    ("The hotel, located in the centre, is cheap.", ""),  # a participle without a finite member: no group
])
def test_verb_group_reads_tense_and_aspect_from_the_group(text, group):
    assert _verb(text) == group


def _one_word(ref, hyp, lemma, verb_groups):
    one_word, _ = word_rules(ref, hyp, verb_groups=verb_groups)
    i = ref.lemmas.index(lemma)
    j = hyp.lemmas.index(lemma)
    return bool(one_word[i, j])


@pytest.mark.parametrize("other", [PROGRESSIVE, PERFECT, FUTURE])
def test_another_tense_or_aspect_is_one_word_only_without_the_switch(words, other):
    assert _one_word(words[SIMPLE], words[other], "approve", verb_groups=False)
    assert not _one_word(words[SIMPLE], words[other], "approve", verb_groups=True)
    off = semantic_similarity(words[SIMPLE], words[other], "std", verb_groups=False).f_sem
    on = semantic_similarity(words[SIMPLE], words[other], "std").f_sem
    assert on < off


@pytest.mark.parametrize(("active", "passive"), [(SERVES, SERVED), (ACTIVE, PASSIVE)])
def test_the_passive_keeps_its_verb_one_word_with_the_switch(words, active, passive):
    lemma = "serve" if active == SERVES else "approve"
    assert _one_word(words[active], words[passive], lemma, verb_groups=True)
    off = semantic_similarity(words[active], words[passive], "std", verb_groups=False).f_sem
    on = semantic_similarity(words[active], words[passive], "std").f_sem
    assert np.isclose(on, off)
