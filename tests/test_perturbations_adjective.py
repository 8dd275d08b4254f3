"""Adjective replacement: synonyms decided by the judge and antonyms bounded by its language model's fluency
(the real Gemma 3 270M), every WordNet sense, inflection, a/an, names kept, and properties on shipped data."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from perturbations.adjective import AdjectiveSwap, in_common_use
from perturbations.base import apply_edits
from perturbations.judged import ANTONYM_MAX_DROP, get_kind_judge
from perturbations.language.articles import article_for
from perturbations.language.senses import antonym_sense_share, wordnet_antonyms, wordnet_synonyms
from suites.harness.strategies import seeds, shipped_sentences

pytestmark = pytest.mark.slow  # every row runs the judge's language model

# input -> (synonym variant or None, antonym variant or None); more rows in perturbations/adjective/examples.py
TABLE = [
    # the judge accepts no synonym of these short sentences at its operating point ("big" for "large" reads
    # as valid, but its p_valid stays under the adjective's threshold): precision first, so no invariant
    ("X is a cheap restaurant near Y.", None, "X is an expensive restaurant near Y."),
    ("The rooms are large.", None, "The rooms are small."),
    ("X is a large restaurant .", None, "X is a small restaurant ."),
    ("It has an expensive menu.", None, "It has a cheap menu."),
    ("The service is fast.", None, "The service is slow."),
    ("The red car is fast.", None, "The red car is slow."),  # colours are not swapped
    ("The weather is wet.", None, "The weather is dry."),
    ("Cheap food here.", None, "Expensive food here."),
]

NO_ADJECTIVE = [
    "The hotel is cheaper.",  # no one-word comparative of "inexpensive" / "expensive"
    "Red Victorian is in the Haight.",  # part of a name
    "They have many rooms.",  # quantifier, not descriptive
    "He ran quickly.",
    "Where is it?",
    "Casa melissa is in little italy .",  # lower-cased place name
    "The hotel is in the financial district .",  # relational adjective: no synonym or antonym fits
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
        synonym_side = variant.meta["relation"] == "synonym"
        assert (variant.kind, variant.expectation) == ("adjective", "invariant" if synonym_side else "decrease")
        assert apply_edits(text, list(variant.edits)) == variant.text
        if synonym_side:
            assert get_kind_judge("adjective").accepts(variant.meta["p_valid"])
        else:
            assert variant.meta["logprob_change"] >= -ANTONYM_MAX_DROP


@pytest.mark.parametrize("text", NO_ADJECTIVE)
def test_skips_without_a_usable_adjective(swap, text):
    result = swap.apply(text, 0)
    assert result.variants == () and "adjective" in result.skipped


def test_a_synonym_of_another_sense_is_refused_though_it_fits_the_slot(swap):
    # "loud" fits "a ___ restaurant" as well as "cheap" does, but shares only cheap's rare tawdry sense
    assert "loud" in {w for w, _ in wordnet_synonyms("cheap", "a")}
    texts = [v.text for v in swap.apply("It is a cheap restaurant.", 0).variants]
    assert texts and not any("loud" in t for t in texts)
    from perturbations.constraints import MIN_SENSE_SHARE, SenseShare
    from perturbations.recipe import Candidate
    from rome.core.parsing import get_parser

    parsed = get_parser().parse_one("It is a cheap restaurant.")
    loud = [Candidate(3, "loud", "brassy.s.01", 3)]
    assert SenseShare(MIN_SENSE_SHARE).keep(parsed, loud) == []


def test_antonyms_are_direct_ones_of_any_sense_and_the_context_picks():
    assert {"heavy", "dark"} <= {w for w, _ in wordnet_antonyms("light", "a")}  # weight and brightness senses
    assert {"young", "new"} <= {w for w, _ in wordnet_antonyms("old", "a")}
    assert wordnet_antonyms("average", "a") == ()  # "abnormal" was the antonym of a satellite's head
    assert wordnet_antonyms("hard", "a") == (("soft", "soft.a.02"),)  # "hard" is only a satellite of "difficult"
    assert antonym_sense_share("light", "heavy", "a") > antonym_sense_share("light", "dark", "a")


@pytest.mark.parametrize(("word", "model", "article"), [
    ("expensive", "a", "an"), ("cheap", "an", "a"), ("honest", "a", "an"), ("unique", "an", "a"),
    ("inexpensive", "A", "An"), ("same", "a", "the"),
])
def test_article_agreement(word, model, article):
    assert article_for(word, model) == article


def test_seed_chooses_the_adjective_reproducibly(swap):
    text = "The old hotel has a cheap room, a fast lift and a wet garden."
    runs = {seed: [v.text for v in swap.apply(text, seed).variants] for seed in range(4)}
    assert runs == {seed: [v.text for v in swap.apply(text, seed).variants] for seed in range(4)}
    assert len({tuple(v) for v in runs.values()}) > 1  # different seeds pick different adjectives


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
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
        if variant.meta["relation"] == "antonym":  # never a word few writers use in place of a common one
            assert in_common_use(variant.meta["replacement"], variant.meta["word"]), variant.meta
    assert [v.text for v in swap.apply(sentence, seed).variants] == [v.text for v in result.variants]


#: NL-Augmenter style: (text, require_both) -> the swapped adjective, or None when nothing may be swapped
NAME_TABLE = [
    ("Little nepal is a cheap restaurant .", False, "cheap"),  # "little" belongs to the name (capitalised)
    ("The big 4 restaurant is expensive .", False, "expensive"),
    ("There is a large hotel near little italy .", False, "large"),  # the first adjective is one
    ("There is no hotel in little italy .", False, None),  # the only adjective is part of a name
    ("There is a cheap hotel in inner richmond .", False, "cheap"),  # a lower-cased name WordNet lists only capitalised
    ("The hotel is in lower pacific heights .", False, None),  # a proper noun between the adjective and its noun
    ("X is a large restaurant .", True, None),  # no synonym the judge accepts: nothing when both are required
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


def test_the_judge_and_the_bound_key_the_fingerprint():
    from perturbations.judged import judge_description
    from suites.harness.spec import perturbation_fingerprint

    described = AdjectiveSwap().describe()
    assert described["synonym"]["judge"] == judge_description("adjective")
    assert described["antonym"]["max_drop"] == ANTONYM_MAX_DROP
    assert perturbation_fingerprint(AdjectiveSwap(antonym_max_drop=3.0)) != perturbation_fingerprint(AdjectiveSwap())
    assert perturbation_fingerprint(AdjectiveSwap(min_sense_share=0.1)) != perturbation_fingerprint(AdjectiveSwap())
    with pytest.raises(ValueError):
        AdjectiveSwap(antonym_max_drop=-1.0)
