"""scripts/rome_dev.py's read-outs on a small hand-made development set (real suite checks)."""

from __future__ import annotations

import numpy as np
import pytest
from project_scripts import load_script


@pytest.fixture(scope="module")
def rome_dev():
    return load_script("rome_dev")


DATA = {
    # passive_form's invariance check, its tolerance read in the range unit: |variant - original| <= 0.1 passes
    "suites": {"passive_form": [("a", "invariant", "R", "o1", "v1"), ("b", "invariant", "R", "o2", "v2")]},
    # (id, category, severity, reference, good, bad); the base row is left out of the mean
    "demetr": [(1, "minor_x", "minor", "R", "g1", "b1"), (2, "minor_x", "minor", "R", "g2", "b2"),
               (1, "major_y", "major", "R", "g1", "b1"), (1, "base_z", "base", "R", "g1", "b1")],
    "train": [],
    "test": [("g1", "R", 1), ("b1", "R", 0), ("g2", "R", 1), ("b2", "R", 0)],
}
SCORES = {"o1": 0.9, "v1": 0.88, "o2": 0.9, "v2": 0.7, "g1": 0.8, "b1": 0.6, "g2": 0.5, "b2": 0.5}


def test_bench_reads_suites_demetr_and_auc(rome_dev):
    pairs = rome_dev.all_pairs(DATA)
    assert set(pairs) == {(h, "R") for h in SCORES}
    bench = rome_dev.Bench(DATA, pairs, np.array([SCORES[h] for h, _ in pairs]))
    assert bench.suite_rates() == {"passive_form:invariant": 0.5}
    # minor_x: 1 of 2 right (g2 ties b2: a tie is an error); major_y: 1 of 1 -> mean of categories 0.75
    assert bench.demetr() == pytest.approx(0.75)
    assert bench.demetr(parity=0) == pytest.approx(0.0)  # id 2 only
    assert bench.auc() == pytest.approx(0.625)  # 2 wins and a tie of 4 positive-negative pairs
