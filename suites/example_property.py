"""Worked example: assert a metric's invariance under a NEW perturbation with hypothesis.

Run it with ``pytest suites/example_property.py``. To test your own perturbation:

1. write it as a :class:`perturbations.base.Perturbation` (``kind`` + ``_apply``) stating the
   expectation of its variants (``invariant`` or ``decrease``);
2. draw (reference, original) pairs from the shipped data with ``reference_pairs()`` and
   seeds with ``seeds()``;
3. call ``assert_invariant`` (or ``assert_decrease``) with a tolerance in the metric's own
   sensitivity: 0.1 = a tenth of what the metric takes off when the original is replaced by an
   unrelated shipped sentence, against the same reference (scale-free; ``unit="range"`` gives the
   paper's fraction of the declared range, 0.1 = 10 BLEU points = 0.1 BERTScore).

The two tests below keep the paper's range unit (``unit="range"``): they read "chrF moves by at most
10 of its 100 points". In the default unit chrF fails too: on *Does it has internet ?* dropping the
'?' costs 2.8 points, 0.18 of chrF's median drop to an unrelated text on that short reference (15.4).

hypothesis then searches the data for a pair that breaks the property and shrinks it.
Pairs the perturbation leaves unchanged are discarded (``assume``).
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings

from perturbations.base import Edit, Perturbation, Result, Variant
from suites.harness.properties import assert_invariant, reference_pairs, seeds


class DropFinalPunctuation(Perturbation):
    """Remove the sentence-final '.', '?' or '!': the meaning is unchanged."""

    kind = "drop_final_punctuation"

    def _apply(self, text: str, rng: random.Random) -> Result:
        stripped = text.rstrip()
        if not stripped or stripped[-1] not in ".?!":
            return Result.skip(text, "no final punctuation")
        cut = stripped[:-1].rstrip()
        edit = Edit(len(cut), len(stripped), stripped[len(cut):], "")
        return Result(text, (Variant(cut, self.kind, "invariant", (edit,)),))


EXAMPLES = settings(max_examples=60, deadline=None, derandomize=True)


@EXAMPLES
@given(pair=reference_pairs(), seed=seeds())
def test_chrf_ignores_final_punctuation(pair, seed):
    assert_invariant("chrf", DropFinalPunctuation(), pair.reference, pair.original, tolerance=0.1, seed=seed,
                     unit="range")


@pytest.mark.xfail(strict=True, reason="BLEU counts '.' as a token: on short sentences it moves > 5 points")
@EXAMPLES
@given(pair=reference_pairs(), seed=seeds())
def test_bleu_ignores_final_punctuation(pair, seed):
    assert_invariant("bleu", DropFinalPunctuation(), pair.reference, pair.original, tolerance=0.05, seed=seed,
                     unit="range")
