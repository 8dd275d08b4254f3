"""Property-test helpers: strategies over the shipped data, assertions that pass and fail."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from perturbations.base import Perturbation, Result, Variant
from suites.harness.data import SourcePair
from suites.harness.properties import (
    assert_decrease,
    assert_invariant,
    perturbations,
    reference_pairs,
    seeds,
    sentences,
)


class ReverseWords(Perturbation):
    kind = "reverse"

    def _apply(self, text: str, rng: random.Random) -> Result:
        words = text.split()
        if len(words) < 3:
            return Result.skip(text, "too short")
        return Result(text, (Variant(" ".join(reversed(words)), self.kind, "invariant"),
                             Variant(" ".join(["AAA"] * len(words)), self.kind, "decrease")))


FAST = settings(max_examples=25, deadline=None, derandomize=True, database=None)


@FAST
@given(pair=reference_pairs(), sentence=sentences(), seed=seeds())
def test_strategies_draw_real_pairs_from_the_same_mr(pair, sentence, seed):
    assert isinstance(pair, SourcePair) and pair.reference != pair.original
    assert sentence.strip() and 0 <= seed < 2**32


@FAST
@given(pair=reference_pairs(datasets=("sfhotel",)))
def test_assert_decrease_passes_when_the_text_is_destroyed(pair):
    assert_decrease("chrf", ReverseWords(), pair.reference, pair.original, margin=0.05)


def test_assert_invariant_fails_and_shows_the_texts():
    @FAST
    @given(pair=reference_pairs(datasets=("bagel",)), seed=seeds())
    def bleu_ignores_word_order(pair, seed):
        assert_invariant("bleu", ReverseWords(), pair.reference, pair.original, tolerance=0.05, seed=seed)

    with pytest.raises(AssertionError, match=r"bleu invariant failed .*\n  reference: .*\n  original: "):
        bleu_ignores_word_order()


@FAST
@given(spec=perturbations("passive", k=st.integers(1, 3)))
def test_perturbation_specs_strategy_draws_options(spec):
    assert spec.kind == "passive" and set(spec.options) == {"k"} and 1 <= spec.options["k"] <= 3
