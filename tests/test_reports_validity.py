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
from reports.robustness import load_suites, row_validity
from reports.validity import (
    CURRENT,
    STALE,
    UNMEASURED,
    card_statuses,
    load_card,
    reader_agreement,
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


def distinct(lines: list[dict]) -> list[dict]:
    """Card lines made distinct judgements (one source each): a repeated line is refused (#8)."""
    return [{**line, "source_id": f"x{i}"} for i, line in enumerate(lines)]


def _copy_of_repetition(tmp_path: Path, monkeypatch):
    """A copy of perturbations/repetition/ (and base.py) in a package folder of its own, imported by path."""
    package = tmp_path / "perturbations"
    (package / "repetition").mkdir(parents=True)
    shutil.copy(ROOT / "perturbations" / "base.py", package / "base.py")
    (package / "__init__.py").write_text("")
    shutil.copy(ROOT / "perturbations" / "repetition" / "__init__.py", package / "repetition" / "__init__.py")
    spec = importlib.util.spec_from_file_location("copied_repetition", package / "repetition" / "__init__.py")
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "copied_repetition", module)  # inspect.getmodule finds it
    spec.loader.exec_module(module)
    return package / "repetition" / "__init__.py", module.Repetition()


def test_a_card_goes_stale_when_its_perturbation_is_edited(tmp_path, monkeypatch):
    source, copy = _copy_of_repetition(tmp_path, monkeypatch)
    fingerprint = perturbation_fingerprint(copy)
    assert str(tmp_path) not in fingerprint and fingerprint != perturbation_fingerprint(type(copy)(max_repeats=5))
    cards = tmp_path / "cards"
    write_card(distinct([card_line("intended", fingerprint)] * 9 + [card_line("broken", fingerprint)]),
               cards / "dialogue" / "repetition.jsonl")
    status = card_statuses("repetition", perturbation_fingerprint(copy), cards)["decrease"]
    assert status.state == CURRENT and status.n == 10 and status.rate == 0.9
    source.write_text(source.read_text() + "\n# a comment: documentation, not behaviour\n")
    assert card_statuses("repetition", perturbation_fingerprint(copy), cards)["decrease"].state == CURRENT
    source.write_text(source.read_text() + "\n_EDITED_FOR_TEST = 1\n")
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


def test_a_line_judged_twice_is_refused_not_counted_twice(tmp_path):
    """Issue "ground" #8: a card appended to itself gave n = 120 and narrowed [89, 99] to [92, 99], silently."""
    shipped = ROOT / "perturbations" / "cards" / "dialogue" / "passive.jsonl"
    doubled = tmp_path / "passive.jsonl"
    lines = shipped.read_text(encoding="utf-8").splitlines()
    doubled.write_text("\n".join(lines + lines) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=rf"passive.jsonl:{len(lines) + 1}: .*line 1"):
        load_card(doubled)
    assert len(load_card(shipped)) == len(lines)  # the same text drawn from two sources is two lines


def test_missing_cards_are_unmeasured(tmp_path):
    rows = shipped_validity(tmp_path)
    assert rows and all(status.state == UNMEASURED and status.rate is None for *_, status in rows)
    names = {suite for _, suite, _, _ in rows}
    assert {"typos_in_word", "typos_space", "text_transformation", "passive_form"} <= names
    assert {corpus for corpus, *_ in rows} == {"dialogue", "news", "webnlg"}


def test_every_shipped_suite_has_a_current_card_of_60_on_every_shipped_corpus():
    rows = shipped_validity()
    assert len({card for _, _, card, _ in rows}) >= 9  # eight kinds, typos as two slips
    for corpus, suite, card, status in rows:
        assert status.state == CURRENT, (f"{suite} on {corpus}: card {card} is {status.state}: "
                                         "judge it (docs/validity.md)")
        # 60 judged variants, or every variant the corpus has (a precision-first perturbation may find fewer)
        assert status.n >= 60 or status.exhausted, f"{suite} on {corpus}: {status.expectation} n={status.n}"


