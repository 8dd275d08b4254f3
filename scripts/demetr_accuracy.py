"""DEMETR accuracy per category of any registered metrics, through the score cache.

``python scripts/demetr_accuracy.py --metric rome --metric bertscore [--out acc.json]``: for every
shipped DEMETR file, the share of usable items where ``score(good) > score(bad)`` against the
reference, by the harness's own rule (:func:`suites.harness.pairwise.prefers`: scores closer than
1e-6 of the range are a tie, and ties are errors; ``base_id35_reference`` reversed by the data
layer). Before 2026-11-23 (lead) this script compared with a bare ``>``, which let float32 noise between
differently padded batches count as wins where the MiniLM metrics truly tie. Batch-dependent
metrics (MoverScore's idf) are fitted per file. This is how docs/rome.md's DEMETR table was
measured for BERTScore and MoverScore; RoMe's variants there came from the same code with each
sentence's encoder and parser outputs computed once (equal to this script within 2.1e-7).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from rome.core.cache import ScoreCache, default_cache_path
from rome.core.registry import build_metric
from rome.data.challenge import demetr_files, read_demetr
from suites.harness.checks import MetricInfo
from suites.harness.pairwise import prefers


def accuracy(name: str, cache: ScoreCache) -> dict[str, list[bool]]:
    """Per category, whether each item's good hypothesis scored above its bad one (ties fail)."""
    metric = build_metric(name)
    info = MetricInfo.of(name, metric)
    out = {}
    for path in demetr_files():
        items = list(read_demetr(path))
        hyps = [it.good for it in items] + [it.bad for it in items]
        refs = [it.reference for it in items] * 2
        scores = cache.score(metric, hyps, refs)
        n = len(items)
        out[path.stem] = [prefers(info, scores[i], scores[n + i]) for i in range(n)]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--metric", action="append", required=True)
    parser.add_argument("--out", type=Path, default=None, help="JSON of per-item outcomes by metric and category")
    args = parser.parse_args(argv)
    cache = ScoreCache(default_cache_path())
    results = {}
    for name in args.metric:
        start = time.time()
        results[name] = acc = accuracy(name, cache)
        nonbase = [c for c in acc if not c.startswith("base")]
        for category, hits in acc.items():
            print(f"{name}\t{category}\t{np.mean(hits):.3f}\t{len(hits)}")
        print(f"{name}\tnon-base mean of categories {np.mean([np.mean(acc[c]) for c in nonbase]):.4f}, "
              f"pooled {np.mean([x for c in nonbase for x in acc[c]]):.4f} ({time.time() - start:.0f} s)",
              file=sys.stderr)
    if args.out:
        args.out.write_text(json.dumps(results) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
