"""RoMe's final scorer (paper §3.4): a small network over the features, two forms.

* :class:`PenaltyScorer` (``"form": "penalty"``, the committed scorers):
  ``clip(F_sem - Σ_k λ_k · max(0, τ_k - x_k), 0, 1)``: the semantic similarity on its own
  scale, lowered by one learned hinge per other feature (TED-SE, grammar) when that feature
  falls below its learned threshold. A network with one ReLU unit per penalty feature and a
  skip connection of weight 1 from ``F_sem``; monotone in every feature.
* :class:`ScorerNet` (weights files without ``form``, the earlier form, kept for comparison): ``sigmoid(W2 · act(W1 · x + b1)
  + b2)`` with ``W1, W2 ≥ 0``, ``act`` logistic (``"sigmoid"``) or ``relu`` (no ``activation``
  field).

Why the penalty form (docs/rome.md, D7): a classifier of "same meaning or damaged" is steep
where human paraphrases and near-miss damage overlap, so it turned a passive's small ``F_sem``
drop into a score drop of several times that size; the penalty form keeps ``F_sem``'s slope of
1 and lets grammar and structure only subtract. Training (``python -m rome.training.scorer``)
uses torch; scoring needs only numpy, so the weights are a small JSON file with the features
they expect and how they were made.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from rome.core.errors import ResourceMissingError

WEIGHTS_DIR = Path(__file__).resolve().parent / "weights"
#: feature sets of the Table 5 rows that use the network
FEATURE_SETS = {"ted": ("f_sem", "f_ted"), "full": ("f_sem", "f_ted", "f_g"),
                "paper": ("f_sem", "f_ted", "f_g")}
#: hidden-unit activations a weights file may name
ACTIVATIONS = ("relu", "sigmoid")


def activate(h: np.ndarray, activation: str) -> np.ndarray:
    """The hidden layer's activation (numpy; the training code mirrors it in torch)."""
    if activation == "relu":
        return np.maximum(h, 0.0)
    if activation == "sigmoid":
        return 0.5 * (1.0 + np.tanh(0.5 * h))  # the logistic function, without overflow warnings
    raise ValueError(f"unknown scorer activation {activation!r}; expected one of {', '.join(ACTIVATIONS)}")


@dataclass
class ScorerNet:
    """Weights of the two-layer network, plus the metadata pinned in RoMe's signature."""

    features: tuple[str, ...]
    w1: np.ndarray  # (hidden, n_features)
    b1: np.ndarray  # (hidden,)
    w2: np.ndarray  # (hidden,)
    b2: float
    meta: dict[str, Any] = field(default_factory=dict)
    activation: str = "relu"

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """Scores in [0, 1] for a (n, n_features) matrix of feature values."""
        x = np.atleast_2d(np.asarray(x, dtype=np.float64))
        if x.shape[1] != len(self.features):
            raise ValueError(f"scorer expects {len(self.features)} features {self.features}, got {x.shape[1]}")
        return 1.0 / (1.0 + np.exp(-self.logits(x)))

    def logits(self, x: np.ndarray) -> np.ndarray:
        """The output unit's input (log-odds of "same meaning") for a (n, n_features) matrix."""
        x = np.atleast_2d(np.asarray(x, dtype=np.float64))
        return activate(x @ self.w1.T + self.b1, self.activation) @ self.w2 + self.b2

    @property
    def version(self) -> str:
        return str(self.meta.get("version", "unknown"))

    def save(self, path: Path) -> None:
        data = {
            "features": list(self.features),
            "activation": self.activation,
            "w1": self.w1.round(6).tolist(),
            "b1": self.b1.round(6).tolist(),
            "w2": self.w2.round(6).tolist(),
            "b2": round(float(self.b2), 6),
            "meta": self.meta,
        }
        from rome.core.files import write_text_whole

        write_text_whole(path, json.dumps(data, indent=1) + "\n")

    @classmethod
    def load(cls, path: Path) -> ScorerNet:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(
            features=tuple(data["features"]),
            w1=np.asarray(data["w1"], dtype=np.float64),
            b1=np.asarray(data["b1"], dtype=np.float64),
            w2=np.asarray(data["w2"], dtype=np.float64),
            b2=float(data["b2"]),
            meta=data.get("meta", {}),
            activation=data.get("activation", "relu"),
        )


