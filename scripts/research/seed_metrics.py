"""Measurements behind docs/baselines.md's GRUEN and Novikova sections, in one place.

``python scripts/research/seed_metrics.py speed [THREADS] [METRIC]``: GRUEN (or its variant METRIC) on 1,000 distinct
SFHOTEL/SFREST outputs (models loaded, empty encoder, grammar and likelihood caches): wall and CPU seconds.
``python scripts/research/seed_metrics.py gruen [METRIC ...] [DATASET ...]``: GRUEN's (or each METRIC's) Spearman / Pearson with
naturalness and quality on BAGEL, SFHOTEL and SFREST (or the DATASETs named), pooled and averaged over systems (GRUEN's Table 3
protocol, appendix A.3), with 95 % percentile-bootstrap intervals (items resampled; for the average, within
each system); a reference-based METRIC is given the shipped references.
``python scripts/research/seed_metrics.py csv``: per-output agreement of the ``novikova/...`` metrics (and
this harness's METEOR) with the authors' released ``emnlp_data_medians.csv``.
"""

from __future__ import annotations

import csv
import json
import os
import resource
import sys
import time
from collections.abc import Sequence

import numpy as np
from scipy.stats import spearmanr

from reports.stats import (
    bootstrap_indices,
    coefficient,
    correlate,
    percentile_interval,
    resampled_coefficients,
)
from rome.core.paths import data_path
from rome.core.registry import build_metric

DATASETS = ("bagel", "sfhotel", "sfrest")
#: bootstrap resamples and seed of the intervals (as `rome report correlation`'s defaults)
BOOTSTRAP, SEED = 1000, 0


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


def system_average_interval(scores: np.ndarray, human: np.ndarray, systems: np.ndarray, method: str,
                            seed: int) -> tuple[float, float, float]:
    """The per-system average of ``method`` (GRUEN's Table 3 protocol) and its 95 % percentile-bootstrap
    interval: items resampled within each system (the same seeded resamples for every metric), the
    systems' coefficients averaged per resample."""
    values, boots = [], []
    for k, system in enumerate(sorted(set(systems))):
        index = np.flatnonzero(systems == system)
        values.append(coefficient(scores[index], human[index], method)[0])
        boots.append(resampled_coefficients(scores[index], human[index], method,
                                            bootstrap_indices(len(index), BOOTSTRAP, seed + k)))
    low, high = percentile_interval(np.mean(boots, axis=0))
    return float(np.mean(values)), low, high


def gruen(metric_name: str = "gruen", datasets: Sequence[str] = DATASETS) -> None:
    metric = build_metric(metric_name)
    print(f"{metric_name} ({metric.signature()})")
    warm = "Warm the models up."
    metric.score([warm], [[warm]] if metric.needs_reference else None)
    for name in datasets:
        items = load(name)
        references = [i["references"] for i in items] if metric.needs_reference else None
        cpu, start = cpu_seconds(), time.time()
        scores = metric.score([i["hypothesis"] for i in items], references)
        wall, cpu = time.time() - start, cpu_seconds() - cpu
        print(f"{name}: scored {len(items)} outputs in {wall:.1f} s wall ({len(items) / wall:.2f}/s), {cpu:.1f} CPU s, "
              f"load {os.getloadavg()[0]:.1f} (models loaded; caches shared with the metrics before it in this run)")
        systems = np.array([i["system"] for i in items])
        for criterion in ("naturalness", "quality"):
            human = np.array([i[criterion] for i in items], dtype=np.float64)
            cells = []
            for method, symbol in (("spearman", "rho"), ("pearson", "r")):
                average, low, high = system_average_interval(scores, human, systems, method, SEED)
                pooled = correlate(scores, human, method, BOOTSTRAP, SEED)
                per = ", ".join(f"{s} {coefficient(scores[systems == s], human[systems == s], method)[0]:.2f}"
                                for s in sorted(set(systems)))
                cells.append(f"{symbol} per-system average {average:.3f} [{low:.2f}, {high:.2f}] pooled "
                             f"{pooled.value:.3f} [{pooled.ci_low:.2f}, {pooled.ci_high:.2f}] ({per})")
            print(f"{name} {criterion} (n {len(items)}): " + "; ".join(cells))


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
        names = [a for a in sys.argv[2:] if a not in DATASETS] or ["gruen"]
        chosen = [a for a in sys.argv[2:] if a in DATASETS] or list(DATASETS)
        for metric_name in names:
            gruen(metric_name, chosen)
