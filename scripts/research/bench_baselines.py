"""Throughput of our BERTScore and MoverScore against the packages they reproduce, same pairs and model.

    .venv/bin/python scripts/research/bench_baselines.py [--n 1000] [--repeats 3]

Pairs: the first N BAGEL then SFHOTEL outputs with their first reference (reports.bench.load_pairs).
Every timing starts with an empty encoder cache and a loaded model; the best of ``--repeats``
runs is kept (the machine may be shared). bert_score.score() is also timed as a user calls it,
model loading included. The moverscore package is the real one patched in memory
(tests/baselines_moverscore_oracle.py), with its README's idf recipe.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


#: CPU seconds (all threads) of each timed run, beside wall seconds: on a shared, loaded machine
#: wall time mostly measures the other processes
CPU_SECONDS: dict[str, float] = {}


def best_seconds(fn: Callable[[], object], repeats: int, before: Callable[[], None] = lambda: None) -> float:
    """Best wall time of ``repeats`` runs; the CPU time of that run goes to the last CPU_SECONDS key."""
    runs = []
    for _ in range(repeats):
        before()
        wall, cpu = time.perf_counter(), time.process_time()
        fn()
        runs.append((time.perf_counter() - wall, time.process_time() - cpu))
    best = min(runs)
    CPU_SECONDS[f"run{len(CPU_SECONDS)}"] = best[1]
    return best[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=0, help="torch threads (0: torch's default)")
    args = parser.parse_args()
    for key in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE"):
        os.environ[key] = "1"
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    sys.path.insert(0, str(ROOT / "tests"))

    import bert_score
    import torch
    from baselines_moverscore_oracle import patched_moverscore_v2

    from baselines.bertscore import BERTScore
    from baselines.moverscore import MoverScore
    from reports.bench import load_pairs
    from rome.core.encoder import get_encoder

    if args.threads:
        torch.set_num_threads(args.threads)
    hyps, refs = load_pairs(args.n)
    encoder = get_encoder()
    cold = encoder.clear_cache
    ours_bs, ours_ms = BERTScore(), MoverScore()
    ours_bs.score(hyps[:4], refs[:4])
    seconds: dict[str, float] = {
        "ours_bertscore": best_seconds(lambda: ours_bs.score(hyps, refs), args.repeats, cold),
        "ours_bertscore_idf": best_seconds(lambda: BERTScore(idf=True).score(hyps, refs), args.repeats, cold),
        "ours_moverscore_idf": best_seconds(lambda: ours_ms.score(hyps, refs), args.repeats, cold),
        "ours_moverscore_after_bertscore_warm_cache": best_seconds(lambda: ours_ms.score(hyps, refs), args.repeats),
    }
    path, layers = encoder.path, encoder.num_layers
    seconds["bert_score.score_with_model_loading"] = best_seconds(
        lambda: bert_score.score(hyps, refs, model_type=path, num_layers=layers, nthreads=0), args.repeats
    )
    scorer = bert_score.BERTScorer(model_type=path, num_layers=layers, batch_size=64)
    scorer.score(hyps[:4], refs[:4])
    seconds["bert_score.BERTScorer.score_model_loaded"] = best_seconds(lambda: scorer.score(hyps, refs), args.repeats)
    with patched_moverscore_v2() as mv:
        def package_moverscore() -> None:
            idf_ref, idf_hyp = mv.get_idf_dict(refs, nthreads=1), mv.get_idf_dict(hyps, nthreads=1)
            mv.word_mover_score(refs, hyps, idf_ref, idf_hyp, stop_words=[], device="cpu")

        seconds["moverscore_v2_package_idf"] = best_seconds(package_moverscore, args.repeats)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
    report = {
        "date_utc": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M"),
        "commit": commit.stdout.strip(), "n_pairs": len(hyps), "repeats": args.repeats,
        "model": encoder.name, "cpus": os.cpu_count(), "torch_threads": torch.get_num_threads(), "load_avg_1min": os.getloadavg()[0],
        "seconds": {k: round(v, 2) for k, v in seconds.items()},
        "pairs_per_s": {k: round(len(hyps) / v, 1) for k, v in seconds.items()},
        "cpu_seconds": {k: round(v, 2) for k, v in zip(seconds, CPU_SECONDS.values())},
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
