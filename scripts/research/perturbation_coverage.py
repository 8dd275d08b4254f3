"""Coverage of perturbation kinds on a list of texts: share of texts changed and distinct edits.

    python scripts/research/perturbation_coverage.py --texts news --kinds textfooler adjective passive --n 200
    python scripts/research/perturbation_coverage.py --texts dialogue --n 500
    python scripts/research/perturbation_coverage.py --texts cola --n 300 --show 40   # print variants (development)

``--texts news``: DEMETR's MT outputs (``mt_sent`` of one shipped file, never ``pert_sent``), for coverage
only; ``dialogue`` or ``webnlg``: the distinct originals of that shipped corpus (its pairs of seed 2026);
``cola``: CoLA's acceptable in-domain training sentences (development text); or a file, one text a line.
Texts are drawn with ``random.Random(seed)``; each text gets ``text_rng(seed, index)``.
"""

from __future__ import annotations

import argparse
import csv
import json
import random
from collections import Counter
from pathlib import Path

from perturbations.base import text_rng
from perturbations.registry import build_perturbation
from rome.core.paths import data_path

#: the seed of the corpus pairs whose originals ``--texts dialogue|webnlg`` reads
CORPUS_SEED = 2026


def load(name: str) -> list[str]:
    if name == "news":
        rows = json.loads(data_path("demetr", "critical_id9_ne_replaced.json").read_text(encoding="utf-8"))
        return sorted({r["mt_sent"] for r in rows})
    if name in ("dialogue", "webnlg"):
        from rome.data.corpora import corpus

        return sorted({pair.original.strip() for pair in corpus(name).pairs(CORPUS_SEED)})
    if name == "cola":
        with data_path("cola", "in_domain_train.tsv").open(encoding="utf-8") as handle:
            return sorted({r[3] for r in csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE) if r[1] == "1"})
    return [line.strip() for line in Path(name).read_text(encoding="utf-8").splitlines() if line.strip()]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--texts", default="news")
    ap.add_argument("--kinds", nargs="+", default=["textfooler", "adjective", "passive", "contractions", "entity"])
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=0, help="print this many variants per kind")
    args = ap.parse_args()
    texts = load(args.texts)
    sample = random.Random(args.seed).sample(texts, min(args.n, len(texts)))
    for kind in args.kinds:
        perturbation = build_perturbation(kind)
        if kind == "entity":
            perturbation.fit(sample)
        changed, edits, shown, cases = 0, Counter(), 0, 0
        for i, text in enumerate(sample):
            result = perturbation.apply(text, text_rng(args.seed, str(i)))
            if not result.variants:
                continue
            changed += 1
            for variant in result.variants:
                cases += 1
                edits.update((e.old, e.new) for e in variant.edits)
                if shown < args.show:
                    shown += 1
                    print(f"[{kind}] {text}\n    => {variant.text}  ({variant.expectation})")
        print(f"{kind}: {changed}/{len(sample)} texts changed ({changed / len(sample):.1%}), "
              f"{cases} variants, {len(edits)} distinct edits")


if __name__ == "__main__":
    main()
