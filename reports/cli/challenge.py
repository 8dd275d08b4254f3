"""``rome challenge PATH...``: accuracy of metrics on minimal-pair challenge sets (DEMETR, your JSONL).

Reads DEMETR JSON files and generic JSONL challenge files (or directories of them), scores
every unique (hypothesis, reference) pair once per metric through the score cache (resumable:
run the same command again after a kill), and writes ``accuracy.csv`` (``category,severity,
metric,n,accuracy``), ``cells.csv`` (with bootstrap intervals and sensitivity), Markdown, HTML,
a heatmap and per-item scores. See docs/challenge.md.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from reports.cli.options import add_compare_options, check_alpha
from rome.core.errors import InputError, ResourceMissingError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("challenge", help="accuracy of metrics on minimal-pair challenge sets (DEMETR, generic JSONL)")
    p.add_argument("paths", nargs="+", type=Path, metavar="PATH",
                   help="DEMETR JSON file, generic JSONL challenge file, or a directory of them; 'demetr' reads the "
                        "shipped DEMETR files, 'demetr/NAME' one of them (e.g. demetr/minor_id15_case)")
    p.add_argument("--metric", action="append", default=None,
                   help="metric name, repeatable; 'all' (default) for every metric")
    p.add_argument("--model", default=None, help="encoder for model-based metrics (default: embedded MiniLM)")
    p.add_argument("--out", type=Path, default=None, help="output folder (default: ROME_OUT/challenge or ./rome-out/challenge)")
    p.add_argument("--n-per-category", type=int, default=None, metavar="K",
                   help="score at most K items per category, picked with --seed (default: all)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sample and of the bootstrap (default 0)")
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N", help="bootstrap resamples per cell (default 1000)")
    p.add_argument("--workers", type=int, default=None,
                   help="scoring processes (default: one per core, at most 4; 1 = in this process)")
    p.add_argument("--chunk-size", type=int, default=None, help="pairs scored and committed per step (default 256)")
    p.add_argument("--no-cache", action="store_true", help="keep scores in memory only (no resume)")
    add_compare_options(p, "items")
    p.set_defaults(handler=run)


def _validate(args: argparse.Namespace) -> None:
    check_alpha(args.alpha)
    for name in ("n_per_category", "workers", "chunk_size", "bootstrap"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise InputError(f"--{name.replace('_', '-')} must be at least 1")


def _build(names: list[str], model: str | None, corpus) -> tuple[dict[str, Any], dict[str, str]]:
    """The metrics that can run here; with several, one that cannot is left out (said), else an error."""
    from rome.core.engine import cache_signature
    from rome.core.registry import build_metrics

    metrics, unavailable = {}, {}
    for name in names:
        try:
            metric = build_metrics([name], model)[name]
            cache_signature(metric, corpus)  # resolves weights and versions: fails here, not mid-run
        except ResourceMissingError as exc:
            if len(names) == 1:
                raise
            unavailable[name] = str(exc)
            print(f"left out {name}: {exc}", file=sys.stderr)
            continue
        metrics[name] = metric
    if not metrics:
        raise ResourceMissingError("none of the metrics can run here: " + "; ".join(unavailable.values()))
    return metrics, unavailable


def _describe_input(data, items) -> str:
    skipped = ", ".join(f"{n} {why}" for why, n in data.skipped.most_common()) or "none"
    line = (f"read {len(data.files)} file(s): {len(data.items)} usable items, skipped {skipped}; "
            f"scoring {len(items)} items in {len({i.category for i in items})} categories")
    empty = [f.path.name for f in data.files if f.items == 0]
    if empty:
        line += f"; no usable item in {', '.join(empty)}"
    for path, why in data.ignored:
        line += f"\nignored {path} ({why})"
    return line


def _score_with_progress(engine, pairs, corpus) -> dict:
    """Score with a progress bar over the (pair, metric) scores still missing; say how many were cached."""
    from tqdm import tqdm

    bars: list[tqdm] = []
    wanted = len(pairs) * len(engine.metrics)

    def start(total: int) -> None:
        if wanted - total:
            print(f"already cached: {wanted - total} of {wanted} scores", file=sys.stderr)
        bars.append(tqdm(total=total, unit="score", file=sys.stderr, desc="scoring", dynamic_ncols=True,
                         disable=total == 0))

    try:
        return engine.score(pairs, corpus, progress=lambda k: bars[0].update(k), on_start=start)
    finally:
        for bar in bars:
            bar.close()


def run(args: argparse.Namespace) -> int:
    _validate(args)
    from reports.challenge_output import CHALLENGE_FILES
    from rome.core.files import output_folder
    from rome.core.paths import output_dir

    out = args.out or output_dir("challenge")
    # the folder is checked and locked before any work, and written only when the run ends
    with output_folder(out, names=CHALLENGE_FILES, inputs=[("the input", path) for path in args.paths]) as staging:
        return _run(args, out, staging)


def _run(args: argparse.Namespace, out: Path, staging: Path) -> int:
    from reports.challenge import build_result, item_pairs
    from reports.challenge_output import comparison_table, summary_markdown, write_outputs
    from reports.tables import to_markdown
    from rome.core.cache import ScoreCache, default_cache_path
    from rome.core.engine import CHUNK_SIZE, MetricRecipe, Processes, ScoringEngine, order_pairs
    from rome.core.registry import expand_metric_names
    from suites.harness import ChallengeSet, Prefers, Suite
    from suites.harness.checks import MetricInfo

    started = time.perf_counter()
    # a challenge run is a suite over a challenge set: the same case source, sample and corpus rule as
    # ``pytest suites/demetr.py`` (suites.harness), then the challenge report instead of the checks
    suite = Suite(name="challenge", data=ChallengeSet(tuple(str(p) for p in args.paths)), n=None,
                  n_per_category=args.n_per_category, seed=args.seed, checks=[Prefers()])
    data, items = suite.data.load(suite.seed, suite.n_per_category)
    print(_describe_input(data, items), file=sys.stderr)
    pairs = order_pairs(item_pairs(items))
    # idf-weighted metrics are fitted on every usable item read (not the sample): a sampled run, a full
    # run and a resumed one give the same pair the same score and share the cache
    corpus = suite.data.corpus()
    metrics, unavailable = _build(expand_metric_names(args.metric or ["all"]), args.model, corpus)
    for a, b in args.compare or []:  # before any scoring: a name that is not scored is a one-line error
        if a == b or a not in metrics or b not in metrics:
            raise InputError(f"--compare {a} {b}: give two different metrics of this run ({', '.join(metrics)})")
    cache = ScoreCache(None if args.no_cache else default_cache_path())
    engine = ScoringEngine(metrics, cache, Processes(args.workers), chunk_size=args.chunk_size or CHUNK_SIZE,
                           recipe=MetricRecipe(tuple(metrics), args.model))
    loaded = time.perf_counter()
    scores = _score_with_progress(engine, pairs, corpus)
    scored = time.perf_counter()
    infos = {m: MetricInfo.of(m, metric) for m, metric in metrics.items()}
    result = build_result(items, pairs, scores, infos, args.seed, args.bootstrap)
    meta = {
        "paths": [str(p) for p in args.paths], "files": [f.describe() for f in data.files],
        "ignored": data.ignored, "items": len(items), "usable_items": len(data.items),
        "skipped": dict(data.skipped), "unique_pairs": len(pairs), "seed": args.seed,
        "n_per_category": args.n_per_category, "bootstrap": args.bootstrap,
        "sampled": (f"Sample: at most {args.n_per_category} items per category (seed {args.seed}) of "
                    f"{len(data.items)} usable items" if args.n_per_category else ""),
        "signatures": engine.report.signatures, "unavailable": unavailable,
        "scores": {"computed": engine.report.computed, "cached": engine.report.cached,
                   "workers": engine.report.workers,
                   "cpu_seconds": {m: round(s, 1) for m, s in engine.report.cpu_seconds.items()}},
        "idf_corpus": corpus.describe(),
        "timings_s": {"load": round(loaded - started, 2), "scoring": round(scored - loaded, 2)},
    }
    meta["timings_s"]["total_before_writing"] = round(time.perf_counter() - started, 2)
    compare = [tuple(pair) for pair in args.compare or []]
    meta["compare"] = {"pairs": [list(pair) for pair in compare], "alpha": args.alpha} if compare else None
    write_outputs(result, out, meta, compare, args.alpha, into=staging)
    print(summary_markdown(result, rows="summary"), end="")
    for a, b in compare:
        print(to_markdown(comparison_table(result, a, b, args.alpha), level=3), end="")
    print(f"outputs: {out}/accuracy.csv (accuracy.md, accuracy.html, accuracy.png, cells.csv, items.jsonl)",
          file=sys.stderr)
    return 0
