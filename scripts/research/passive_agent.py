"""The passive's agent bound (``AGENT_MIN_LOGPROB`` in ``perturbations/passive/__init__.py``).

    python scripts/research/passive_agent.py            # the readings, the bound, and what it does on the test halves
    python scripts/research/passive_agent.py --check    # exit 1 when the shipped constant is not the one set here

Reads, with the judge's language model, log P("by" | the rewritten sentence up to its agent) for
(1) the passive cards' DEVELOPMENT-half lines (``perturbations/cards/*/passive.jsonl`` and their second reader:
a line is valid only when both readers say so) and (2) the gold set's expected passives
(``tests/fixtures/passive_gold.jsonl``, valid by construction). The bound is the largest multiple of 0.5 that
refuses no development line both readers call valid and at most 5 % of the gold passives. The cards'
TEST-half lines are read only afterwards, to say what the bound does there (never to set it).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from perturbations.base import apply_edits  # noqa: E402
from perturbations.halves import development_half  # noqa: E402
from perturbations.passive import AGENT_MIN_LOGPROB, PassiveVoice, agent_logprobs  # noqa: E402

CARDS = ROOT / "perturbations" / "cards"
GOLD = ROOT / "tests" / "fixtures" / "passive_gold.jsonl"
MAX_GOLD_REFUSED = 0.05
STEP = 0.5


def reading(grammar: PassiveVoice, text: str, variants: set[str]) -> float | None:
    """The agent reading of the grammar's rewrite of ``text`` that gives one of ``variants`` (None: no such
    rewrite, or no agent)."""
    _, found, _ = grammar.candidates(text)
    for edit, facts in found:
        if apply_edits(text, [edit]) in variants:
            return agent_logprobs(text, [(edit, facts)])[0]
    return None


def card_lines() -> list[dict]:
    rows = []
    for corpus in ("dialogue", "news", "webnlg"):
        first = [json.loads(x) for x in (CARDS / corpus / "passive.jsonl").read_text().splitlines() if x.strip()]
        second = {(r["text"], r["variant"]): r["label"] for r in map(
            json.loads, (CARDS / corpus / "second_reader" / "passive.jsonl").read_text().splitlines())}
        for r in first:
            both_valid = r["label"] == "valid" and second.get((r["text"], r["variant"])) == "valid"
            rows.append({"corpus": corpus, "dev": development_half(corpus, r["source_id"]), "valid": both_valid,
                         "text": r["text"], "variant": r["variant"], "labels": (r["label"], second.get((r["text"], r["variant"])))})
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    grammar = PassiveVoice(judged=False)
    lines = card_lines()
    for row in lines:
        row["lp"] = reading(grammar, row["text"], {row["variant"]})
    gold = [json.loads(x) for x in GOLD.read_text().splitlines() if x.strip()]
    gold_lp = [lp for g in gold if g["expected"] for lp in [reading(grammar, g["text"], set(g["expected"]))]
               if lp is not None]
    dev_valid = [r["lp"] for r in lines if r["dev"] and r["valid"] and r["lp"] is not None]
    bound = STEP * math.floor(min(dev_valid) / STEP)
    while sum(lp < bound for lp in gold_lp) > MAX_GOLD_REFUSED * len(gold_lp):
        bound -= STEP
    for half in (True, False):
        print(f"\n{'DEVELOPMENT' if half else 'TEST'} half of the cards (log P(by), labels: first, second reader)")
        for r in sorted((r for r in lines if r["dev"] == half and r["lp"] is not None), key=lambda r: r["lp"]):
            print(f"  {r['lp']:6.2f}  {'refused' if r['lp'] < bound else 'kept   '}  {r['corpus']:8} "
                  f"{'/'.join(r['labels'])}: {r['variant'][:90]}")
    refused_gold = sum(lp < bound for lp in gold_lp)
    print(f"\ngold passives with an agent: {len(gold_lp)}, lowest {min(gold_lp):.2f}; refused at the bound: {refused_gold}")
    print(f"bound: {bound} (lowest development line both readers call valid: {min(dev_valid):.2f})")
    test = [r for r in lines if not r["dev"] and r["lp"] is not None]
    for name, rows in (("valid", [r for r in test if r["valid"]]), ("not valid", [r for r in test if not r["valid"]])):
        print(f"test half, {name}: {sum(r['lp'] < bound for r in rows)} of {len(rows)} refused")
    if args.check and bound != AGENT_MIN_LOGPROB:
        print(f"AGENT_MIN_LOGPROB is {AGENT_MIN_LOGPROB}, this data sets {bound}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
