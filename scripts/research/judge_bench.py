"""The judge's cost on this machine: seconds per judged pair, and the estimate for one suite.

    python scripts/research/judge_bench.py [--texts 12] [--variants 5] [--threads 1] [--suite-texts 3000]

Judges ``--texts`` originals with up to ``--variants`` one-word variants each (SWORDS development sentences
and their WordNet-synonym candidates: the shape of a TextFooler search, several candidates per text) and as
many single pairs (one variant per original: the shape of the passive), after loading the model once.
Prints the load time, seconds per pair in each shape, and the estimate for ``--suite-texts`` texts at
``--variants`` candidates each. Nothing is written; no cache is used (every pair is scored).
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--texts", type=int, default=12)
    parser.add_argument("--variants", type=int, default=5)
    parser.add_argument("--suite-texts", type=int, default=3000)
    parser.add_argument("--threads", type=int, default=1,
                        help="torch threads for this command (default 1: threads spin on a shared CPU)")
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(args.threads)
    from judge_data import swords

    from perturbations.judge import get_judge, language_model

    by_text: dict[str, list[str]] = {}
    for example in swords():
        by_text.setdefault(example.text, []).append(example.variant)
    chosen = [(t, v[:args.variants]) for t, v in by_text.items() if len(v) >= args.variants][:args.texts]
    start = time.perf_counter()
    language_model()
    judge = get_judge("textfooler")
    loaded = time.perf_counter() - start
    judge.p_valid([(chosen[0][0], chosen[0][1][0])])  # first call builds the English vocabulary
    warm = time.perf_counter() - start - loaded
    grouped = [(t, v) for t, vs in chosen for v in vs]
    start = time.perf_counter()
    judge.p_valid(grouped)
    per_grouped = (time.perf_counter() - start) / len(grouped)
    single = [(t, vs[0]) for t, vs in chosen]
    start = time.perf_counter()
    for pair in single:
        judge.p_valid([pair])
    per_single = (time.perf_counter() - start) / len(single)
    per_text = per_grouped * args.variants
    result = {"threads": torch.get_num_threads(), "load_s": round(loaded, 1), "first_call_s": round(warm, 1),
              "pairs_grouped": len(grouped), "s_per_pair_grouped": round(per_grouped, 3),
              "pairs_single": len(single), "s_per_pair_single": round(per_single, 3),
              "suite_texts": args.suite_texts, "variants_per_text": args.variants,
              "suite_estimate_min": round(args.suite_texts * per_text / 60, 1)}
    print(json.dumps(result, indent=1))
    print(f"judge: {per_grouped:.2f} s per pair with {args.variants} variants per text, {per_single:.2f} s per "
          f"single pair; one suite over {args.suite_texts} texts at {args.variants} candidates each: "
          f"~{result['suite_estimate_min']} min on this machine (cached after)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
