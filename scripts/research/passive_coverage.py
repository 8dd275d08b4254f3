"""Coverage and cost of the passive: the share of texts it changes, its distinct edits, and the time taken.

    python scripts/research/passive_coverage.py --data news --data webnlg --data dialogue \\
        --data ../shared/data/wmt21/wmt21_pairs.jsonl --texts 3000

Each ``--data`` (a shipped corpus or a JSONL of ``{"id", "reference", "original"}`` lines, as ``rome suite
--data`` reads it) is walked as the ``passive_form`` suite walks it when it builds its cases: its pairs in
the suite's seeded order, each batch parsed at once, ``apply`` with the suite's per-text generator; each
distinct original counts once, up to ``--texts`` of them. The seconds are the case-building cost of that
walk with the default passive (grammar, then the context model's judgement of the clauses it allows),
from a cold start after the models are loaded. ``--grammar`` also runs the grammar alone (no judgement),
so the judge's share of the refusals is seen. Prints one Markdown row per data set.
"""

from __future__ import annotations

import argparse
import itertools
import time
from collections import Counter

from perturbations.base import text_rng
from perturbations.passive import PassiveVoice
from suites.harness.cases import _warmed
from suites.harness.spec import load_suite

SUITE = "passive_form"


def walk(data: str, texts: int, perturbation: PassiveVoice) -> dict:
    """Apply ``perturbation`` to the first ``texts`` distinct originals of ``data`` in the suite's order."""
    suite = load_suite(SUITE).configured(data=data)
    seen: set[str] = set()

    def distinct():
        for pair in suite.data.pairs(suite.seed):
            if pair.original not in seen:
                seen.add(pair.original)
                yield pair

    start = time.perf_counter()
    changed, edits, skipped, tried = 0, Counter(), Counter(), 0
    for pair in _warmed(itertools.islice(distinct(), texts), perturbation):
        tried += 1
        result = perturbation.apply(pair.original, text_rng(suite.seed, pair.source_id))
        variants = [v for v in result.variants if v.text.strip() and v.text != pair.original]
        if not variants:
            skipped[(result.skipped or "no changed variant").split("(")[0].strip()] += 1
            continue
        changed += 1
        edits.update(" | ".join(f"{e.old} -> {e.new}" for e in v.edits) for v in variants)
    return {"data": suite.corpus, "texts": tried, "changed": changed, "distinct_edits": len(edits),
            "seconds": time.perf_counter() - start, "skipped": skipped}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", action="append", required=True, metavar="CORPUS|FILE")
    ap.add_argument("--texts", type=int, default=3000, help="distinct originals walked per data set")
    ap.add_argument("--grammar", action="store_true", help="also run the grammar alone (no judgement)")
    ap.add_argument("--reasons", type=int, default=0, help="print this many most frequent skip reasons")
    args = ap.parse_args(argv)
    from baselines.context.model import get_context_model
    from rome.core.parsing import get_parser

    get_context_model()  # loading the models is not the walk's cost
    get_parser().parse(["The committee approved the budget."])
    runs = [("default", PassiveVoice())] + ([("grammar alone", PassiveVoice(judged=False))]
                                           if args.grammar else [])
    print("| data | passive | texts | changed | share | distinct edits | seconds |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for data in args.data:
        for label, perturbation in runs:
            row = walk(data, args.texts, perturbation)
            print(f"| {row['data']} | {label} | {row['texts']} | {row['changed']} | "
                  f"{row['changed'] / max(row['texts'], 1):.1%} | {row['distinct_edits']} | {row['seconds']:.0f} |",
                  flush=True)
            for reason, count in row["skipped"].most_common(args.reasons):
                print(f"|  | skipped: {reason} | {count} |  |  |  |  |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
