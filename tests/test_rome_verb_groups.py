"""Change 5 (docs/rome.md, kept): the lemma rule follows the tense and aspect of the verb group, on the real
parser and encoder, in the EMD and TED-SE alike."""

from __future__ import annotations

import numpy as np
import pytest

from rome.core.encoder import get_encoder
from rome.core.parsing import get_parser
from rome.metric.tree_edit import node_equality
from rome.metric.words import (
    analyse,
    different_inflections,
    different_verb_groups,
    same_lemma,
    verb_group,
    word_rules,
    word_similarity,
)

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


def _index(ref, hyp, lemma):
    return ref.lemmas.index(lemma), hyp.lemmas.index(lemma)


@pytest.mark.parametrize("other", [PROGRESSIVE, PERFECT, FUTURE])
def test_another_tense_or_aspect_is_not_one_word(words, other):
    """The lemma rule alone (one lemma, no differing finite tense) would merge the two forms; the verb groups
    differ, so neither step counts them one word and the encoder's cosine decides."""
    ref, hyp = words[SIMPLE], words[other]
    i, j = _index(ref, hyp, "approve")
    assert same_lemma(ref, hyp)[i, j] and not different_inflections(ref, hyp)[i, j]
    assert different_verb_groups(ref, hyp)[i, j]
    one_word, _ = word_rules(ref, hyp)
    assert not one_word[i, j]
    cosine = float(np.clip(ref.unit[i] @ hyp.unit[j], -1, 1))
    assert word_similarity(ref, hyp)[i, j] == pytest.approx(cosine) and cosine < 1.0
    assert node_equality(ref, hyp)[i, j] == (cosine > 0.65)


@pytest.mark.parametrize(("active", "passive"), [(SERVES, SERVED), (ACTIVE, PASSIVE)])
def test_the_passive_keeps_its_verb_one_word(words, active, passive):
    ref, hyp = words[active], words[passive]
    i, j = _index(ref, hyp, "serve" if active == SERVES else "approve")
    assert not different_verb_groups(ref, hyp)[i, j]
    one_word, _ = word_rules(ref, hyp)
    assert one_word[i, j] and word_similarity(ref, hyp)[i, j] == 1.0 and node_equality(ref, hyp)[i, j]
