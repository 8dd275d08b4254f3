"""``rome suite NAME``: run a robustness suite outside pytest and print its summary.

Same engine, cache and outputs as ``pytest suites/NAME.py``; the exit code is 1 when a
check fails (as pytest's), so it can gate a CI job.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rome.core.errors import InputError, ResourceMissingError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("suite", help="run a robustness suite (suites/NAME.py) and print its summary")
    p.add_argument("name", nargs="?", help="suite name (e.g. passive_form) or path to a suite file")
    p.add_argument("--metric", action="append", default=None,
                   help="metric name, repeatable; 'all' for every metric (default: the suite's metrics)")
    p.add_argument("--n", type=int, default=None, help="number of cases (default: the suite's sample size)")
    p.add_argument("--out", type=Path, default=None,
                   help="output folder (default: ROME_OUT/<suite> or ./rome-out/<suite>)")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the on-disk score cache")
    p.add_argument("--list", action="store_true", help="list the shipped suites and exit")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from suites.harness.spec import available_suites, load_suite

    if args.list:
        print("\n".join(available_suites()))
        return 0
    if not args.name:
        raise InputError(f"give a suite name; available: {', '.join(available_suites())}")
    if args.n is not None and args.n < 1:
        raise InputError("--n must be at least 1")
    from rome.core.cache import ScoreCache, default_cache_path
    from suites.harness.outputs import summary, summary_markdown, write_outputs
    from suites.harness.runner import SuiteRun

    suite = load_suite(args.name)
    cache = ScoreCache(None if args.no_cache else default_cache_path())
    suite_run = SuiteRun(suite, n=args.n, metrics=args.metric, cache=cache)
    for metric in suite_run.metric_names:
        print(f"scoring {metric} ...", file=sys.stderr)
        try:
            for check in suite.checks:
                suite_run.result(metric, check.name)
        except ResourceMissingError as exc:  # e.g. RoMe before its weights are trained: left out, said so
            if len(suite_run.metric_names) == 1:
                raise
            suite_run.unavailable[metric] = str(exc)
            print(f"left out {metric}: {exc}", file=sys.stderr)
    out = write_outputs(suite_run, args.out)
    data = summary(suite_run)
    print(summary_markdown(data), end="")
    print(f"outputs: {out}", file=sys.stderr)
    failed = [f"{m}[{c}]" for m, checks in data["checks"].items() for c, r in checks.items() if r["passed"] is False]
    return 1 if failed else 0
