"""Minimal pairs: the metric must score the good text *strictly* above the bad one (DEMETR's accuracy).

A pair is a case whose ``original`` is the good hypothesis and whose ``variant`` is the bad
one, both against the same reference; challenge sets give such cases straight from their
data, and any perturbation whose variants are expected to ``decrease`` gives them too.

:func:`prefers` is the one definition of "got it right", used by the :class:`Prefers` check
and by ``rome challenge``'s accuracy table: ``q(good) > q(bad)`` where ``q`` is the score in
the metric's quality direction (TER's lower-is-better is flipped), and a tie fails. Two
scores closer than :data:`TIE_TOLERANCE` of the metric's range are a tie: encoder metrics
compute in float32, and the same text embedded in two batches of different padding can
differ in the last bits (about 1e-7), which must not turn a true tie into a win or a loss.
The suite check measures that tie width in its unit (by default :data:`TIE_TOLERANCE` of the
metric's drop to an unrelated text, :mod:`suites.harness.checks`), so its verdicts do not depend on
the declared range either; ``rome challenge`` keeps the range's width (its published accuracies).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from suites.harness.checks import DEFAULT_UNIT, QUANTILE, Calibration, CaseCheck, CaseScores, MetricInfo

#: two scores closer than this fraction of the metric's range are a tie (and a tie fails)
TIE_TOLERANCE = 1e-6


def margin(info: MetricInfo, good: float, bad: float) -> float:
    """How much better the good text scores, as a fraction of the range (positive = right way)."""
    return info.quality_change(bad, good)


def prefers(info: MetricInfo, good: float, bad: float) -> bool:
    """DEMETR's rule: the good text scores strictly better than the bad one; ties fail."""
    return margin(info, good, bad) > TIE_TOLERANCE


def is_tie(info: MetricInfo, good: float, bad: float) -> bool:
    return abs(margin(info, good, bad)) <= TIE_TOLERANCE


def _as_set(value: str | Sequence[str] | None) -> frozenset[str] | None:
    if value is None:
        return None
    return frozenset([value] if isinstance(value, str) else value)


@dataclass(frozen=True)
class Prefers(CaseCheck):
    """Pairwise accuracy: the original (good) scores strictly above the variant (bad), ties fail.

    ``severity`` and ``categories`` narrow the check to some cases of a challenge set (a
    case's category is its ``kind``); ``min_pass_rate`` is the accuracy required.
    """

    name: str = "prefers"
    min_pass_rate: float = 0.9
    severity: str | Sequence[str] | None = None
    categories: str | Sequence[str] | None = None
    expectation: str = "decrease"
    #: the unit of the tie width (``quantile``: any strict difference counts, no tie width)
    unit: str = DEFAULT_UNIT

    def __post_init__(self) -> None:
        object.__setattr__(self, "severity", _as_set(self.severity))
        object.__setattr__(self, "categories", _as_set(self.categories))
        self._validate()

    def applies_to_case(self, case: Any) -> bool:
        """The case's expectation, and its severity and category when the check names them."""
        if not self.applies_to(case.expectation):
            return False
        if self.severity is not None and getattr(case, "severity", "") not in self.severity:
            return False
        return self.categories is None or case.kind in self.categories

    def _margin(self, info: MetricInfo, scores: CaseScores, calibration: Calibration | None) -> float | None:
        """How much better the good text scores, in the unit's size (quantile: raw quality difference)."""
        calibration = calibration or Calibration.fit(info, [scores])
        if self.unit == QUANTILE:
            return info.sign * (scores.original - scores.variant)
        size = calibration.size(self.unit)
        return None if size is None else info.sign * (scores.original - scores.variant) / size

    def case_passes(self, info: MetricInfo, scores: CaseScores, calibration: Calibration | None = None) -> bool:
        found = self._margin(info, scores, calibration)
        return found is not None and found > (0.0 if self.unit == QUANTILE else TIE_TOLERANCE)

    def badness(self, info: MetricInfo, scores: CaseScores, calibration: Calibration | None = None) -> float:
        found = self._margin(info, scores, calibration)
        return float("inf") if found is None else -found

    def requirement(self, metric: str) -> str:
        scope = []
        if self.severity is not None:
            scope.append("severity " + "/".join(sorted(self.severity)))
        if self.categories is not None:
            scope.append("categories " + ", ".join(sorted(self.categories)))
        where = f" ({'; '.join(scope)})" if scope else ""
        return (f"good scores strictly above bad (ties fail), for >= {self.min_pass_rate:.0%} of "
                f"'{self.expectation}' cases{where}")
