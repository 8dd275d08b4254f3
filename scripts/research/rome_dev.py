"""RoMe's development bench: every scorer or grammar change measured on the same data in seconds.

``python scripts/research/rome_dev.py --features dev.pkl [--grammar W.safetensors] [--retrain] [--scorer S.json]``

It computes RoMe's three features once for every (hypothesis, reference) pair of the development
data and keeps them in ``--features``: the cases of every shipped perturbation suite (built as
``rome suite`` builds them), the 26 DEMETR files' usable items, and the scorer's own SFREST
train-side pairs (``rome.training.scorer``'s seeded split). Then it scores them with a scorer
network (the committed one, ``--scorer``, or with ``--retrain`` one trained here by the committed
recipe on the train-side pairs' features) and prints:

* each suite check's pass rate (the suites' own ``Check.evaluate``, thresholds read in the range unit);
* DEMETR's non-base accuracy, mean of categories, by the harness's tie rule, and per id parity
  (odd / even) so a choice can be made on one half and confirmed on the other;
* the ROC AUC on the scorer's held-out SFREST pairs (MRs it never trained on).

``--grammar`` recomputes ``F_g`` with another classifier's weights (only that column);
``--form network`` retrains the earlier monotone network instead of the penalty scorer.
Development data only: no BAGEL/SFHOTEL rating is read.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

from rome.core.files import replaced_path_when_complete
from rome.data.challenge import demetr_dir, load_challenge
from rome.metric.scorer import Scorer, load_scorer, read_scorer
from suites.harness.checks import RANGE, CaseScores, MetricInfo
from suites.harness.pairwise import prefers

INFO = MetricInfo("rome")
Pair = tuple[str, str]  # (hypothesis, reference)


def _reference(value) -> str:
    return value if isinstance(value, str) else value[0]


def suite_cases(corpus: str | None = None, names: list[str] | None = None) -> dict[str, list[tuple]]:
    """Every perturbation suite's cases with case checks (or only ``names``) as plain tuples
    ``(case_id, expectation, reference, original, variant)``, built as ``rome suite NAME [--data CORPUS]``
    builds them: on the suite's own texts, or on the shipped ``corpus``; default n and seed."""
    from rome.core.cache import ScoreCache
    from suites.harness.runner import SuiteRun
    from suites.harness.spec import available_suites, load_suite

    suites = {}
    for name in names or available_suites():
        suite = load_suite(name)
        if suite.direct_cases or not suite.case_checks:
            continue
        suites[name] = [(c.case_id, c.expectation, _reference(c.reference), c.original, c.variant)
                        for c in SuiteRun(suite.configured(data=corpus), cache=ScoreCache(None)).cases]
    return suites


def suite_pairs(suites: dict[str, list[tuple]]) -> set[Pair]:
    """The (hypothesis, reference) pairs of ``suite_cases``' cases: each case's original and variant."""
    return {(c[k], c[2]) for cases in suites.values() for c in cases for k in (3, 4)}


def development_data() -> dict:
    """Suite cases, DEMETR items and the scorer's train/test pairs, as plain tuples."""
    from rome.training.scorer import training_pairs

    suites = suite_cases()
    # DEMETR item ids read "<file>:<id>"; the number is the source sentence's
    demetr = [(int(it.id.rsplit(":", 1)[1]), it.category, it.severity, it.reference[0], it.good, it.bad)
              for it in load_challenge([demetr_dir()]).items]
    train, test = ([(p.hypothesis, p.reference, p.label) for p in part] for part in training_pairs())
    return {"suites": suites, "demetr": demetr, "train": train, "test": test}


def all_pairs(data: dict) -> list[Pair]:
    pairs = suite_pairs(data["suites"])
    pairs |= {(d[4], d[3]) for d in data["demetr"]} | {(d[5], d[3]) for d in data["demetr"]}
    pairs |= {(h, r) for h, r, _ in data["train"] + data["test"]}
    return sorted(pairs)


def compute_features(pairs: list[Pair], batch: int = 512) -> np.ndarray:
    from rome.metric import RoMe

    metric, out, start = RoMe(), np.zeros((len(pairs), 3)), time.time()
    for i in range(0, len(pairs), batch):
        chunk = pairs[i : i + batch]
        out[i : i + batch] = metric.features([h for h, _ in chunk], [r for _, r in chunk])
        print(f"features {min(i + batch, len(pairs))}/{len(pairs)} ({time.time() - start:.0f} s)", flush=True)
    return out


