"""``rome bench``: throughput of every metric against the floor (one encoder pass) and bert-score.

The unavoidable cost of the model-based metrics is one encoder forward pass per unique
sentence; the bench measures that floor on the same sentences and reports every metric,
and all metrics together, relative to it. Metrics are timed as every command runs them: through
the one engine (:mod:`rome.core.engine`: unique pairs, chunks, idf fitted once), with no cache. Each metric is timed with a cold embedding cache
but a loaded model, so model loading is not counted (it is a one-off per process).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from reports.tables import provenance
from rome.core.encoder import Encoder, get_encoder
from rome.core.engine import SIDE, FitCorpus, ScoringEngine, peak_rss_mb, release_freed_memory
from rome.core.errors import InputError
from rome.core.parsing import clear_parse_caches
from rome.core.registry import expand_metric_names
from rome.data.novikova import load_rows
from rome.metric.profiling import rome_step_times


@dataclass
class BenchResult:
    n_pairs: int
    n_unique_sentences: int
    mean_words: float
    encoder: str
    encoder_floor_s: float
    #: cold runs of the floor, of each metric and of all together, the best of which is reported
    repeats: int = 1
    metrics: dict[str, dict[str, float]] = field(default_factory=dict)
    all_metrics_s: float = 0.0
    all_over_floor: float = 0.0
    bert_score_package: dict[str, float] = field(default_factory=dict)
    rome_steps_s: dict[str, float] = field(default_factory=dict)
    peak_rss_mb: float = 0.0
    #: metrics all together scored in the side process (:class:`rome.core.engine.SideProcess`), and its peak
    side_process: list[str] = field(default_factory=list)
    side_process_peak_rss_mb: float = 0.0
    #: each metric's scores of the pairs, in order (kept out of the JSON: a bench reports times)
    scores: dict[str, list[float]] = field(default_factory=dict, repr=False)

    def to_json(self) -> str:
        return json.dumps({k: v for k, v in asdict(self).items() if k != "scores"}, indent=2)


def load_pairs(n: int) -> tuple[list[str], list[str]]:
    """The first ``n`` system outputs of BAGEL then SFHOTEL, each with its first human reference."""
    hyps, refs = [], []
    for name in ("bagel", "sfhotel"):
        for item in load_rows(name):
            if item["hypothesis"].strip():
                hyps.append(item["hypothesis"])
                refs.append(item["references"][0])
    return hyps[:n], refs[:n]


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def _best(fn: Callable[[], Any], repeats: int, before: Callable[[], None]) -> tuple[float, Any]:
    """The fastest of ``repeats`` timed calls, each after ``before()`` (caches emptied): as ``timeit`` advises,
    the minimum is the run least disturbed by the rest of the machine, and the floor and every row get the
    same treatment, so their ratio compares like with like."""
    runs = []
    for _ in range(repeats):
        before()
        runs.append(_timed(fn))
    return min(runs, key=lambda run: run[0])


def _best_in_turn(first: Callable[[], Any], second: Callable[[], Any], repeats: int,
                  before: Callable[[], None]) -> tuple[float, float]:
    """The fastest of ``repeats`` cold runs of each of two calls, timed in turn (first, second, first, ...):
    the floor and all metrics together share the minutes they are timed in, so a machine that slows or
    quickens during the bench moves both alike rather than their ratio. What the calls return is dropped at
    once: held, the floor's embeddings of every sentence would sit in memory under the next run and raise the
    peak RSS the bench reports."""
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeats):
        for fn, timed in zip((first, second), times):
            before()
            timed.append(_timed(fn)[0])
    return min(times[0]), min(times[1])


def _cold(model: str | None) -> None:
    """Empty the shared encoder's, parser's, grammar classifier's and GRUEN likelihood's caches so the next
    metric pays its own work, and hand what they held back to the OS."""
    from baselines.gruen import clear_likelihood_cache
    from rome.metric.grammar import clear_logit_cache

    get_encoder(model).clear_cache()
    clear_parse_caches()
    clear_logit_cache()
    clear_likelihood_cache()
    release_freed_memory()  # as the engine does after each chunk: the next run starts from what is in use


def bench_bert_score_package(hyps: list[str], refs: list[str], encoder: Encoder) -> dict[str, float]:
    """bert-score's own ``score()`` on the same pairs, model and layer (model loaded beforehand)."""
    import bert_score

    scorer = bert_score.BERTScorer(model_type=encoder.path, num_layers=encoder.num_layers, batch_size=64)
    scorer.score(hyps[:4], refs[:4])  # load and warm
    seconds, _ = _timed(lambda: scorer.score(hyps, refs))
    return {"seconds": seconds, "pairs_per_s": len(hyps) / seconds}


