"""Challenge sets as declarative suites: ``Suite(data=ChallengeSet(...), checks=[Prefers(...)])``."""

from __future__ import annotations

import json
import textwrap

import pytest
from challenge_samples import CONTROLS, GENERIC, demetr_slice, write_jsonl

from rome.core.cache import ScoreCache
from rome.core.errors import InputError
from suites.harness import ChallengeSet, Invariant, Novikova, Prefers, Suite
from suites.harness.outputs import write_outputs
from suites.harness.runner import SuiteRun
from suites.harness.spec import load_suite

pytest_plugins = ["pytester"]


def test_cases_come_straight_from_the_data_and_prefers_filters_by_severity(tmp_path):
    folder = demetr_slice(tmp_path / "d", (*CONTROLS, "minor_id30_tokenized"), n=4)
    suite = Suite(name="mine", data=ChallengeSet(str(folder)), metrics=["bleu"],
                  checks=[Prefers("controls", severity="base", min_pass_rate=1.0),
                          Prefers("tokenized", categories=["minor_id30_tokenized"], min_pass_rate=0.5)])
    run = SuiteRun(suite, cache=ScoreCache(None))
    assert len(run.cases) == 16 and {c.expectation for c in run.cases} == {"decrease"}
    case = next(c for c in run.cases if c.kind == "base_id33_empty")
    assert (case.variant, case.severity, case.source_id) == (".", "base", case.case_id.split(":")[1])
    controls, tokenized = run.result("bleu", "controls"), run.result("bleu", "tokenized")
    assert (controls.n, controls.pass_rate, controls.passed) == (12, 1.0, True)
    # by hand with sacrebleu: 3 of the first 4 tokenized items tie with the MT (ties fail)
    assert (tokenized.n, tokenized.pass_rate, tokenized.passed) == (4, 0.25, False)
    out = write_outputs(run, tmp_path / "out")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["perturbation"]["kind"] == "none" and summary["data"]["source"] == "challenge"
    assert summary["data"]["n_cases"] == 16


def test_a_user_file_with_several_references_is_one_short_suite(tmp_path):
    path = write_jsonl(tmp_path / "mine.jsonl", GENERIC)
    suite = Suite(name="mine", data=ChallengeSet(str(path)), metrics=["chrf"], checks=[Prefers(min_pass_rate=0.8)])
    run = SuiteRun(suite, cache=ScoreCache(None))
    multi = next(c for c in run.cases if c.kind == "number")
    assert multi.reference == ("Zoë bought three apples.", "Zoë purchased three apples.")
    assert run.result("chrf", "prefers").pass_rate == 1.0


def test_sampling_per_category_and_overall(tmp_path):
    folder = demetr_slice(tmp_path / "d", ("minor_id2_repeat4", "critical_id4_codemix"), n=30)
    suite = Suite(name="s", data=ChallengeSet(str(folder)), n=None, n_per_category=5, seed=1, metrics=["bleu"],
                  checks=[Prefers()])
    assert len(SuiteRun(suite, cache=ScoreCache(None)).cases) == 10
    cases = SuiteRun(suite, n=4, cache=ScoreCache(None)).cases
    assert len(cases) == 4 and {c.kind for c in cases} == {"minor_id2_repeat4", "critical_id4_codemix"}


def test_declaration_errors_are_one_line(tmp_path):
    with pytest.raises(InputError, match="declares no perturbation"):
        Suite(name="x", data=Novikova(), n=5, checks=[Invariant()])
    with pytest.raises(InputError, match="gives its own cases; drop perturbation="):
        Suite(name="x", data=ChallengeSet(), perturbation=object(), checks=[Prefers()])
    with pytest.raises(InputError, match="declares no checks"):
        Suite(name="x", data=ChallengeSet())
    with pytest.raises(InputError, match="no items of category nope"):
        ChallengeSet(str(demetr_slice(tmp_path, ("minor_id2_repeat4",), 2)), categories=["nope"]).load()


def test_prefers_applies_to_decrease_cases_of_perturbation_suites_too():
    from types import SimpleNamespace

    check = Prefers(severity="minor")
    assert check.applies_to_case(SimpleNamespace(expectation="decrease", severity="minor", kind="x"))
    assert not check.applies_to_case(SimpleNamespace(expectation="decrease", severity="major", kind="x"))
    assert not check.applies_to_case(SimpleNamespace(expectation="invariant", severity="minor", kind="x"))
    assert "ties fail" in check.requirement("bleu") and "severity minor" in check.requirement("bleu")


def test_the_shipped_demetr_suite_loads_and_declares_one_check_per_severity():
    suite = load_suite("demetr")
    assert suite.direct_cases and [c.name for c in suite.checks] == ["controls", "critical", "major", "minor"]
    assert suite.perturbation_kind() == "challenge"


USER_SUITE = textwrap.dedent('''
    from suites.harness import ChallengeSet, Prefers, Suite

    SUITE = Suite(
        name="my_pairs",
        data=ChallengeSet("{path}"),
        metrics=["bleu", "chrf"],
        checks=[Prefers("all_pairs", min_pass_rate=0.9), Prefers("tense", categories="tense", min_pass_rate=1.0)],
    )
''')


def test_pytest_runs_a_users_challenge_suite_file(pytester, tmp_path, monkeypatch):
    monkeypatch.setenv("ROME_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ROME_OUT", str(tmp_path / "reports"))
    path = write_jsonl(tmp_path / "pairs.jsonl", GENERIC)
    pytester.makeconftest("from suites.harness.plugin import *  # noqa: F401,F403\n")
    pytester.makepyfile(my_pairs=USER_SUITE.format(path=path))
    result = pytester.runpytest_subprocess("-q")
    result.assert_outcomes(passed=4)
    summary = json.loads((tmp_path / "reports" / "my_pairs" / "summary.json").read_text())
    assert summary["checks"]["bleu"]["tense"]["n"] == 1 and summary["checks"]["chrf"]["all_pairs"]["n"] == 5
