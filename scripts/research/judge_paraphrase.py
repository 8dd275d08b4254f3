"""Does a paraphrase reading add to the judge? A probe on swaps the judge accepts, read blind on held-out genres.

The judge's lexical evidence reads the variant as a sentence and the substitute after the LexSubGen pattern.
One more reading may add to them: the substitute's log-probability after the original, a paraphrase cue and
the variant's left context (``ORIGINAL + "\\nIn other words, " + left context``, then the substitute), which asks
whether a writer restating the original would choose that word. This script adds two columns to the judge's
committed lexical fit rows (``para_new``: that log-probability; ``para_gap``: it minus the old word's in the same
cue after the original's left context, which the model tends to copy), refits the lexical model with the
trainer's own procedure (:func:`perturbations.judge.fit.fit_set`, seed 0), and compares the committed model and
the refit on lines neither was fitted on: the TextFooler variants of the sense-filter probe
(``scripts/research/data/sense_share_probe.jsonl``: every variant the committed judge accepted over the first
texts of news, WMT 2021 and FLORES with the sense filter off, read blind by two readers). Those lines are all
above the committed point, so the question is whether the new reading sorts the valid from the invalid among
them: AUC among them, and how many each model keeps at its own operating point with how many valid.

The probe file holds hashes only (WMT 2021 may not be redistributed): the texts come from the ``--cases``
files of the runs that made them::

    python scripts/research/bench_perturbations.py --kind textfooler --data news --texts 300 \\
        --option min_sense_share=0 --cases news_cases.jsonl    # likewise WMT 2021 (300), FLORES (500)
    python scripts/research/judge_paraphrase.py --cases news_cases.jsonl wmt_cases.jsonl flores_cases.jsonl

Nothing here changes the judge; it measures whether wiring the reading in is worth it.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from heldout_labels import digest  # noqa: E402  (the hashes the probe's label file was written with)
from judge_train import auc as trainer_auc  # noqa: E402

HERE = Path(__file__).resolve().parent
ROWS = HERE / "data" / "judge_features.json"
PROBE = HERE / "data" / "sense_share_probe.jsonl"
#: the paraphrase cue between the original and the variant's left context
CUE = "\nIn other words, "
NEW_COLUMNS = ("para_new", "para_gap")


class Paraphrase:
    """The two paraphrase readings of (original, variant) pairs, one small pass per distinct context."""

    def __init__(self) -> None:
        from perturbations.judge.lm import language_model

        self.lm = language_model()
        self._memo: dict[tuple[str, str], float] = {}

    def word_logprob(self, context: str, word: str) -> float:
        """log P(" " + word | context), every piece of the word."""
        key = (context, word)
        if key not in self._memo:
            primed = self.lm.prime(self.lm.encode(context))
            pieces = self.lm.pieces(" " + word)
            self._memo[key] = float(self.lm.extend(primed, len(primed.ids), [pieces])[0].sum()) if pieces else 0.0
        return self._memo[key]

    def columns(self, text: str, variant: str) -> list[float]:
        """``para_new`` and ``para_gap`` of the changed stretch with the lowest gap (several swaps: the worst)."""
        from perturbations.judge.features import regions

        worst = None
        for region in regions(text, variant):
            new = self.word_logprob((text + CUE + variant[: region.new_start]).rstrip(), region.new)
            old = self.word_logprob((text + CUE + text[: region.old_start]).rstrip(), region.old)
            if worst is None or new - old < worst[1]:
                worst = [new, new - old]
        return worst or [0.0, 0.0]


def auc(p: np.ndarray, y: np.ndarray) -> float | None:
    """The trainer's AUC (None with one class only), to three decimals for the report."""
    value = trainer_auc(p, y)
    return None if value is None else round(value, 3)


