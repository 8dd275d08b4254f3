"""CheckList's test types (INV, DIR, MFT) for continuous metric scores.

CheckList's ``Expect.inv`` compares predicted *labels* and passes any equal predictions,
so it cannot fail on a score that moves from 0.9 to 0.4. These checks compare numbers.

Thresholds are written in units of the metric's range, in the metric's own quality
direction, so one ``tolerance=0.05`` means "5 points" for BLEU (0-100) and "0.05" for
BERTScore (0-1), and "a decrease" is a rise for TER (lower is better). An unbounded range
(TER) is measured in units of 100, its usual percentage scale. Any threshold can be given
per metric (``tolerance={"bleu": 0.1, "*": 0.05}``).
"""

from __future__ import annotations

import abc
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rome.core.errors import InputError

Threshold = float | Mapping[str, float]


@dataclass(frozen=True)
class MetricInfo:
    """What a check needs to know about a metric (taken from its :class:`Metric` class)."""

    name: str
    higher_is_better: bool = True
    score_range: tuple[float, float] = (0.0, 1.0)

    @classmethod
    def of(cls, name: str, metric: Any) -> MetricInfo:
        return cls(name, bool(metric.higher_is_better), tuple(metric.score_range))

    @property
    def scale(self) -> float:
        low, high = self.score_range
        width = high - low
        return width if math.isfinite(width) and width > 0 else 100.0

    def quality_change(self, original: float, variant: float) -> float:
        """(variant - original) as a fraction of the range; positive = the metric likes it more."""
        sign = 1.0 if self.higher_is_better else -1.0
        return sign * (variant - original) / self.scale

    def quality(self, score: float) -> float:
        """The score's position in the range, 0 = worst and 1 = best."""
        low = self.score_range[0]
        position = (score - low) / self.scale
        return position if self.higher_is_better else 1.0 - position


def threshold_for(value: Threshold, metric: str) -> float:
    if isinstance(value, Mapping):
        if metric in value:
            return float(value[metric])
        if "*" in value:
            return float(value["*"])
        raise InputError(f"no threshold for metric {metric!r} (give one or a '*' default)")
    return float(value)


@dataclass(frozen=True)
class CaseScores:
    """One case's scores under one metric."""

    case_id: str
    original: float
    variant: float

    @property
    def delta(self) -> float:
        return self.variant - self.original


@dataclass
class CheckResult:
    """The outcome of one check for one metric: per-case verdicts and their summary."""

    check: str
    metric: str
    #: None when no case of the sample has the check's expectation
    passed: bool | None
    pass_rate: float | None
    n: int
    mean_delta: float | None
    worst_delta: float | None
    requirement: str
    outcomes: dict[str, bool] = field(default_factory=dict)
    worst: list[dict[str, Any]] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        return {"pass_rate": self.pass_rate, "n": self.n, "mean_delta": self.mean_delta,
                "worst_delta": self.worst_delta, "passed": self.passed, "requirement": self.requirement}


class Check(abc.ABC):
    """A named requirement; the suite passes it when ``min_pass_rate`` of its items pass."""

    name: str
    min_pass_rate: float

    def _validate(self) -> None:
        if not 0.0 <= self.min_pass_rate <= 1.0:
            raise InputError(f"check {self.name!r}: min_pass_rate must be in [0, 1]")

    @abc.abstractmethod
    def requirement(self, metric: str) -> str:
        """The rule in words, shown in failures and summaries."""


class CaseCheck(Check):
    """A check over the suite's cases whose perturbation states ``expectation``."""

    expectation: str

    def applies_to(self, expectation: str) -> bool:
        return expectation == self.expectation

    @abc.abstractmethod
    def case_passes(self, info: MetricInfo, scores: CaseScores) -> bool: ...

    @abc.abstractmethod
    def badness(self, info: MetricInfo, scores: CaseScores) -> float:
        """How far a case is from passing (larger = worse); orders the worst cases."""

    def evaluate(self, info: MetricInfo, cases: Sequence[CaseScores], n_worst: int = 5) -> CheckResult:
        outcomes = {c.case_id: bool(self.case_passes(info, c)) for c in cases}
        ranked = sorted(cases, key=lambda c: self.badness(info, c), reverse=True)
        n = len(cases)
        rate = sum(outcomes.values()) / n if n else None
        return CheckResult(
            check=self.name, metric=info.name, n=n, pass_rate=rate,
            passed=bool(rate >= self.min_pass_rate) if n else None,
            mean_delta=sum(c.delta for c in cases) / n if n else None,
            worst_delta=ranked[0].delta if n else None,
            requirement=self.requirement(info.name), outcomes=outcomes,
            worst=[{"case_id": c.case_id, "original": c.original, "variant": c.variant, "delta": c.delta,
                    "passed": outcomes[c.case_id]} for c in ranked[:n_worst]],
        )


