"""Challenge-set accuracy (DEMETR's definition), bootstrap intervals and sensitivity, per category and severity.

For every item (reference, good, bad) and metric:

* **correct** when the metric scores ``good`` strictly above ``bad`` in its quality direction
  (TER flipped), ties failing: :func:`suites.harness.pairwise.prefers` (one definition for
  the suite check and this table).
* **accuracy** of a cell = correct items / items. Cells: one per category x metric, one per
  severity (``ALL:<severity>``, items of that severity pooled) and ``ALL`` (every item pooled).
* **95 % interval**: percentile bootstrap over the cell's items, seeded per cell (from the run's
  seed, the category and the metric, so a cell's interval does not depend on the other cells).
  Resampling n right/wrong outcomes with replacement gives Binomial(n, accuracy) / n, which is
  drawn directly (exact, and fast for 23k-item cells). An accuracy of 0 or 1 gives a zero-width
  interval, as any bootstrap does.
* **sensitivity** (DEMETR's relative sensitivity): the cell's mean score drop from good to bad,
  divided by its mean drop from good to the empty control ``"."`` scored against the same
  reference, sum(q(good) - q(bad)) / sum(q(good) - q(".")) with q the score in the quality
  direction. 1 = the perturbation costs as much as deleting the whole translation, 0 = nothing.
  The control is scored for every item, so a user's file needs no control file (for DEMETR it
  is exactly the ``base_id33_empty`` pair, scored once). Undefined (empty) when the metric
  does not score "." below the good texts on average (the denominator is not positive).
* **paired comparison** (``--compare A B``): per row, the exact McNemar test on the items one metric
  gets right and the other wrong (:func:`reports.stats.mcnemar_exact`), Holm-adjusted over the rows;
  a difference without a significant test is a tie. Accuracy is a strict comparison of two scores
  of one metric, so it is already unchanged by any increasing map of that metric's scores.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from reports.stats import PairedTest, mcnemar_exact
from rome.data.challenge import (  # noqa: F401 (CONTROL_TEXT, item_pairs: re-exported for the report's callers)
    ALL_SEVERITY,
    CONTROL_TEXT,
    ChallengeItem,
    category_severity,
    item_pairs,
    severity_rank,
)
from rome.data.challenge import RESERVED_CATEGORY as ALL
from suites.harness.checks import MetricInfo
from suites.harness.pairwise import TIE_TOLERANCE, is_tie, prefers

CSV_HEADER = ("category", "severity", "metric", "n", "accuracy")


@dataclass
class ItemScores:
    """One metric's scores of the items' good, bad and control pairs (aligned with the items)."""

    info: MetricInfo
    good: np.ndarray
    bad: np.ndarray
    control: np.ndarray

    def correct(self) -> np.ndarray:
        return np.array([prefers(self.info, g, b) for g, b in zip(self.good, self.bad)], dtype=bool)

    def ties(self) -> np.ndarray:
        return np.array([is_tie(self.info, g, b) for g, b in zip(self.good, self.bad)], dtype=bool)

    def quality(self, scores: np.ndarray) -> np.ndarray:
        sign = 1.0 if self.info.higher_is_better else -1.0
        return sign * scores / self.info.scale


@dataclass
class Cell:
    category: str
    severity: str
    metric: str
    n: int
    accuracy: float
    ci_low: float
    ci_high: float
    ties: int
    sensitivity: float | None

    def csv_row(self) -> list[str]:
        return [self.category, self.severity, self.metric, str(self.n), f"{self.accuracy:.6f}"]


@dataclass
class ChallengeResult:
    """Items, per-metric scores and the table's cells."""

    items: list[ChallengeItem]
    scores: dict[str, ItemScores]
    cells: list[Cell] = field(default_factory=list)

    @property
    def metrics(self) -> list[str]:
        return list(self.scores)

    def cell(self, category: str, metric: str) -> Cell | None:
        return next((c for c in self.cells if c.category == category and c.metric == metric), None)

    def row_labels(self) -> list[tuple[str, str]]:
        """(category, severity) of every row, in table order, without repeating metrics."""
        return list(dict.fromkeys((c.category, c.severity) for c in self.cells))


