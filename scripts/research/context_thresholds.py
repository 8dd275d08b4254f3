"""Set the context-judged word swaps' thresholds from labelled development lines, with the current model.

    python scripts/research/context_thresholds.py                       # labels: scripts/research/context_labels.jsonl
    python scripts/research/context_thresholds.py --check               # exit 1 if the constants differ from the result

The thresholds of :mod:`perturbations.context_fit` (``SYNONYM_DELTA``, ``MIN_LOGP``, ``MIN_SENSE_SHARE``,
``MIN_BIGRAM_RATIO``, ``ANTONYM_DELTA``) are read off labelled swaps of DEVELOPMENT-half texts of the
shipped corpora (``scripts/research/context_dev.py`` draws them, thresholds off; WMT 2021 and the test half are
never read). Each labelled line holds the text, the variant and the swap, never a score: every score is
recomputed here with the context model installed now, so re-running after the model's head changes
re-checks the thresholds against the same labels.

* synonyms (TextFooler and the adjective's synonym side, judged the same way): the grid of
  ``(delta, min_logp, sense share, bigram ratio)`` that keeps the most valid swaps while the kept swaps are
  at least :data:`TARGET` valid (ties: the higher share valid, then the stricter thresholds); where no
  point reaches it, the point with the highest share valid among those keeping at least
  :data:`MIN_VALID_KEPT` valid swaps, flagged ``"target_reached": false``;
* antonyms: the largest ``delta`` whose kept antonyms are at least :data:`TARGET` as intended.

The fit is recomputed with the swapped word alone in its mask (the perturbation masks a few
non-neighbouring words together; the difference is small next to the grid's steps). The labelled lines
were drawn evenly over fit bins, so low-fit swaps are over-represented next to what a search keeps: the
share valid printed here is a conservative estimate for the kept swaps.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

LABELS = Path(__file__).resolve().parent / "context_labels.jsonl"
#: least share of kept labelled swaps that must be valid: above the issue's 0.85 target, for the margin
#: a blind check on other text needs
TARGET = 0.90
DELTAS = tuple(x / 2 for x in range(0, 17))  # 0 .. 8 nats
SHARES = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4)
RATIOS = (0.0, 0.01, 0.02, 0.05, 0.1, 0.2)
MIN_LOGPS = (-math.inf, -12.0, -10.0, -9.0, -8.0, -7.0, -6.0, -5.0, -4.0, -3.0)
#: a grid point counts only when it keeps at least this many valid labelled synonym swaps (antonyms: half),
#: so the rule never settles on a few lucky lines; where none reaches :data:`TARGET`, the point with the
#: highest share valid among those that count
MIN_VALID_KEPT = 20
#: labels a reader gives a synonym swap (docs/validity.md rubric) and an antonym swap that count as valid
VALID = {"valid", "intended"}


def locate(parsed, old: str, new: str, variant: str) -> int | None:
    """The token whose swap for ``new`` gives ``variant`` (article fixes included)."""
    from perturbations.recipe import Candidate
    from scripts.research.context_dev import variant_text

    for tok in parsed.tokens:
        if tok.text == old and variant_text(parsed.text, parsed, Candidate(tok.i, new)) == variant:
            return tok.i
    return None


def rescored(lines: list[dict]) -> list[dict]:
    """Each labelled line with its fit (current model), sense share and bigram counts recomputed."""
    from perturbations.constraints import candidate_lemma
    from perturbations.context_fit import bigram_features, slot_scores
    from perturbations.language import senses
    from perturbations.recipe import Candidate
    from rome.core.parsing import get_parser

    get_parser().parse([e["text"] for e in lines])
    out = []
    for e in lines:
        parsed = get_parser().parse_one(e["text"])
        i = locate(parsed, e["old"], e["new"], e["variant"])
        if i is None:
            print(f"line {e['line']}: the swap is not found in the text's parse; left out", file=sys.stderr)
            continue
        c = Candidate(i, e["new"], e.get("synset", ""), source="antonym" if e["kind"] == "adjective-antonym" else "synonym")
        original, (candidate,) = slot_scores(parsed, {i: [c]})[i]
        if original is None or candidate is None:
            continue
        tok = parsed.tokens[i]
        pos = senses.WORDNET_POS[tok.pos]
        share = senses.shared_sense_share(tok.lemma.lower(), candidate_lemma(c), pos)
        out.append({**e, "fit": candidate - original, "logp": candidate, "share": share,
                    "bigrams": bigram_features(parsed, c)})
    return out


def kept(entry: dict, delta: float, min_logp: float, share: float, ratio: float) -> bool:
    from perturbations.context_fit import collocation_kept

    return (entry["fit"] >= -delta and entry["logp"] >= min_logp and entry["share"] >= share
            and (ratio == 0 or collocation_kept(entry["bigrams"], ratio)))


def best_synonym_thresholds(entries: list[dict]) -> tuple[dict, list[dict]]:
    """The grid point keeping the most valid synonym swaps at :data:`TARGET` (see the module docstring)."""
    table, best, fallback = [], None, None
    for delta, min_logp, share, ratio in itertools.product(DELTAS, MIN_LOGPS, SHARES, RATIOS):
        chosen = [e for e in entries if kept(e, delta, min_logp, share, ratio)]
        valid = sum(e["label"] in VALID for e in chosen)
        rate = valid / len(chosen) if chosen else 0.0
        row = {"delta": delta, "min_logp": min_logp, "min_sense_share": share, "min_bigram_ratio": ratio,
               "kept": len(chosen), "valid": valid, "share_valid": round(rate, 3)}
        table.append(row)
        strict = (-delta, min_logp, share, ratio)
        if valid < MIN_VALID_KEPT:
            continue
        if rate >= TARGET and (best is None or (valid, rate, *strict) > best[0]):
            best = ((valid, rate, *strict), row)
        if fallback is None or (rate, valid, *strict) > fallback[0]:
            fallback = ((rate, valid, *strict), row)
    if best:
        return {**best[1], "target_reached": True}, table
    return ({**fallback[1], "target_reached": False} if fallback else {}), table


def best_antonym_delta(entries: list[dict]) -> tuple[dict, list[dict]]:
    """The largest ``delta`` keeping antonyms at :data:`TARGET` (at least half :data:`MIN_VALID_KEPT` of
    them); where none does, the one with the highest share intended."""
    table, best, fallback = [], None, None
    for delta in DELTAS:
        chosen = [e for e in entries if e["fit"] >= -delta]
        valid = sum(e["label"] in VALID for e in chosen)
        rate = valid / len(chosen) if chosen else 0.0
        row = {"delta": delta, "kept": len(chosen), "valid": valid, "share_valid": round(rate, 3)}
        table.append(row)
        if valid < MIN_VALID_KEPT // 2:
            continue
        if rate >= TARGET:
            best = row
        if fallback is None or rate > fallback["share_valid"]:
            fallback = row
    if best:
        return {**best, "target_reached": True}, table
    return ({**fallback, "target_reached": False} if fallback else {}), table


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--check", action="store_true", help="exit 1 when the constants differ from the result")
    args = ap.parse_args()

    from perturbations import context_fit

    lines = [json.loads(x) for x in args.labels.read_text(encoding="utf-8").splitlines() if x.strip()]
    entries = rescored(lines)
    synonyms = [e for e in entries if e["kind"] != "adjective-antonym"]
    antonyms = [e for e in entries if e["kind"] == "adjective-antonym"]
    syn, syn_table = best_synonym_thresholds(synonyms)
    ant, ant_table = best_antonym_delta(antonyms)
    by_kind = {}
    for kind in ("textfooler", "adjective-synonym"):
        part = [e for e in synonyms if e["kind"] == kind]
        chosen = [e for e in part if syn and kept(e, syn["delta"], syn["min_logp"], syn["min_sense_share"],
                                                  syn["min_bigram_ratio"])]
        by_kind[kind] = {"labelled": len(part), "valid_all": sum(e["label"] in VALID for e in part),
                         "kept": len(chosen), "valid_kept": sum(e["label"] in VALID for e in chosen)}
    result = {"model": context_fit.model_signature(), "target": TARGET, "labelled": len(lines), "scored": len(entries),
              "synonym": syn, "antonym": ant, "by_kind": by_kind,
              "antonym_table": ant_table,
              "synonym_delta_table": [r for r in syn_table if syn and r["min_sense_share"] == syn["min_sense_share"]
                                      and r["min_bigram_ratio"] == syn["min_bigram_ratio"]
                                      and r["min_logp"] == syn["min_logp"]]}
    print(json.dumps(result, indent=1))
    chosen = {"SYNONYM_DELTA": syn.get("delta"), "MIN_LOGP": syn.get("min_logp"), "MIN_SENSE_SHARE": syn.get("min_sense_share"),
              "MIN_BIGRAM_RATIO": syn.get("min_bigram_ratio"), "ANTONYM_DELTA": ant.get("delta")}
    now = {name: getattr(context_fit, name) for name in chosen}
    print(f"result: {chosen}\nconstants in perturbations/context_fit.py: {now}", file=sys.stderr)
    if args.check and chosen != now:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
