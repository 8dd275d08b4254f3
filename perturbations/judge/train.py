"""Fit the judge's logistic models on development data, set each kind's operating point, report held-out quality.

    python -m perturbations.judge.train [--seed 0] [--out FILE] [--threads 1]

Data (:mod:`perturbations.judge.data`, development only): SWORDS dev candidates, the developer's labels
and the judged cards' development halves for TextFooler and the adjective swaps (one *lexical* model), the
passive's development lines, gold passives and card development halves (one *sentence* model). Each
source is split by context or text, seeded, 70 % fit / 30 % held out, *before* anything is fitted. On the
fit part: the feature scales, the logistic weights (scikit-learn, L2, seeded), and each kind's threshold,
set on out-of-fold probabilities (5 grouped folds) as the lowest at which at least ten accepted fit lines
are at least :data:`TARGET` valid. The held-out part is only measured.

Feature rows are cached (``<model dir>/judge-features.json``, keyed by the model file's hash and the texts),
so a second run takes seconds. Writes the weights to ``--out`` (default: the cache folder; the committed
``perturbations/judge/weights.json`` is replaced only when ``--out`` names it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

from perturbations.judge import data as D
from perturbations.judge.features import LEXICAL, SENTENCE, WINDOW
from perturbations.judge.files import GGUF_SHA256, model_folder

TARGET = 0.90
HELD_OUT = 0.30
FOLDS = 5
C = 1.0
MIN_ACCEPTED = 10
#: share of the SWORDS development passages read: scoring costs about a second per pair on a shared 2-core
#: CPU, and half the passages (about 530 candidates) gave the fit its SWORDS evidence within the hour
SWORDS_SHARE = 0.5
#: share of the developer's TextFooler / adjective labels read (each is one sentence of its own, so each costs
#: a full pass; the judged cards' development halves are all read)
LABELS_SHARE = 0.6
COMMAND = ("python -m perturbations.judge.train --seed {seed} --swords-share {share} --labels-share {labels} "
           "--out perturbations/judge/weights.json")


def split(examples: list[D.Example], seed: int) -> tuple[list[D.Example], list[D.Example]]:
    """Fit / held-out by group (a SWORDS context, a text), seeded, per source."""
    fit, held = [], []
    for source in sorted({e.source for e in examples}):
        groups = sorted({e.group for e in examples if e.source == source})
        random.Random(f"{seed}:{source}").shuffle(groups)
        out = set(groups[:round(len(groups) * HELD_OUT)])
        for e in examples:
            if e.source == source:
                (held if e.group in out else fit).append(e)
    return fit, held


class FeatureCache:
    """Feature rows by model hash, window and texts: ``judge-features*.json`` in the model folder are all
    read (several ``--features-only`` runs may fill shards side by side); rows are written to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rows: dict[str, list[float]] = {}
        for shard in sorted(path.parent.glob("judge-features*.json")):
            self.rows.update(json.loads(shard.read_text()))
        self.mine: dict[str, list[float]] = json.loads(path.read_text()) if path.is_file() else {}

    @staticmethod
    def key(lexical: bool, text: str, variant: str) -> str:
        return json.dumps([GGUF_SHA256[:16], WINDOW if lexical else None, lexical, text, variant])

    def features(self, examples: list[D.Example], lexical: bool, progress: bool = True) -> np.ndarray:
        from perturbations.judge.features import compute
        from perturbations.judge.lm import language_model

        missing = [e for e in examples if self.key(lexical, e.text, e.variant) not in self.rows]
        by_text: dict[str, list[D.Example]] = {}
        for e in missing:
            by_text.setdefault(e.text, []).append(e)
        start, done = time.time(), 0
        for n, (_, group) in enumerate(by_text.items(), 1):
            rows = compute([(e.text, e.variant) for e in group], language_model(), lexical=lexical,
                           window=WINDOW if lexical else None)
            for e, row in zip(group, rows):
                key = self.key(lexical, e.text, e.variant)
                self.rows[key] = self.mine[key] = [float(x) for x in row]
            done += len(group)
            if n % 20 == 0 or n == len(by_text):
                self.save()
                if progress:
                    print(f"  features: {done}/{len(missing)} pairs, {time.time() - start:.0f} s", file=sys.stderr)
        return np.array([self.rows[self.key(lexical, e.text, e.variant)] for e in examples])

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.mine))
        tmp.replace(self.path)


