"""Peak memory of ``rome score`` against the number of pairs: streaming keeps it flat.

    python scripts/research/bench_memory.py --n 1000 --n 10000 [--metric bertscore --metric rome]

Pairs: every Novikova et al. (2017) system output with each of its human references (BAGEL,
SFHOTEL, SFREST: 11,823 pairs, ~12k distinct texts); beyond that the pairs repeat with
" (copy k)" appended to both texts, so every text stays distinct and the bounded caches
(encoder 4,096 entries, parser 20,000) fill and evict as they would on a large corpus. Each size runs in a fresh process; its peak RSS is the
child's own ``VmHWM`` (:func:`reports.bench.peak_rss_mb`), read as it exits: ``ru_maxrss`` would carry
this parent's memory at the fork into it.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rome.data.novikova import load_rows

#: ``rome score`` run in-process, writing its own peak RSS (MB) to the file named first on its command line
_CHILD = """import runpy, sys
from pathlib import Path
from reports.bench import peak_rss_mb
peak_file, sys.argv = sys.argv[1], ["rome", *sys.argv[2:]]
try:
    runpy.run_module("reports.cli", run_name="__main__")
finally:
    Path(peak_file).write_text(f"{peak_rss_mb():.0f}")
"""


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
    peak_file = workdir / f"peak-{n}.txt"
    args = [sys.executable, "-c", _CHILD, str(peak_file), "score", "--input", str(src), "--output", str(out), "--force"]
    for metric in metrics:
        args += ["--metric", metric]
    start = time.perf_counter()
    code = subprocess.run(args, stderr=subprocess.DEVNULL, check=False).returncode
    seconds = time.perf_counter() - start
    if code != 0:
        raise SystemExit(f"rome score failed on {n} pairs")
    return {"pairs": n, "metrics": metrics, "seconds": round(seconds, 1), "peak_rss_mb": int(peak_file.read_text())}


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