def regrade(pairs: list[Pair], features: np.ndarray, weights: Path) -> np.ndarray:
    """The features with ``F_g`` recomputed by the classifier stored in ``weights``."""
    from rome.metric.grammar import GrammarClassifier
    from rome.training.scorer import grammar_column

    return grammar_column(features, [h for h, _ in pairs], GrammarClassifier.load(weights))


class Bench:
    """Scores of every development pair under one scorer, and the figures read off them."""

    def __init__(self, data: dict, pairs: list[Pair], scores: np.ndarray) -> None:
        self.data, self.score = data, dict(zip(pairs, scores.tolist()))

    def suite_rates(self) -> dict[str, float]:
        from suites.harness.spec import load_suite

        rates = {}
        for name, cases in self.data["suites"].items():
            # one metric across rounds: the declared thresholds read in the range unit (a fixed linear scale is
            # fair within one metric; the suites' own verdicts use the scale-free unit, which needs controls)
            for check in (dataclasses.replace(c, unit=RANGE) for c in load_suite(name).case_checks):
                scored = [CaseScores(c[0], self.score[(c[3], c[2])], self.score[(c[4], c[2])])
                          for c in cases if check.applies_to(c[1])]
                if scored:
                    rates[f"{name}:{check.name}"] = check.evaluate(INFO, scored).pass_rate
        return rates

    def demetr(self, parity: int | None = None) -> float:
        """Non-base accuracy, mean of categories (``parity``: only odd (1) or even (0) item ids)."""
        right = defaultdict(list)
        for item_id, category, severity, ref, good, bad in self.data["demetr"]:
            if severity != "base" and (parity is None or item_id % 2 == parity):
                right[category].append(prefers(INFO, self.score[(good, ref)], self.score[(bad, ref)]))
        return float(np.mean([np.mean(v) for v in right.values()]))

    def auc(self) -> float:
        from sklearn.metrics import roc_auc_score

        test = self.data["test"]
        return float(roc_auc_score([y for _, _, y in test], [self.score[(h, r)] for h, r, _ in test]))


def train_scorer(data: dict, pairs: list[Pair], features: np.ndarray, form: str = "penalty") -> Scorer:
    """``rome.training.scorer``'s recipe (seed 0) for ``form`` on the train-side pairs."""
    from rome.training.scorer import train_net, train_penalty

    row = {p: i for i, p in enumerate(pairs)}
    x = np.array([features[row[(h, r)]] for h, r, _ in data["train"]])
    y = np.array([label for _, _, label in data["train"]], dtype=np.float64)
    train = train_penalty if form == "penalty" else train_net
    return train(x, y, ("f_sem", "f_ted", "f_g"), seed=0)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--features", type=Path, required=True, help="pickle keeping the data and features")
    parser.add_argument("--grammar", type=Path, help="recompute F_g with these grammar weights")
    parser.add_argument("--scorer", type=Path, help="scorer weights (default: the committed full network)")
    parser.add_argument("--retrain", action="store_true", help="train the scorer here on the train-side pairs")
    parser.add_argument("--form", choices=("penalty", "network"), default="penalty", help="the form --retrain trains")
    args = parser.parse_args(argv)
    if args.features.exists():
        stored = pickle.loads(args.features.read_bytes())
    else:
        data = development_data()
        pairs = all_pairs(data)
        stored = {"data": data, "pairs": pairs, "features": compute_features(pairs)}
        with replaced_path_when_complete(args.features) as tmp:  # an interrupted run leaves no half-written store
            tmp.write_bytes(pickle.dumps(stored))
    data, pairs, features = stored["data"], stored["pairs"], stored["features"]
    if args.grammar:
        features = regrade(pairs, features, args.grammar)
    net = train_scorer(data, pairs, features, args.form) if args.retrain else (
        read_scorer(args.scorer) if args.scorer else load_scorer("full"))
    bench = Bench(data, pairs, net(features))
    for check, rate in bench.suite_rates().items():
        print(f"{check:45s} {100 * rate:5.1f} %")
    print(f"{'DEMETR non-base (odd / even ids)':45s} {bench.demetr():.4f} ({bench.demetr(1):.4f} / {bench.demetr(0):.4f})")
    print(f"{'SFREST held-out AUC':45s} {bench.auc():.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
