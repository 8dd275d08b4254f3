"""Suite outputs (cases.jsonl, cases.csv, summary.json, summary.md) and the ``rome suite`` command."""

from __future__ import annotations

import csv
import json
import textwrap

import pytest

from reports.cli import main
from suites.harness.outputs import write_outputs
from suites.harness.runner import SuiteRun
from suites.harness.spec import available_suites, load_suite

SUITE_FILE = textwrap.dedent('''
    """A suite with its own perturbation: the last two words swapped."""
    import random

    from perturbations.base import Perturbation, Result, Variant
    from suites.harness import Decrease, Invariant, MinimumFunctionality, Novikova, Suite


    class SwapLastTwo(Perturbation):
        kind = "swap_last_two"

        def _apply(self, text: str, rng: random.Random) -> Result:
            words = text.split()
            if len(words) < 4:
                return Result.skip(text, "too short")
            swapped = " ".join([*words[:-2], words[-1], words[-2]])
            return Result(text, (Variant(swapped, self.kind, "invariant", meta={"p_valid": 0.25}),))


    SUITE = Suite(
        name="swap_last",
        data=Novikova(datasets=("bagel",)), n=12, seed=0,
        perturbation=SwapLastTwo(),
        metrics=["bleu", "chrf"],
        checks=[
            Invariant(tolerance=0.3, min_pass_rate=0.5),
            Decrease(margin=0.05),
            MinimumFunctionality("same_text", pairs=[("There is a bar .", "There is a bar .")], above=0.9),
        ],
    )
''')


@pytest.fixture
def suite_file(tmp_path):
    path = tmp_path / "swap_last.py"
    path.write_text(SUITE_FILE, encoding="utf-8")
    return path


def test_outputs_have_the_documented_format(suite_file, tmp_path):
    from rome.core.cache import ScoreCache

    run = SuiteRun(load_suite(str(suite_file)), cache=ScoreCache(None))
    run.run_all()
    out = write_outputs(run, tmp_path / "out")

    rows = [json.loads(line) for line in (out / "cases.jsonl").read_text().splitlines()]
    assert len(rows) == 12
    row = rows[0]
    for key in ("case_id", "suite", "kind", "expectation", "reference", "original", "variant", "scores", "checks"):
        assert key in row
    assert row["suite"] == "swap_last" and row["kind"] == "swap_last_two" and row["expectation"] == "invariant"
    bleu = row["scores"]["bleu"]
    assert bleu["delta"] == pytest.approx(bleu["variant"] - bleu["original"])
    assert set(row["checks"]["bleu"]) == {"invariant"}  # only the checks that apply to the case
    assert isinstance(row["checks"]["chrf"]["invariant"], bool)
    assert all(r["p_valid"] == 0.25 for r in rows)  # the perturbation's own estimate, on every case

    summary = json.loads((out / "summary.json").read_text())
    assert summary["suite"] == "swap_last"
    assert summary["signatures"]["bleu"].startswith("bleu|")
    assert summary["data"]["n_cases"] == 12 and summary["data"]["datasets"] == ["bagel"]
    inv = summary["checks"]["bleu"]["invariant"]
    assert set(inv) >= {"pass_rate", "n", "mean_delta", "worst_delta"} and inv["n"] == 12
    passed = sum(r["checks"]["bleu"]["invariant"] for r in rows)
    assert inv["pass_rate"] == pytest.approx(passed / 12)
    assert inv["mean_delta"] == pytest.approx(sum(r["scores"]["bleu"]["delta"] for r in rows) / 12)
    assert summary["checks"]["bleu"]["decrease"]["n"] == 0 and summary["checks"]["bleu"]["decrease"]["passed"] is None
    assert summary["checks"]["bleu"]["same_text"]["passed"] is True
    assert summary["check_expectations"]["invariant"] == "invariant" and summary["check_expectations"]["same_text"] is None
    assert summary["validity"]["card"] == "swap_last_two" and "fingerprint" not in summary["validity"]
    assert summary["validity"]["states"]["invariant"]["state"] == "UNMEASURED"  # looked up under pytest too
    assert summary["judged"]["bleu"]["invariant"]["n"] == 0  # no card: no reader-judged cases
    assert summary["trained_on_families"] == {}  # BLEU and chrF learn nothing

    with (out / "cases.csv").open(newline="", encoding="utf-8") as handle:
        table = list(csv.DictReader(handle))
    assert len(table) == 12 and float(table[0]["bleu.delta"]) == pytest.approx(bleu["delta"])
    assert {r["p_valid"] for r in table} == {"0.25"}
    md = (out / "summary.md").read_text()
    assert "| bleu | invariant |" in md and "| chrf | same_text | yes |" in md


