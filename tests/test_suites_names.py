"""Suite names: TextFooler's suite is ``textfooler`` (its file, output folder and result rows) and the paper's
``text_transformation`` still names it wherever a suite name is taken; one definition serves both typo suites."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

from suites.harness.spec import available_suites, load_suite

ROOT = Path(__file__).resolve().parents[1]


def test_text_transformation_names_the_textfooler_suite():
    suite = load_suite("textfooler")
    assert suite.name == "textfooler" and suite.perturbation_kind() == "textfooler"
    assert load_suite("text_transformation") is suite  # the same file, loaded once
    assert "textfooler" in available_suites() and "text_transformation" not in available_suites()
    assert not (ROOT / "suites" / "text_transformation.py").exists()


def test_the_suite_command_and_validity_take_the_alias(capsys):
    """``rome suite text_transformation`` and ``rome validity --draw text_transformation`` open TextFooler's suite:
    the corpus named after it is the only error here, never "unknown suite"."""
    from reports.cli import main

    for argv in (["suite", "text_transformation", "--data", "no_such_corpus_x"],
                 ["validity", "--draw", "text_transformation", "--data", "no_such_corpus_x"],
                 ["validity", "--data", "no_such_corpus_x", "--suite", "text_transformation"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "unknown suite" not in err and "no_such_corpus_x" in err, err


def test_pytest_k_text_transformation_selects_its_suite():
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "-k", "text_transformation", "suites/textfooler.py", "suites/typos_space.py"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    items = [line for line in done.stdout.splitlines() if "::" in line]
    assert items and all(line.startswith("suites/textfooler.py::") for line in items), done.stdout


def test_the_two_typo_suites_differ_only_in_the_slip():
    in_word, space = load_suite("typos_in_word"), load_suite("typos_space")
    assert (in_word.name, space.name) == ("typos_in_word", "typos_space")
    assert in_word.perturbation.options == {"slip": "in_word"} and space.perturbation.options == {"slip": "space"}
    same = {"name", "description", "perturbation"}
    for field in dataclasses.fields(in_word):
        if field.name not in same:
            assert getattr(in_word, field.name) == getattr(space, field.name), field.name


def test_validity_rows_given_the_alias_are_named_textfooler(tmp_path):
    from suites.harness.validity import shipped_validity

    rows = shipped_validity(tmp_path, data=["dialogue"], suites=["text_transformation"])
    assert rows and {(suite, card) for _, suite, card, _ in rows} == {("textfooler", "textfooler")}


def test_the_suite_field_of_the_textfooler_cards_names_its_suite():
    """The committed cards keep the paper's name in each line's ``suite`` field; it opens the suite they judge."""
    import json

    from suites.harness.validity import draws_of

    cards = sorted((ROOT / "perturbations" / "cards").glob("*/textfooler.jsonl"))
    assert cards
    for card in cards:
        lines = [json.loads(line) for line in card.read_text(encoding="utf-8").splitlines() if line.strip()]
        for draw in draws_of(lines):
            assert load_suite(draw.suite).name == "textfooler", (card, draw.suite)
