"""Set the adjective antonym's fluency bound from labelled development lines, with the judge's language model.

    python scripts/research/context_thresholds.py                       # labels: scripts/research/context_labels.jsonl
    python scripts/research/context_thresholds.py --check               # exit 1 if the constant differs from the result

An antonym reverses the meaning on purpose, so the judge of meaning-kept variants does not decide it; it is
kept where the judge's language model reads the text with it about as well as the original:
``logprob(variant) - logprob(original) >= -ANTONYM_MAX_DROP`` (:mod:`perturbations.judged`, summed
log-probabilities of the whole text, natural log). The bound is read off the developer's labels of
antonym swaps of DEVELOPMENT-half texts of the shipped corpora (``scripts/research/context_labels.jsonl``, lines of
kind ``adjective-antonym``: "intended" or "broken"; WMT 2021 and the test half are never read). Each line
holds the text and the variant, never a score: the score is recomputed here with the model installed now.

The rule: the largest bound of :data:`DROPS` whose kept antonyms are at least :data:`TARGET` intended, with
at least :data:`MIN_INTENDED_KEPT` intended kept; where none reaches it, the bound with the highest share
intended (flagged ``"target_reached": false``). It also prints the AUC of the score on the labels.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

LABELS = Path(__file__).resolve().parent / "context_labels.jsonl"
#: least share of kept labelled antonyms that must be as intended
TARGET = 0.90
#: the bounds tried (natural log of the text's probability): 0 .. 12 nats
DROPS = tuple(x / 2 for x in range(0, 25))
#: a bound counts only when it keeps at least this many intended antonyms, so the rule never settles on a
#: few lucky lines
MIN_INTENDED_KEPT = 10
#: the label of an antonym swap a reader accepts (docs/validity.md rubric: the meaning reversed, English kept)
INTENDED = "intended"


def antonym_lines(lines: list[dict]) -> list[dict]:
    return [e for e in lines if e["kind"] == "adjective-antonym"]


def rescored(lines: list[dict]) -> list[dict]:
    """Each labelled antonym line with its log-probability change (variant minus original)."""
    from perturbations.judge.lm import language_model

    texts = [t for e in lines for t in (e["text"], e["variant"])]
    scores = language_model().sentence_logprobs(texts)
    return [{**e, "change": scores[2 * k + 1] - scores[2 * k]} for k, e in enumerate(lines)]


def auc(entries: list[dict]) -> float | None:
    """P(an intended line scores above a broken one), ties counted half."""
    good = [e["change"] for e in entries if e["label"] == INTENDED]
    bad = [e["change"] for e in entries if e["label"] != INTENDED]
    if not good or not bad:
        return None
    wins = sum((g > b) + 0.5 * (g == b) for g in good for b in bad)
    return wins / (len(good) * len(bad))


def best_drop(entries: list[dict]) -> tuple[dict, list[dict]]:
    """The largest bound keeping antonyms at :data:`TARGET` (see the module docstring) and the whole table."""
    table, best, fallback = [], None, None
    for drop in DROPS:
        chosen = [e for e in entries if e["change"] >= -drop]
        intended = sum(e["label"] == INTENDED for e in chosen)
        rate = intended / len(chosen) if chosen else 0.0
        row = {"max_drop": drop, "kept": len(chosen), "intended": intended, "share_intended": round(rate, 3)}
        table.append(row)
        if intended < MIN_INTENDED_KEPT:
            continue
        if rate >= TARGET:
            best = row
        if fallback is None or rate > fallback["share_intended"]:
            fallback = row
    if best:
        return {**best, "target_reached": True}, table
    return ({**fallback, "target_reached": False} if fallback else {}), table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--check", action="store_true", help="exit 1 when the constant differs from the result")
    args = ap.parse_args()

    from perturbations import judged
    from perturbations.judge.lm import language_model

    lines = [json.loads(x) for x in args.labels.read_text(encoding="utf-8").splitlines() if x.strip()]
    entries = rescored(antonym_lines(lines))
    chosen, table = best_drop(entries)
    result = {"model": language_model().signature, "target": TARGET,
              "labelled": len(entries), "intended": sum(e["label"] == INTENDED for e in entries),
              "auc": auc(entries), "antonym": chosen, "table": table}
    print(json.dumps(result, indent=1))
    print(f"result: ANTONYM_MAX_DROP = {chosen.get('max_drop')}; in perturbations/judged.py: "
          f"{judged.ANTONYM_MAX_DROP}", file=sys.stderr)
    if args.check and chosen.get("max_drop") != judged.ANTONYM_MAX_DROP:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
