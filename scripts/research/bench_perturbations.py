"""Cost and coverage of building one suite's cases: a perturbation over the first N texts of a corpus.

    python scripts/research/bench_perturbations.py --kind textfooler --data news --texts 3000
    python scripts/research/bench_perturbations.py --kind adjective --data ../shared/data/wmt21/wmt21_pairs.jsonl
    python scripts/research/bench_perturbations.py --kind textfooler --data news --texts 200   # the judged kinds
    python scripts/research/bench_perturbations.py --kind textfooler --data news --texts 300 \
        --option min_sense_share=0 --cases probe.jsonl       # a setting probed, its cases kept for reading

Builds the cases the way a suite does (:func:`suites.harness.cases.build_cases`: the data's seeded
order, batched parsing, one seeded generator per text) over the first ``--texts`` pairs of ``--data``
(a shipped corpus or a JSONL of reference/original pairs; a corpus with fewer pairs is read whole), with
no cap on cases, so every text is perturbed once. It runs twice against one case cache (``--cache``, a
fresh temporary one by default): the first run perturbs and stores, the second must read the cases back
(``cases_from_cache``). Prints one JSON object: seconds per run, texts tried and changed, cases,
distinct edits (and among the first 200 cases: the suites' sample size), the most frequent edit, the
seconds per text tried and per case kept (cold: the first run, models loaded in it; warm: the second, read
from the case cache), the mean ``p_valid`` of the cases that carry one (the judged kinds' estimate of their
validity), and the machine's load (the 2-core CPU is shared, so a time is an upper bound under that load).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

#: the suites' sample size: distinct edits among this many cases is the coverage target's unit
SUITE_CASES = 200


@dataclass(frozen=True)
class FirstTexts:
    """The first ``n`` pairs (in the seeded order) of another data source."""

    source: Any
    n: int

    @property
    def corpus_name(self) -> str:
        return self.source.corpus_name

    def pairs(self, seed: int) -> list:
        return self.source.pairs(seed)[: self.n]

    def files(self) -> list[Path]:
        return self.source.files()

    def describe(self) -> dict[str, Any]:
        return {**self.source.describe(), "first": self.n}


def _option(text: str) -> tuple[str, Any]:
    """``NAME=JSON`` as (name, value); a value that is not JSON is taken as a string."""
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise ValueError(f"--option {text!r}: expected NAME=VALUE")
    try:
        return name, json.loads(value)
    except json.JSONDecodeError:
        return name, value


def cases_kind():
    """What ``--cases`` writes, so that a file already there is replaced only when it is such a file."""
    from rome.core.files import OutputKind

    return OutputKind("a file of bench_perturbations cases", frozenset({"source_id", "original", "variant", "p_valid"}))


def write_cases(path: Path, cases: list) -> None:
    """Every case as one JSON line, through the project's writer (it replaces only its own output)."""
    from rome.core.files import safe_output

    with safe_output(path, cases_kind(), flag="--cases") as handle:
        for c in cases:
            handle.write(json.dumps({"source_id": c.source_id, "expectation": c.expectation, "original": c.original,
                                     "variant": c.variant, "p_valid": c.p_valid}, ensure_ascii=False) + "\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kind", required=True, help="a registered perturbation kind (textfooler, adjective, passive, ...)")
    ap.add_argument("--data", default="news", help="a shipped corpus or a JSONL of reference/original pairs")
    ap.add_argument("--texts", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--cache", type=Path, default=None, help="case cache file (default: a fresh temporary one)")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=JSON",
                    help="an option of the perturbation, its value as JSON (e.g. min_sense_share=0): a probe of a "
                         "setting, compared with the default's run")
    ap.add_argument("--cases", type=Path, default=None,
                    help="also write every case (source id, expectation, original, variant, p_valid) to this JSONL, e.g. "
                         "to have them read blind (their labels then go where judged_kinds_blind.py reads them)")
    args = ap.parse_args()

    from rome.core.cache import ScoreCache
    from rome.core.errors import InputError
    from rome.core.files import check_output
    from suites.harness import Invariant, Perturb, Suite
    from suites.harness.cases import build_cases, coverage, edit_key
    from suites.harness.data import resolve_data

    try:
        options = dict(_option(text) for text in args.option)
        data = FirstTexts(resolve_data(args.data), args.texts)
        perturbation = Perturb(args.kind, options).build()
        if args.cases is not None:  # refused before the run, not after it
            check_output(args.cases, cases_kind(), flag="--cases")
    except (InputError, ValueError, KeyError, TypeError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    suite = Suite(name=f"bench_{args.kind}", data=data, perturbation=perturbation, n=None, seed=args.seed,
                  variants_per_text=2, checks=[Invariant()])  # a suite needs a check; none is run here
    n = 10**9
    with tempfile.TemporaryDirectory() as tmp:
        cache = ScoreCache(args.cache or Path(tmp) / "cases.sqlite")
        runs = []
        for _ in range(2):
            started = time.perf_counter()
            cases, stats = build_cases(suite, n, cache=cache, perturbation=perturbation)
            runs.append((time.perf_counter() - started, stats.from_cache))
    first = cases[:SUITE_CASES]
    if args.cases is not None:
        try:
            write_cases(args.cases, cases)
        except InputError as exc:  # a file that is not this script's output: one line, exit 2
            print(f"error: {exc}", file=sys.stderr)
            raise SystemExit(2) from None
    report = {
        "kind": args.kind, "options": options, "data": args.data, "texts": stats.texts_tried, "seed": args.seed,
        "seconds": round(runs[0][0], 1), "seconds_per_1000_texts": round(1000 * runs[0][0] / max(1, stats.texts_tried), 1),
        "seconds_per_text_tried": round(runs[0][0] / max(1, stats.texts_tried), 3),
        "seconds_per_case_kept": round(runs[0][0] / len(cases), 2) if cases else None,
        "estimated_validity": (round(sum(estimates) / len(estimates), 3) if (estimates := [
            c.p_valid for c in cases if c.p_valid is not None]) else None),
        "second_run_seconds": round(runs[1][0], 2), "second_run_from_cache": runs[1][1],
        **coverage(cases, stats),
        "distinct_edits_in_first_200_cases": len({edit_key(c) for c in first}),
        "cases_by_expectation": {e: sum(c.expectation == e for c in cases) for e in ("invariant", "decrease")},
        "load_avg_1min": round(os.getloadavg()[0], 2), "cpus": os.cpu_count(),
    }
    print(json.dumps(report, ensure_ascii=False))


if __name__ == "__main__":
    main()
