"""RoMe's final scorer (paper §3.4): a two-layer feed-forward network over the features.

``f(F_sem, F_ted[, F_g]) -> [0, 1]``: ``sigmoid(W2 · act(W1 · x + b1) + b2)`` with ``W1, W2 ≥ 0``,
``act`` the logistic function (``"sigmoid"``, the committed networks) or ``relu`` (weights files
without an ``activation`` field, the first round's). Training (``python -m rome.training.scorer``)
uses torch; scoring needs only numpy, so the weights are stored as a small JSON file with the
features they expect and how they were made.
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
FEATURE_SETS = {"ted": ("f_sem", "f_ted"), "full": ("f_sem", "f_ted", "f_g")}
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
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")

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


def weights_path(feature_set: str) -> Path:
    return WEIGHTS_DIR / f"scorer_{feature_set}.json"


def load_scorer(feature_set: str) -> ScorerNet:
    """The committed network for ``"ted"`` (F_sem, F_ted) or ``"full"`` (+ F_g)."""
    path = weights_path(feature_set)
    if not path.exists():
        raise ResourceMissingError(
            f"RoMe scorer weights {path.name} are missing; train them with `python -m rome.training.scorer`"
            + (" (needs the grammar classifier's weights first)" if feature_set == "full" else "")
        )
    return ScorerNet.load(path)


def grammar_fingerprint() -> str:
    """The committed grammar weights (file name and hash), recorded in a scorer trained on their F_g.

    The full scorer is trained on one classifier's F_g; RoMe's signature shows both the loaded
    classifier and this record, so a mismatch after the classifier is retrained is visible.
    """
    from rome.metric.grammar import weights_fingerprint

    return weights_fingerprint()
