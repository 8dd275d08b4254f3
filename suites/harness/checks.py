"""CheckList's test types (INV, DIR, MFT) for continuous metric scores, in scale-free units.

CheckList's ``Expect.inv`` compares predicted *labels* and passes any equal predictions,
so it cannot fail on a score that moves from 0.9 to 0.4. These checks compare numbers.

**Units.** A change is measured in the metric's own sensitivity on the same data, so that
an increasing affine map of a metric's scores (BERTScore's baseline rescaling, a score x 100,
a declared range of [0, 2] instead of [0, 1]) leaves every verdict unchanged, and metrics are
compared on robustness rather than on the units they happen to be printed in:

- ``"control"`` (default): 1 unit = the metric's median drop, over the suite's cases, from
  the original to a meaning-destroying control (another case's original, unrelated to this
  reference) scored against the same reference: DEMETR's sensitivity ratio per metric.
- ``"spread"``: 1 unit = the standard deviation of the metric's scores of the originals.
- ``"quantile"``: the change in the empirical distribution of the originals' scores
  (mid-rank ECDF, 0..1); unchanged by *any* increasing map of the scores.
- ``"range"``: the RoMe paper's check, a fraction of the declared ``score_range`` (TER: of 100).
  **Scale-dependent**: kept for the paper's numbers, not for comparing metrics.

All units follow the metric's quality direction ("a decrease" is a rise for TER). Any threshold
can be given per metric (``tolerance={"bleu": 0.1, "*": 0.05}``).
"""

from __future__ import annotations

import abc
import bisect
import math
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rome.core.errors import InputError

Threshold = float | Mapping[str, float]

CONTROL, SPREAD, QUANTILE, RANGE = "control", "spread", "quantile", "range"
#: every unit a case check's thresholds can be written in
UNITS = (CONTROL, SPREAD, QUANTILE, RANGE)
#: units under which an increasing affine map of the scores changes no verdict
SCALE_FREE = (CONTROL, SPREAD, QUANTILE)
DEFAULT_UNIT = CONTROL
UNIT_LABELS = {
    CONTROL: "of the metric's median drop to an unrelated text",
    SPREAD: "standard deviations of the originals' scores",
    QUANTILE: "of the originals' score distribution",
    RANGE: "of the range (scale-dependent)",
}
#: comparisons with a threshold forgive this much float rounding (in the check's unit)
EPSILON = 1e-9


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval of a proportion (``(0, 1)`` when ``n`` is 0); statsmodels' implementation.

    The one interval of a pass rate or a validity card: unlike the normal approximation it stays
    inside [0, 1] and is not zero-width at 0 % or 100 %.
    """
    if n == 0:
        return 0.0, 1.0
    if not 0 <= successes <= n:
        raise InputError(f"a proportion needs 0 <= successes <= n, got {successes} of {n}")
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(successes, n, alpha=1 - confidence, method="wilson")
    return float(low), float(high)


@dataclass(frozen=True)
class MetricInfo:
    """What a check needs to know about a metric (taken from its :class:`Metric` class)."""

    name: str
    higher_is_better: bool = True
    score_range: tuple[float, float] = (0.0, 1.0)
    #: a reference-free metric cannot see that a control text is unrelated to the reference
    needs_reference: bool = True

    @classmethod
    def of(cls, name: str, metric: Any) -> MetricInfo:
        return cls(name, bool(metric.higher_is_better), tuple(metric.score_range),
                   bool(getattr(metric, "needs_reference", True)))

    @property
    def scale(self) -> float:
        low, high = self.score_range
        width = high - low
        return width if math.isfinite(width) and width > 0 else 100.0

    @property
    def sign(self) -> float:
        return 1.0 if self.higher_is_better else -1.0

    def quality_change(self, original: float, variant: float) -> float:
        """(variant - original) as a fraction of the range; positive = the metric likes it more."""
        return self.sign * (variant - original) / self.scale

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
    """One case's scores under one metric (``control``: its meaning-destroying control, if scored)."""

    case_id: str
    original: float
    variant: float
    control: float | None = None

    @property
    def delta(self) -> float:
        return self.variant - self.original