def run_bench(n: int = 1000, metrics: list[str] | None = None, model: str | None = None,
              pairs: tuple[list[str], list[str]] | None = None, repeats: int = 3) -> BenchResult:
    """Time every metric on ``n`` shipped pairs (or ``pairs``) through the one engine, without the score
    cache (every pair is computed), idf-like metrics fitted on these pairs (the engine's corpus rule). The
    floor, each metric's row and all together are each the best of ``repeats`` cold runs (:func:`_best`); the
    floor's runs alternate with all together's (:func:`_best_in_turn`)."""
    if repeats < 1:
        raise InputError("--repeats must be at least 1")
    hyps, refs = pairs if pairs is not None else load_pairs(n)
    unique = list(dict.fromkeys(hyps + refs))
    floor_encoder = get_encoder(model)  # the metrics' own encoder: no second copy of the model in memory
    floor_encoder.encode(unique[:4])  # load the model outside the timing
    result = BenchResult(
        n_pairs=len(hyps), n_unique_sentences=len(unique),
        mean_words=sum(len(t.split()) for t in unique) / len(unique),
        encoder=floor_encoder.name, encoder_floor_s=0.0, repeats=repeats,
    )
    names = expand_metric_names(metrics or ["all"])
    engine = ScoringEngine.build(names, model)
    scored = list(zip(hyps, refs))
    corpus = FitCorpus.of(f"rome bench: all {len(scored)} pairs timed", scored)
    for metric in engine.metrics.values():
        metric.score(hyps[:2], refs[:2])  # load models, parsers, WordNet
    for name in names:
        seconds, values = _best(lambda name=name: engine.score(scored, corpus, names=[name])[name], repeats,
                                lambda: _cold(model))
        result.metrics[name] = {"seconds": seconds, "pairs_per_s": len(hyps) / seconds}
        result.scores[name] = values.tolist()
    if "rome" in engine.metrics and model is None:
        result.rome_steps_s = rome_step_times(hyps, refs)
    floor, result.all_metrics_s = _best_in_turn(
        lambda: floor_encoder.encode(unique), lambda: engine.score(scored, corpus), repeats, lambda: _cold(model)
    )
    result.encoder_floor_s = floor
    result.side_process = list(engine.report.side_process)  # as the last run of all together found it
    for row in result.metrics.values():
        row["over_floor"] = row["seconds"] / floor
    result.all_over_floor = result.all_metrics_s / floor
    if "bertscore" in engine.metrics:
        package = bench_bert_score_package(hyps, refs, floor_encoder)
        ours = result.metrics["bertscore"]["pairs_per_s"]
        result.bert_score_package = {**package, "ours_over_package": ours / package["pairs_per_s"]}
    result.peak_rss_mb = peak_rss_mb()
    result.side_process_peak_rss_mb = SIDE.peak_rss_mb()
    return result


def format_table(result: BenchResult) -> str:
    lines = [
        f"pairs: {result.n_pairs}  unique sentences: {result.n_unique_sentences}  "
        f"mean words: {result.mean_words:.1f}  encoder: {result.encoder}",
        f"encoder floor (one pass over unique sentences): {result.encoder_floor_s:.2f} s",
        f"times: the best of {result.repeats} cold runs each (the floor, every metric, all together;"
        " the floor timed in turn with all together)",
        "",
        f"{'metric':<14}{'seconds':>10}{'pairs/s':>12}{'x floor':>10}",
    ]
    for name, row in result.metrics.items():
        lines.append(f"{name:<14}{row['seconds']:>10.2f}{row['pairs_per_s']:>12.1f}{row['over_floor']:>10.2f}")
    lines.append(f"{'ALL together':<14}{result.all_metrics_s:>10.2f}{'':>12}{result.all_over_floor:>10.2f}")
    if result.bert_score_package:
        pkg = result.bert_score_package
        lines.append(
            f"\nbert-score package score(): {pkg['seconds']:.2f} s, {pkg['pairs_per_s']:.1f} pairs/s; "
            f"ours / package throughput = {pkg['ours_over_package']:.2f}x"
        )
    if result.rome_steps_s:
        total = sum(result.rome_steps_s.values()) or 1.0
        split = ", ".join(f"{k} {v:.2f}s ({v / total:.0%})" for k, v in result.rome_steps_s.items())
        lines.append(f"RoMe by step: {split}")
    side = (f" (and the side process that scored {', '.join(result.side_process)} beside the rest: "
            f"{result.side_process_peak_rss_mb:.0f} MB)" if result.side_process else "")
    lines.append(f"peak RSS: {result.peak_rss_mb:.0f} MB{side}")
    lines.append(f"Produced by rome bench, {provenance()}")
    return "\n".join(lines)
