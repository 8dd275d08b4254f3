"""Inter-annotator agreement per criterion: Cohen's κ for two annotators, Fleiss' κ for more.

The statistics come from scikit-learn (``cohen_kappa_score``) and statsmodels (``fleiss_kappa``);
this module only arranges the stored ratings into their inputs. κ is undefined when chance
agreement is 1 (everyone used one single rating): it is then reported as ``None``, never NaN.
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from reports.annotate import CRITERIA, RATINGS
from reports.annotate.store import Rating
from rome.core.errors import InputError

POOLED = "all criteria"


def cohen_kappa(first: Sequence[int], second: Sequence[int], labels: Sequence[int] = RATINGS) -> float | None:
    """Unweighted Cohen's κ of two annotators' ratings of the same cases (None when undefined);
    ``labels``: the ratings there are (the 1-3 scale; a validity card's readers use 1 valid / 0 not)."""
    from sklearn.metrics import cohen_kappa_score

    first, second = [int(x) for x in first], [int(x) for x in second]
    if len(first) != len(second) or not first:
        raise ValueError("cohen_kappa needs two equally long, non-empty rating lists")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sklearn warns, then returns NaN, when κ is undefined
        value = float(cohen_kappa_score(first, second, labels=list(labels)))
    return None if math.isnan(value) else value


def fleiss_kappa(matrix: np.ndarray) -> float | None:
    """Fleiss' κ of a cases × annotators matrix of ratings 1-3 (None when undefined)."""
    from statsmodels.stats.inter_rater import aggregate_raters
    from statsmodels.stats.inter_rater import fleiss_kappa as sm_fleiss

    matrix = np.asarray(matrix, dtype=int)
    if matrix.ndim != 2 or matrix.shape[0] == 0 or matrix.shape[1] < 2:
        raise ValueError("fleiss_kappa needs a non-empty cases x annotators matrix with 2+ annotators")
    counts, _ = aggregate_raters(matrix, n_cat=None)
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore")
        value = float(sm_fleiss(counts, method="fleiss"))
    return None if math.isnan(value) or math.isinf(value) else value


@dataclass
class CriterionAgreement:
    criterion: str
    statistic: str  # "cohen" or "fleiss"
    kappa: float | None
    n_cases: int
    pairwise: dict[str, float | None] = field(default_factory=dict)  # "a / b" -> Cohen's κ, 3+ annotators


@dataclass
class Disagreement:
    case_id: str
    criterion: str
    ratings: dict[str, int]

    @property
    def spread(self) -> int:
        return max(self.ratings.values()) - min(self.ratings.values())


@dataclass
class AgreementReport:
    annotators: list[str]
    n_common: int  # cases rated by every annotator (the κ's are computed on these)
    n_cases: int  # cases rated by anyone
    criteria: list[CriterionAgreement]
    disagreements: list[Disagreement]
    min_spread: int

    def to_json(self) -> dict:
        return {"annotators": self.annotators, "n_common": self.n_common, "n_cases": self.n_cases,
                "criteria": [vars(c) for c in self.criteria], "min_spread": self.min_spread,
                "disagreements": [{**vars(d), "spread": d.spread} for d in self.disagreements]}


def _by_case(rows: Sequence[Rating], annotators: Sequence[str]) -> dict[str, dict[str, Rating]]:
    wanted = set(annotators)
    grouped: dict[str, dict[str, Rating]] = defaultdict(dict)
    for row in rows:
        if not row.skipped and row.annotator in wanted:
            grouped[row.case_id][row.annotator] = row
    return dict(sorted(grouped.items()))


def _agreement(matrix: np.ndarray, criterion: str, annotators: Sequence[str]) -> CriterionAgreement:
    if len(annotators) == 2:
        return CriterionAgreement(criterion, "cohen", cohen_kappa(matrix[:, 0], matrix[:, 1]), len(matrix))
    pairwise = {f"{annotators[i]} / {annotators[j]}": cohen_kappa(matrix[:, i], matrix[:, j])
                for i, j in itertools.combinations(range(len(annotators)), 2)}
    return CriterionAgreement(criterion, "fleiss", fleiss_kappa(matrix), len(matrix), pairwise)


def agreement(rows: Sequence[Rating], annotators: Sequence[str] | None = None, min_spread: int = 2) -> AgreementReport:
    """κ per criterion (and pooled over criteria) on the cases every annotator rated, plus the cases
    whose ratings of some criterion differ by ``min_spread`` or more among those who rated them."""
    present = sorted({r.annotator for r in rows if not r.skipped})
    chosen = list(annotators) if annotators else present
    absent = [a for a in chosen if a not in present]
    if absent:
        raise InputError(f"no ratings by {', '.join(map(repr, absent))} (annotators: {', '.join(present) or 'none'})")
    if len(chosen) < 2:
        raise InputError(f"agreement needs ratings by at least two annotators; found {len(chosen)} "
                         f"({', '.join(chosen) or 'none'})")
    if not 1 <= min_spread <= max(RATINGS) - min(RATINGS):
        raise InputError(f"--min-spread must be 1 or 2, got {min_spread}")
    by_case = _by_case(rows, chosen)
    common = [case for case, got in by_case.items() if len(got) == len(chosen)]
    if not common:
        raise InputError(f"no case was rated by all of {', '.join(chosen)}")
    cubes = {c: np.array([[by_case[case][a].scores[c] for a in chosen] for case in common]) for c in CRITERIA}
    results = [_agreement(cubes[c], c, chosen) for c in CRITERIA]
    results.append(_agreement(np.concatenate([cubes[c] for c in CRITERIA]), POOLED, chosen))
    flagged = [Disagreement(case, c, {a: r.scores[c] for a, r in got.items()})
               for case, got in by_case.items() if len(got) >= 2 for c in CRITERIA]
    flagged = [d for d in flagged if d.spread >= min_spread]
    return AgreementReport(chosen, len(common), len(by_case), results, flagged, min_spread)


def _kappa_text(value: float | None) -> str:
    return "undef." if value is None else f"{value:.3f}"


def format_report(report: AgreementReport, limit: int = 50) -> str:
    """Plain-text report for the terminal; with 3+ annotators, pairwise Cohen's κ columns too."""
    name = "Cohen's κ" if len(report.annotators) == 2 else "Fleiss' κ"
    pairs = list(report.criteria[0].pairwise)
    width = max([len(name), *map(len, pairs)]) + 2
    lines = [f"annotators: {', '.join(report.annotators)}",
             f"cases rated by all: {report.n_common} (of {report.n_cases} rated by anyone)", "",
             f"{'criterion':<14}" + "".join(h.rjust(width) for h in [name, *pairs])]
    for result in report.criteria:
        values = [result.kappa, *(result.pairwise[p] for p in pairs)]
        lines.append(f"{result.criterion:<14}" + "".join(_kappa_text(v).rjust(width) for v in values))
    if pairs:
        lines.append("(pairwise columns: Cohen's κ of each pair)")
    if any(r.kappa is None for r in report.criteria):
        lines.append("undef.: κ is undefined when a single rating was used throughout")
    lines += ["", f"large disagreements (ratings {report.min_spread}+ apart): {len(report.disagreements)}"]
    for item in report.disagreements[:limit]:
        shown = ", ".join(f"{a}={v}" for a, v in sorted(item.ratings.items()))
        lines.append(f"  {item.case_id}  {item.criterion}: {shown}")
    if len(report.disagreements) > limit:
        lines.append(f"  ... {len(report.disagreements) - limit} more (see --json)")
    return "\n".join(lines) + "\n"