@dataclass(frozen=True)
class Calibration:
    """One metric's sensitivity on one suite's data: what one unit of each scale-free unit is.

    Fitted on every case of the suite (each case once), not on one check's cases, so all checks
    of a suite share the unit. Sizes are in the metric's raw units, in its
    quality direction; ``None`` when undefined (no controls scored, a constant metric, or a
    metric that does not score the originals above the unrelated controls).
    """

    info: MetricInfo
    control_drop: float | None
    spread: float | None
    #: the originals' scores in the quality direction, sorted (the quantile unit's reference)
    originals: tuple[float, ...] = ()
    n_controls: int = 0

    @classmethod
    def fit(cls, info: MetricInfo, cases: Sequence[CaseScores]) -> Calibration:
        originals = sorted(info.sign * c.original for c in cases)
        drops = [info.sign * (c.original - c.control) for c in cases if c.control is not None]
        control_drop = statistics.median(drops) if drops else None
        spread = statistics.stdev(originals) if len(originals) >= 2 else None
        return cls(info, control_drop if control_drop and control_drop > 0 else None,
                   spread if spread and spread > 0 else None, tuple(originals), len(drops))

    def size(self, unit: str) -> float | None:
        """One unit in the metric's raw units (``None`` for the quantile unit and when undefined).

        A reference-free metric scores a text alone, so an unrelated text is no damage to it and the
        control unit is measured in its spread instead (still scale-free; ``describe`` says so)."""
        if unit == CONTROL and not self.info.needs_reference:
            return self.spread
        if unit == CONTROL:
            return self.control_drop
        if unit == SPREAD:
            return self.spread
        if unit == RANGE:
            return self.info.scale
        return None

    def _ecdf(self, quality: float) -> float:
        """Mid-rank position of ``quality`` among the originals' scores, 0..1."""
        below = bisect.bisect_left(self.originals, quality)
        equal = bisect.bisect_right(self.originals, quality) - below
        return (below + 0.5 * equal) / len(self.originals)

    def change(self, unit: str, original: float, variant: float) -> float | None:
        """variant - original in ``unit``, in the quality direction (positive = the metric likes it more)."""
        if unit == RANGE:
            return self.info.quality_change(original, variant)
        if unit == QUANTILE:
            if not self.originals:
                return None
            return self._ecdf(self.info.sign * variant) - self._ecdf(self.info.sign * original)
        size = self.size(unit)
        return None if size is None else self.info.sign * (variant - original) / size

    def defined(self, unit: str) -> bool:
        return bool(self.originals) if unit == QUANTILE else self.size(unit) is not None

    def describe(self) -> dict[str, Any]:
        return {"control_drop": self.control_drop, "spread": self.spread, "n_originals": len(self.originals),
                "n_controls": self.n_controls,
                **({} if self.info.needs_reference else {"control_unit": "spread (reference-free metric)"})}


#: fewer cases than this whose check unit cannot be measured give no verdict rather than an error
FEW_CASES = 5


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
    unit: str = RANGE
    #: one unit in the metric's raw units (None: quantile unit, or undefined)
    unit_size: float | None = None
    median_delta: float | None = None
    #: median change in the check's unit, quality direction (positive = the metric likes the variant more)
    median_change: float | None = None
    #: per case, the change in the check's unit
    changes: dict[str, float] = field(default_factory=dict)

    @property
    def passes(self) -> int:
        return sum(self.outcomes.values())

    def summary(self) -> dict[str, Any]:
        return {"pass_rate": self.pass_rate, "n": self.n, "passes": self.passes, "mean_delta": self.mean_delta,
                "median_delta": self.median_delta, "worst_delta": self.worst_delta, "unit": self.unit,
                "unit_size": self.unit_size, "median_change": self.median_change, "passed": self.passed,
                "requirement": self.requirement}


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
    """A check over the suite's cases whose perturbation states ``expectation``.

    ``unit`` says what its thresholds are fractions of (:data:`UNITS`); the default is scale-free.
    Verdicts take a :class:`Calibration` fitted on the suite's data; without one, it is fitted on
    the cases given (which must carry control scores for the ``control`` unit).
    """

    expectation: str
    unit: str

    def _validate(self) -> None:
        super()._validate()
        if self.unit not in UNITS:
            raise InputError(f"check {self.name!r}: unit must be one of {', '.join(UNITS)}, got {self.unit!r}")

    def applies_to(self, expectation: str) -> bool:
        return expectation == self.expectation

    def change(self, info: MetricInfo, scores: CaseScores, calibration: Calibration | None = None) -> float | None:
        """The case's change in this check's unit (quality direction)."""
        calibration = calibration or Calibration.fit(info, [scores])
        return calibration.change(self.unit, scores.original, scores.variant)

    @abc.abstractmethod
    def case_passes(self, info: MetricInfo, scores: CaseScores, calibration: Calibration | None = None) -> bool: ...

    @abc.abstractmethod
    def badness(self, info: MetricInfo, scores: CaseScores, calibration: Calibration | None = None) -> float:
        """How far a case is from passing (larger = worse); orders the worst cases."""

    def evaluate(self, info: MetricInfo, cases: Sequence[CaseScores], n_worst: int = 5,
                 calibration: Calibration | None = None) -> CheckResult:
        calibration = calibration or Calibration.fit(info, cases)
        if 0 < len(cases) < FEW_CASES and not calibration.defined(self.unit):
            # a handful of cases (a judged kind that changed few texts) may have no control to measure the
            # unit by: no verdict, not an error
            return CheckResult(check=self.name, metric=info.name, n=len(cases), pass_rate=None, passed=None,
                               mean_delta=None, worst_delta=None, requirement=self.requirement(info.name),
                               unit=self.unit)
        if cases and not calibration.defined(self.unit):
            raise InputError(f"check {self.name!r}: the {self.unit!r} unit is undefined for {info.name} on these "
                             f"cases ({_undefined_reason(self.unit)})")
        outcomes = {c.case_id: bool(self.case_passes(info, c, calibration)) for c in cases}
        changes = {c.case_id: calibration.change(self.unit, c.original, c.variant) for c in cases}
        ranked = sorted(cases, key=lambda c: self.badness(info, c, calibration), reverse=True)
        n = len(cases)
        rate = sum(outcomes.values()) / n if n else None
        return CheckResult(
            check=self.name, metric=info.name, n=n, pass_rate=rate,
            passed=bool(rate >= self.min_pass_rate) if n else None,
            mean_delta=sum(c.delta for c in cases) / n if n else None,
            worst_delta=ranked[0].delta if n else None,
            requirement=self.requirement(info.name), outcomes=outcomes,
            worst=[{"case_id": c.case_id, "original": c.original, "variant": c.variant, "delta": c.delta,
                    "change": changes[c.case_id], "passed": outcomes[c.case_id]} for c in ranked[:n_worst]],
            unit=self.unit, unit_size=calibration.size(self.unit) if self.unit != QUANTILE else None,
            median_delta=statistics.median(c.delta for c in cases) if n else None,
            median_change=statistics.median(changes.values()) if n else None, changes=changes,
        )


