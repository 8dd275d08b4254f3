"""Peak memory of ``rome score`` against the number of pairs: streaming keeps it flat.

    python scripts/research/bench_memory.py --n 1000 --n 10000 [--metric bertscore --metric rome]

Pairs: every Novikova et al. (2017) system output with each of its human references (BAGEL,
SFHOTEL, SFREST: 11,823 pairs, ~12k distinct texts); beyond that the pairs repeat with
" (copy k)" appended to both texts, so every text stays distinct and the bounded caches
(encoder 4,096 entries, parser 20,000) fill and evict as they would on a large corpus. Each size runs in a fresh process; its peak RSS is the
child's own ``ru_maxrss`` (``os.wait4``).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rome.data.novikova import load_rows


def all_pairs() -> list[dict]:
    pairs = []
    for name in ("bagel", "sfhotel", "sfrest"):
        for item in load_rows(name):
            for k, ref in enumerate(item["references"]):
                pairs.append({"id": f"{item['id']}-{k}", "hypothesis": item["hypothesis"], "reference": ref})
    return pairs


def measure(n: int, metrics: list[str], workdir: Path) -> dict:
    base = all_pairs()
    pairs = [p if i < len(base) else
             {"id": f"{p['id']}-copy{i // len(base)}", "hypothesis": f"{p['hypothesis']} (copy {i // len(base)})",
              "reference": f"{p['reference']} (copy {i // len(base)})"}
             for i in range(n) for p in [base[i % len(base)]]]
    src, out = workdir / f"pairs-{n}.jsonl", workdir / f"out-{n}.jsonl"
    src.write_text("".join(json.dumps(p) + "\n" for p in pairs[:n]))
    args = [sys.executable, "-m", "reports.cli", "score", "--input", str(src), "--output", str(out), "--force"]
    for metric in metrics:
        args += ["--metric", metric]
    start = time.perf_counter()
    child = subprocess.Popen(args, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)  # this child's own rusage
    seconds = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"rome score failed on {n} pairs")
    peak = usage.ru_maxrss
    return {"pairs": n, "metrics": metrics, "seconds": round(seconds, 1), "peak_rss_mb": round(peak / 1024)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, action="append", required=True)
    parser.add_argument("--metric", action="append", default=None)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        for n in args.n:
            print(json.dumps(measure(n, args.metric or ["bertscore", "rome"], Path(tmp))), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
