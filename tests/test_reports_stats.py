"""Correlations, bootstrap and Williams test against cases worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reports import stats
from rome.core.errors import InputError


def test_spearman_hand_computed():
    # d = (-1, 1, -1, 1, 0), sum d^2 = 4: rho = 1 - 6*4 / (5*(25-1)) = 0.8
    rho, _ = stats.coefficient([1, 2, 3, 4, 5], [2, 1, 4, 3, 5], "spearman")
    assert rho == pytest.approx(0.8)


def test_pearson_hand_computed():
    # deviations (-1,0,1) and (-1,1,0): cov sum 1, variances 2 and 2 -> r = 0.5
    r, _ = stats.coefficient([1, 2, 3], [1, 3, 2], "pearson")
    assert r == pytest.approx(0.5)


def test_kendall_hand_computed():
    # 6 pairs, one discordant (items 2 and 3): tau = (5 - 1) / 6
    tau, _ = stats.coefficient([1, 2, 3, 4], [1, 3, 2, 4], "kendall")
    assert tau == pytest.approx(2 / 3)


def test_constant_side_is_undefined_not_an_error():
    value, p = stats.coefficient([1, 1, 1, 1], [1, 2, 3, 4])
    assert math.isnan(value) and math.isnan(p)


@pytest.mark.parametrize("x,y", [([1, 2], [1, 2]), ([1, 2, 3], [1, 2]), ([1, float("nan"), 3], [1, 2, 3])])
def test_bad_input_is_an_input_error(x, y):
    with pytest.raises(InputError):
        stats.coefficient(x, y)


def test_resampled_spearman_hand_computed():
    x, y = [1, 2, 3, 4], [1, 3, 2, 4]
    indices = np.array([[0, 1, 2, 3], [0, 0, 1, 1], [0, 1, 2, 2], [0, 0, 0, 0]])
    got = stats.resampled_coefficients(x, y, "spearman", indices)
    # row 1: the sample itself (d = 0,1,-1,0 -> 1 - 12/60); row 2: (1,1,2,2) vs (1,1,3,3) -> 1;
    # row 3: ranks (1,2,3.5,3.5) vs (1,4,2.5,2.5) -> cov 1.5 / sqrt(4.5*4.5) = 1/3; row 4: constant
    np.testing.assert_allclose(got[:3], [0.8, 1.0, 1 / 3])
    assert np.isnan(got[3])
    # percentiles of the finite values (1/3, 0.8, 1) at 25% and 75%, linear interpolation
    low, high = stats.percentile_interval(got, confidence=0.5)
    assert low == pytest.approx((1 / 3 + 0.8) / 2)
    assert high == pytest.approx(0.9)


def test_resampled_pearson_and_kendall_match_scipy_row_by_row():
    rng = np.random.default_rng(1)
    x, y = rng.normal(size=30), rng.normal(size=30)
    indices = stats.bootstrap_indices(30, 20, seed=3)
    for method in ("pearson", "kendall", "spearman"):
        got = stats.resampled_coefficients(x, y, method, indices)
        want = [stats.coefficient(x[row], y[row], method)[0] for row in indices]
        np.testing.assert_allclose(got, want, atol=1e-12)


def test_kendall_pair_matrix_path_equals_scipy_with_heavy_ties(monkeypatch):
    rng = np.random.default_rng(4)
    x, y = rng.integers(1, 7, size=60).astype(float), rng.integers(1, 4, size=60) / 2
    indices = stats.bootstrap_indices(60, 40, seed=9)
    fast = stats.resampled_coefficients(x, y, "kendall", indices)
    monkeypatch.setattr(stats, "KENDALL_MATRIX_LIMIT", 0)  # force the scipy loop
    slow = stats.resampled_coefficients(x, y, "kendall", indices)
    np.testing.assert_allclose(fast, slow, atol=1e-12)


def test_bootstrap_is_seeded_and_draws_from_default_rng():
    indices = stats.bootstrap_indices(7, 5, seed=42)
    np.testing.assert_array_equal(indices, np.random.default_rng(42).integers(0, 7, size=(5, 7)))
    x, y = np.arange(50.0), np.sin(np.arange(50.0))
    a = stats.correlate(x, y, "spearman", n_resamples=200, seed=5)
    b = stats.correlate(x, y, "spearman", n_resamples=200, seed=5)
    c = stats.correlate(x, y, "spearman", n_resamples=200, seed=6)
    assert (a.ci_low, a.ci_high) == (b.ci_low, b.ci_high)
    assert (a.ci_low, a.ci_high) != (c.ci_low, c.ci_high)
    assert a.ci_low <= a.value <= a.ci_high


def test_bootstrap_ci_of_a_monotone_sample_is_one_and_counts_degenerate_resamples():
    result = stats.correlate([1, 2, 3], [2, 4, 9], "spearman", n_resamples=300, seed=0)
    assert (result.ci_low, result.ci_high) == (1.0, 1.0)
    # a resample of 3 items is constant with probability 3/27
    assert 0 < result.degenerate < 300 * 0.25


def test_williams_hand_computed_steiger_case_a():
    # psych::r.test(103, .4, .5, .1) (Steiger 1980 case A): K = 1-.16-.25-.01+2*.4*.5*.1 = 0.62,
    # t = -0.1*sqrt(102*1.1) / sqrt(2*0.62*102/100 + 0.45^2 * 0.9^3) = -0.8913, df = 100, p2 = 0.375
    res = stats.williams_test(0.4, 0.5, 0.1, 103)
    expected_t = -0.1 * math.sqrt(102 * 1.1) / math.sqrt(2 * 0.62 * 102 / 100 + 0.45**2 * 0.9**3)
    assert res.t == pytest.approx(expected_t)
    assert res.t == pytest.approx(-0.8913, abs=1e-4)
    assert res.df == 100
    assert res.p_two_sided == pytest.approx(0.375, abs=0.001)
    assert res.p_one_sided == pytest.approx(1 - res.p_two_sided / 2)


def test_williams_is_antisymmetric_and_significant_for_a_large_gap():
    a = stats.williams_test(0.6, 0.2, 0.3, 200)
    b = stats.williams_test(0.2, 0.6, 0.3, 200)
    assert a.t == pytest.approx(-b.t)
    assert a.p_one_sided < 0.001 < 0.999 < b.p_one_sided
    with pytest.raises(InputError):
        stats.williams_test(1.2, 0.1, 0.1, 50)
    with pytest.raises(InputError):
        stats.williams_test(0.1, 0.1, 0.1, 3)


def test_williams_matrix_prefers_the_metric_closer_to_humans():
    rng = np.random.default_rng(0)
    human = rng.normal(size=300)
    good, bad = human + rng.normal(scale=0.5, size=300), human + rng.normal(scale=3.0, size=300)
    matrix = stats.williams_matrix({"good": good, "bad": bad}, human, "pearson")
    assert matrix[("good", "bad")].p_one_sided < 0.01
    assert matrix[("bad", "good")].p_one_sided > 0.99


def test_wilson_interval_is_one_function_for_pass_rates_and_validity():
    from reports import validity

    assert validity.wilson_interval is stats.wilson_interval
    low, high = stats.wilson_interval(144, 160)
    assert (round(low, 3), round(high, 3)) == (0.844, 0.938)  # by hand: 0.8906 -+ 0.0469


def test_exact_mcnemar_hand_computed():
    # 8 cases only A passes, 1 only B, 11 both: p = 2 * P(X <= 1 | n=9, 1/2) = 2 * 10 / 512
    a = [True] * 8 + [False] + [True] * 11
    b = [False] * 8 + [True] + [True] * 11
    test = stats.mcnemar_exact(a, b)
    assert (test.n, test.a_only, test.b_only) == (20, 8, 1)
    assert test.p_value == pytest.approx(20 / 512)
    assert test.reading("A", "B") == "A leads" and test.reading("A", "B", alpha=0.01) == "tie"
    same = stats.mcnemar_exact([True, False], [True, False])
    assert same.p_value == 1.0 and same.reading("A", "B") == "tie"
    assert stats.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
