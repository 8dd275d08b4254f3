"""Fit the judge's logistic models on development data, set each kind's operating point, report held-out quality.

    python scripts/research/judge_train.py [--seed 0] [--out FILE] [--rows FILE] [--threads 1]

Data (``judge_data.py``, development only): SWORDS dev candidates, the developer's labels and the judged
cards' development halves for TextFooler and the adjective swaps (one *lexical* model), the passive's
blind-read development lines and card development halves (one *sentence* model; the gold set's passives are
only measured: the share the passive's point accepts). Each source is split by
context or text, seeded, 70 % fit / 30 % held out, *before* anything is fitted. On the fit part
(:mod:`perturbations.judge.fit`): the feature scales, the logistic weights and each kind's threshold, set on
out-of-fold probabilities. The held-out part is only measured.

Feature rows are read from ``data/judge_features.json`` (the fit rows the committed weights were fitted on,
with their labels; ``--rows`` rewrites it) and cached under ``$ROME_CACHE_DIR/trained/judge/``
(``features*.json``, keyed by the model file's hash and the texts), so a second run takes seconds. Writes the
weights to ``--out`` (default ``$ROME_CACHE_DIR/trained/judge/weights.json``) through the project's safe
writer: never into the model folder or the package; shipping new weights is copying that file over
``perturbations/judge/weights.json``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from pathlib import Path

import judge_data as D
import numpy as np

from perturbations.judge.features import LEXICAL, SENTENCE, WINDOW
from perturbations.judge.files import GGUF_SHA256
from perturbations.judge.fit import TARGET, fit_set, predict
from rome.core.files import OutputKind, check_output, safe_output
from rome.core.paths import trained_dir

HELD_OUT = 0.30
#: share of the SWORDS development passages read: scoring costs about a second per pair on a shared 2-core
#: CPU, and half the passages (about 530 candidates) gave the fit its SWORDS evidence within the hour
SWORDS_SHARE = 0.5
#: share of the developer's TextFooler / adjective labels read (each is one sentence of its own, so each costs
#: a full pass; the judged cards' development halves are all read)
LABELS_SHARE = 0.6
COMMAND = ("python scripts/research/judge_train.py --seed {seed} --swords-share {share} --labels-share {labels} "
           "--out weights.json")
#: the fit rows of the committed weights, with their labels (``--rows`` writes it)
ROWS = Path(__file__).resolve().parent / "data" / "judge_features.json"
WEIGHTS_OUTPUT = OutputKind("a judge weights file", frozenset({"gguf_sha256", "models", "kinds"}), jsonl=False)
REPORT_OUTPUT = OutputKind("a judge training report", frozenset({"lexical", "sentence"}), jsonl=False)
ROWS_OUTPUT = OutputKind("a judge feature-rows file", frozenset({"gguf_sha256", "window", "rows"}), jsonl=False)


def split(examples: list[D.LabelledPair], seed: int) -> tuple[list[D.LabelledPair], list[D.LabelledPair]]:
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


def committed_rows(path: Path = ROWS) -> dict[str, list[float]]:
    """The committed rows by :meth:`FeatureCache.key` (none when the file is absent or of another model)."""
    if not path.is_file():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    if data["gguf_sha256"] != GGUF_SHA256 or data["window"] != WINDOW:
        return {}
    current = {"lexical": list(LEXICAL), "sentence": list(SENTENCE)}
    named = data.get("features", {"lexical": list(LEXICAL)})  # files before the names were recorded: lexical only
    return {FeatureCache.key(r["model"] == "lexical", r["text"], r["variant"]): r["features"] for r in data["rows"]
            if named.get(r["model"]) == current[r["model"]]}


class FeatureCache:
    """Feature rows by model hash, window and texts: the committed rows, then every ``features*.json`` in
    ``path``'s folder (several ``--features-only`` runs may fill shards side by side); new rows go to ``path``."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.rows: dict[str, list[float]] = committed_rows()
        for shard in sorted(path.parent.glob("features*.json")):
            self.rows.update(json.loads(shard.read_text()))
        self.mine: dict[str, list[float]] = json.loads(path.read_text()) if path.is_file() else {}

    @staticmethod
    def key(lexical: bool, text: str, variant: str) -> str:
        """Model, window, texts, and the model's feature names (rows of other features never match: a cache
        written by code with another feature list is recomputed, not read at the wrong width)."""
        return json.dumps([GGUF_SHA256[:16], WINDOW if lexical else None, lexical, text, variant,
                           list(LEXICAL if lexical else SENTENCE)])

    def features(self, examples: list[D.LabelledPair], lexical: bool, progress: bool = True) -> np.ndarray:
        from perturbations.judge.features import compute
        from perturbations.judge.lm import language_model

        missing = [e for e in examples if self.key(lexical, e.text, e.variant) not in self.rows]
        by_text: dict[str, list[D.LabelledPair]] = {}
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
        """A cache file of this command's own (not a user's output): replaced atomically, no output checks."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(self.mine))
        tmp.replace(self.path)


def rows_document(fits: dict[str, tuple[list[D.LabelledPair], np.ndarray]]) -> str:
    """The fit rows of each model with their labels, one row a line (a diff shows which rows changed)."""
    rows = [json.dumps({"model": name, "source": e.source, "group": e.group, "kind": e.kind, "text": e.text,
                        "variant": e.variant, "valid": e.valid, "features": [float(x) for x in row]})
            for name, (fit, X) in fits.items() for e, row in zip(fit, X)]
    head = json.dumps({"gguf_sha256": GGUF_SHA256, "window": WINDOW,
                       "features": {"lexical": list(LEXICAL), "sentence": list(SENTENCE)}})[:-1]
    return head + ', "rows": [\n' + ",\n".join(rows) + "\n]}\n"


def carried(name: str) -> tuple[dict, dict, tuple[list[D.LabelledPair], np.ndarray]]:
    """A model not refitted (``--models``): its committed weights, its kinds' thresholds and its committed fit rows."""
    from perturbations.judge import load_weights

    committed = load_weights()
    rows = [r for r in json.loads(ROWS.read_text(encoding="utf-8"))["rows"] if r["model"] == name]
    pairs = [D.LabelledPair(r["source"], r["group"], r["kind"], r["text"], r["variant"], r["valid"]) for r in rows]
    kinds = {k: v for k, v in committed["kinds"].items() if v["model"] == name}
    return committed["models"][name], kinds, (pairs, np.array([r["features"] for r in rows]))


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
    parser.add_argument("--out", type=Path, default=None,
                        help="weights file (default: $ROME_CACHE_DIR/trained/judge/weights.json)")
    parser.add_argument("--force", action="store_true", help="replace --out when it is a judge weights file")
    parser.add_argument("--report", type=Path, default=None, help="also write the measurements here (JSON)")
    parser.add_argument("--rows", type=Path, default=None,
                        help=f"also write the fit rows with their labels here (the committed {ROWS.name})")
    parser.add_argument("--threads", type=int, default=1,
                        help="torch threads for this command (default 1: threads spin on a shared CPU)")
    parser.add_argument("--swords-share", type=float, default=SWORDS_SHARE,
                        help=f"share of SWORDS passages used, chosen by seeded hash (default {SWORDS_SHARE})")
    parser.add_argument("--labels-share", type=float, default=LABELS_SHARE,
                        help=f"share of the developer's TextFooler/adjective labels used, by seeded hash of the text "
                             f"(default {LABELS_SHARE})")
    parser.add_argument("--models", nargs="+", choices=("lexical", "sentence"), default=["lexical", "sentence"],
                        help="refit only these models; the others' weights, thresholds and fit rows are carried over "
                             "unchanged from the committed weights.json and rows")
    parser.add_argument("--fit-only", action="store_true",
                        help="fit and write the weights without measuring the held-out part (no held-out rows needed)")
    parser.add_argument("--features-only", choices=("lexical", "sentence"), default=None,
                        help="only compute (and cache) one set's features, in a shard of its own; fit nothing")
    parser.add_argument("--part", choices=("fit", "held", "all"), default="all", help="with --features-only")
    parser.add_argument("--shard", default=None, help="with --features-only: J/K, the J-th of K slices by text")
    args = parser.parse_args(argv)
    out = args.out or trained_dir("judge") / "weights.json"
    replace = args.force or args.out is None
    if not args.features_only:  # refused now, not after the features' minutes
        check_output(out, WEIGHTS_OUTPUT, flag="--out", replace=replace)
        if args.rows:
            check_output(args.rows, ROWS_OUTPUT, flag="--rows", inputs=[("the weights", out)])
    import torch

    torch.set_num_threads(args.threads)
    shard = f"-{args.features_only}-{args.part}" if args.features_only else ""
    if args.features_only and args.shard:
        shard += "-" + args.shard.replace("/", "of")
    cache = FeatureCache(trained_dir("judge") / f"features{shard}.json")
    sets = examples(args.seed, args.swords_share, args.labels_share)
    weights: dict = {"gguf_sha256": GGUF_SHA256, "window": WINDOW, "seed": args.seed, "target": TARGET,
                     "swords_share": args.swords_share, "labels_share": args.labels_share,
                     "command": COMMAND.format(seed=args.seed, share=args.swords_share, labels=args.labels_share)
                     + ("" if len(args.models) == 2 else " --models " + " ".join(args.models)),
                     "models": {}, "kinds": {}}
    report: dict = {}
    fits: dict[str, tuple[list[D.LabelledPair], np.ndarray]] = {}
    for name in (m for m in sets if m not in args.models):
        weights["models"][name], kinds, fits[name] = carried(name)
        weights["kinds"].update(kinds)
    for name, (fit, held) in sets.items():
        if name not in args.models:
            continue
        lexical = name == "lexical"
        names = LEXICAL if lexical else SENTENCE
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
        held = [] if args.fit_only else held
        Xf, Xh = cache.features(fit, lexical), cache.features(held, lexical).reshape(len(held), len(names))
        fits[name] = (fit, Xf)
        yf = np.array([e.valid for e in fit], dtype=int)
        yh = np.array([e.valid for e in held], dtype=int)
        model, thresholds, oof = fit_set(Xf, yf, [f"{e.source}:{e.group}" for e in fit], [e.kind for e in fit],
                                         args.seed)
        weights["models"][name] = {"features": list(names), "lexical": lexical, **model,
                                   "fit": {"pairs": len(fit), "valid": int(yf.sum()),
                                           "sources": sorted({e.source for e in fit})}}
        ph = predict(model, Xh)
        report[name] = {"single_feature_auc_fit": single_feature_auc(Xf, yf, names),
                        "single_feature_auc_held": single_feature_auc(Xh, yh, names)}
        for kind, threshold in thresholds.items():
            mine = np.array([e.kind == kind for e in fit])
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
        if name == "sentence" and not args.fit_only:
            gold = D.gold_passives()
            pg = predict(model, cache.features(gold, lexical=False))
            report[name]["gold_accepted_share"] = float((pg >= round(thresholds["passive"], 4)).mean())
    if args.features_only:
        return 0
    with safe_output(out, WEIGHTS_OUTPUT, flag="--out", replace=replace) as handle:
        handle.write(json.dumps(weights, indent=1) + "\n")
    if args.rows:
        with safe_output(args.rows, ROWS_OUTPUT, flag="--rows", inputs=[("the weights", out)]) as handle:
            handle.write(rows_document(fits))
    print(json.dumps(report, indent=1))
    if args.report:
        with safe_output(args.report, REPORT_OUTPUT, flag="--report") as handle:
            handle.write(json.dumps(report, indent=1) + "\n")
    print(f"wrote {out}", file=sys.stderr)
    return 0


def examples(seed: int, swords_share: float = SWORDS_SHARE, labels_share: float = LABELS_SHARE
             ) -> dict[str, tuple[list[D.LabelledPair], list[D.LabelledPair]]]:
    """Each model's (fit, held-out) pairs, in the order the weights are fitted on them."""
    def chosen(pairs: list[D.LabelledPair], share: float) -> list[D.LabelledPair]:
        return [e for e in pairs if int(hashlib.sha256(f"{seed}:{e.group}".encode()).hexdigest(), 16) % 1000
                < share * 1000]

    sets = {"lexical": chosen(D.swords(), swords_share) + chosen(D.context_labels(), labels_share)
            + D.cards(("textfooler", "adjective")),
            "sentence": D.passive() + D.cards(("passive",))}
    return {name: split(pairs, seed) for name, pairs in sets.items()}


if __name__ == "__main__":
    raise SystemExit(main())
