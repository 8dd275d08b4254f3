"""Random word replacement: hand-written tables, reported edits, function words, both back-ends."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from require_extras import missing

from perturbations import thirdparty as _thirdparty
from perturbations.base import apply_edits
from perturbations.language.function_words import FUNCTION_WORDS
from perturbations.random_word import RandomWordReplacement
from suites.harness.strategies import shipped_sentences

BACKENDS = ["python", "textattack"]


def make(backend: str, **kwargs) -> RandomWordReplacement:
    if backend == "textattack" and not _thirdparty.available("textattack"):
        missing(f"textattack not importable: {_thirdparty.missing_reason('textattack')}")
    return RandomWordReplacement(use_textattack=backend == "textattack", **kwargs)


#: n_words larger than the content words: every word but the function words becomes AAA, whatever the seed
ALL_CONTENT_WORDS = [
    ("x is a cheap restaurant near y .", "AAA is a AAA AAA near AAA ."),
    ("The Eagle serves Italian food.", "The AAA AAA AAA AAA."),
    ("Is it the hotel?", "Is it the AAA?"),
    ("Hotel Drisco, in Pacific Heights, is pricey.", "AAA AAA, in AAA AAA, is AAA."),
]


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("text,expected", ALL_CONTENT_WORDS)
def test_every_content_word_replaced(backend, text, expected):
    result = make(backend, n_words=20).apply(text, 3)
    (variant,) = result.variants
    assert variant.text == expected
    assert variant.expectation == "decrease" and variant.kind == "random_word"
    assert variant.meta["backend"] == backend


@pytest.mark.parametrize("backend", BACKENDS)
def test_only_function_words_is_skipped(backend):
    result = make(backend).apply("it is that which was there", 0)
    assert not result.variants and "function words" in result.skipped


@pytest.mark.parametrize("backend", BACKENDS)
def test_content_words_of_a_stop_word_list_are_replaced(backend):
    """Frequency-based stop-word lists hold content words (scikit-learn's: fire, system, find, call); here
    they are words like any other."""
    (variant,) = make(backend, n_words=20).apply("They call the fire system.", 0).variants
    assert variant.text == "They AAA the AAA AAA."


@pytest.mark.parametrize("backend", BACKENDS)
def test_token_is_never_replaced_again(backend):
    result = make(backend).apply("AAA AAA AAA", 0)
    assert not result.variants


@pytest.mark.parametrize("backend", BACKENDS)
def test_two_words_at_seeded_positions(backend):
    p = make(backend)
    text = "The Eagle is a cheap coffee shop near Burger King in the city centre."
    outputs = {p.apply(text, seed).variants[0].text for seed in range(12)}
    assert len(outputs) > 3  # positions really vary with the seed
    for seed in range(12):
        variant = p.apply(text, seed).variants[0]
        assert variant.text.count("AAA") == 2
        assert p.apply(text, seed) == p.apply(text, seed)


def test_backends_agree_on_plain_text():
    """Same candidate words, same generator: TextAttack's and the pure-Python path choose alike."""
    ta, py = make("textattack"), make("python")
    text = "The Eagle is a cheap coffee shop near Burger King in the city centre."
    for seed in range(8):
        assert ta.apply(text, seed).variants[0].text == py.apply(text, seed).variants[0].text


def test_textattack_swap_is_a_textattack_word_swap():
    make("textattack")
    from textattack.shared import AttackedText
    from textattack.transformations import WordSwap

    from perturbations.random_word import _token_swap_class

    swap = _token_swap_class()("AAA")
    assert isinstance(swap, WordSwap)
    (out,) = swap(AttackedText("a cheap restaurant"), indices_to_modify={1})
    assert out.text == "a AAA restaurant"


@pytest.mark.parametrize("backend", BACKENDS)
def test_replaces_exactly_the_reported_words(backend):
    p = make(backend, n_words=3)
    stop = FUNCTION_WORDS

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(text=shipped_sentences())
    def run(text):
        result = p.apply(text, 11)
        for variant in result.variants:
            assert apply_edits(text, list(variant.edits)) == variant.text
            assert [e.old for e in variant.edits] == variant.meta["replaced"]
            assert all(e.new == "AAA" and text[e.start : e.end] == e.old for e in variant.edits)
            assert all(e.old.lower() not in stop for e in variant.edits)
            assert 1 <= len(variant.edits) <= 3
            # outside the edits, nothing changed
            rest = [text[a.end : b.start] for a, b in zip(variant.edits, variant.edits[1:])]
            assert all(piece in variant.text for piece in rest)

    run()


def test_bad_settings_are_rejected():
    with pytest.raises(ValueError):
        RandomWordReplacement(n_words=0)


#: NL-Augmenter style: the data's split suffixes, clitics and placeholder are never replaced
NOT_WORDS = [
    ("There are 182 hotel -s near X .", {"-s", "X"}),
    ("Frances is a moderate -ly priced restaurant .", {"-ly"}),
    ("The hotel 's name is the inn at the presidio .", {"'s"}),
    ("X is near X and X .", {"X"}),
]


@pytest.mark.parametrize("text,kept", NOT_WORDS)
@pytest.mark.parametrize("backend", [False, None])
def test_suffixes_clitics_and_placeholder_are_not_words(text, kept, backend):
    from perturbations.random_word import RandomWordReplacement

    for seed in range(15):
        result = RandomWordReplacement(use_textattack=backend).apply(text, seed)
        for variant in result.variants:
            for piece in kept:
                assert variant.text.count(piece) == text.count(piece), (seed, variant.text)
            assert "-AAA" not in variant.text and "'AAA" not in variant.text


@pytest.mark.parametrize("backend", BACKENDS)
def test_decomposed_accents_stay_with_their_letters(backend):
    """Issue "product" defect 15: "café" with a combining accent became "AAÁ" (the accent left on the token).

    Words are grapheme clusters: the letter and its marks are replaced together; the text is not normalised,
    so the untouched words keep their decomposed form byte for byte.
    """
    import random
    import unicodedata

    text = unicodedata.normalize("NFD", "Le café est très bon naïve.")
    (variant,) = make(backend, n_words=10).apply(text, random.Random(0)).variants
    assert len(variant.edits) >= 3  # café, très, naïve (at least) are replaced
    for edit in variant.edits:  # each edit spans whole grapheme clusters: no mark left outside it
        assert not (edit.end < len(text) and unicodedata.combining(text[edit.end])), edit
    assert "AAA\u0301" not in variant.text and "AAA\u0300" not in variant.text and "AAA\u0308" not in variant.text
    assert apply_edits(text, variant.edits) == variant.text
    one = make(backend, n_words=1).apply(unicodedata.normalize("NFD", "café"), random.Random(0)).variants[0]
    assert one.text == "AAA"