def test_a_change_that_rounds_to_zero_has_no_sign_in_the_summary(suite_file, tmp_path):
    """A median change of -0.0001 shows as 0.000 in summary.md: "-0.000" would tell a direction the digits
    do not."""
    from rome.core.cache import ScoreCache
    from suites.harness.outputs import summary_markdown

    run = SuiteRun(load_suite(str(suite_file)), cache=ScoreCache(None))
    run.run_all()
    summary = json.loads((write_outputs(run, tmp_path / "out") / "summary.json").read_text())
    check = summary["checks"]["bleu"]["invariant"]
    check.update(median_change=-0.0001, median_delta=-0.0001, worst_delta=-0.0004)
    row = next(line for line in summary_markdown(summary).splitlines() if line.startswith("| bleu | invariant |"))
    assert "-0.000" not in row and f"| 0.000 {check.get('unit', '')}".rstrip() in row
    check.update(median_change=-0.02)
    assert "| -0.020" in summary_markdown(summary)


def test_reports_out_env_sets_the_default_folder(suite_file, tmp_path, monkeypatch):
    from rome.core.cache import ScoreCache

    monkeypatch.setenv("ROME_OUT", str(tmp_path / "reports"))
    run = SuiteRun(load_suite(str(suite_file)), metrics=["bleu"], cache=ScoreCache(None))
    run.result("bleu", "invariant")
    assert write_outputs(run) == tmp_path / "reports" / "swap_last"
    assert json.loads((tmp_path / "reports" / "swap_last" / "summary.json").read_text())["signatures"].keys() == {"bleu"}


