"""pytest integration: a suite file collects one test per metric x check, fails with the worst cases."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[1]

CONFTEST = "from suites.harness.plugin import *  # noqa: F401,F403\n"

SUITE = textwrap.dedent('''
    import random

    from perturbations.base import Perturbation, Result, Variant
    from suites.harness import Invariant, MinimumFunctionality, Novikova, Suite


    class Reverse(Perturbation):
        """Reverse the word order: the same words, an unreadable sentence."""

        kind = "reverse"

        def _apply(self, text: str, rng: random.Random) -> Result:
            words = text.split()
            if len(words) < 3:
                return Result.skip(text, "too short")
            return Result(text, (Variant(" ".join(reversed(words)), self.kind, "invariant"),))


    SUITE = Suite(
        name="reversed",
        data=Novikova(), n=100, seed=0,
        perturbation=Reverse(),
        metrics=["bleu", "chrf", "meteor"],
        checks=[
            Invariant(tolerance=0.05, min_pass_rate=0.9),
            MinimumFunctionality("identical", pairs=[("a cheap bar near X .", "a cheap bar near X .")], above=0.9),
        ],
    )
''')


@pytest.fixture
def suite_dir(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("ROME_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ROME_OUT", str(tmp_path / "reports"))
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(reversed_words=SUITE)  # not named test_*.py: collected by the SUITE marker
    return pytester


def test_suite_file_collects_one_test_per_metric_and_check(suite_dir):
    result = suite_dir.runpytest_subprocess("--collect-only", "-q")
    names = [line for line in result.outlines if "::" in line]
    assert names == [f"reversed_words.py::{m}[{c}]" for m in ("bleu", "chrf", "meteor")
                     for c in ("invariant", "identical")]


def test_failures_list_the_worst_cases_and_outputs_are_written(suite_dir, tmp_path):
    result = suite_dir.runpytest_subprocess("--suite-n", "12", "-k", "bleu")
    result.assert_outcomes(passed=1, failed=1, deselected=4)
    text = result.stdout.str()
    assert "bleu[invariant]:" in text and "worst cases:" in text
    assert "reference:" in text and "variant:" in text and "FAIL" in text
    summary = json.loads((tmp_path / "reports" / "reversed" / "summary.json").read_text())
    assert list(summary["checks"]) == ["bleu"] and summary["data"]["n_cases"] == 12
    assert "suite outputs:" in text


def test_warm_rerun_reads_the_cache(suite_dir, tmp_path):
    suite_dir.runpytest_subprocess("--suite-n", "8", "-k", "chrf")
    result = suite_dir.runpytest_subprocess("--suite-n", "8", "-k", "chrf")
    result.assert_outcomes(passed=1, failed=1, deselected=4)
    cache = json.loads((tmp_path / "reports" / "reversed" / "summary.json").read_text())["cache"]
    assert cache["misses"] == 0 and cache["hits"] > 0


def test_shipped_suite_files_collect_from_the_repository():
    """``pytest suites/passive_form.py`` in a subprocess, as a user runs it (collection only: fast)."""
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "suites/passive_form.py", "--collect-only", "-q", "-p", "no:cacheprovider"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "suites/passive_form.py::bleu[invariant]" in proc.stdout
    assert "suites/passive_form.py::bleu[paper_examples]" in proc.stdout


MISSING_MODEL_SUITE = SUITE.replace('metrics=["bleu", "chrf", "meteor"]', 'metrics=["absent_model_for_test"]').replace(
    "from suites.harness import", textwrap.dedent('''
    from rome.core.contract import Metric
    from rome.core.errors import ResourceMissingError
    from rome.core.registry import register


    @register("absent_model_for_test")
    class AbsentModel(Metric):
        name = "absent_model_for_test"

        def _score_pairs(self, hypotheses, references):
            raise ResourceMissingError("the model of absent_model_for_test is not installed")


    from suites.harness import''').strip("\n"), 1)


@pytest.mark.parametrize(("required", "outcome"), [("1", {"failed": 1}), ("0", {"skipped": 1})])
def test_a_missing_metric_fails_where_the_install_promised_it(pytester, tmp_path, monkeypatch, required, outcome):
    """Issue "ground" (Claims): a missing model was always a skip, so a suite run could pass with a metric
    silently absent; under ROME_REQUIRE_EXTRAS=1 (tox) it fails, elsewhere it still skips."""
    monkeypatch.setenv("ROME_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ROME_OUT", str(tmp_path / "reports"))
    monkeypatch.setenv("ROME_REQUIRE_EXTRAS", required)
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(absent_suite=MISSING_MODEL_SUITE)
    result = pytester.runpytest_subprocess("--suite-n", "5", "-k", "invariant", "-rs")
    result.assert_outcomes(**outcome, deselected=1)
    assert "is not installed" in result.stdout.str()


def test_pytest_and_rome_suite_write_the_same_summary(tmp_path):
    """One suite, corpus and seed, run by ``pytest suites/repetition.py`` and by ``rome suite``: the same
    summary (the same validity card states, judged verdicts and checks; only the time stamps, cache counts
    and timings differ), and neither says the validity was "not looked up"."""
    import os

    from reports.cli import main

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "suites/repetition.py", "-k", "chrf", "-q", "-p", "no:cacheprovider",
         "--suite-data", "dialogue", "--suite-n", "40", "--suite-out", str(tmp_path / "pytest")],
        cwd=ROOT, capture_output=True, text=True, timeout=600, env=env)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    assert main(["suite", "repetition", "--data", "dialogue", "--n", "40", "--metric", "chrf",
                 "--out", str(tmp_path / "cli")]) in (0, 1)
    by_pytest, by_cli = tmp_path / "pytest" / "repetition", tmp_path / "cli"  # dialogue is the suite's own corpus
    volatile = ("created", "cache", "timings_s")
    summaries = [{k: v for k, v in json.loads((folder / "summary.json").read_text()).items() if k not in volatile}
                 for folder in (by_pytest, by_cli)]
    assert [s["data"].pop("cases_from_cache") for s in summaries] == [False, True]  # the second run reads the first's
    assert summaries[0] == summaries[1]
    assert summaries[0]["validity"]["states"]["decrease"]["state"] == "current"
    assert summaries[0]["judged"]["chrf"]["decrease"]["n"] >= 30  # its cases the card judged intended (its seed)
    markdown = [(folder / "summary.md").read_text() for folder in (by_pytest, by_cli)]
    assert markdown[0] == markdown[1] and "not looked up" not in markdown[0]
