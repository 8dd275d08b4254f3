"""Human-correlation report: every metric against every human criterion (RoMe Tables 1, 4, 6).

Per dataset, per system (WebNLG: per team) and pooled: Spearman ρ, Pearson r and Kendall τ
with percentile-bootstrap 95% CIs (items resampled, the same seeded resamples for every
metric), and a Williams-test matrix between metrics on the same human scores. The reference
is the human references or the meaning representation as text (the paper's Table 1
protocol). Scores go through the one engine and score cache (:mod:`rome.core.engine`), so reruns
resume; idf-like metrics are fitted on every item of the dataset with the chosen reference.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from reports import plots
from reports.stats import (
    METHODS,
    SYMBOLS,
    Correlation,
    WilliamsResult,
    bootstrap_indices,
    coefficient,
    correlate,
)
from reports.stats import williams_matrix as williams_for
from reports.tables import Table, provenance, write_all
from rome.core.cache import ScoreCache
from rome.core.engine import FitCorpus, ScoringEngine
from rome.core.errors import InputError, ResourceMissingError
from rome.core.numbers import fmt
from rome.core.registry import build_metrics
from rome.data.judged import JudgedDataset, JudgedItem, with_references

POOLED = "pooled"
ALPHA = 0.05


@dataclass
class CorrelationConfig:
    metrics: list[str]
    reference: str = "human"
    n_items: int | None = None
    n_resamples: int = 1000
    seed: int = 0
    model: str | None = None
    methods: tuple[str, ...] = METHODS
    #: leave out (and note) metrics whose models or weights are missing, as ``--metric all`` does
    skip_unavailable: bool = False


@dataclass
class CorrelationResult:
    dataset: JudgedDataset
    config: CorrelationConfig
    items: list[JudgedItem]
    scores: dict[str, np.ndarray]
    signatures: dict[str, str]
    higher_is_better: dict[str, bool]
    left_out: int
    #: (group, metric, criterion, method) -> Correlation
    cells: dict[tuple[str, str, str, str], Correlation] = field(default_factory=dict)
    #: (group, criterion) -> {(metric A, metric B): Williams test of A > B}
    williams: dict[tuple[str, str], dict[tuple[str, str], WilliamsResult]] = field(default_factory=dict)
    cache: dict[str, int] = field(default_factory=dict)
    #: metrics left out because a resource is missing: name -> the reason
    skipped: dict[str, str] = field(default_factory=dict)

    @property
    def groups(self) -> list[str]:
        return list(dict.fromkeys(g for g, *_ in self.cells))

    def human(self, criterion: str, index: np.ndarray | None = None) -> np.ndarray:
        values = np.array([it.human[criterion] for it in self.items])
        return values if index is None else values[index]


def select_items(items: list[JudgedItem], n: int | None, seed: int) -> list[JudgedItem]:
    """All items, or a seeded sample of ``n`` of them in their original order."""
    if n is None or n >= len(items):
        return list(items)
    if n < 3:
        raise InputError("--n must be at least 3 items")
    keep = np.sort(np.random.default_rng(seed).choice(len(items), size=n, replace=False))
    return [items[i] for i in keep]


def group_indices(items: list[JudgedItem]) -> dict[str, np.ndarray]:
    """``pooled`` and one group per system, as positions into ``items``."""
    systems = np.array([it.system for it in items])
    groups = {POOLED: np.arange(len(items))}
    if len(set(systems)) > 1:
        groups.update({s: np.flatnonzero(systems == s) for s in sorted(set(systems))})
    return groups


@dataclass
class ScoredMetrics:
    scores: dict[str, np.ndarray] = field(default_factory=dict)
    signatures: dict[str, str] = field(default_factory=dict)
    higher_is_better: dict[str, bool] = field(default_factory=dict)
    skipped: dict[str, str] = field(default_factory=dict)
    cache: dict[str, int] = field(default_factory=dict)


def score_metrics(items: list[JudgedItem], references: list[list[str]], config: CorrelationConfig,
                  cache: ScoreCache, progress: Callable[[str, int], None] | None = None,
                  corpus: FitCorpus | None = None, stage: Callable[[str], None] | None = None) -> ScoredMetrics:
    """Score every metric through the one engine and the disk cache; with ``config.skip_unavailable`` a
    metric whose model or weights are missing is left out and its reason kept, instead of failing the
    report. Idf-like metrics are fitted on ``corpus`` (default: these pairs); ``stage`` hears what runs."""
    pairs = [(it.hypothesis, tuple(refs)) for it, refs in zip(items, references)]
    corpus = corpus or FitCorpus.of("the items scored", pairs)
    hits, misses = cache.hits, cache.misses
    out = ScoredMetrics()
    for name in config.metrics:  # metric by metric, so the progress bars say which one is running
        tick = (lambda k, name=name: progress(name, k)) if progress else None
        if stage:
            stage(f"scoring {name}: {len(items)} items, {sum(len(r) for r in references)} references")
        try:
            metric = build_metrics([name], config.model)[name]
            engine = ScoringEngine({name: metric}, cache)
            out.scores[name] = engine.score(pairs, corpus, progress=tick)[name]
        except ResourceMissingError as exc:
            if not config.skip_unavailable:
                raise
            out.skipped[name] = str(exc)
            continue
        out.signatures[name] = engine.report.signatures[name]
        out.higher_is_better[name] = metric.higher_is_better
    if not out.scores:
        raise InputError(f"no metric could be scored: {'; '.join(f'{k}: {v}' for k, v in out.skipped.items())}")
    out.cache = {"hits": cache.hits - hits, "misses": cache.misses - misses}
    return out


def correlate_groups(result: CorrelationResult) -> None:
    """Fill ``result.cells`` for every group of 3 or more items, ``result.williams`` from 4."""
    cfg = result.config
    for g_index, (group, index) in enumerate(group_indices(result.items).items()):
        if len(index) < 3:
            continue
        boot = bootstrap_indices(len(index), cfg.n_resamples, cfg.seed + g_index) if cfg.n_resamples else None
        for criterion in result.dataset.criteria:
            human = result.human(criterion, index)
            for name, values in result.scores.items():
                for method in cfg.methods:
                    result.cells[(group, name, criterion, method)] = correlate(
                        values[index], human, method, n_resamples=0, indices=boot)
            oriented = {m: (v if result.higher_is_better[m] else -v)[index] for m, v in result.scores.items()}
            if len(oriented) > 1 and len(index) >= 4:
                result.williams[(group, criterion)] = williams_for(oriented, human, "spearman")


def dataset_corpus(dataset: JudgedDataset, reference: str) -> FitCorpus:
    """The corpus rule for this command: every item of the dataset that has the chosen reference, before
    ``--n`` samples it, so a sampled run and a full one give a pair the same score (and share the cache)."""
    items, references, _ = with_references(dataset.items, reference)
    return FitCorpus.of(f"rome report correlation: all {len(items)} items of {dataset.name} with {reference} references",
                     [(it.hypothesis, tuple(refs)) for it, refs in zip(items, references)])


def run_correlation(dataset: JudgedDataset, config: CorrelationConfig, cache: ScoreCache,
                    progress: Callable[[str, int], None] | None = None,
                    stage: Callable[[str], None] | None = None) -> CorrelationResult:
    """Score and correlate; ``progress(metric, k)`` ticks per scored chunk, ``stage(line)`` names each step."""
    selected = select_items(dataset.items, config.n_items, config.seed)
    items, references, left_out = with_references(selected, config.reference)
    if len(items) < 4:
        raise InputError(f"{dataset.name}: only {len(items)} items can be scored with {config.reference} references")
    scored = score_metrics(items, references, config, cache, progress, dataset_corpus(dataset, config.reference),
                           stage)
    result = CorrelationResult(dataset, config, items, scored.scores, scored.signatures, scored.higher_is_better,
                               left_out, cache=scored.cache, skipped=scored.skipped)
    if stage:
        stage(f"correlating {len(result.scores)} metrics with {len(dataset.criteria)} criteria in "
              f"{len(group_indices(items))} groups ({', '.join(config.methods)}; "
              f"{config.n_resamples} bootstrap resamples)")
    correlate_groups(result)
    return result


# -- tables ---------------------------------------------------------------------------------
def _cell(c: Correlation | None) -> str:
    if c is None or math.isnan(c.value):
        return "–"
    star = "*" if c.p_value < ALPHA else ""
    ci = f" [{fmt(c.ci_low)}, {fmt(c.ci_high)}]" if not math.isnan(c.ci_low) else ""
    return f"{fmt(c.value)}{star}{ci}"


def undefined_notes(result: CorrelationResult) -> list[str]:
    """Why cells hold "–": a correlation with constant ratings or scores is not defined (say which)."""
    notes, constant = [], set()
    for criterion in result.dataset.criteria:
        values = result.human(criterion)
        if len(values) and np.ptp(values) == 0:
            constant.add(criterion)
            notes.append(f"– {criterion}: every human rating is {values[0]:g} on these items (constant), "
                         "so no correlation with it is defined")
    for name, values in result.scores.items():
        if len(values) and np.ptp(values) == 0:
            constant.add(name)
            notes.append(f"– {name}: every score is {values[0]:g} on these items (constant), "
                         "so no correlation with it is defined")
    if any(math.isnan(c.value) and not {m, crit} & constant for (_, m, crit, _), c in result.cells.items()):
        notes.append("– elsewhere: not defined in that group (its ratings or scores are constant within it)")
    return notes


def provenance_notes(result: CorrelationResult) -> list[str]:
    cfg = result.config
    data = result.dataset.describe()
    ref = ("human references (best over references)" if cfg.reference == "human"
           else "the meaning representation as text (RoMe Table 1 protocol)")
    notes = [f"Data: {data}; scored {len(result.items)} items"
             + (f" (seeded sample of {cfg.n_items}, seed {cfg.seed})"
                if cfg.n_items and cfg.n_items < len(result.dataset.items) else ""),
             f"Reference: {ref}" + (f"; {result.left_out} items without a human reference left out"
                                    if result.left_out else "")]
    ci = (f"[95% percentile-bootstrap CI over items, {cfg.n_resamples} resamples, seed {cfg.seed}]"
          if cfg.n_resamples else "(no bootstrap CI asked for)")
    notes.append(f"Cells: coefficient, * = p < {ALPHA} (two-sided), {ci}")
    notes += undefined_notes(result)
    notes += [f"Signature {m}: {s}" for m, s in result.signatures.items()]
    notes += [f"Left out {m} (not available here): {reason}" for m, reason in result.skipped.items()]
    notes.append(f"Produced by rome report correlation, {provenance()}")
    return notes


def correlation_table(result: CorrelationResult, group: str) -> Table:
    crits, methods = result.dataset.criteria, result.config.methods
    columns = ["metric"] + [f"{c} {SYMBOLS[m]}" for c in crits for m in methods]
    rows = [[name] + [_cell(result.cells.get((group, name, c, m))) for c in crits for m in methods]
            for name in result.scores]
    n = len(group_indices(result.items)[group])
    ref = "MR as reference" if result.config.reference == "mr" else "human references"
    title = f"{result.dataset.name}: correlation with human judgments, {ref}, {group} (n = {n})"
    return Table(title, columns, rows, provenance_notes(result), label=f"corr-{_slug(group)}")


def williams_table(result: CorrelationResult, group: str, criterion: str) -> Table:
    tests = result.williams.get((group, criterion), {})
    names = list(result.scores)
    rows = []
    for a in names:
        row = [a]
        for b in names:
            test = tests.get((a, b))
            row.append("–" if test is None else f"{test.p_one_sided:.3f}{'*' if test.p_one_sided < ALPHA else ''}")
        rows.append(row)
    title = f"{result.dataset.name}: Williams test, {criterion}, {group} (p that row ρ > column ρ)"
    notes = ["Spearman ρ with lower-is-better metrics negated; one-sided Williams (1959) t-test, df = n - 3; "
             f"* = p < {ALPHA}", *provenance_notes(result)]
    return Table(title, ["A \\ B", *names], rows, notes, label=f"williams-{_slug(group)}-{_slug(criterion)}")


def combined_table(results: list[CorrelationResult], method: str | None = None) -> Table:
    """Several datasets side by side, pooled, one coefficient (the RoMe paper's Table 1 layout).

    ``method`` defaults to Spearman when it was computed, else the first coefficient asked for.
    """
    asked = results[0].config.methods
    method = method or ("spearman" if "spearman" in asked else asked[0])
    metrics = list(dict.fromkeys(m for r in results for m in r.scores))
    columns = ["metric"] + [f"{r.dataset.name} {c}" for r in results for c in r.dataset.criteria]
    rows = [[m] + [_cell(r.cells.get((POOLED, m, c, method))) for r in results for c in r.dataset.criteria]
            for m in metrics]
    notes = [line for r in results for line in provenance_notes(r)[:2]]
    signatures = {m: s for r in results for m, s in r.signatures.items()}
    notes += [f"Signature {m}: {s}" for m, s in signatures.items()]
    notes.append(f"Cells: {SYMBOLS[method]}, * = p < {ALPHA}, [95% bootstrap CI]; produced by rome report "
                 f"correlation, {provenance()}")
    names = " / ".join(r.dataset.name for r in results)
    ref = "MR as reference" if results[0].config.reference == "mr" else "human references"
    return Table(f"{names}: {method} {SYMBOLS[method]} with human judgments, {ref}, pooled", columns, rows, notes,
                 label="combined")


def _slug(text: str) -> str:
    return "".join(ch if ch.isalnum() else "-" for ch in text.lower()).strip("-") or "x"


def _number(value: float) -> float | str:
    """Undefined values (a constant side, no CI asked for) are left empty, never written as NaN."""
    return "" if math.isnan(value) else value


def long_rows(result: CorrelationResult) -> list[dict[str, object]]:
    """Every number, one row per (group, metric, criterion, method), for ``correlations.csv``."""
    return [{"dataset": result.dataset.name, "reference": result.config.reference, "group": g, "metric": m,
             "criterion": c, "method": meth, "value": _number(r.value), "p_value": _number(r.p_value), "n": r.n,
             "ci_low": _number(r.ci_low), "ci_high": _number(r.ci_high), "degenerate_resamples": r.degenerate,
             "signature": result.signatures[m]} for (g, m, c, meth), r in result.cells.items()]


def metric_matrix(result: CorrelationResult) -> tuple[list[str], np.ndarray]:
    """Pooled Spearman ρ among the metrics and the human criteria (the heatmap's data)."""
    columns = {**result.scores, **{c: result.human(c) for c in result.dataset.criteria}}
    names = list(columns)
    matrix = np.array([[coefficient(columns[a], columns[b])[0] for b in names] for a in names])
    return names, matrix


#: the fixed files of a correlation report's folder (checked before scoring; the table CSVs are checked at the end)
CORRELATION_FILES = ("correlation.md", "correlation.tex", "correlation.html", "correlations.csv", "williams.csv",
                     "scores.jsonl", "heatmap.png")


def write_report(result: CorrelationResult, out: Path, into: Path | None = None) -> list[Path]:
    """The report's files, written with the one folder writer (:func:`rome.core.files.output_folder`), or into
    ``into``, the folder a caller's writer holds for ``out``."""
    import csv

    from rome.core.files import writing

    names, matrix = metric_matrix(result)
    tables = [correlation_table(result, g) for g in result.groups]
    tables += [williams_table(result, POOLED, c) for c in result.dataset.criteria if (POOLED, c) in result.williams]
    title = f"Correlation with human judgments: {result.dataset.name} ({result.config.reference} reference)"
    rows = long_rows(result)
    with writing(out, CORRELATION_FILES, into) as folder:
        heatmap = plots.heatmap(names, matrix, folder / "heatmap.png",
                                f"{result.dataset.name}: Spearman ρ between metrics and human criteria (pooled)")
        written = write_all(folder, "correlation", title, tables, images=[heatmap.name], into=folder)
        with (folder / "correlations.csv").open("w", newline="", encoding="utf-8") as handle:
            writer = csv.DictWriter(handle, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)
        with (folder / "williams.csv").open("w", newline="", encoding="utf-8") as handle:
            writer = csv.writer(handle)
            writer.writerow(["group", "criterion", "metric_a", "metric_b", "t", "df", "p_one_sided", "p_two_sided"])
            for (group, crit), tests in result.williams.items():
                writer.writerows([group, crit, a, b, w.t, w.df, w.p_one_sided, w.p_two_sided]
                                 for (a, b), w in tests.items())
        with (folder / "scores.jsonl").open("w", encoding="utf-8") as handle:
            for i, item in enumerate(result.items):
                handle.write(json.dumps({"id": item.id, "system": item.system, "human": item.human,
                                         "scores": {m: float(v[i]) for m, v in result.scores.items()}}) + "\n")
    return [*(out / path.name for path in written), out / "correlations.csv", out / "williams.csv",
            out / "scores.jsonl", out / heatmap.name]