def test_rome_suite_prints_the_summary_and_writes_outputs(suite_file, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("ROME_CACHE_DIR", str(tmp_path / "cache"))
    code = main(["suite", str(suite_file), "--metric", "bleu", "--n", "5", "--out", str(tmp_path / "o")])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "# Suite `swap_last`" in out and "| bleu | invariant |" in out and "chrf" not in out.split("Signatures")[0]
    assert (tmp_path / "o" / "cases.jsonl").read_text().count("\n") == 5
    assert (tmp_path / "cache" / "scores.sqlite").exists()


def test_rome_suite_exits_1_when_a_check_fails(suite_file, tmp_path, monkeypatch):
    strict = suite_file.read_text().replace("Invariant(tolerance=0.3, min_pass_rate=0.5)",
                                            "Invariant(tolerance=0.0001, min_pass_rate=1.0)")
    suite_file.write_text(strict)
    assert main(["suite", str(suite_file), "--metric", "bleu", "--no-cache", "--out", str(tmp_path / "o")]) == 1


@pytest.mark.parametrize("argv, message", [
    (["suite", "no_such_suite"], "unknown suite 'no_such_suite'"),
    (["suite", "passive_form", "--n", "0"], "--n must be at least 1"),
    (["suite", "passive_form", "--metric", "nope"], "unknown metric 'nope'"),
    (["suite", "/nonexistent/suite.py"], "no such suite file"),
])
def test_rome_suite_bad_input_is_one_line_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_shipped_suites_are_listed_and_load():
    names = available_suites()
    expected = {"entity_replacement", "adjective_replacement", "random_word", "textfooler",
                "passive_form", "repetition", "typos_in_word", "typos_space", "contractions", "spelling", "optional_that"}
    assert expected <= set(names)
    for name in expected:
        suite = load_suite(name)
        assert suite.name == name and suite.checks and (suite.n == 200 or suite.direct_cases)


def test_user_jsonl_pairs_are_a_data_source(tmp_path):
    from perturbations.base import Perturbation, Result, Variant
    from rome.core.cache import ScoreCache
    from rome.core.errors import InputError
    from suites.harness import Invariant, JsonlPairs, Suite

    class Upper(Perturbation):
        kind = "upper"

        def _apply(self, text, rng):
            return Result(text, (Variant(text.upper(), self.kind, "invariant"),))

    path = tmp_path / "pairs.jsonl"
    path.write_text('{"id": "a", "reference": "The cafe is cheap .", "original": "A cheap cafe ."}\n'
                    '{"id": "b", "reference": "It is near X .", "original": "It is close to X ."}\n')
    suite = Suite(name="mine", data=JsonlPairs(str(path)), n=None, perturbation=Upper(), metrics=["chrf"],
                  checks=[Invariant()])
    run = SuiteRun(suite, cache=ScoreCache(None))
    assert sorted(c.case_id for c in run.cases) == ["a-0", "b-0"]
    assert run.result("chrf", "invariant").n == 2
    assert run.build_stats.as_dict()["n_requested"] is None

    path.write_text('{"id": "a", "reference": "x"}\n')
    with pytest.raises(InputError, match="pairs.jsonl:1: 'original' must be a non-empty string"):
        _ = SuiteRun(suite, cache=ScoreCache(None)).cases


def test_a_metric_that_cannot_be_built_here_is_left_out_and_said_so(suite_file, tmp_path, capsys):
    from rome.core import registry
    from rome.core.contract import Metric
    from rome.core.errors import ResourceMissingError

    class NeedsWeights(Metric):
        name = "needs_weights"

        def __init__(self):
            raise ResourceMissingError("needs_weights: weights.json not found; train them first")

        def _score_pairs(self, hypotheses, references):  # pragma: no cover - never built
            raise AssertionError

    registry.register("needs_weights")(NeedsWeights)
    try:
        code = main(["suite", str(suite_file), "--metric", "bleu", "--metric", "needs_weights", "--no-cache",
                     "--out", str(tmp_path / "o")])
    finally:
        registry.unregister("needs_weights")
    captured = capsys.readouterr()
    assert code == 0 and "left out needs_weights: needs_weights: weights.json not found" in captured.err
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    assert list(summary["checks"]) == ["bleu"] and "needs_weights" in summary["unavailable"]
    assert "Left out (not available here)" in captured.out


def test_trained_on_families_come_from_the_metrics_that_say_so():
    from types import SimpleNamespace

    from rome.core.registry import build_metric
    from suites.harness.outputs import trained_on_families

    built = {name: build_metric(name) for name in ("bleu", "rome", "rome/emd_std")}
    run = SimpleNamespace(metric=built.__getitem__)
    families = trained_on_families(run, list(built))
    assert set(families) == {"rome", "rome/emd_std"}  # BLEU has no such method
    assert families["rome"] == sorted(built["rome"].trained_on_families()) and families["rome"]
    assert families["rome/emd_std"] == []  # an untrained variant


def test_a_suite_that_changes_no_text_is_not_applicable_exit_3_and_reported(tmp_path, capsys, monkeypatch):
    """A perturbation that changes none of the texts (contractions on texts with nothing to contract or expand)
    is not an error of the input nor a metric's failure: ``rome suite`` records it and exits 3, the robustness
    report lists it as not applicable, and the main job goes on (scripts/main_job.sh)."""
    monkeypatch.setenv("ROME_CACHE_DIR", str(tmp_path / "cache"))
    data = tmp_path / "plain.jsonl"
    data.write_text("".join(json.dumps({"id": str(i), "reference": text, "original": text}) + "\n"
                            for i, text in enumerate(["Red apples grow here.", "Blue skies.", "The cat sat."])))
    out = tmp_path / "out" / "contractions--plain"
    code = main(["suite", "contractions", "--data", str(data), "--metric", "bleu", "--out", str(out)])
    captured = capsys.readouterr()
    assert code == 3, captured.err
    assert "not applicable" in captured.err and "none of the 3 texts" in captured.err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["applicable"] is False and summary["checks"] == {} and summary["coverage"]["texts_tried"] == 3
    assert "Not applicable" in (out / "summary.md").read_text()
    assert main(["report", "robustness", "--from", str(tmp_path / "out"), "--out", str(tmp_path / "table")]) == 0
    table = tmp_path / "table" / "robustness.md"
    assert "Not applicable: contractions on plain (the perturbation changed none of the 3 texts tried)" in \
        table.read_text()
