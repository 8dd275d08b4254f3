"""``rome suite NAME [--data CORPUS|FILE] [--seed S] [--n N]``: run a suite outside pytest, print its summary.

Same run (:func:`suites.harness.runner.open_run`), cache and outputs as ``pytest suites/NAME.py``;
the exit code is 1 when a check fails (as pytest's), so it can gate a CI job, and 3 when the suite does not
apply to the texts (its perturbation changed none of them: recorded in the output folder's summary). ``--data`` runs the
suite on a shipped corpus (``rome suite --list-corpora``) or the user's JSONL of
``{"id", "reference", "original"}`` lines instead of its declared texts. The summary says whether the
perturbation's validity on those texts is measured (a current card), STALE or UNMEASURED, how to judge
a card, and each check's verdict on the cases a reader judged (:mod:`suites.harness.validity`, the same
under pytest).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rome.core.errors import NOT_APPLICABLE_EXIT, InputError, NotApplicableError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("suite", help="run a robustness suite (suites/NAME.py) and print its summary",
                       epilog="exit status: 0 every check passed; 1 a check failed (a finding, in the summary); "
                              "2 bad input; 3 the suite does not apply to the texts (its perturbation changed none "
                              "of them; recorded in the summary)")
    p.add_argument("name", nargs="?", help="suite name (e.g. passive_form; text_transformation names textfooler) "
                                          "or path to a suite file")
    p.add_argument("--metric", action="append", default=None,
                   help="metric name, repeatable; 'all' for every metric (default: the suite's metrics)")
    p.add_argument("--data", default=None, metavar="CORPUS|FILE",
                   help="texts to run on: a shipped corpus (--list-corpora) or a JSONL of "
                        '{"id", "reference", "original"} lines (default: the suite\'s own)')
    p.add_argument("--n", type=int, default=None, help="number of cases (default: the suite's sample size)")
    p.add_argument("--seed", type=int, default=None, help="seed of the sample and the perturbations (default: the suite's)")
    p.add_argument("--max-texts", type=int, default=None,
                   help="texts tried at most; the sample stops there short of --n (default: the suite's bound)")
    p.add_argument("--out", type=Path, default=None,
                   help="output folder (default: ROME_OUT/<suite> or ./rome-out/<suite>)")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the on-disk score cache")
    p.add_argument("--list", action="store_true", help="list the shipped suites and exit")
    p.add_argument("--list-corpora", action="store_true", help="list the shipped corpora and exit")
    p.add_argument("--list-challenges", action="store_true",
                   help="list the shipped suites that are challenge sets (their own minimal pairs, no --data corpus)")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from suites.harness.spec import available_suites

    if args.list:
        print("\n".join(available_suites()))
        return 0
    if args.list_challenges:
        from suites.harness.spec import load_suite

        print("\n".join(name for name in available_suites() if load_suite(name).direct_cases))
        return 0
    if args.list_corpora:
        from rome.data.corpora import CORPORA

        for corpus in CORPORA.values():
            print(f"{corpus.name}\t{corpus.domain}\t{corpus.source}")
        return 0
    if not args.name:
        raise InputError(f"give a suite name; available: {', '.join(available_suites())}")
    if args.n is not None and args.n < 1:
        raise InputError("--n must be at least 1")
    if args.max_texts is not None and args.max_texts < 1:
        raise InputError("--max-texts must be at least 1")
    from rome.core.files import output_folder
    from suites.harness.outputs import (
        SUITE_FILES,
        reports_out_dir,
        summary,
        summary_markdown,
        write_not_applicable,
        write_outputs,
    )
    from suites.harness.runner import open_run, score_metric

    suite_run = open_run(args.name, data=args.data, n=args.n, seed=args.seed, metrics=args.metric,
                         no_cache=args.no_cache, max_texts=args.max_texts)
    out = args.out if args.out is not None else reports_out_dir(suite_run.suite)
    data_file = [("the --data file", Path(args.data))] if args.data is not None and Path(args.data).exists() else []
    # the folder is checked and locked before any scoring, and written only when the run ends
    with output_folder(out, names=SUITE_FILES, inputs=data_file) as folder:
        try:
            suite_run.cases  # noqa: B018  (builds the cases: a suite that changes no text stops here)
        except NotApplicableError as exc:
            data = write_not_applicable(suite_run, exc, folder)
            print(summary_markdown(data), end="")
            print(f"rome suite: not applicable: {exc} (recorded in {out}; exit {NOT_APPLICABLE_EXIT})", file=sys.stderr)
            return NOT_APPLICABLE_EXIT
        only = len(suite_run.metric_names) == 1  # one metric asked for: missing is an error, not a left-out column
        for metric in suite_run.metric_names:
            print(f"scoring {metric} ...", file=sys.stderr)
            if only:
                for check in suite_run.suite.checks:
                    suite_run.result(metric, check.name)
            elif why := score_metric(suite_run, metric):
                print(f"left out {metric}: {why}", file=sys.stderr)
        write_outputs(suite_run, out, into=folder)
    data = summary(suite_run)
    print(summary_markdown(data), end="")
    print(f"outputs: {out}", file=sys.stderr)
    failed = [f"{m}[{c}]" for m, checks in data["checks"].items() for c, r in checks.items() if r["passed"] is False]
    return 1 if failed else 0


