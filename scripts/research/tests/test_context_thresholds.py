"""scripts/research/context_thresholds.py: the rule that turns labelled development swaps into thresholds."""

from __future__ import annotations

import json
from pathlib import Path

from research_scripts import load_script

from perturbations.halves import development_half

thresholds = load_script("context_thresholds")


def entry(fit: float, logp: float, share: float, label: str) -> dict:
    return {"fit": fit, "logp": logp, "share": share, "label": label, "kind": "textfooler",
            "bigrams": {"left_original": None, "left_candidate": None, "right_original": None, "right_candidate": None}}


def test_the_most_valid_swaps_at_the_target_are_kept():
    good = [entry(0.5, -3.0, 0.8, "valid") for _ in range(30)]
    wrong_sense = [entry(0.5, -3.0, 0.1, "meaning_changed") for _ in range(30)]  # only the sense share tells
    unlikely = [entry(-3.0, -9.0, 0.8, "awkward") for _ in range(10)]
    best, _ = thresholds.best_synonym_thresholds(good + wrong_sense + unlikely)
    assert best["target_reached"] and best["valid"] == 30 and best["share_valid"] == 1.0
    assert best["min_sense_share"] > 0.1
    assert best["delta"] < 3.0 or best["min_logp"] > -9.0


def test_without_a_setting_at_the_target_the_most_precise_one_is_flagged():
    mixed = [entry(0.0, -3.0, 0.8, "valid" if k % 3 else "meaning_changed") for k in range(60)]
    best, _ = thresholds.best_synonym_thresholds(mixed)
    assert best["target_reached"] is False and 0.6 < best["share_valid"] < 0.7


def test_a_few_lucky_lines_never_set_a_threshold():
    lucky = [entry(2.0, -1.0, 0.9, "valid") for _ in range(thresholds.MIN_VALID_KEPT - 1)]
    rest = [entry(-1.0, -5.0, 0.5, "valid" if k % 2 else "meaning_changed") for k in range(60)]
    best, _ = thresholds.best_synonym_thresholds(lucky + rest)
    assert best["valid"] >= thresholds.MIN_VALID_KEPT and best["kept"] > len(lucky)


def test_the_antonym_delta_is_the_largest_at_the_target():
    entries = [{**entry(-1.0, -4.0, 0.0, "intended")} for _ in range(20)]
    entries += [{**entry(-5.0, -9.0, 0.0, "broken")} for _ in range(20)]
    best, table = thresholds.best_antonym_delta(entries)
    assert best["target_reached"] and 1.0 <= best["delta"] < 5.0 and best["share_valid"] == 1.0
    assert [r["delta"] for r in table] == list(thresholds.DELTAS)




def test_every_labelled_line_is_from_the_development_half():
    lines = [json.loads(x) for x in Path(thresholds.LABELS).read_text(encoding="utf-8").splitlines() if x.strip()]
    assert len(lines) >= 400
    assert {e["corpus"] for e in lines} == {"dialogue", "news", "webnlg"}  # never WMT 2021
    assert all(development_half(e["corpus"], e["source_id"]) for e in lines)
    assert {e["label"] for e in lines} <= {"valid", "meaning_changed", "ungrammatical", "awkward", "intended",
                                           "not_changed", "broken"}
