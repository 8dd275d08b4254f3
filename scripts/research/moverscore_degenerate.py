"""MoverScore where idf is degenerate: ours against moverscore_v2 (patched in memory), measured.

    .venv/bin/python scripts/research/moverscore_degenerate.py [--demetr-file base_id33_empty]

1. The issue's case: two lines sharing one reference (every reference token has idf 0).
2. DEMETR's ``base_id33_empty`` control (the "bad" hypothesis is a lone "."): idf fitted on
   the file's references and on all its hypotheses (good and bad), for both implementations;
   accuracy = share of items where the real translation scores strictly above ".".
Numbers are quoted in docs/moverscore.md.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--demetr-file", default="base_id33_empty")
    args = parser.parse_args()
    os.environ.update(HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    sys.path.insert(0, str(ROOT / "tests"))
    import warnings

    import transformers
    from baselines_moverscore_oracle import patched_moverscore_v2

    from baselines.moverscore import MoverScore
    from rome.data.challenge import demetr_dir, read_demetr

    warnings.simplefilter("ignore")
    transformers.logging.set_verbosity_error()
    shared_ref = "The hotel is cheap."
    hyps, refs = ["zzz qqq", "the hotel is cheap ."], [shared_ref, shared_ref]
    items = list(read_demetr(demetr_dir() / f"{args.demetr_file}.json"))
    goods, bads, eng = [it.good for it in items], [it.bad for it in items], [it.reference[0] for it in items]
    with patched_moverscore_v2() as mv:
        package = mv.word_mover_score(refs, hyps, mv.get_idf_dict(refs, nthreads=1), mv.get_idf_dict(hyps, nthreads=1),
                                      device="cpu")
        ours = MoverScore().score(hyps, refs)
        print(f"shared reference {shared_ref!r}: package {np.round(package, 4).tolist()}, ours {np.round(ours, 4).tolist()}"
              f" for {hyps}")
        idf_ref, idf_hyp = mv.get_idf_dict(eng + eng, nthreads=1), mv.get_idf_dict(goods + bads, nthreads=1)
        pkg = np.array(mv.word_mover_score(eng + eng, goods + bads, idf_ref, idf_hyp, device="cpu"))
    metric = MoverScore()
    metric.prepare(goods + bads, eng + eng)
    mine = metric.score(goods + bads, eng + eng)
    n = len(items)
    for name, scores in (("moverscore_v2", pkg), ("ours", mine)):
        good, bad = scores[:n], scores[n:]
        print(f"{args.demetr_file} ({n} usable items), {name}: accuracy {np.mean(good > bad):.1%}; "
              f"bad scores 1.0 in {np.mean(np.isclose(bad, 1.0)):.1%}; bad mean {bad.mean():.3f} "
              f"[{bad.min():.3f}, {bad.max():.3f}]; good mean {good.mean():.3f} [{good.min():.3f}, {good.max():.3f}]")
    same = np.array([g == r for g, r in zip(goods, eng)])
    diff = np.abs(mine[:n] - pkg[:n])
    print(f"good hypotheses, max |ours - package| = {diff[~same].max():.1e} where they differ from the reference "
          f"({(~same).sum()} items), {diff[same].max() if same.any() else 0:.1e} where equal ({same.sum()} items)")


if __name__ == "__main__":
    main()
