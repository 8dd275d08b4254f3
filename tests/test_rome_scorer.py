"""RoMe's scorers: the committed penalty form and the earlier monotone networks."""

from __future__ import annotations

import json

import numpy as np
import pytest

from rome.metric.scorer import PenaltyScorer, ScorerNet, load_scorer, read_scorer
from rome.training.scorer import average_logits, train_net, train_penalty

FEATURES = ("f_sem", "f_ted", "f_g")


def _toy_data(n: int = 200, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.random((n, 3))
    return x, (x.sum(axis=1) + rng.normal(0, 0.3, n) > 1.5).astype(float)


@pytest.mark.parametrize("feature_set", ["ted", "full"])
def test_committed_scorers_are_monotone_penalties_on_f_sem(feature_set):
    scorer = load_scorer(feature_set)
    assert isinstance(scorer, PenaltyScorer) and scorer.features[0] == "f_sem"
    assert (scorer.slopes > 0).all() and ((scorer.thresholds > 0) & (scorer.thresholds < 1)).all()
    grid = np.linspace(0, 1, 6)
    axes = np.meshgrid(*[grid] * len(scorer.features), indexing="ij")
    table = scorer(np.stack([a.ravel() for a in axes], axis=1)).reshape(axes[0].shape)
    assert ((table >= 0) & (table <= 1)).all()
    for axis in range(len(scorer.features)):
        assert (np.diff(table, axis=axis) >= -1e-12).all(), f"score falls as {scorer.features[axis]} rises"
    # above every threshold the score is F_sem itself: slope 1, nothing invented
    clean = np.column_stack([np.linspace(0.2, 1, 9)] + [np.ones(9)] * (len(scorer.features) - 1))
    assert np.allclose(scorer(clean), clean[:, 0])


def test_penalty_scorer_formula_round_trip_and_bad_weights(tmp_path):
    scorer = PenaltyScorer(("f_sem", "f_ted", "f_g"), [1, 2], [0.8, 0.5], [0.5, 2.0], {"version": "t"})
    x = np.array([[0.9, 0.6, 0.4], [0.9, 0.9, 0.9], [0.1, 0.0, 0.0]])
    # 0.9 - 0.5 * 0.2 - 2.0 * 0.1 = 0.6; no penalty; clipped at 0
    assert np.allclose(scorer(x), [0.6, 0.9, 0.0])
    scorer.save(tmp_path / "s.json")
    back = read_scorer(tmp_path / "s.json")
    assert isinstance(back, PenaltyScorer) and np.allclose(back(x), scorer(x)) and back.version == "t"
    with pytest.raises(ValueError, match="non-negative"):
        PenaltyScorer(("f_sem", "f_g"), [1], [0.5], [-1.0])
    with pytest.raises(ValueError, match="F_sem first"):
        PenaltyScorer(("f_g", "f_sem"), [0], [0.5], [1.0])
    with pytest.raises(ValueError, match="expects 3 features"):
        scorer(np.ones((1, 2)))


def test_train_penalty_learns_a_grammar_threshold_and_is_deterministic():
    """Negatives whose F_g is low, positives whose F_g is high: the fit must penalise low F_g only."""
    rng = np.random.default_rng(0)
    n = 300
    y = (rng.random(n) < 0.5).astype(float)
    f_g = np.where(y == 1, rng.uniform(0.6, 1.0, n), rng.uniform(0.0, 0.4, n))
    x = np.column_stack([rng.uniform(0.7, 0.9, n), np.ones(n), f_g])
    scorer = train_penalty(x, y, FEATURES, seed=0)
    assert scorer.slopes[1] > 0.5 and 0.3 < scorer.thresholds[1] <= 0.9
    assert scorer(x)[y == 0].mean() < scorer(x)[y == 1].mean() - 0.2
    again = train_penalty(x, y, FEATURES, seed=0)
    assert np.array_equal(again.thresholds, scorer.thresholds) and np.array_equal(again.slopes, scorer.slopes)


def test_averaged_network_scores_the_mean_of_its_members_log_odds():
    x, y = _toy_data()
    members = [train_net(x, y, FEATURES, seed=s, members=1) for s in (0, 1)]
    merged = average_logits(members)
    probe = np.random.default_rng(1).random((50, 3))
    expected = np.mean([m.logits(probe) for m in members], axis=0)
    assert np.allclose(merged.logits(probe), expected, atol=1e-12)
    assert np.allclose(merged(probe), 1 / (1 + np.exp(-expected)), atol=1e-12)
    assert not np.allclose(members[0](probe), members[1](probe)), "two seeds should differ"


def test_relu_log_odds_are_convex_in_a_feature_and_logistic_units_are_not():
    """Why the hidden units changed: with ReLU units and non-negative weights the log-odds can only
    get steeper as F_sem rises (convex); logistic units can level off where the features are high."""
    x, y = _toy_data(seed=2)
    line = np.column_stack([np.linspace(0, 1, 101), np.full(101, 0.5), np.full(101, 0.5)])
    relu = train_net(x, y, FEATURES, seed=0, members=1, activation="relu")
    logistic = train_net(x, y, FEATURES, seed=0, members=1, activation="sigmoid")
    assert (np.diff(relu.logits(line), 2) >= -1e-9).all()
    assert (np.diff(logistic.logits(line), 2) < -1e-6).any()


def test_a_weights_file_without_activation_is_the_first_rounds_relu_network(tmp_path):
    path = tmp_path / "scorer_ted.json"
    path.write_text(json.dumps({"features": ["f_sem", "f_ted"], "w1": [[1.0, 0.0], [0.0, 2.0]],
                                "b1": [-0.5, -0.5], "w2": [1.0, 1.0], "b2": 0.0}))
    net = ScorerNet.load(path)
    assert net.activation == "relu"
    # relu(0.2 - 0.5) = 0, relu(2 * 0.75 - 0.5) = 1 -> sigmoid(1)
    assert net(np.array([[0.2, 0.75]]))[0] == pytest.approx(1 / (1 + np.exp(-1.0)))
    net.activation = "sigmoid"
    hidden = 1 / (1 + np.exp(-np.array([-0.3, 1.0])))
    assert net(np.array([[0.2, 0.75]]))[0] == pytest.approx(1 / (1 + np.exp(-hidden.sum())))


def test_saved_activation_survives_a_round_trip_and_an_unknown_one_is_an_error(tmp_path):
    net = ScorerNet(("f_sem",), np.ones((1, 1)), np.zeros(1), np.ones(1), 0.0, activation="sigmoid")
    net.save(tmp_path / "n.json")
    assert ScorerNet.load(tmp_path / "n.json").activation == "sigmoid"
    net.activation = "tanh"
    with pytest.raises(ValueError, match="activation"):
        net(np.array([[0.5]]))
