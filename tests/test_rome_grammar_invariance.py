"""Grammar-keeping copies for the grammar classifier's consistency loss (real spaCy tagger)."""

from __future__ import annotations

import random

import pytest

from rome.training.grammar_invariance import (
    SWAPPABLE_TAGS,
    invariant_pairs,
    lexicon,
    swapped_copy,
    tag_fine,
)

WORDS = {"NNP": ["Mary", "Paris"], "NN": ["lamp", "river"], "NNS": ["lamps", "rivers"]}


@pytest.mark.parametrize("sentence, kept, changed_tags", [
    # (word, Penn tag) input, the words that must stay, the tags whose words may change
    ([("John", "NNP"), ("saw", "VBD"), ("the", "DT"), ("cat", "NN"), (".", ".")], {"saw", "the"}, {"NNP", "NN"}),
    ([("They", "PRP"), ("sold", "VBD"), ("42", "CD"), ("books", "NNS")], {"They", "sold"}, {"CD", "NNS"}),
])
def test_swaps_stay_within_their_tag(sentence, kept, changed_tags):
    for seed in range(20):
        copy = swapped_copy(sentence, WORDS, random.Random(seed))
        assert copy is not None
        words = copy.rstrip(".").split()
        assert len(words) == len([w for w, t in sentence if t != "."])
        for (old, tag), new in zip(sentence, words):
            if old in kept:
                assert new == old
            elif new != old:
                assert tag in changed_tags
                assert new.isdigit() if tag == "CD" else new.lower() in {w.lower() for w in WORDS[tag]}


def test_nothing_to_swap_gives_none_and_seeds_repeat():
    assert swapped_copy([("Go", "VB"), ("away", "RB"), ("!", ".")], WORDS, random.Random(0)) is None
    sentence = [("John", "NNP"), ("likes", "VBZ"), ("the", "DT"), ("cat", "NN")]
    assert swapped_copy(sentence, WORDS, random.Random(5)) == swapped_copy(sentence, WORDS, random.Random(5))
    assert len({swapped_copy(sentence, WORDS, random.Random(s)) for s in range(30)}) > 3


def test_invariant_pairs_with_the_real_tagger():
    texts = ["John gave Mary three books.", "The river flows north.", "Yes!", "Paris has 2000 bridges.",
             "The lake was cold."]
    pairs = invariant_pairs(texts, seed=1)
    # "Yes!" offers no swappable word; every other text gets a copy that differs
    assert [a for a, _ in pairs] == [t for t in texts if t != "Yes!"]
    assert all(a != b and len(a.split()) == len(b.split()) for a, b in pairs)  # word for word
    assert invariant_pairs(texts, seed=1) == pairs
    assert set(lexicon(tag_fine(texts))) <= set(SWAPPABLE_TAGS) - {"CD"}
