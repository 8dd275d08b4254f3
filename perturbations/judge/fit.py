"""How the judge's weights are fitted from feature rows: pure numpy / scikit-learn, no model, no data files.

Kept in the package (not only in the trainer, ``scripts/research/judge_train.py``) so the product's tests can
check that the committed ``weights.json`` follows from the committed feature rows
(``scripts/research/data/judge_features.json.gz``) without importing a script and without the language model.

Per model (lexical, sentence): the feature scales and logistic weights (L2, seeded) on the fit rows, then each
kind's threshold on out-of-fold probabilities (:data:`FOLDS` grouped folds), the lowest at which at least
:data:`MIN_ACCEPTED` accepted lines are at least :data:`TARGET` valid.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np

TARGET = 0.90
FOLDS = 5
C = 1.0
MIN_ACCEPTED = 10


def fit_model(X: np.ndarray, y: np.ndarray, seed: int) -> dict[str, Any]:
    """Standardised logistic regression; the scales are stored so judging needs no scikit-learn."""
    from sklearn.linear_model import LogisticRegression

    mean, scale = X.mean(axis=0), X.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=C, random_state=seed, max_iter=2000).fit((X - mean) / scale, y)
    return {"mean": mean.tolist(), "scale": scale.tolist(), "coef": model.coef_[0].tolist(),
            "intercept": float(model.intercept_[0])}


def predict(model: dict[str, Any], X: np.ndarray) -> np.ndarray:
    z = ((X - np.array(model["mean"])) / np.array(model["scale"])) @ np.array(model["coef"]) + model["intercept"]
    return 1.0 / (1.0 + np.exp(-z))


def out_of_fold(X: np.ndarray, y: np.ndarray, groups: Sequence[str], seed: int) -> np.ndarray:
    """Each row's probability from a model fitted without its group's fold (a threshold set on in-fold
    probabilities would be optimistic)."""
    names = sorted(set(groups))
    random.Random(f"{seed}:folds").shuffle(names)
    fold = {g: k % FOLDS for k, g in enumerate(names)}
    at = np.array([fold[g] for g in groups])
    p = np.zeros(len(y))
    for k in range(FOLDS):
        test = at == k
        p[test] = predict(fit_model(X[~test], y[~test], seed), X[test])
    return p


def operating_point(p: np.ndarray, y: np.ndarray, target: float = TARGET) -> float:
    """The lowest threshold at which at least :data:`MIN_ACCEPTED` lines are accepted and the accepted lines
    are at least ``target`` valid; 1.0 when there is none."""
    order = np.argsort(-p)
    best = 1.0
    hits = 0
    for n, i in enumerate(order, 1):
        hits += y[i]
        if n >= MIN_ACCEPTED and hits / n >= target and (n == len(order) or p[order[n]] < p[i]):
            best = float(p[i])
    return best


def fit_set(X: np.ndarray, y: np.ndarray, groups: Sequence[str], kinds: Sequence[str], seed: int
            ) -> tuple[dict[str, Any], dict[str, float], np.ndarray]:
    """One model's weights, each of its kinds' thresholds, and the out-of-fold probabilities they were set on.

    ``groups``: what a fold keeps together (``source:group``); ``kinds``: each row's perturbation kind."""
    model = fit_model(X, y, seed)
    oof = out_of_fold(X, y, groups, seed)
    at = np.array(kinds)
    thresholds = {kind: operating_point(oof[at == kind], y[at == kind]) for kind in dict.fromkeys(kinds)}
    return model, thresholds, oof
