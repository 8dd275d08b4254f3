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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from suites.harness.checks import CaseCheck, CaseScores, MetricInfo

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

    def case_passes(self, info: MetricInfo, scores: CaseScores) -> bool:
        return prefers(info, scores.original, scores.variant)

    def badness(self, info: MetricInfo, scores: CaseScores) -> float:
        return -margin(info, scores.original, scores.variant)

    def requirement(self, metric: str) -> str:
        scope = []
        if self.severity is not None:
            scope.append("severity " + "/".join(sorted(self.severity)))
        if self.categories is not None:
            scope.append("categories " + ", ".join(sorted(self.categories)))
        where = f" ({'; '.join(scope)})" if scope else ""
        return (f"good scores strictly above bad (ties fail), for >= {self.min_pass_rate:.0%} of "
                f"'{self.expectation}' cases{where}")
