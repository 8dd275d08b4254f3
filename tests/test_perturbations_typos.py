"""Typos on long texts: the work grows with the text's length, not its square."""

from __future__ import annotations

import difflib

import pytest

from perturbations.base import apply_edits
from perturbations.typos import Typos

SENTENCE = "the hotel serves cheap food near the river"


@pytest.mark.parametrize("slip", ["in_word", "space"])
def test_the_edits_are_diffed_around_the_slips_only(monkeypatch, slip):
    """The edits of a slip are found within its words: the pieces compared do not grow with the text (a diff
    of the whole text took 291 s on 100 KB)."""
    compared: list[int] = []
    real = difflib.SequenceMatcher

    def counting(isjunk, a, b, **kwargs):
        compared.append(len(a) * len(b))
        return real(isjunk, a, b, **kwargs)

    monkeypatch.setattr(difflib, "SequenceMatcher", counting)
    work = {}
    for copies in (10, 1000):
        text = " ".join([SENTENCE] * copies)
        compared.clear()
        (variant,) = Typos(3, slip).apply(text, 7).variants
        assert apply_edits(text, list(variant.edits)) == variant.text and variant.meta["n_typos"] == 3
        work[copies] = sum(compared)
    assert work[1000] <= 2 * work[10], work
