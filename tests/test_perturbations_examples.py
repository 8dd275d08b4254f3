"""Every kind's examples table (``perturbations/<kind>/examples.py``, NL-Augmenter style) in one test:
the input perturbed with the row's seed and options gives exactly the expected variants, or is skipped
with a reason; each variant is rebuilt by its edits. Real parser, WordNet and lemminflect."""

from __future__ import annotations

import importlib

import pytest

from perturbations.base import apply_edits
from perturbations.registry import available_perturbations, build_perturbation, perturbation_class

BUILT_IN = ("adjective", "contractions", "entity", "optional_that", "passive", "random_word", "repetition", "spelling",
            "textfooler", "typos")


def examples_of(kind: str):
    package = perturbation_class(kind).__module__
    return importlib.import_module(f"{package}.examples").EXAMPLES


ROWS = [(kind, n, row) for kind in BUILT_IN for n, row in enumerate(examples_of(kind))]


def test_every_built_in_kind_has_a_table_with_changes_and_skips():
    assert set(BUILT_IN) <= set(available_perturbations())
    for kind in BUILT_IN:
        rows = examples_of(kind)
        assert any(r.expected for r in rows) and any(not r.expected for r in rows), kind


@pytest.mark.parametrize("kind,n,row", ROWS, ids=[f"{k}-{n}" for k, n, _ in ROWS])
def test_example(kind, n, row):
    result = build_perturbation(kind, **row.options).apply(row.text, row.seed)
    got = tuple(v.text for v in result.variants)
    assert got == row.expected, f"{kind} row {n} ({row.why}): {row.text!r} -> {got}, skipped: {result.skipped}"
    if not row.expected:
        assert result.skipped
    for variant in result.variants:
        assert apply_edits(row.text, list(variant.edits)) == variant.text and variant.kind == kind
