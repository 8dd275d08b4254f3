"""Adjective replacement: hand-written synonym/antonym table, inflection, a/an, and properties on shipped data."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from perturbations.adjective import AdjectiveSwap
from perturbations.base import apply_edits
from perturbations.language.articles import article_for
from perturbations.language.senses import sense_antonyms as antonyms
from perturbations.language.senses import sense_synonyms as synonyms
from suites.harness.strategies import seeds, shipped_sentences

# input -> (synonym variant or None, antonym variant or None); more rows in perturbations/adjective/examples.py
TABLE = [
    # "inexpensive" is too rare in SemCor (fewer than 5 uses) to be a plain synonym of "cheap"
    ("It is a cheap restaurant.", None, "It is an expensive restaurant."),
    ("X is a cheap restaurant near Y.", None, "X is an expensive restaurant near Y."),
    ("The rooms are large.", "The rooms are big.", "The rooms are small."),
    ("It is a small hotel.", None, "It is a large hotel."),  # "little": its size sense has 63 % of its uses, < 4/5
    ("This is the biggest hotel in town.", "This is the largest hotel in town.", "This is the littlest hotel in town."),
    ("red victorian is a pricey hotel", None, None),  # no counted sense: unclear
    ("Cheap food here.", None, "Expensive food here."),
    ("It is a little hotel.", None, None),  # "little": size 63 %, quantity 28 %: no dominant sense
    ("It has an expensive menu.", None, "It has a cheap menu."),
    ("This is a different place.", None, None),  # "same" needs "the": a change of structure
    ("The food was good.", None, "The food was bad."),
    ("The service is fast.", None, "The service is slow."),
    ("The red car is fast.", None, "The red car is slow."),  # colours are not swapped
    ("The soup was hot.", None, "The soup was cold."),
    ("A happy customer.", None, "An unhappy customer."),
    ("The weather is wet.", None, "The weather is dry."),
]

NO_ADJECTIVE = [
    "The hotel is cheaper.",  # no one-word comparative of "inexpensive" / "expensive"
    "Red Victorian is in the Haight.",  # part of a name
    "They have many rooms.",  # quantifier, not descriptive
    "He ran quickly.",
    "Where is it?",
    "Casa melissa is in little italy .",  # lower-cased place name
    "The hotel is in the financial district .",  # relational adjective
    "It is near the river .",  # preposition-like
    "I found a hotel in the outer richmond .",
]


@pytest.fixture(scope="module")
def swap():
    return AdjectiveSwap()


@pytest.mark.parametrize(("text", "synonym", "antonym"), TABLE, ids=[t for t, _, _ in TABLE])
def test_table(swap, text, synonym, antonym):
    result = swap.apply(text, 0)
    by_relation = {v.meta["relation"]: v for v in result.variants}
    assert (by_relation["synonym"].text if "synonym" in by_relation else None) == synonym
    assert (by_relation["antonym"].text if "antonym" in by_relation else None) == antonym
    for variant in result.variants:
        expected = "invariant" if variant.meta["relation"] == "synonym" else "decrease"
        assert (variant.kind, variant.expectation) == ("adjective", expected)
        assert apply_edits(text, list(variant.edits)) == variant.text


@pytest.mark.parametrize("text", NO_ADJECTIVE)
def test_skips_without_a_usable_adjective(swap, text):
    result = swap.apply(text, 0)
    assert result.variants == () and "adjective" in result.skipped


def test_lexicon_prefers_dominant_senses():
    assert synonyms("big", "a")[0][0] == "large"
    assert "full" not in [w for w, _ in synonyms("good", "a")]  # a rare sense of "good"
    assert synonyms("open", "a") == ()
    assert antonyms("cheap", "a")[0][0] == "expensive"
    assert antonyms("average", "a") == ()  # "abnormal" was the antonym of a satellite's head
    assert antonyms("red", "a") == ()


@pytest.mark.parametrize(("word", "model", "article"), [
    ("expensive", "a", "an"), ("cheap", "an", "a"), ("honest", "a", "an"), ("unique", "an", "a"),
    ("inexpensive", "A", "An"), ("same", "a", "the"),
])
def test_article_agreement(word, model, article):
    assert article_for(word, model) == article


def test_seed_chooses_the_adjective_reproducibly(swap):
    text = "The large hotel has a small room and a fast lift."
    runs = {seed: [v.text for v in swap.apply(text, seed).variants] for seed in range(8)}
    assert runs == {seed: [v.text for v in swap.apply(text, seed).variants] for seed in range(8)}
    assert len({tuple(v) for v in runs.values()}) > 1  # different seeds pick different adjectives


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sentence=shipped_sentences(), seed=seeds())
def test_swaps_keep_the_token_count(swap, sentence, seed):
    from rome.core.parsing import get_parser

    result = swap.apply(sentence, seed)
    assert result.variants or result.skipped
    for variant in result.variants:
        assert len(variant.text.split()) == len(sentence.split())
        original, changed = get_parser().parse([sentence, variant.text])
        assert len(changed.tokens) == len(original.tokens)
        assert len(variant.edits) in (1, 2)
    assert [v.text for v in swap.apply(sentence, seed).variants] == [v.text for v in result.variants]


#: NL-Augmenter style: (text, require_both) -> the swapped adjective, or None when nothing may be swapped
NAME_TABLE = [
    ("Little nepal is a cheap restaurant .", False, "cheap"),  # "little" belongs to the name (capitalised)
    ("The big 4 restaurant is expensive .", False, "expensive"),
    ("There is a large hotel near little italy .", False, "large"),  # the first adjective is one
    ("There is no hotel in little italy .", False, None),  # the only adjective is part of a name
    ("Darbar restaurant is pricey .", True, None),  # no counted sense
    ("X is a large restaurant .", True, "large"),
]


@pytest.mark.parametrize("text,both,word", NAME_TABLE)
def test_name_parts_are_kept_and_both_can_be_required(text, both, word):
    result = AdjectiveSwap(require_both=both).apply(text, 0)
    if word is None:
        assert not result.variants and result.skipped
        return
    assert {v.meta["word"] for v in result.variants} == {word}
    if both:
        assert sorted(v.meta["relation"] for v in result.variants) == ["antonym", "synonym"]


@pytest.mark.parametrize("word", ["ethnic", "wonderful", "pricey"])
def test_synonyms_must_have_the_sense_as_their_main_one(word):
    assert not {"cultural", "tremendous", "costly"} & {w for w, _ in synonyms(word, "a")}
