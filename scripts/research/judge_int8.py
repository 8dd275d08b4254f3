"""Would int8 dynamic quantisation of the judge's linear layers pay? Speed and the log-probabilities' shift.

    python scripts/research/judge_int8.py [--repeats 3]

Runs one original's pass and one batched pass of twelve substitute rows (what ranking a text's words
costs, :mod:`perturbations.judge.substitutes`) with the float32 model, then with its decoder layers'
linear layers quantised to int8 (``torch.ao.quantization.quantize_dynamic``), and prints the seconds of
each and how far the original's token log-probabilities move. The judge's weights were fitted on float32
features, so a shift of a fraction of a nat would need a refit before int8 could be used.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
TEXT = "The committee approved the new budget after a long debate about the costs of public transport in the city."


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args(argv)
    import torch

    from perturbations.judge.features import PATTERN
    from perturbations.judge.lm import language_model

    lm = language_model()
    ids = lm.encode(TEXT)
    pattern = lm.pieces(PATTERN)

    def run() -> np.ndarray:
        primed = lm._prime(ids)
        lm.extend_at(primed, [(k, pattern) for k in range(3, 15)])
        return primed.lp

    def timed() -> tuple[float, np.ndarray]:
        run()  # warm
        start = time.perf_counter()
        for _ in range(args.repeats):
            lp = run()
        return (time.perf_counter() - start) / args.repeats, lp

    float_seconds, float_lp = timed()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lm.model.model.layers = torch.ao.quantization.quantize_dynamic(lm.model.model.layers, {torch.nn.Linear},
                                                                      dtype=torch.qint8)
    int8_seconds, int8_lp = timed()
    shift = np.abs(float_lp - int8_lp)
    print(json.dumps({"float32_seconds": round(float_seconds, 3), "int8_seconds": round(int8_seconds, 3),
                      "speed_up": round(float_seconds / int8_seconds, 2),
                      "logprob_shift_mean": round(float(shift.mean()), 3), "logprob_shift_max": round(float(shift.max()), 3),
                      "tokens": len(ids) - 1, "threads": torch.get_num_threads()}))


if __name__ == "__main__":
    main()