@dataclass
class PenaltyScorer:
    """``clip(F_sem - Σ_k slopes_k · max(0, thresholds_k - x[:, columns_k]), 0, 1)``; ``F_sem`` is column 0."""

    features: tuple[str, ...]
    columns: np.ndarray  # (k,) int: the feature each hinge reads (never F_sem)
    thresholds: np.ndarray  # (k,) in [0, 1]
    slopes: np.ndarray  # (k,) >= 0
    meta: dict[str, Any] = field(default_factory=dict)

    form = "penalty"

    def __post_init__(self) -> None:
        self.columns = np.asarray(self.columns, dtype=np.int64)
        self.thresholds = np.asarray(self.thresholds, dtype=np.float64)
        self.slopes = np.asarray(self.slopes, dtype=np.float64)
        if self.features[0] != "f_sem" or (self.columns < 1).any() or (self.columns >= len(self.features)).any():
            raise ValueError(f"penalty scorer: F_sem first and hinges on the other features, got {self.features} "
                             f"and columns {self.columns.tolist()}")
        if (self.slopes < 0).any():
            raise ValueError("penalty scorer: slopes must be non-negative (the score may not rise as a feature falls)")

    def penalty(self, x: np.ndarray) -> np.ndarray:
        """What grammar and structure subtract from ``F_sem`` for each row of ``x``."""
        x = np.atleast_2d(np.asarray(x, dtype=np.float64))
        return np.maximum(self.thresholds - x[:, self.columns], 0.0) @ self.slopes

    def __call__(self, x: np.ndarray) -> np.ndarray:
        x = np.atleast_2d(np.asarray(x, dtype=np.float64))
        if x.shape[1] != len(self.features):
            raise ValueError(f"scorer expects {len(self.features)} features {self.features}, got {x.shape[1]}")
        return np.clip(x[:, 0] - self.penalty(x), 0.0, 1.0)

    @property
    def version(self) -> str:
        return str(self.meta.get("version", "unknown"))

    def save(self, path: Path) -> None:
        data = {"form": self.form, "features": list(self.features), "columns": self.columns.tolist(),
                "thresholds": self.thresholds.round(6).tolist(), "slopes": self.slopes.round(6).tolist(),
                "meta": self.meta}
        from rome.core.files import write_text_whole

        write_text_whole(path, json.dumps(data, indent=1) + "\n")

    @classmethod
    def load(cls, path: Path) -> PenaltyScorer:
        data = json.loads(path.read_text(encoding="utf-8"))
        return cls(tuple(data["features"]), data["columns"], data["thresholds"], data["slopes"], data.get("meta", {}))


Scorer = ScorerNet | PenaltyScorer


def read_scorer(path: Path) -> Scorer:
    """A weights file of either form (``"form": "penalty"``, or a network)."""
    form = json.loads(path.read_text(encoding="utf-8")).get("form", "network")
    return PenaltyScorer.load(path) if form == "penalty" else ScorerNet.load(path)


def weights_path(feature_set: str) -> Path:
    return WEIGHTS_DIR / f"scorer_{feature_set}.json"


def load_scorer(feature_set: str) -> Scorer:
    """The committed scorer for ``"ted"`` (F_sem, F_ted), ``"full"`` (+ F_g) or ``"paper"`` (``rome/paper``'s
    network over its own three features)."""
    path = weights_path(feature_set)
    if not path.exists():
        raise ResourceMissingError(
            f"RoMe scorer weights {path.name} are missing; train them with `python -m rome.training.scorer`"
            + (" --form paper" if feature_set == "paper" else "")
            + (" (needs the grammar classifier's weights first)" if feature_set != "ted" else "")
        )
    return read_scorer(path)


def grammar_fingerprint() -> str:
    """The committed grammar weights (file name and hash), recorded in a scorer trained on their F_g.

    The full scorer is trained on one classifier's F_g; RoMe's signature shows both the loaded
    classifier and this record, so a mismatch after the classifier is retrained is visible.
    """
    from rome.metric.grammar import weights_fingerprint

    return weights_fingerprint()
