"""A reference-free metric (GRUEN) through every command: suites, ``rome report correlation``, ``rome challenge``.

A suite compares score(variant) with score(original), each text scored alone; the correlation
report and the challenge score hypotheses whose reference the metric never reads.
"""

from __future__ import annotations

import csv
import json

import pytest
from challenge_samples import write_jsonl

from reports.cli import main
from rome.core.cache import ScoreCache
from suites.harness import Decrease, MinimumFunctionality, Novikova, Perturb, Suite
from suites.harness.runner import SuiteRun

pytestmark = pytest.mark.slow


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("ROME_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ROME_OUT", str(tmp_path / "out"))
    return tmp_path


def test_a_suite_scores_each_text_alone_and_compares_variant_with_original(tmp_path):
    repeated = "The hotel is cheap and near the park. The hotel is cheap and near the park."
    suite = Suite(name="rf", data=Novikova(datasets=("bagel",)), n=6, seed=0, perturbation=Perturb("repetition"),
                  metrics=["gruen", "bleu"],
                  checks=[Decrease(margin=0.0, min_pass_rate=0.0),
                          MinimumFunctionality("repeated", pairs=[("any reference", repeated)], below=0.6)])
    cache = ScoreCache(tmp_path / "scores.sqlite")
    run = SuiteRun(suite, cache=cache)
    scores = run.scores("gruen")
    by_text: dict[str, set[float]] = {}
    for (hyp, _ref), value in scores.items():
        by_text.setdefault(hyp, set()).add(value)
    assert all(len(values) == 1 for values in by_text.values())  # the reference never changes a score
    cases = run.case_scores("gruen")
    assert len(cases) == len(run.cases) == 6
    result = run.result("gruen", "decrease")
    assert result.n == 6 and 0.0 <= result.pass_rate <= 1.0
    assert run.result("gruen", "repeated").passed  # repeated sentence: redundancy costs 0.4
    # the score cache holds one entry per text, with an empty reference
    rerun = SuiteRun(suite, cache=ScoreCache(tmp_path / "scores.sqlite"))
    assert rerun.scores("gruen") == scores


def test_rome_report_correlation_with_a_reference_free_metric(env):
    out = env / "corr"
    assert main(["report", "correlation", "--dataset", "bagel", "--metric", "gruen", "--metric", "bleu",
                 "--n", "30", "--bootstrap", "20", "--out", str(out)]) == 0
    with (out / "correlations.csv").open(newline="") as handle:
        rows = [r for r in csv.DictReader(handle) if r["metric"] == "gruen"]
    assert {r["criterion"] for r in rows} == {"informativeness", "naturalness", "quality"}
    assert all(r["value"] not in ("", "nan") for r in rows)
    assert "Signature gruen: gruen|" in (out / "correlation.md").read_text()


def test_rome_challenge_with_a_reference_free_metric(env):
    items = [{"id": "g1", "reference": "The hotel is cheap.", "good": "The hotel is near the park.",
              "bad": "The hotel is near the park. The hotel is near the park.", "category": "repeat"},
             {"id": "g2", "reference": "A cheap hotel.", "good": "Orellana was shown a red card.",
              "bad": "Orellana shown red card.", "category": "grammar"}]
    path = write_jsonl(env / "mine.jsonl", items)
    assert main(["challenge", str(path), "--metric", "gruen", "--out", str(env / "o"), "--workers", "1",
                 "--bootstrap", "20"]) == 0
    with (env / "o" / "accuracy.csv").open(encoding="utf-8") as handle:
        rows = {r[0]: r for r in csv.reader(handle)}
    assert float(rows["repeat"][4]) == 1.0  # the repeated sentence scores below the single one
    assert json.loads(json.dumps(rows["ALL"]))[2] == "gruen"
