"""The word-swap judge's pre-score gate: the lowest pre-score among the development candidates it accepts.

    python scripts/research/judge_gate.py

:func:`perturbations.judged.choose` judges in full only the words whose best candidate's pre-score
(:func:`perturbations.judge.substitutes.prescore`: the judge's lexical weights on the evidence known before a
sentence pass) reaches :data:`perturbations.judged.PRESCORE_GATE`. This prints, on the judge's committed fit
rows (``data/judge_features.json``, development data), the lowest pre-score of a candidate the committed judge
accepts and how many candidates each gate would send to the full judgement and how many accepted ones it
would lose. The rows' ``lexsub`` sums every piece of the substitute; the ranking reads its first piece only,
which is never lower, so the gate is conservative on them.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
ROWS = Path(__file__).resolve().parent / "data" / "judge_features.json"
GATES = (-1.0, -0.5, 0.0, 0.5, 1.0)


def main() -> None:
    from perturbations.judge import get_judge
    from perturbations.judge.features import LEXICAL
    from perturbations.judge.substitutes import PRE_FEATURES, lexical_model, prescore_of

    model = lexical_model()
    rows = [r for r in json.loads(ROWS.read_text(encoding="utf-8"))["rows"] if r["model"] == "lexical"]
    for kind in ("textfooler", "adjective"):
        judge = get_judge(kind)
        mine = [r for r in rows if r["kind"] == kind]
        features = np.array([r["features"] for r in mine])
        accepted = np.array(judge._probabilities(features)) >= judge.threshold
        pre = np.array([prescore_of({n: x[LEXICAL.index(n)] for n in PRE_FEATURES}, model) for x in features])
        lowest = f"{pre[accepted].min():.2f}" if accepted.any() else "none accepted"
        print(f"{kind}: {len(mine)} rows, {int(accepted.sum())} accepted, lowest accepted pre-score {lowest}")
        for gate in GATES:
            print(f"  gate {gate:+.1f}: {np.mean(pre >= gate):.0%} of rows judged in full, "
                  f"{int((accepted & (pre < gate)).sum())} accepted lost")


if __name__ == "__main__":
    main()