def item_scores(items: Sequence[ChallengeItem], pairs: Sequence[tuple[str, Any]], scores: np.ndarray,
                info: MetricInfo) -> ItemScores:
    """Look up each item's three pairs in the scored unique ``pairs``."""
    index = {pair: i for i, pair in enumerate(pairs)}

    def column(texts: list[str]) -> np.ndarray:
        return np.array([scores[index[(t, item.reference)]] for t, item in zip(texts, items)], dtype=np.float64)

    return ItemScores(info, column([i.good for i in items]), column([i.bad for i in items]),
                      column([CONTROL_TEXT] * len(items)))


def bootstrap_interval(n_correct: int, n: int, seed: int, key: str, resamples: int = 1000,
                       confidence: float = 0.95) -> tuple[float, float]:
    """Percentile bootstrap interval of an accuracy (resampled outcomes are Binomial(n, p) / n)."""
    if n == 0:
        return float("nan"), float("nan")
    rng = np.random.default_rng([seed, zlib.crc32(key.encode("utf-8"))])
    draws = rng.binomial(n, n_correct / n, size=resamples) / n
    tail = (1.0 - confidence) / 2 * 100
    low, high = np.percentile(draws, [tail, 100 - tail])
    return float(low), float(high)


def sensitivity(scores: ItemScores, mask: np.ndarray) -> float | None:
    """sum(q(good) - q(bad)) / sum(q(good) - q(".")) over the masked items; None when undefined."""
    good = scores.quality(scores.good[mask])
    drop = float(np.sum(good - scores.quality(scores.bad[mask])))
    to_empty = float(np.sum(good - scores.quality(scores.control[mask])))
    if to_empty <= TIE_TOLERANCE * max(1, int(mask.sum())):
        return None
    return drop / to_empty


def groups(items: Sequence[ChallengeItem]) -> list[tuple[str, str, np.ndarray]]:
    """(row label, severity column, item mask) for categories, then ``ALL:<severity>``, then ``ALL``."""
    categories: dict[str, list[int]] = {}
    severities: dict[str, list[int]] = {}
    for i, item in enumerate(items):
        categories.setdefault(item.category, []).append(i)
        if item.severity:
            severities.setdefault(item.severity, []).append(i)
    n = len(items)

    def mask(indices: list[int]) -> np.ndarray:
        out = np.zeros(n, dtype=bool)
        out[indices] = True
        return out

    rows = []
    cat_sev = {c: category_severity([items[i] for i in idx]) for c, idx in categories.items()}
    for category in sorted(categories, key=lambda c: (severity_rank(cat_sev[c].split("+")[-1]), c)):
        rows.append((category, cat_sev[category], mask(categories[category])))
    for severity in sorted(severities, key=severity_rank):
        rows.append((f"{ALL}:{severity}", severity, mask(severities[severity])))
    rows.append((ALL, ALL_SEVERITY, np.ones(n, dtype=bool)))
    return rows


def compute_cells(items: Sequence[ChallengeItem], scores: dict[str, ItemScores], seed: int = 0,
                  resamples: int = 1000) -> list[Cell]:
    cells = []
    outcomes = {m: (s.correct(), s.ties()) for m, s in scores.items()}
    for label, severity, mask in groups(items):
        n = int(mask.sum())
        for metric, s in scores.items():
            correct, ties = outcomes[metric]
            k = int(correct[mask].sum())
            low, high = bootstrap_interval(k, n, seed, f"{label}\x1f{metric}", resamples)
            cells.append(Cell(label, severity, metric, n, k / n, low, high, int(ties[mask].sum()),
                              sensitivity(s, mask)))
    return cells


def build_result(items: Sequence[ChallengeItem], pairs: Sequence[tuple[str, Any]], scores: dict[str, np.ndarray],
                 infos: dict[str, MetricInfo], seed: int = 0, resamples: int = 1000) -> ChallengeResult:
    per_metric = {m: item_scores(items, pairs, scores[m], infos[m]) for m in scores}
    return ChallengeResult(list(items), per_metric, compute_cells(items, per_metric, seed, resamples))


def paired_comparison(result: ChallengeResult, a: str, b: str) -> list[tuple[str, str, PairedTest]]:
    """(row label, severity, exact McNemar of ``a`` vs ``b``) for every row of the table, in table order."""
    from rome.core.errors import InputError

    for name in (a, b):
        if name not in result.scores:
            raise InputError(f"--compare: metric {name!r} was not scored (scored: {', '.join(result.metrics)})")
    if a == b:
        raise InputError("--compare needs two different metrics")
    right_a, right_b = result.scores[a].correct(), result.scores[b].correct()
    return [(label, severity, mcnemar_exact(right_a[mask], right_b[mask]))
            for label, severity, mask in groups(result.items)]
