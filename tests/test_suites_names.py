"""Suite names: ``textfooler`` names TextFooler's suite wherever a suite name is taken; one definition serves
both typo suites."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

from suites.harness.spec import available_suites, load_suite

ROOT = Path(__file__).resolve().parents[1]


def test_textfooler_names_the_text_transformation_suite():
    suite = load_suite("textfooler")
    assert suite.name == "text_transformation" and suite.perturbation_kind() == "textfooler"
    assert load_suite("text_transformation") is suite  # the same file, loaded once
    assert "textfooler" not in available_suites()  # listed once, under its file's name


def test_the_suite_command_and_validity_take_the_alias(capsys):
    """``rome suite textfooler`` and ``rome validity --draw textfooler`` open TextFooler's suite: the corpus named
    after it is the only error here, never "unknown suite"."""
    from reports.cli import main

    for argv in (["suite", "textfooler", "--data", "no_such_corpus_x"],
                 ["validity", "--draw", "textfooler", "--data", "no_such_corpus_x"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert "unknown suite" not in err and "no_such_corpus_x" in err, err


def test_pytest_k_textfooler_selects_its_suite():
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                           "-k", "textfooler", "suites/text_transformation.py", "suites/typos_space.py"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    items = [line for line in done.stdout.splitlines() if "::" in line]
    assert items and all(line.startswith("suites/text_transformation.py::") for line in items), done.stdout


def test_the_two_typo_suites_differ_only_in_the_slip():
    in_word, space = load_suite("typos_in_word"), load_suite("typos_space")
    assert (in_word.name, space.name) == ("typos_in_word", "typos_space")
    assert in_word.perturbation.options == {"slip": "in_word"} and space.perturbation.options == {"slip": "space"}
    same = {"name", "description", "perturbation"}
    for field in dataclasses.fields(in_word):
        if field.name not in same:
            assert getattr(in_word, field.name) == getattr(space, field.name), field.name
