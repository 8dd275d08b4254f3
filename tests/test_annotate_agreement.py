"""Cohen's and Fleiss' κ against hand-computed values, and the agreement report."""

from __future__ import annotations

import pytest

from reports.annotate.agreement import POOLED, agreement, cohen_kappa, fleiss_kappa, format_report
from reports.annotate.store import Rating
from rome.core.errors import InputError


def test_cohen_kappa_hand_computed():
    # p_o = 7/10; marginals A (3, 3, 4), B (3, 5, 2) -> p_e = (9 + 15 + 8) / 100 = 0.32
    a = [1, 1, 2, 2, 3, 3, 3, 2, 1, 3]
    b = [1, 2, 2, 2, 3, 3, 2, 2, 1, 1]
    assert cohen_kappa(a, b) == pytest.approx((0.7 - 0.32) / (1 - 0.32), abs=1e-12)
    assert cohen_kappa(a, a) == pytest.approx(1.0)


def test_fleiss_kappa_hand_computed():
    # P_i = 1, 1/3, 1/3, 1 -> P = 2/3; each rating used 4 times of 12 -> P_e = 1/3; κ = (2/3-1/3)/(2/3)
    matrix = [[3, 3, 3], [1, 2, 2], [2, 2, 3], [1, 1, 1]]
    assert fleiss_kappa(matrix) == pytest.approx(0.5, abs=1e-12)


def test_fleiss_kappa_wikipedia_example_with_more_categories():
    # the worked example on Wikipedia's "Fleiss' kappa" page (10 subjects, 14 raters, 5 categories): 0.210
    counts = [[0, 0, 0, 0, 14], [0, 2, 6, 4, 2], [0, 0, 3, 5, 6], [0, 3, 9, 2, 0], [2, 2, 8, 1, 1],
              [7, 7, 0, 0, 0], [3, 2, 6, 3, 0], [2, 5, 3, 2, 2], [6, 5, 2, 1, 0], [0, 2, 2, 3, 7]]
    matrix = [[cat + 1 for cat, n in enumerate(row) for _ in range(n)] for row in counts]
    assert fleiss_kappa(matrix) == pytest.approx(0.2099, abs=1e-4)


def test_undefined_kappa_is_none_not_nan():
    assert cohen_kappa([3, 3, 3], [3, 3, 3]) is None
    assert fleiss_kappa([[2, 2, 2], [2, 2, 2]]) is None


def rows_from(table: dict[str, dict[str, tuple[int, int, int]]]) -> list[Rating]:
    return [Rating(case, who, dict(zip(("fluency", "semantics", "grammar"), scores)), False, "h", "t")
            for case, by in table.items() for who, scores in by.items()]


def test_two_annotators_report_cohen_per_criterion_and_pooled():
    a = [1, 1, 2, 2, 3, 3, 3, 2, 1, 3]
    b = [1, 2, 2, 2, 3, 3, 2, 2, 1, 1]
    table = {f"c{i}": {"alice": (x, 3, x), "bob": (y, 3, x)} for i, (x, y) in enumerate(zip(a, b))}
    table["only-alice"] = {"alice": (1, 1, 1)}
    report = agreement(rows_from(table))
    by = {c.criterion: c for c in report.criteria}
    assert report.annotators == ["alice", "bob"] and report.n_common == 10 and report.n_cases == 11
    assert by["fluency"].statistic == "cohen"
    assert by["fluency"].kappa == pytest.approx(0.38 / 0.68)
    assert by["grammar"].kappa == pytest.approx(1.0)
    assert by["semantics"].kappa is None  # everyone said 3
    assert by[POOLED].n_cases == 30
    # fluency 3 vs 1 on c9 is the only spread of 2
    assert [(d.case_id, d.criterion, d.ratings) for d in report.disagreements] == [
        ("c9", "fluency", {"alice": 3, "bob": 1})]
    assert len(agreement(rows_from(table), min_spread=1).disagreements) == 3
    text = format_report(report)
    assert "Cohen's κ" in text and "0.559" in text and "undefined" in text and "c9  fluency: alice=3, bob=1" in text


def test_three_annotators_report_fleiss_and_pairwise_cohen():
    matrix = [[3, 3, 3], [1, 2, 2], [2, 2, 3], [1, 1, 1]]
    table = {f"c{i}": {w: (r, r, r) for w, r in zip(("ann", "ben", "cy"), row)} for i, row in enumerate(matrix)}
    report = agreement(rows_from(table))
    fluency = report.criteria[0]
    assert fluency.statistic == "fleiss" and fluency.kappa == pytest.approx(0.5)
    assert set(fluency.pairwise) == {"ann / ben", "ann / cy", "ben / cy"}
    assert report.criteria[-1].criterion == POOLED and report.criteria[-1].kappa == pytest.approx(0.5)
    two = agreement(rows_from(table), annotators=["ben", "cy"])
    assert two.criteria[0].statistic == "cohen"
    assert report.to_json()["criteria"][0]["kappa"] == pytest.approx(0.5)


def test_agreement_input_errors():
    one = rows_from({"c1": {"alice": (1, 2, 3)}})
    with pytest.raises(InputError, match="at least two annotators"):
        agreement(one)
    with pytest.raises(InputError, match="no ratings by 'zed'"):
        agreement(one, annotators=["alice", "zed"])
    disjoint = rows_from({"c1": {"alice": (1, 2, 3)}, "c2": {"bob": (1, 2, 3)}})
    with pytest.raises(InputError, match="no case was rated by all"):
        agreement(disjoint)
    with pytest.raises(InputError, match="min-spread"):
        agreement(rows_from({"c1": {"a": (1, 1, 1), "b": (1, 1, 1)}}), min_spread=3)