def _undefined_reason(unit: str) -> str:
    if unit == CONTROL:
        return "no control scores, or the metric does not score the originals above unrelated texts"
    return "fewer than two distinct originals" if unit == SPREAD else "no originals"


def _units_text(unit: str) -> str:
    return UNIT_LABELS[unit]


@dataclass(frozen=True)
class Invariant(CaseCheck):
    """INV: the score may move by at most ``tolerance`` (in ``unit``), or stay above ``floor``.

    ``floor`` (a position in the declared range, 0 worst .. 1 best) forgives a change when the
    perturbed text still scores well; it is scale-dependent, so it needs ``unit="range"``.
    """

    tolerance: Threshold = 0.1
    floor: Threshold | None = None
    min_pass_rate: float = 0.9
    name: str = "invariant"
    expectation: str = "invariant"
    unit: str = DEFAULT_UNIT

    def __post_init__(self) -> None:
        self._validate()
        if self.floor is not None and self.unit != RANGE:
            raise InputError(f"check {self.name!r}: floor= is a position in the declared range (scale-dependent); "
                             "give unit='range' with it")

    def case_passes(self, info: MetricInfo, scores: CaseScores, calibration: Calibration | None = None) -> bool:
        change = self.change(info, scores, calibration)
        if change is None:
            return False
        if abs(change) <= threshold_for(self.tolerance, info.name) + EPSILON:
            return True
        return self.floor is not None and info.quality(scores.variant) >= threshold_for(self.floor, info.name)

    def badness(self, info: MetricInfo, scores: CaseScores, calibration: Calibration | None = None) -> float:
        change = self.change(info, scores, calibration)
        return math.inf if change is None else abs(change)

    def requirement(self, metric: str) -> str:
        rule = f"|change| <= {threshold_for(self.tolerance, metric):g} {_units_text(self.unit)}"
        if self.floor is not None:
            rule += f" or variant >= {threshold_for(self.floor, metric):g} of the range"
        return f"{rule}, for >= {self.min_pass_rate:.0%} of '{self.expectation}' cases"


@dataclass(frozen=True)
class Decrease(CaseCheck):
    """DIR: the score must get worse by at least ``margin`` (in ``unit``)."""

    margin: Threshold = 0.05
    min_pass_rate: float = 0.9
    name: str = "decrease"
    expectation: str = "decrease"
    unit: str = DEFAULT_UNIT

    def __post_init__(self) -> None:
        self._validate()

    def case_passes(self, info: MetricInfo, scores: CaseScores, calibration: Calibration | None = None) -> bool:
        change = self.change(info, scores, calibration)
        return change is not None and change <= -threshold_for(self.margin, info.name) + EPSILON

    def badness(self, info: MetricInfo, scores: CaseScores, calibration: Calibration | None = None) -> float:
        change = self.change(info, scores, calibration)
        return math.inf if change is None else change

    def requirement(self, metric: str) -> str:
        return (f"score drops by >= {threshold_for(self.margin, metric):g} {_units_text(self.unit)}, "
                f"for >= {self.min_pass_rate:.0%} of '{self.expectation}' cases")


@dataclass(frozen=True)
class MinimumFunctionality(Check):
    """MFT: fixed (reference, hypothesis) pairs must score above ``above`` / below ``below``.

    Bounds are positions in the declared range (0 worst .. 1 best): an absolute bound, so this
    check is **scale-dependent** by nature (it asks "does this pair score well?", not "how much
    does the score move?"). In the summary, ``mean_delta`` and
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
        return f"fixed pairs score {bound} of the range (scale-dependent), for >= {self.min_pass_rate:.0%} of them"
