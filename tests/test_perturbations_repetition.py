"""Repetition: hand-written table (one possible word, so the output is fixed) and seeded properties."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings

from perturbations.base import apply_edits
from perturbations.repetition import Repetition
from suites.harness.strategies import seeds, shipped_sentences

# (options, text, expected): texts with one content word, so only the count is random (fixed by options)
TABLE = [
    ({"min_repeats": 4, "max_repeats": 4}, "Elon", "Elon elon elon elon elon"),
    ({"min_repeats": 2, "max_repeats": 2}, "the tesla.", "the tesla tesla tesla."),
    ({"min_repeats": 1, "max_repeats": 1}, "It is cheap!", "It is cheap cheap!"),
    ({"min_repeats": 2, "max_repeats": 2}, "NASA is it", "NASA NASA NASA is it"),
    ({"min_repeats": 3, "max_repeats": 3}, "Is it X ?", "Is it it it it X ?"),  # the placeholder X is no word
    ({"min_repeats": 2, "max_repeats": 2}, "the a an", None),  # only stop words: any of them, repeated
    ({"min_repeats": 1, "max_repeats": 1}, "Café", "Café café"),
]


@pytest.mark.parametrize(("options", "text", "expected"), TABLE, ids=[t for _, t, _ in TABLE])
def test_table(options, text, expected):
    result = Repetition(**options).apply(text, 0)
    (variant,) = result.variants
    assert (variant.kind, variant.expectation) == ("repetition", "decrease")
    if expected is not None:
        assert variant.text == expected
    assert apply_edits(text, list(variant.edits)) == variant.text


def test_phrases_of_several_words():
    rep = Repetition(min_repeats=2, max_repeats=2, max_phrase_words=3)
    phrases = {rep.apply("Elon Musk founded Tesla Motors", seed).variants[0].meta["phrase"] for seed in range(40)}
    assert any(len(p.split()) > 1 for p in phrases)
    assert all(len(p.split()) <= 3 for p in phrases)


@pytest.mark.parametrize("text", ["", "   ", "...", "?!", "—"])
def test_nothing_to_repeat(text):
    result = Repetition().apply(text, 0)
    assert result.variants == () and result.skipped


def test_bad_options_are_refused():
    with pytest.raises(ValueError):
        Repetition(min_repeats=3, max_repeats=2)
    with pytest.raises(ValueError):
        Repetition(max_phrase_words=0)


@settings(max_examples=200, deadline=None)
@given(sentence=shipped_sentences(), seed=seeds())
def test_adds_only_copies_of_the_reported_phrase(sentence, seed):
    result = Repetition(max_phrase_words=2).apply(sentence, seed)
    (variant,) = result.variants
    (edit,) = variant.edits
    phrase, repeats = variant.meta["phrase"], variant.meta["repeats"]
    assert edit.old == "" and edit.start == edit.end
    assert sentence[edit.start - len(phrase) : edit.start] == phrase
    assert edit.new.split() and all(w.lower() == w0.lower() for w, w0 in zip(edit.new.split(), (phrase.split() * repeats)))
    assert len(variant.text.split()) == len(sentence.split()) + repeats * len(phrase.split())
    assert re.sub(r"\s+", " ", variant.text) == variant.text or "  " in sentence or "\n" in sentence
    assert Repetition(max_phrase_words=2).apply(sentence, seed).variants == result.variants


@pytest.mark.parametrize("text", ["There are 182 hotel -s near X .", "Frances is a moderate -ly priced place .",
                                  "The hotel 's name is X ."])
def test_suffixes_clitics_and_placeholder_are_never_repeated(text):
    from perturbations.repetition import Repetition

    for seed in range(20):
        (variant,) = Repetition().apply(text, seed).variants
        assert variant.meta["phrase"] not in ("s", "ly", "X"), variant.text
        assert " s s" not in variant.text and "X X" not in variant.text


def test_a_text_of_only_suffixes_and_placeholders_is_skipped():
    from perturbations.repetition import Repetition

    assert Repetition().apply("X -s X", 0).skipped == "no word to repeat"


def test_a_decomposed_accent_stays_on_its_letter():
    """A word is a run of grapheme clusters: "cafe" + U+0301 is repeated whole, never as "cafe cafe" before
    the accented original."""
    text = "cafe\u0301 noir"
    (variant,) = Repetition(min_repeats=2, max_repeats=2).apply(text, 0).variants
    assert variant.text in ("cafe\u0301 cafe\u0301 cafe\u0301 noir", "cafe\u0301 noir noir noir"), variant.text
    for seed in range(20):
        (variant,) = Repetition().apply(text, seed).variants
        assert all(not word.startswith("\u0301") for word in variant.text.split()), variant.text
        assert variant.text.count("cafe") == variant.text.count("cafe\u0301"), variant.text
