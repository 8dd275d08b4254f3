"""``rome report``: the human-correlation tables and the robustness table.

``rome report correlation`` scores a dataset with human judgments under every metric and
writes correlation tables (Markdown, CSV, LaTeX, HTML), a Williams-test matrix and the
metric heatmap; scores go through the score cache (``rome.core.cache``) so a rerun resumes. ``rome report
robustness`` gathers the suites' outputs into the Table 7 layout.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from reports.cli.options import add_compare_options, check_alpha
from rome.core.errors import InputError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("report", help="human-correlation and robustness tables")
    kinds = p.add_subparsers(dest="report", required=True)

    c = kinds.add_parser("correlation", help="correlate every metric with human judgments")
    c.add_argument("--dataset", required=True, action="append",
                   help="bagel | sfhotel | sfrest | sfrest-heldout, webnlg2020 (development ratings) | sfrest-train | "
                        "webnlg2017 (with --path) | a JSONL file in the item format (a .csv path is read as "
                        "the WebNLG 2017 format); repeat for a side-by-side table")
    c.add_argument("--path", type=Path, default=None, help="the data file (required for webnlg2017)")
    c.add_argument("--reference", choices=("human", "mr"), default="human",
                   help="human references, or the meaning representation as text (RoMe Table 1)")
    c.add_argument("--metric", action="append", default=None, help="metric name, repeatable; default: all")
    c.add_argument("--model", default=None, help="encoder for model-based metrics")
    c.add_argument("--out", type=Path, default=None, help="output directory (default ./rome-out/correlation-<dataset>)")
    c.add_argument("--n", type=int, default=None, help="score a seeded sample of N items (default: all)")
    c.add_argument("--bootstrap", type=int, default=1000, help="bootstrap resamples for the CIs (0: none)")
    c.add_argument("--seed", type=int, default=0, help="seed for the item sample and the bootstrap")
    c.add_argument("--no-cache", action="store_true", help="do not read or write the on-disk score cache")
    c.add_argument("--coefficient", action="append", choices=("spearman", "pearson", "kendall"), default=None,
                   help="correlation coefficient, repeatable (default: all three)")
    c.set_defaults(handler=run_correlation)

    r = kinds.add_parser("robustness", help="the robustness table (RoMe Table 7) from the suites' outputs")
    r.add_argument("--suites", nargs="*", default=None, help="suite names (default: every suite with outputs)")
    r.add_argument("--from", dest="source", type=Path, default=None,
                   help="directory holding <suite>/summary.json (default ROME_OUT or ./rome-out)")
    r.add_argument("--annotations", type=Path, default=None,
                   help="JSONL of human ratings of the perturbed cases: case_id, fluency, semantics, grammar")
    r.add_argument("--out", type=Path, default=None, help="output directory (default ./rome-out/robustness)")
    add_compare_options(r, "cases")
    r.set_defaults(handler=run_robustness)


def run_correlation(args: argparse.Namespace) -> int:
    from reports.correlation import (
        CORRELATION_FILES,
        POOLED,
        CorrelationConfig,
        combined_table,
        correlation_table,
        write_report,
    )
    from reports.correlation import run_correlation as compute
    from reports.tables import to_markdown, write_all
    from rome.core.cache import ScoreCache, default_cache_path
    from rome.core.files import output_folder, refuse_inputs_in_folder
    from rome.core.paths import output_dir
    from rome.core.registry import expand_metric_names
    from rome.data.judged import load_dataset

    if args.bootstrap < 0:
        raise InputError("--bootstrap must be 0 or more")
    datasets = [load_dataset(name, args.path) for name in args.dataset]
    names = expand_metric_names(args.metric or ["all"])
    methods = tuple(dict.fromkeys(args.coefficient or ("spearman", "pearson", "kendall")))
    config = CorrelationConfig(names, args.reference, args.n, args.bootstrap, args.seed, args.model, methods,
                               skip_unavailable=not args.metric or "all" in args.metric)
    single = len(datasets) == 1
    base = args.out or output_dir("correlation-" + "-".join(d.name for d in datasets))
    files = [Path(name) for name in args.dataset if Path(name).exists()] + ([args.path] if args.path else [])
    for folder in [base] if single else [base, *(base / d.name for d in datasets)]:
        refuse_inputs_in_folder(folder, [("the dataset file", f) for f in files])
    cache = ScoreCache(None if args.no_cache else default_cache_path())
    results = []
    # the folder is checked and locked before any scoring, and written only when every dataset is done
    with output_folder(base, names=CORRELATION_FILES if single else ("correlation.md",)) as staging:
        for dataset in datasets:
            out = base if single else base / dataset.name
            result = compute(dataset, config, cache, _progress_bars(),
                             stage=lambda line, name=dataset.name: print(f"{name}: {line} ...", file=sys.stderr,
                                                                         flush=True))
            for name, reason in result.skipped.items():
                print(f"warning: left out {name}: {reason}", file=sys.stderr)
            written = write_report(result, out, into=staging if single else staging / dataset.name)
            print(f"{dataset.name}: scored {len(result.items)} items x {len(result.scores)} metrics "
                  f"({result.cache['hits']} cached, {result.cache['misses']} computed); wrote {written[0]}",
                  file=sys.stderr)
            results.append(result)
        table = correlation_table(results[0], POOLED) if single else combined_table(results)
        if not single:
            written = write_all(base, "correlation", "Correlation with human judgments", [table], into=staging)
    if not single:
        print(f"wrote {written[0]}", file=sys.stderr)
    print(to_markdown(table), end="")
    return 0


def _progress_bars():
    """A progress callback showing one tqdm bar per metric (on a terminal; the stage lines say the rest)."""
    from tqdm import tqdm

    bars: dict[str, tqdm] = {}

    def progress(metric: str, k: int) -> None:
        if metric not in bars:
            bars[metric] = tqdm(desc=metric, unit="pair", file=sys.stderr, disable=not sys.stderr.isatty())
        bars[metric].update(k)

    return progress


def run_robustness(args: argparse.Namespace) -> int:
    from reports.robustness import (
        ROBUSTNESS_FILES,
        build_report,
        comparison_table,
        default_source,
        write_report,
    )
    from reports.tables import to_markdown
    from rome.core.files import output_folder, refuse_inputs_in_folder
    from rome.core.paths import output_dir

    check_alpha(args.alpha)
    source = args.source or default_source()
    report = build_report(source, args.suites, args.annotations)
    compare = [tuple(pair) for pair in args.compare or []]
    for a, b in compare:  # check the names before writing anything
        comparison_table(report, a, b, args.alpha)
    out = args.out or output_dir("robustness")
    for corpus in report.corpora if len(report.corpora) > 1 else []:
        refuse_inputs_in_folder(out / corpus, [("the --annotations file", args.annotations)])
    with output_folder(out, names=ROBUSTNESS_FILES, inputs=[("the --annotations file", args.annotations)]) as staging:
        written = write_report(report, out, compare, args.alpha, into=staging)
    print(f"{len(report.suites)} suites, {len(report.metrics)} metrics; wrote {written[0]}", file=sys.stderr)
    for a, b in compare:
        print(to_markdown(comparison_table(report, a, b, args.alpha)), end="")
    return 0
