"""Validity cards: Wilson interval, stale/unmeasured cards, the command, and the robustness table's marks."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
from pathlib import Path

import pytest

from reports import robustness
from reports.cli import main
from reports.validity import (
    CURRENT,
    STALE,
    UNMEASURED,
    card_statuses,
    load_card,
    shipped_validity,
    wilson_interval,
    write_card,
)
from rome.core.errors import InputError
from suites.harness.spec import perturbation_fingerprint

ROOT = Path(__file__).resolve().parents[1]


def test_wilson_interval_known_values():
    # 3 of 40 (the TextFooler sample): 7.5 % [2.6, 19.9]
    low, high = wilson_interval(3, 40)
    assert (round(low, 3), round(high, 3)) == (0.026, 0.199)
    # 60 of 60: the upper end is 1, the lower end (n / (n + z^2)) 0.940
    low, high = wilson_interval(60, 60)
    assert round(low, 3) == 0.94 and high == pytest.approx(1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def card_line(label: str, fingerprint: str, expectation: str = "decrease") -> dict:
    return {"card": "repetition", "suite": "repetition", "source_id": "x", "text": "a b", "variant": "a b b",
            "edits": [], "expectation": expectation, "label": label, "note": "", "fingerprint": fingerprint}


def _copy_of_repetition(tmp_path: Path, monkeypatch):
    """A copy of perturbations/repetition.py (and base.py) in a package folder of its own, imported by path."""
    package = tmp_path / "perturbations"
    package.mkdir()
    for name in ("repetition.py", "base.py"):
        shutil.copy(ROOT / "perturbations" / name, package / name)
    spec = importlib.util.spec_from_file_location("copied_repetition", package / "repetition.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "copied_repetition", module)  # inspect.getmodule finds it
    spec.loader.exec_module(module)
    return package / "repetition.py", module.Repetition()


def test_a_card_goes_stale_when_its_perturbation_is_edited(tmp_path, monkeypatch):
    source, copy = _copy_of_repetition(tmp_path, monkeypatch)
    fingerprint = perturbation_fingerprint(copy)
    assert str(tmp_path) not in fingerprint and fingerprint != perturbation_fingerprint(type(copy)(max_repeats=5))
    cards = tmp_path / "cards"
    write_card([card_line("intended", fingerprint)] * 9 + [card_line("broken", fingerprint)], cards / "repetition.jsonl")
    status = card_statuses("repetition", perturbation_fingerprint(copy), cards)["decrease"]
    assert status.state == CURRENT and status.n == 10 and status.rate == 0.9
    source.write_text(source.read_text() + "\n# an edit\n")
    status = card_statuses("repetition", perturbation_fingerprint(copy), cards)["decrease"]
    assert status.state == STALE and status.cell().endswith(STALE)
    # a setting is part of the fingerprint too
    assert perturbation_fingerprint(type(copy)(max_repeats=5)) != perturbation_fingerprint(copy)


def test_cards_are_validated(tmp_path):
    path = write_card([card_line("valid", "fp")], tmp_path / "bad.jsonl")  # "valid" is an invariant label
    with pytest.raises(InputError, match="not one of intended"):
        load_card(path)
    path = write_card([{**card_line("intended", "fp"), "fingerprint": ""}], tmp_path / "nofp.jsonl")
    with pytest.raises(InputError, match="fingerprint"):
        load_card(path)


def test_missing_cards_are_unmeasured(tmp_path):
    rows = shipped_validity(tmp_path)
    assert rows and all(status.state == UNMEASURED and status.rate is None for _, _, status in rows)
    names = {suite for suite, _, _ in rows}
    assert {"typos_in_word", "typos_space", "text_transformation", "passive_form"} <= names


def test_every_shipped_suite_has_a_current_card_of_60():
    rows = shipped_validity()
    assert len({card for _, card, _ in rows}) >= 9  # eight kinds, typos as two slips
    for suite, card, status in rows:
        assert status.state == CURRENT, f"{suite}: card {card} is {status.state}: re-judge it (docs/validity.md)"
        assert status.n >= 60


def test_validity_command(tmp_path, capsys):
    assert main(["validity"]) == 0
    out = capsys.readouterr().out
    assert "| text_transformation | textfooler | invariant |" in out and "current" in out
    assert main(["validity", "--cards", str(tmp_path / "none")]) == 2
    todo = tmp_path / "todo.jsonl"
    assert main(["validity", "--draw", "repetition", "--n", "3", "--seed", "7", "--out", str(todo)]) == 0
    lines = [json.loads(line) for line in todo.read_text().splitlines()]
    assert len(lines) == 3 and all(line["label"] == "" and line["fingerprint"] and line["seed"] == 7 for line in lines)
    assert main(["validity", "--strict", "--cards", str(tmp_path)]) == 1  # no cards there: unmeasured


def _suite_output(root: Path, name: str, kind: str, fingerprint: str, trained: dict) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    checks = {m: {"decrease": {"pass_rate": 0.5, "n": 10, "mean_delta": -0.1, "worst_delta": 0.2, "passed": False,
                               "requirement": "drops"},
                  "mft": {"pass_rate": 1.0, "n": 2, "mean_delta": 0.1, "worst_delta": 0.1, "passed": True,
                          "requirement": "fixed pairs"}} for m in ("bleu", "rome")}
    summary = {"suite": name, "signatures": {"bleu": "b", "rome": "r"}, "data": {"n_cases": 10},
               "perturbation": {"kind": kind}, "checks": checks,
               "check_expectations": {"decrease": "decrease", "mft": None},
               "validity": {"card": kind, "fingerprint": fingerprint}, "trained_on_families": trained}
    (folder / "summary.json").write_text(json.dumps(summary))


def test_robustness_table_shows_validity_marks_uninformative_rows_and_trained_families(tmp_path):
    cards, out = tmp_path / "cards", tmp_path / "out"
    write_card([card_line("intended", "fp-r")] * 7 + [card_line("broken", "fp-r")] * 3, cards / "repetition.jsonl")
    write_card([{**card_line("intended", "fp-e"), "card": "entity"}] * 19 + [{**card_line("broken", "fp-e"),
               "card": "entity"}], cards / "entity.jsonl")
    _suite_output(out, "repetition", "repetition", "fp-r", {"rome": ["repetition", "entity"]})
    _suite_output(out, "entity_replacement", "entity", "fp-old", {"rome": ["repetition"]})
    _suite_output(out, "typos_space", "typos_space", "fp-t", {"rome": []})
    report = robustness.build_report(out, cards_dir=cards)
    table = robustness.checks_table(report)
    assert table.columns == ["perturbation", "check", "n", "validity", "bleu", "rome"]
    rows = {(r[0], r[1]): r for r in table.rows}
    assert rows["repetition", "decrease"][3] == "70% [40, 89] n=10 **uninformative**"
    assert rows["repetition", "decrease"][5].endswith("†") and not rows["repetition", "decrease"][4].endswith("†")
    assert rows["repetition", "mft"][3] == "–" and not rows["repetition", "mft"][5].endswith("†")
    assert rows["entity_replacement", "decrease"][3] == "95% [76, 99] n=20 STALE"  # judged under other code
    assert not rows["entity_replacement", "decrease"][5].endswith("†")
    assert rows["typos_space", "decrease"][3] == UNMEASURED
    notes = "\n".join(table.notes)
    assert "RoMe's scorer was trained on this family of damage" in notes and "uninformative" in notes
