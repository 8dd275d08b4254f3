"""What the bfloat16 grammar pass changes: RoMe's scores on the bench's pairs, and batch independence.

    python scripts/research/grammar_precision.py [--n 1000]

Scores the first ``n`` bench pairs (BAGEL then SFHOTEL outputs, :func:`reports.bench.load_pairs`) with RoMe
once per grammar precision and prints how far bfloat16 moves each score from float32 (largest, mean,
Spearman). Then, per precision, it runs the pairs' texts in one call, in two calls of a shuffled split, and
one by one, and counts the texts whose logit differs from the one-call pass (the claim of
:meth:`rome.metric.grammar.GrammarClassifier.uncached_logits`: none in bfloat16).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1000, help="bench pairs")
    ap.add_argument("--seed", type=int, default=0, help="the split's shuffle")
    args = ap.parse_args(argv)

    from scipy.stats import spearmanr

    from reports.bench import load_pairs
    from rome.metric.grammar import GrammarClassifier, clear_logit_cache
    from rome.metric.metric import RoMe

    hyps, refs = load_pairs(args.n)
    scores = {}
    for precision in ("float32", "bfloat16"):
        clear_logit_cache()
        metric = RoMe(grammar=GrammarClassifier.load(precision=precision))
        scores[precision] = np.asarray(metric.score(hyps, refs), dtype=float)
    moved = np.abs(scores["bfloat16"] - scores["float32"])
    report = {"pairs": len(hyps), "rome_largest_move": round(float(moved.max()), 4),
              "rome_mean_move": round(float(moved.mean()), 5),
              "spearman": round(float(spearmanr(scores["float32"], scores["bfloat16"])[0]), 6)}

    texts = list(dict.fromkeys(t.strip() for t in hyps + refs if t.strip()))
    order = list(range(len(texts)))
    random.Random(args.seed).shuffle(order)
    halves = (order[: len(order) // 2], order[len(order) // 2:])
    for precision in ("float32", "bfloat16"):
        classifier = GrammarClassifier.load(precision=precision)
        whole = classifier.uncached_logits(texts)
        split = np.zeros(len(texts))
        for half in halves:
            split[half] = classifier.uncached_logits([texts[i] for i in half])
        alone = np.array([classifier.uncached_logits([text])[0] for text in texts])
        report[precision] = {"texts": len(texts), "differ_split": int((split != whole).sum()),
                             "differ_alone": int((alone != whole).sum()),
                             "largest_difference": float(max(np.abs(split - whole).max(), np.abs(alone - whole).max()))}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