def test_a_row_never_borrows_another_corpus_card(tmp_path):
    """A suite run on news gets the news card or UNMEASURED, even when a dialogue card of the same
    perturbation and fingerprint exists."""
    cards, out = tmp_path / "cards", tmp_path / "out"
    write_card(distinct([card_line("intended", "fp-r")] * 10), cards / "dialogue" / "repetition.jsonl")
    _suite_output(out, "repetition", "repetition", "fp-r", {}, corpus="dialogue")
    _suite_output(out, "repetition--news", "repetition", "fp-r", {}, corpus="news")
    rows = [row_validity(s, "decrease", cards) for s in load_suites(out)]
    by_corpus = {s.summary["corpus"]: status for s, status in zip(load_suites(out), rows)}
    assert by_corpus["dialogue"].rate == 1.0 and by_corpus["news"].state == UNMEASURED
    write_card(distinct([card_line("intended", "fp-r")] * 6 + [card_line("broken", "fp-r")] * 4),
               cards / "news" / "repetition.jsonl")
    news = next(s for s in load_suites(out) if s.summary["corpus"] == "news")
    assert row_validity(news, "decrease", cards).rate == 0.6


def test_validity_command(tmp_path, capsys):
    assert main(["validity"]) == 0
    out = capsys.readouterr().out
    assert "| dialogue | text_transformation | textfooler | invariant |" in out
    assert "| news | text_transformation | textfooler | invariant |" in out
    assert main(["validity", "--cards", str(tmp_path / "none")]) == 2
    todo = tmp_path / "todo.jsonl"
    assert main(["validity", "--draw", "repetition", "--n", "3", "--seed", "7", "--out", str(todo)]) == 0
    lines = [json.loads(line) for line in todo.read_text().splitlines()]
    assert len(lines) == 3 and all(line["label"] == "" and line["fingerprint"] and line["seed"] == 7 for line in lines)
    assert main(["validity", "--strict", "--cards", str(tmp_path)]) == 1  # no cards there: unmeasured


def _suite_output(root: Path, name: str, kind: str, fingerprint: str, trained: dict, corpus: str = "dialogue") -> None:
    folder = root / name
    folder.mkdir(parents=True)
    checks = {m: {"decrease": {"pass_rate": 0.5, "n": 10, "mean_delta": -0.1, "worst_delta": 0.2, "passed": False,
                               "requirement": "drops"},
                  "mft": {"pass_rate": 1.0, "n": 2, "mean_delta": 0.1, "worst_delta": 0.1, "passed": True,
                          "requirement": "fixed pairs"}} for m in ("bleu", "rome")}
    summary = {"suite": name.split("--")[0], "corpus": corpus, "signatures": {"bleu": "b", "rome": "r"},
               "data": {"n_cases": 10}, "perturbation": {"kind": kind}, "checks": checks,
               "check_expectations": {"decrease": "decrease", "mft": None},
               "validity": {"card": kind, "corpus": corpus, "fingerprint": fingerprint}, "trained_on_families": trained}
    (folder / "summary.json").write_text(json.dumps(summary))


def test_robustness_table_shows_validity_marks_uninformative_rows_and_trained_families(tmp_path):
    cards, out = tmp_path / "cards", tmp_path / "out"
    write_card(distinct([card_line("intended", "fp-r")] * 7 + [card_line("broken", "fp-r")] * 3),
               cards / "dialogue" / "repetition.jsonl")
    write_card(distinct([{**card_line("intended", "fp-e"), "card": "entity"}] * 19 + [{**card_line("broken", "fp-e"),
               "card": "entity"}]), cards / "dialogue" / "entity.jsonl")
    _suite_output(out, "repetition", "repetition", "fp-r", {"rome": ["repetition", "entity"]})
    _suite_output(out, "entity_replacement", "entity", "fp-old", {"rome": ["repetition"]})
    _suite_output(out, "typos_space", "typos_space", "fp-t", {"rome": []})
    report = robustness.build_report(out, cards_dir=cards)
    table = robustness.checks_table(report)
    assert table.columns == ["corpus", "perturbation", "check", "n", "validity", "coverage", "bleu", "rome"]
    rows = {(r[1], r[2]): r[:1] + r[2:5] + r[6:] for r in table.rows}  # as before corpora: without corpus, coverage
    assert rows["repetition", "decrease"][3] == "70% [40, 89] n=10 **uninformative**"
    assert rows["repetition", "decrease"][5].endswith("†") and not rows["repetition", "decrease"][4].endswith("†")
    assert rows["repetition", "mft"][3] == "–" and not rows["repetition", "mft"][5].endswith("†")
    assert rows["entity_replacement", "decrease"][3] == "95% [76, 99] n=20 STALE"  # judged under other code
    assert not rows["entity_replacement", "decrease"][5].endswith("†")
    assert rows["typos_space", "decrease"][3] == UNMEASURED
    notes = "\n".join(table.notes)
    assert "RoMe's scorer or grammar classifier was trained on this family of damage" in notes and "uninformative" in notes