def fit_model(X: np.ndarray, y: np.ndarray, seed: int) -> dict:
    from sklearn.linear_model import LogisticRegression

    mean, scale = X.mean(axis=0), X.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=C, random_state=seed, max_iter=2000).fit((X - mean) / scale, y)
    return {"mean": mean.tolist(), "scale": scale.tolist(), "coef": model.coef_[0].tolist(),
            "intercept": float(model.intercept_[0])}


def predict(model: dict, X: np.ndarray) -> np.ndarray:
    z = ((X - np.array(model["mean"])) / np.array(model["scale"])) @ np.array(model["coef"]) + model["intercept"]
    return 1.0 / (1.0 + np.exp(-z))


def out_of_fold(X: np.ndarray, y: np.ndarray, groups: list[str], seed: int) -> np.ndarray:
    names = sorted(set(groups))
    random.Random(f"{seed}:folds").shuffle(names)
    fold = {g: k % FOLDS for k, g in enumerate(names)}
    at = np.array([fold[g] for g in groups])
    p = np.zeros(len(y))
    for k in range(FOLDS):
        test = at == k
        p[test] = predict(fit_model(X[~test], y[~test], seed), X[test])
    return p


def operating_point(p: np.ndarray, y: np.ndarray, target: float = TARGET) -> float:
    """The lowest threshold at which at least :data:`MIN_ACCEPTED` lines are accepted and the accepted lines
    are at least ``target`` valid; 1.0 when there is none."""
    order = np.argsort(-p)
    best = 1.0
    hits = 0
    for n, i in enumerate(order, 1):
        hits += y[i]
        if n >= MIN_ACCEPTED and hits / n >= target and (n == len(order) or p[order[n]] < p[i]):
            best = float(p[i])
    return best


def auc(p: np.ndarray, y: np.ndarray) -> float | None:
    from sklearn.metrics import roc_auc_score

    return float(roc_auc_score(y, p)) if 0 < y.sum() < len(y) else None


def measure(p: np.ndarray, y: np.ndarray, threshold: float) -> dict:
    accepted = p >= threshold
    top = np.argsort(-p)[:max(1, round(0.10 * len(p)))]
    return {"n": int(len(y)), "valid": int(y.sum()), "auc": auc(p, y),
            "accepted": int(accepted.sum()), "accepted_share": float(accepted.mean()),
            "precision_accepted": float(y[accepted].mean()) if accepted.any() else None,
            "mean_p_accepted": float(p[accepted].mean()) if accepted.any() else None,
            "precision_top10pct": float(y[top].mean()), "mean_p_top10pct": float(p[top].mean()),
            "mean_p": float(p.mean()), "base_rate": float(y.mean())}