@dataclass(frozen=True)
class Invariant(CaseCheck):
    """INV: the score may move by at most ``tolerance`` (of the range), or stay above ``floor``.

    ``floor`` (a position in the range, 0 worst .. 1 best) forgives a change when the
    perturbed text still scores well; ``None`` means the tolerance alone decides.
    """

    tolerance: Threshold = 0.05
    floor: Threshold | None = None
    min_pass_rate: float = 0.9
    name: str = "invariant"
    expectation: str = "invariant"

    def __post_init__(self) -> None:
        self._validate()

    def case_passes(self, info: MetricInfo, scores: CaseScores) -> bool:
        change = abs(info.quality_change(scores.original, scores.variant))
        if change <= threshold_for(self.tolerance, info.name) + 1e-12:
            return True
        return self.floor is not None and info.quality(scores.variant) >= threshold_for(self.floor, info.name)

    def badness(self, info: MetricInfo, scores: CaseScores) -> float:
        return abs(info.quality_change(scores.original, scores.variant))

    def requirement(self, metric: str) -> str:
        rule = f"|change| <= {threshold_for(self.tolerance, metric):g} of the range"
        if self.floor is not None:
            rule += f" or variant >= {threshold_for(self.floor, metric):g} of the range"
        return f"{rule}, for >= {self.min_pass_rate:.0%} of '{self.expectation}' cases"


@dataclass(frozen=True)
class Decrease(CaseCheck):
    """DIR: the score must get worse by at least ``margin`` (of the range)."""

    margin: Threshold = 0.05
    min_pass_rate: float = 0.9
    name: str = "decrease"
    expectation: str = "decrease"

    def __post_init__(self) -> None:
        self._validate()

    def case_passes(self, info: MetricInfo, scores: CaseScores) -> bool:
        return info.quality_change(scores.original, scores.variant) <= -threshold_for(self.margin, info.name)

    def badness(self, info: MetricInfo, scores: CaseScores) -> float:
        return info.quality_change(scores.original, scores.variant)

    def requirement(self, metric: str) -> str:
        return (f"score drops by >= {threshold_for(self.margin, metric):g} of the range, "
                f"for >= {self.min_pass_rate:.0%} of '{self.expectation}' cases")


@dataclass(frozen=True)
class MinimumFunctionality(Check):
    """MFT: fixed (reference, hypothesis) pairs must score above ``above`` / below ``below``.

    Bounds are positions in the range (0 worst .. 1 best). In the summary, ``mean_delta`` and
    ``worst_delta`` are the raw distance of the scores to the bound (positive = passing side).
    """

    name: str
    pairs: tuple[tuple[str, str], ...]
    above: Threshold | None = None
    below: Threshold | None = None
    min_pass_rate: float = 1.0

    def __post_init__(self) -> None:
        object.__setattr__(self, "pairs", tuple((str(r), str(h)) for r, h in self.pairs))
        if (self.above is None) == (self.below is None):
            raise InputError(f"check {self.name!r}: give exactly one of above= or below=")
        if not self.pairs:
            raise InputError(f"check {self.name!r}: needs at least one (reference, hypothesis) pair")
        self._validate()

    def margin(self, info: MetricInfo, score: float) -> float:
        """Distance to the bound in the metric's raw units; positive = passing side."""
        if self.above is not None:
            return (info.quality(score) - threshold_for(self.above, info.name)) * info.scale
        return (threshold_for(self.below, info.name) - info.quality(score)) * info.scale

    def evaluate(self, info: MetricInfo, scores: Sequence[float], n_worst: int = 5) -> CheckResult:
        scores = [float(s) for s in scores]
        margins = [self.margin(info, s) for s in scores]
        outcomes = {f"{self.name}-{i}": m >= 0 for i, m in enumerate(margins)}
        order = sorted(range(len(scores)), key=lambda i: margins[i])
        rate = sum(outcomes.values()) / len(scores)
        return CheckResult(
            check=self.name, metric=info.name, n=len(scores), pass_rate=rate,
            passed=bool(rate >= self.min_pass_rate), mean_delta=sum(margins) / len(margins),
            worst_delta=margins[order[0]], requirement=self.requirement(info.name), outcomes=outcomes,
            worst=[{"case_id": f"{self.name}-{i}", "reference": self.pairs[i][0], "variant": self.pairs[i][1],
                    "score": scores[i], "margin": margins[i], "passed": margins[i] >= 0}
                   for i in order[:n_worst]],
        )

    def requirement(self, metric: str) -> str:
        if self.above is not None:
            bound = f">= {threshold_for(self.above, metric):g}"
        else:
            bound = f"<= {threshold_for(self.below, metric):g}"
        return f"fixed pairs score {bound} of the range, for >= {self.min_pass_rate:.0%} of them"