def test_demetr_rows_are_marked_where_rome_trained_on_one_of_their_categories(tmp_path):
    """Issue "ground" (Claims): DEMETR rows never got the †, though RoMe's scorer negatives (shuffle, entity
    swap, truncation) and its grammar classifier's damage (delete, repeat) match DEMETR categories."""
    out = tmp_path / "out"
    folder = out / "demetr"
    folder.mkdir(parents=True)
    cell = {"pass_rate": 0.9, "n": 10, "mean_delta": -0.1, "worst_delta": 0.2, "passed": True, "requirement": "x"}
    summary = {"suite": "demetr", "signatures": {"bleu": "b", "rome": "r"}, "data": {"n_cases": 40},
               "perturbation": None, "validity": {"card": None, "published": True},
               "checks": {m: {c: cell for c in ("controls", "critical", "major", "minor")} for m in ("bleu", "rome")},
               "check_expectations": {}, "trained_on_families": {
                   "rome": ["repetition", "critical_id20_shuffled", "minor_id2_repeat4"], "bleu": []}}
    (folder / "summary.json").write_text(json.dumps(summary))
    table = robustness.checks_table(robustness.build_report(out, cards_dir=tmp_path / "cards"))
    rows = {(r[1], r[2]): r[:1] + r[2:5] + r[6:] for r in table.rows}  # without corpus and coverage
    assert rows["demetr", "critical"][5].endswith("†") and rows["demetr", "minor"][5].endswith("†")
    assert not rows["demetr", "major"][5].endswith("†") and not rows["demetr", "controls"][5].endswith("†")
    assert not any(rows["demetr", c][4].endswith("†") for c in ("controls", "critical", "major", "minor"))
    assert "grammar classifier" in "\n".join(table.notes)


def test_a_side_the_corpus_has_no_variant_of_is_said_so_not_unmeasured(tmp_path):
    """An adjective card drawn per expectation on a corpus with antonyms but no synonym: the synonym side
    is 'no variants' (nothing to judge, no cases), not UNMEASURED; a card with fewer than asked is 'all'."""
    lines = [{**card_line("intended", "fp"), "card": "adjective", "exhausted": True,
              "found": {"decrease": 2, "invariant": 0}, "source_id": f"s{i}"} for i in range(2)]
    write_card(lines, tmp_path / "dialogue" / "adjective.jsonl")
    statuses = card_statuses("adjective", "fp", tmp_path, "dialogue")
    assert statuses["decrease"].cell() == "100% [34, 100] n=2 (all)"
    assert statuses["invariant"].state == CURRENT and statuses["invariant"].cell() == "no variants"
    assert statuses["invariant"].exhausted and statuses["invariant"].n == 0


def test_reader_agreement_counts_verdicts_labels_and_kappa():
    card = distinct([card_line(label, "f", "invariant") for label in ("valid", "valid", "awkward", "valid")])
    second = [{**line, "label": label} for line, label in zip(card, ("valid", "ungrammatical", "awkward", "valid"))]
    second.append({**card[0], "source_id": "not on the card", "label": "awkward"})  # a line re-drawn away: ignored
    (got,) = reader_agreement(card, second).values()
    assert (got.n, got.first_valid, got.second_valid, got.agreed, got.same_label) == (4, 3, 2, 3, 3)
    # observed agreement 3/4, chance 3/4 * 2/4 + 1/4 * 2/4 = 1/2: kappa (0.75 - 0.5) / 0.5
    assert got.kappa == pytest.approx(0.5)
    assert got.second_interval == wilson_interval(2, 4)
    same = reader_agreement(card, card)["invariant"]
    assert same.agreed == same.same_label == 4 and same.kappa == pytest.approx(1.0)
    with pytest.raises(InputError, match="not one of the labels"):
        reader_agreement(card, [{**card[0], "label": "intended"}])  # a decrease label on an invariant line


def test_shipped_second_readings_are_lines_of_their_cards():
    """Every line of every second-reader file is still a line of its card (scripts/research/reader_agreement.py,
    docs/validity.md): after a card is re-drawn, lines the code no longer produces must leave the second
    reading too, or its table would quote lines the card no longer holds."""
    seconds = sorted((ROOT / "perturbations" / "cards").glob("*/second_reader/*.jsonl"))
    assert seconds
    for path in seconds:
        card = load_card(path.parent.parent / f"{path.stem}.jsonl")
        compared = reader_agreement(card, load_card(path))
        assert sum(a.n for a in compared.values()) == len(load_card(path)), path
