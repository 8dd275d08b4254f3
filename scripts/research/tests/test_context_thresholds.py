"""scripts/research/context_thresholds.py: the rule that turns labelled antonym lines into the fluency bound."""

from __future__ import annotations

from research_scripts import load_script

thresholds = load_script("context_thresholds")


def line(change: float, label: str) -> dict:
    return {"kind": "adjective-antonym", "text": "t", "variant": "v", "label": label, "change": change}


def test_the_bound_is_the_largest_that_keeps_antonyms_at_the_target():
    entries = [line(-1.0, "intended") for _ in range(20)] + [line(-8.0, "broken") for _ in range(20)]
    best, table = thresholds.best_drop(entries)
    assert best["target_reached"] and 1.0 <= best["max_drop"] < 8.0 and best["share_intended"] == 1.0
    assert [r["max_drop"] for r in table] == list(thresholds.DROPS)


def test_without_a_bound_at_the_target_the_most_precise_one_is_flagged():
    mixed = [line(-2.0, "intended" if k % 3 else "broken") for k in range(60)]
    best, _ = thresholds.best_drop(mixed)
    assert best["target_reached"] is False and 0.6 < best["share_intended"] < 0.7


def test_a_few_lucky_lines_never_set_the_bound():
    lucky = [line(-0.2, "intended") for _ in range(thresholds.MIN_INTENDED_KEPT - 1)]
    best, _ = thresholds.best_drop(lucky + [line(-3.0, "broken") for _ in range(5)])
    assert best == {} or best["intended"] >= thresholds.MIN_INTENDED_KEPT


def test_the_auc_counts_ties_half():
    assert thresholds.auc([line(-1.0, "intended"), line(-1.0, "broken")]) == 0.5
    assert thresholds.auc([line(0.0, "intended"), line(-5.0, "broken")]) == 1.0
    assert thresholds.auc([line(0.0, "intended")]) is None


def test_only_antonym_lines_are_read():
    lines = [line(0.0, "intended"), {**line(0.0, "valid"), "kind": "textfooler"}]
    assert thresholds.antonym_lines(lines) == lines[:1]


def test_every_labelled_line_is_from_the_development_half():
    import json
    from pathlib import Path

    from perturbations.halves import development_half

    lines = [json.loads(x) for x in Path(thresholds.LABELS).read_text(encoding="utf-8").splitlines() if x.strip()]
    assert len(lines) >= 400
    assert {e["corpus"] for e in lines} == {"dialogue", "news", "webnlg"}  # never WMT 2021
    assert all(development_half(e["corpus"], e["source_id"]) for e in lines)
    assert {e["label"] for e in lines} <= {"valid", "meaning_changed", "ungrammatical", "awkward", "intended",
                                           "not_changed", "broken"}
