"""Largest differences between our BERTScore/MoverScore and the bert-score/moverscore packages.

    .venv/bin/python scripts/research/baselines_agreement.py

All BAGEL outputs. BERTScore: every reference (multi-reference), idf off/on, P/R/F1, against
``bert_score.score``. MoverScore: first reference, idf/uniform weights, no/English stop words,
against moverscore_v2 patched in memory (tests/baselines_moverscore_oracle.py), split into
pairs whose hypothesis equals the reference and the others (see docs/moverscore.md).
"""

from __future__ import annotations

import os
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    os.environ.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    sys.path.insert(0, str(ROOT / "tests"))
    import bert_score
    from baselines_moverscore_oracle import patched_moverscore_v2

    from baselines.bertscore import BERTScore
    from baselines.moverscore import MoverScore, english_stop_words
    from rome.core.encoder import embedded_model_path
    from rome.data.novikova import load_rows

    items = load_rows("bagel")
    hyps, refs = [it["hypothesis"] for it in items], [it["references"] for it in items]
    for idf in (False, True):
        expected = bert_score.score(hyps, refs, model_type=str(embedded_model_path()), num_layers=6, idf=idf, nthreads=0)
        for output, values in zip(("precision", "recall", "f1"), expected):
            diff = np.abs(BERTScore(idf=idf, output=output).score(hyps, refs) - values.numpy()).max()
            print(f"bertscore idf={idf} {output}: max diff {diff:.1e} over {len(hyps)} pairs")
    first = [group[0] for group in refs]
    same = np.array([h == r for h, r in zip(hyps, first)])
    with patched_moverscore_v2() as mv:
        for weights in ("idf", "uniform"):
            for stop in ("none", "english"):
                words = sorted(english_stop_words()) if stop == "english" else []
                if weights == "idf":
                    idf_ref, idf_hyp = mv.get_idf_dict(first, nthreads=1), mv.get_idf_dict(hyps, nthreads=1)
                else:
                    idf_ref = idf_hyp = defaultdict(lambda: 1.0)
                package = np.array(mv.word_mover_score(first, hyps, idf_ref, idf_hyp, stop_words=words, device="cpu"))
                ours = MoverScore(weights=weights, stop_words=stop).score(hyps, first)
                diff = np.abs(ours - package)
                print(
                    f"moverscore {weights} stop={stop}: max diff {diff[~same].max():.1e} (hyp != ref, "
                    f"{(~same).sum()} pairs), {diff[same].max():.1e} (hyp == ref, {same.sum()}); "
                    f"ours {ours.min():.3f}..{ours.max():.3f}"
                )


if __name__ == "__main__":
    main()