def probe_lines(case_files: list[Path]) -> list[dict]:
    """The probe's labelled lines with their texts (from the runs' case files), both readers' verdict as ``valid``."""
    texts: dict[tuple[str, str], tuple[str, str]] = {}
    for path in case_files:
        for line in path.read_text(encoding="utf-8").splitlines():
            case = json.loads(line)
            texts[(digest(case["original"]), digest(case["variant"]))] = (case["original"], case["variant"])
    out, missing = [], 0
    for line in PROBE.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        found = texts.get((row["text_sha256"], row["variant_sha256"]))
        if found is None:
            missing += 1
            continue
        out.append({**row, "text": found[0], "variant": found[1], "valid": all(v == "valid" for v in row["labels"])})
    if missing:
        print(f"{missing} probe lines have no text in the case files given", file=sys.stderr)
    return out


def kept(p: np.ndarray, y: np.ndarray, threshold: float) -> dict:
    pick = p >= threshold
    return {"kept": int(pick.sum()), "valid": int(y[pick].sum()),
            "precision": round(float(y[pick].mean()), 3) if pick.any() else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=Path, nargs="+", required=True,
                    help="case files of bench_perturbations.py runs that made the probe's lines")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    missing = [str(path) for path in args.cases if not path.is_file()]
    if missing:
        ap.error(f"--cases: no such file: {missing[0]}")

    from perturbations.judge import load_weights
    from perturbations.judge.features import compute
    from perturbations.judge.fit import fit_set, predict
    from perturbations.judge.lm import language_model

    para = Paraphrase()
    fit_rows = [r for r in json.loads(ROWS.read_text(encoding="utf-8"))["rows"] if r["model"] == "lexical"]
    X10 = np.array([r["features"] for r in fit_rows])
    X12 = np.hstack([X10, np.array([para.columns(r["text"], r["variant"]) for r in fit_rows])])
    y = np.array([int(r["valid"]) for r in fit_rows])
    groups = [f"{r['source']}:{r['group']}" for r in fit_rows]
    kinds = [r["kind"] for r in fit_rows]
    base, base_points, base_oof = fit_set(X10, y, groups, kinds, args.seed)
    new, new_points, new_oof = fit_set(X12, y, groups, kinds, args.seed)
    committed = load_weights()
    report = {"fit_rows": len(fit_rows), "fit_valid": int(y.sum()),
              "fit_single_auc": {c: auc(X12[:, 10 + k], y) for k, c in enumerate(NEW_COLUMNS)},
              "fit_out_of_fold_auc": {"committed_features": auc(base_oof, y), "with_paraphrase": auc(new_oof, y)},
              "points": {"refit_committed_features": base_points, "with_paraphrase": new_points,
                         "committed": {k: v["threshold"] for k, v in committed["kinds"].items()}}}

    lines = [r for r in probe_lines(args.cases) if r["kind"] == "textfooler"]
    pairs = [(r["text"], r["variant"]) for r in lines]
    P10 = compute(pairs, language_model(), lexical=True)
    P12 = np.hstack([P10, np.array([para.columns(t, v) for t, v in pairs])])
    yp = np.array([int(r["valid"]) for r in lines])
    p_base, p_new = predict(base, P10), predict(new, P12)
    probe: dict = {}
    held_out = "held-out genres (WMT 2021, FLORES)"
    default = "made by the default too (sense filter on)"
    for corpus in [*sorted({r["corpus"] for r in lines}), held_out, default, "all"]:
        pick = np.array([corpus == "all" or r["corpus"] == corpus or (corpus == held_out and r["corpus"] != "news")
                         or (corpus == default and r["also_default"]) for r in lines])
        probe[corpus] = {
            "lines": int(pick.sum()), "valid": int(yp[pick].sum()),
            "auc": {"refit_committed_features": auc(p_base[pick], yp[pick]),
                    "with_paraphrase": auc(p_new[pick], yp[pick]),
                    **{c: auc(P12[pick, 10 + k], yp[pick]) for k, c in enumerate(NEW_COLUMNS)}},
            "kept_at_own_point": {"refit_committed_features": kept(p_base[pick], yp[pick], base_points["textfooler"]),
                                  "with_paraphrase": kept(p_new[pick], yp[pick], new_points["textfooler"])}}
    report["probe_textfooler"] = probe
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
