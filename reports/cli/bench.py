"""``rome bench``: measured throughput of each metric, the encoder floor and bert-score's own."""

from __future__ import annotations

import argparse
import sys

from rome.core.errors import InputError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="measure metric throughput on the shipped data")
    p.add_argument("--n", type=int, default=1000, help="pairs (BAGEL then SFHOTEL outputs)")
    p.add_argument("--metric", action="append", default=None, help="metric(s) to time (default: all)")
    p.add_argument("--model", default=None, help="encoder (default: embedded all-MiniLM-L6-v2)")
    p.add_argument("--repeats", type=int, default=3,
                   help="cold runs of the floor, of each metric and of all together; the best is reported (default 3)")
    p.add_argument("--json", action="store_true", help="print JSON instead of a table")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from reports.bench import format_table, run_bench

    if args.n < 2:
        raise InputError("--n must be at least 2")
    print(f"benchmarking {args.n} pairs ...", file=sys.stderr)
    result = run_bench(args.n, args.metric, args.model, repeats=args.repeats)
    print(result.to_json() if args.json else format_table(result))
    return 0
