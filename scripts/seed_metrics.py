"""Measurements behind docs/baselines.md's GRUEN and Novikova sections, in one place.

``python scripts/seed_metrics.py speed [THREADS] [METRIC]``: GRUEN (or its variant METRIC) on 1,000 distinct
SFHOTEL/SFREST outputs (models loaded, empty encoder, grammar and likelihood caches): wall and CPU seconds.
``python scripts/seed_metrics.py gruen [METRIC ...]``: GRUEN's (or each variant's) Spearman / Pearson with
naturalness and quality on BAGEL, SFHOTEL and SFREST, pooled and averaged over systems (GRUEN's Table 3
protocol, appendix A.3).
``python scripts/seed_metrics.py csv``: per-output agreement of the ``novikova/...`` metrics (and
this harness's METEOR) with the authors' released ``emnlp_data_medians.csv``.
"""

from __future__ import annotations

import csv
import json
import os
import resource
import sys
import time

import numpy as np
from scipy.stats import pearsonr, spearmanr

from rome.core.paths import data_path
from rome.core.registry import build_metric

DATASETS = ("bagel", "sfhotel", "sfrest")


def load(name: str) -> list[dict]:
    return [json.loads(line) for line in data_path("novikova2017", f"{name}.jsonl").open()]


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def speed(threads: int | None, metric_name: str = "gruen") -> None:
    import torch

    from baselines.gruen import clear_likelihood_cache
    from rome.core.encoder import get_encoder
    from rome.metric.grammar import clear_logit_cache

    if threads:
        torch.set_num_threads(threads)
    texts = list(dict.fromkeys(i["hypothesis"] for name in ("sfhotel", "sfrest") for i in load(name)))[:1000]
    metric = build_metric(metric_name)
    metric.score(["Warm the models up."], None)
    get_encoder().clear_cache()
    clear_logit_cache()
    clear_likelihood_cache()
    cpu, start = cpu_seconds(), time.time()
    metric.score(texts, None)
    wall, cpu = time.time() - start, cpu_seconds() - cpu
    print(f"{metric_name}: {len(texts)} outputs, torch threads {torch.get_num_threads()}: wall {wall:.1f} s "
          f"({len(texts) / wall:.0f}/s), CPU {cpu:.1f} s ({len(texts) / cpu:.0f} per CPU s), "
          f"load {os.getloadavg()[0]:.1f}")


def gruen(metric_name: str = "gruen") -> None:
    metric = build_metric(metric_name)
    print(metric_name)
    for name in DATASETS:
        items = load(name)
        scores = metric.score([i["hypothesis"] for i in items], None)
        systems = np.array([i["system"] for i in items])
        for criterion in ("naturalness", "quality"):
            human = np.array([i[criterion] for i in items])
            per = {s: (spearmanr(scores[systems == s], human[systems == s])[0],
                       pearsonr(scores[systems == s], human[systems == s])[0]) for s in sorted(set(systems))}
            print(f"{name} {criterion}: rho pooled {spearmanr(scores, human)[0]:.3f} per-system average "
                  f"{np.mean([v[0] for v in per.values()]):.3f}; r pooled {pearsonr(scores, human)[0]:.3f} "
                  f"per-system average {np.mean([v[1] for v in per.values()]):.3f}; "
                  + ", ".join(f"{s} {v[0]:.2f}" for s, v in per.items()))


def agreement() -> None:
    with data_path("novikova2017", "emnlp_data_medians.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    items = [i for name in DATASETS for i in load(name)]
    hyps, refs = [i["hypothesis"] for i in items], [i["references"] for i in items]
    datasets = np.array([r["dataset"] for r in rows])
    columns = {f"Bleu_{n}": f"novikova/bleu{n}" for n in range(1, 5)}
    columns.update({"ROUGE_L": "novikova/rouge_l", "NIST": "novikova/nist", "METEOR": "meteor"})
    for column, name in columns.items():
        ours = build_metric(name).score(hyps, refs)
        diff = np.abs(ours - np.array([float(r[column]) for r in rows]))
        by_set = " / ".join(f"{np.mean(diff[datasets == d] <= 1e-4):.3f}" for d in ("BAGEL", "SFHOT", "SFRES"))
        print(f"{column} ({name}): within 1e-4 {np.mean(diff <= 1e-4):.3f} ({by_set}), within 0.01 "
              f"{np.mean(diff <= 0.01):.3f}, Spearman {spearmanr(ours, [float(r[column]) for r in rows])[0]:.3f}")
    cider = np.zeros(len(rows))
    for d in ("BAGEL", "SFHOT", "SFRES"):  # idf per dataset
        index = np.flatnonzero(datasets == d)
        cider[index] = build_metric("novikova/cider").score([hyps[i] for i in index], [refs[i] for i in index])
    diff = np.abs(cider - np.array([float(r["CIDEr"]) for r in rows]))
    print(f"CIDEr: within 0.01 {np.mean(diff <= 0.01):.3f}, within 0.1 {np.mean(diff <= 0.1):.3f}")


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else "gruen"
    if command == "speed":
        speed(int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2] != "0" else None, *sys.argv[3:4])
    elif command == "csv":
        agreement()
    else:
        for metric_name in sys.argv[2:] or ["gruen"]:
            gruen(metric_name)
