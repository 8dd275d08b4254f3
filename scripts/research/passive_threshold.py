"""Set the passive's naturalness threshold (``NATURALNESS_DELTA``) from labelled development lines and the gold set.

    python scripts/research/passive_threshold.py            # prints the reading of every labelled line and the delta

Reads tests/fixtures/passive_dev_labels.jsonl (development-half texts of dialogue, news and webnlg drawn by
``scripts/research/passive_dev.py``, each variant labelled by the developer with docs/validity.md's rubric:
valid / awkward / ungrammatical / meaning_changed) and the gold set's expected passives
(tests/fixtures/passive_gold.jsonl). For each, the grammar's rewrite is re-made and read by the context
model *now loaded* (so the script re-checks the threshold whenever the model's head changes); a line whose
variant the grammar no longer makes is reported and left out.

The rule: the naturalness reading is a guard against rewrites that read far worse than the original, so it must not
refuse a passive the readings call valid. ``delta`` is the smallest multiple of :data:`STEP` at which every
valid development line (default settings: ``pronoun_agent == "drop"``) and every gold expected passive is
kept; the script then reports the kept lines' valid share with its Wilson interval (the issue's target is
0.85) and how many invalid lines the reading refuses at that delta.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from perturbations.passive import PassiveVoice, sentence_pair
from perturbations.passive.naturalness import NATURALNESS_DELTA, PLL_SPACING, context_signature, read
from reports.stats import wilson_interval

ROOT = Path(__file__).resolve().parents[2]
LABELS = ROOT / "tests" / "fixtures" / "passive_dev_labels.jsonl"
GOLD = ROOT / "tests" / "fixtures" / "passive_gold.jsonl"
STEP = 0.1


def rows(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def decisive(items: list[tuple[str, str, str]]) -> list[float | None]:
    """The lowest read difference of the clauses the grammar rewrites in each (text, variant, pronoun_agent);
    ``None`` where the grammar no longer makes that variant."""
    grammars = {mode: PassiveVoice(naturalness_delta=None, pronoun_agent=mode) for mode in ("drop", "keep")}
    pairs, owners = [], []
    for k, (text, variant, mode) in enumerate(items):
        result = grammars[mode].apply(text)
        if not result.variants or result.variants[0].text != variant:
            continue
        _, found, _ = grammars[mode].candidates(text)
        for edit, facts in found:
            pairs.append(sentence_pair(text, facts["sentence"], edit))
            owners.append(k)
    out: list[float | None] = [None] * len(items)
    for k, reading in zip(owners, read(pairs, spacing=PLL_SPACING)):
        out[k] = reading.difference if out[k] is None else min(out[k], reading.difference)
    return out


def main() -> int:
    labelled = rows(LABELS)
    gold = [r for r in rows(GOLD) if r["expected"]]
    dev_scores = decisive([(r["text"], r["variant"], r["pronoun_agent"]) for r in labelled])
    gold_scores = [max((s for s in decisive([(r["text"], e, "drop") for e in r["expected"]]) if s is not None),
                       default=None) for r in gold]
    print(f"context model: {context_signature()}; spacing {PLL_SPACING}; NATURALNESS_DELTA now {NATURALNESS_DELTA}")
    lost = [r["variant"] for r, s in zip(labelled, dev_scores) if s is None]
    print(f"development lines: {len(labelled)} ({len(lost)} no longer made by the grammar: {lost})")
    default = [(s, r["label"]) for r, s in zip(labelled, dev_scores) if s is not None and r["pronoun_agent"] == "drop"]
    for s, label in sorted(default):
        print(f"  {s:+.3f} {label}")
    floor = min([s for s, label in default if label == "valid"] + [s for s in gold_scores if s is not None])
    delta = max(0.0, math.ceil(round(-floor / STEP, 6)) * STEP)
    kept = [label for s, label in default if s >= -delta]
    valid = sum(label == "valid" for label in kept)
    low, high = wilson_interval(valid, len(kept))
    refused_invalid = sum(label != "valid" for s, label in default if s < -delta)
    print(f"gold expected passives judged: {sum(s is not None for s in gold_scores)} / {len(gold)}; "
          f"lowest {min(s for s in gold_scores if s is not None):+.3f}")
    print(f"lowest difference of a valid line or a gold passive: {floor:+.3f} -> delta {delta:.1f}")
    print(f"kept at delta {delta:.1f}: {len(kept)} / {len(default)} development lines, {valid} valid "
          f"({valid / len(kept):.1%}, Wilson 95 % [{low:.1%}, {high:.1%}]); invalid lines refused: {refused_invalid}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
