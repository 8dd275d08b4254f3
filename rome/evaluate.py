"""Spearman correlation of RoMe and the baselines with Novikova et al.'s human ratings.

``python -m rome.evaluate [--datasets bagel sfhotel] [--output results.json]``

Two protocols, both on ``../shared/data/novikova2017/<dataset>.jsonl`` (read directly):

* ``mr``: the meaning representation is the reference (the paper's Table 1), written as
  words: ``inform(name='hotel drisco',pricerange=pricey)`` -> ``inform name hotel drisco
  pricerange pricey`` (brackets, quotes, ``=`` and commas become spaces, ``_`` a space);
* ``refs``: the human references (multi-reference: each metric's best over them).

Every metric scores the same pairs in the same run; ``rho`` is Spearman's correlation with
informativeness, naturalness and quality. The ratings are only read here, never in training.
``--profile`` also times RoMe's steps on cold caches (pairs per second, step shares).
"""

from __future__ import annotations

import argparse
import json
import re
import time
from pathlib import Path

import numpy as np

from rome.core.data_paths import shared_path
from rome.core.registry import available_metrics, build_metric

ASPECTS = ("informativeness", "naturalness", "quality")
BASELINES = ("bleu", "meteor", "bertscore", "moverscore")
ROME_VARIANTS = ("rome/emd_std", "rome/align", "rome/soft", "rome/ted", "rome")


def load_dataset(name: str) -> list[dict]:
    path = shared_path("data", "novikova2017", f"{name}.jsonl")
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def mr_as_text(mr: str) -> str:
    """The MR as plain words, so word-based metrics can read it as a reference."""
    text = re.sub(r"[()'=,\"]", " ", mr).replace("_", " ")
    return re.sub(r"\s+", " ", text).strip()


def references(rows: list[dict], protocol: str) -> list[str | list[str]]:
    if protocol == "mr":
        return [mr_as_text(r["mr"]) for r in rows]
    return [list(r["references"]) for r in rows]


def spearman(scores: np.ndarray, rows: list[dict]) -> dict[str, float]:
    from scipy.stats import spearmanr

    return {a: round(float(spearmanr(scores, [r[a] for r in rows]).statistic), 3) for a in ASPECTS}


def run(datasets: list[str], metric_names: list[str]) -> dict:
    results: dict = {"rho": {}, "seconds": {}, "pairs": {}}
    for name in metric_names:
        try:
            metric = build_metric(name)
        except Exception as exc:  # noqa: BLE001 - report and go on with the other metrics
            results["rho"][name] = f"unavailable: {exc}"
            continue
        for dataset in datasets:
            rows = load_dataset(dataset)
            hyps = [r["hypothesis"] for r in rows]
            for protocol in ("mr", "refs"):
                refs = references(rows, protocol)
                start = time.perf_counter()
                try:
                    scores = metric.score(hyps, refs)
                except Exception as exc:  # noqa: BLE001
                    results["rho"].setdefault(name, {})[f"{dataset}/{protocol}"] = f"failed: {exc}"
                    continue
                key = f"{dataset}/{protocol}"
                results["rho"].setdefault(name, {})[key] = spearman(scores, rows)
                results["seconds"].setdefault(name, {})[key] = round(time.perf_counter() - start, 2)
                n_pairs = sum(1 if isinstance(r, str) else len(r) for r in refs)
                results["pairs"][key] = n_pairs
                print(f"{name:14s} {key:14s} {results['rho'][name][key]}", flush=True)
    return results


def profile(n_pairs: int = 400) -> dict:
    """Cold-cache timing of RoMe's steps and end to end, on SFHOTEL's first ``n_pairs`` outputs."""
    from rome.core.encoder import get_encoder
    from rome.core.parsing import clear_parse_caches
    from rome.metric import RoMe
    from rome.profiling import rome_step_times

    rows = load_dataset("sfhotel")[:n_pairs]
    hyps = [r["hypothesis"] for r in rows]
    refs = [r["references"][0] for r in rows]
    times = rome_step_times(hyps, refs)
    total = sum(times.values())
    metric = RoMe()
    metric.score(hyps[:2], refs[:2])  # load everything outside the clock
    get_encoder().clear_cache()
    clear_parse_caches()
    start = time.perf_counter()
    metric.score(hyps, refs)
    end_to_end = time.perf_counter() - start
    return {
        "pairs": len(rows),
        "unique_texts": len(set(hyps) | set(refs)),
        "seconds": {k: round(v, 3) for k, v in times.items()},
        "share": {k: round(v / total, 3) for k, v in times.items()},
        "pairs_per_second_steps": round(len(rows) / total, 1),
        "pairs_per_second_rome_end_to_end": round(len(rows) / end_to_end, 1),
    }


def markdown(results: dict, datasets: list[str]) -> str:
    keys = [f"{d}/{p}" for p in ("mr", "refs") for d in datasets]
    lines = ["| metric | " + " | ".join(f"{k} info / nat / qual" for k in keys) + " |",
             "|---|" + "---|" * len(keys)]
    for name, per in results["rho"].items():
        if isinstance(per, str):
            lines.append(f"| {name} | {per} |")
            continue
        cells = []
        for key in keys:
            rho = per.get(key)
            cells.append(" / ".join(f"{rho[a]:.3f}" for a in ASPECTS) if isinstance(rho, dict) else str(rho))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--datasets", nargs="+", default=["bagel", "sfhotel"])
    parser.add_argument("--metrics", nargs="+", default=[*BASELINES, *ROME_VARIANTS])
    parser.add_argument("--output", type=Path, default=None, help="write the results as JSON")
    parser.add_argument("--profile", action="store_true", help="also time RoMe's steps")
    args = parser.parse_args(argv)
    known = set(available_metrics())
    names = [m for m in args.metrics if m in known]
    results = run(args.datasets, names)
    if args.profile:
        results["profile"] = profile()
        print(json.dumps(results["profile"], indent=1))
    print(markdown(results, args.datasets))
    if args.output:
        args.output.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
