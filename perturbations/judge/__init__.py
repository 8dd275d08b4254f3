"""The perturbations' judge: how likely a careful reader finds a meaning-kept variant valid.

``p_valid`` is a calibrated probability (same meaning, natural English) from a small logistic model over
a pre-trained language model's evidence (Gemma 3 270M base, :mod:`perturbations.judge.lm`) and WordNet /
wordfreq evidence (:mod:`perturbations.judge.features`). The model's weights (``weights.json``) were fitted
on development data only by the trainer of the checkout (``scripts/research/judge_train.py``, fitting with
:mod:`perturbations.judge.fit`); each kind's operating point
(``threshold``) was set on development data for an expected validity of at least 0.90
(docs/perturbations.md#judge).

    from perturbations.judge import get_judge, language_model
    judge = get_judge("textfooler")
    judge.p_valid([(original, variant)])   # -> [0.93]
    judge.accepts(0.93)                     # -> True at the kind's threshold

The changed words are found by diffing the two texts, so ``rome judge`` and the perturbations share one
code path. No metric under test reads this model (tests/test_perturbations_independence.py).
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
from collections.abc import Sequence
from importlib import resources
from typing import Any

from rome.core.errors import InputError

KINDS = ("textfooler", "adjective", "passive")
WEIGHTS_FILE = "weights.json"


def load_weights(path=None) -> dict[str, Any]:
    """The committed weights (or another file written by ``scripts/research/judge_train.py``)."""
    source = resources.files(__name__).joinpath(WEIGHTS_FILE) if path is None else path
    with open(str(source), encoding="utf-8") as handle:
        return json.load(handle)


def weights_hash(entry: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(entry, sort_keys=True).encode()).hexdigest()


class Judge:
    """One kind's judge: its features, the fitted logistic weights and the operating point."""

    def __init__(self, kind: str, weights: dict[str, Any]) -> None:
        if kind not in weights["kinds"]:
            raise InputError(f"unknown judge kind {kind!r} (kinds: {', '.join(sorted(weights['kinds']))})")
        entry = weights["kinds"][kind]
        self.kind = kind
        self.model_name = entry["model"]
        self.model = weights["models"][self.model_name]
        self.features = tuple(self.model["features"])
        self.lexical = self.model["lexical"]
        self.window = weights.get("window")
        self.threshold = float(entry["threshold"])
        self._hash = weights_hash({"model": self.model, "threshold": self.threshold, "window": self.window})
        self._gguf = weights["gguf_sha256"]

    def _probabilities(self, rows) -> list[float]:
        out = []
        for row in rows:
            z = self.model["intercept"]
            for x, mean, scale, coef in zip(row, self.model["mean"], self.model["scale"], self.model["coef"]):
                z += coef * (float(x) - mean) / scale
            out.append(1.0 / (1.0 + math.exp(-z)) if z > -700 else 0.0)
        return out

    def features_of(self, pairs: Sequence[tuple[str, str]]):
        """The feature rows (:mod:`perturbations.judge.features`) of each (original, variant) pair."""
        from perturbations.judge.features import compute
        from perturbations.judge.lm import language_model

        return compute(list(pairs), language_model(), lexical=self.lexical, window=self.window)

    def p_valid(self, pairs: Sequence[tuple[str, str]]) -> list[float]:
        """Calibrated P(a careful reader finds the variant valid) for each (original, variant) pair."""
        pairs = [(str(a), str(b)) for a, b in pairs]
        if not pairs:
            return []
        return self._probabilities(self.features_of(pairs))

    def accepts(self, p: float) -> bool:
        """Whether ``p`` reaches the kind's operating point."""
        return p >= self.threshold

    def describe(self) -> dict[str, Any]:
        """What a perturbation's ``describe()`` records so cached cases are re-keyed when the judge changes."""
        return {"judge": self.kind, "model": f"gemma-3-270m-q4_k_m@{self._gguf[:12]}",
                "weights": self._hash[:12], "threshold": self.threshold}


@functools.cache
def get_judge(kind: str) -> Judge:
    """The process-wide judge of a perturbation kind (``textfooler``, ``adjective``, ``passive``)."""
    if kind not in KINDS:
        raise InputError(f"unknown judge kind {kind!r} (kinds: {', '.join(KINDS)})")
    return Judge(kind, load_weights())


def language_model():
    """The judge's language model (:class:`perturbations.judge.lm.LanguageModel`, loaded once per process)."""
    from perturbations.judge.lm import language_model as load

    return load()


__all__ = ["KINDS", "Judge", "get_judge", "language_model", "load_weights"]