def single_feature_auc(X: np.ndarray, y: np.ndarray, names) -> dict:
    return {n: auc(X[:, k], y) for k, n in enumerate(names)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None, help="weights file (default: the model cache folder)")
    parser.add_argument("--report", type=Path, default=None, help="also write the measurements here (JSON)")
    parser.add_argument("--threads", type=int, default=1,
                        help="torch threads for this command (default 1: threads spin on a shared CPU)")
    parser.add_argument("--swords-share", type=float, default=SWORDS_SHARE,
                        help=f"share of SWORDS passages used, chosen by seeded hash (default {SWORDS_SHARE})")
    parser.add_argument("--labels-share", type=float, default=LABELS_SHARE,
                        help=f"share of the developer's TextFooler/adjective labels used, by seeded hash of the text "
                             f"(default {LABELS_SHARE})")
    parser.add_argument("--features-only", choices=("lexical", "sentence"), default=None,
                        help="only compute (and cache) one set's features, in a shard of its own; fit nothing")
    parser.add_argument("--part", choices=("fit", "held", "all"), default="all", help="with --features-only")
    parser.add_argument("--shard", default=None, help="with --features-only: J/K, the J-th of K slices by text")
    args = parser.parse_args(argv)
    import torch

    torch.set_num_threads(args.threads)
    shard = f"-{args.features_only}-{args.part}" if args.features_only else ""
    if args.features_only and args.shard:
        shard += "-" + args.shard.replace("/", "of")
    cache = FeatureCache(model_folder() / f"judge-features{shard}.json")
    chosen_swords = [e for e in D.swords()
                     if int(hashlib.sha256(f"{args.seed}:{e.group}".encode()).hexdigest(), 16) % 1000
                     < args.swords_share * 1000]
    chosen_labels = [e for e in D.context_labels()
                     if int(hashlib.sha256(f"{args.seed}:{e.group}".encode()).hexdigest(), 16) % 1000
                     < args.labels_share * 1000]
    sets = {"lexical": chosen_swords + chosen_labels + D.cards(("textfooler", "adjective")),
            "sentence": D.passive() + D.cards(("passive",))}
    weights: dict = {"gguf_sha256": GGUF_SHA256, "window": WINDOW, "seed": args.seed, "target": TARGET,
                     "swords_share": args.swords_share, "labels_share": args.labels_share,
                     "command": COMMAND.format(seed=args.seed, share=args.swords_share, labels=args.labels_share), "models": {}, "kinds": {}}
    report: dict = {}
    for name, examples in sets.items():
        lexical = name == "lexical"
        names = LEXICAL if lexical else SENTENCE
        fit, held = split(examples, args.seed)
        print(f"{name}: {len(fit)} fit / {len(held)} held-out pairs", file=sys.stderr)
        if args.features_only:
            if name == args.features_only:
                chosen = {"fit": fit, "held": held, "all": fit + held}[args.part]
                chosen = sorted(chosen, key=lambda e: e.source != "swords")  # the held-out measure's data first
                if args.shard:
                    j, k = (int(x) for x in args.shard.split("/"))
                    chosen = [e for e in chosen if int(hashlib.sha256(e.text.encode()).hexdigest(), 16) % k == j]
                cache.features(chosen, lexical)
            continue
        Xf, Xh = cache.features(fit, lexical), cache.features(held, lexical)
        yf = np.array([e.valid for e in fit], dtype=int)
        yh = np.array([e.valid for e in held], dtype=int)
        model = fit_model(Xf, yf, args.seed)
        oof = out_of_fold(Xf, yf, [f"{e.source}:{e.group}" for e in fit], args.seed)
        weights["models"][name] = {"features": list(names), "lexical": lexical, **model,
                                   "fit": {"pairs": len(fit), "valid": int(yf.sum()),
                                           "sources": sorted({e.source for e in fit})}}
        ph = predict(model, Xh)
        report[name] = {"single_feature_auc_fit": single_feature_auc(Xf, yf, names),
                        "single_feature_auc_held": single_feature_auc(Xh, yh, names)}
        for kind in (("textfooler", "adjective") if lexical else ("passive",)):
            mine = np.array([e.kind == kind for e in fit])
            threshold = operating_point(oof[mine], yf[mine])
            weights["kinds"][kind] = {"model": name, "threshold": round(threshold, 4),
                                      "set_on": {"fit_pairs": int(mine.sum()), "valid": int(yf[mine].sum()),
                                                 **{k: v for k, v in measure(oof[mine], yf[mine], threshold).items()
                                                    if k in ("accepted", "precision_accepted", "mean_p_accepted")}}}
            rows = {}
            for source in sorted({e.source for e in held}) + ["all"]:
                pick = np.array([e.kind == kind and (source == "all" or e.source == source) for e in held])
                if pick.sum():
                    rows[source] = measure(ph[pick], yh[pick], threshold)
            report[name][kind] = {"threshold": threshold, "held_out": rows}
    if args.features_only:
        return 0
    text = json.dumps(weights, indent=1) + "\n"
    out = args.out or model_folder() / "judge-weights.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text)
    print(json.dumps(report, indent=1))
    if args.report:
        args.report.write_text(json.dumps(report, indent=1) + "\n")
    print(f"wrote {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
