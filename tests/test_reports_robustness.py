"""Robustness report from suite outputs (SYNTHETIC fixture in the suites' output format)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from reports import robustness
from reports.cli import main
from rome.core.errors import InputError

FIXTURE = Path(__file__).parent / "fixtures" / "suite_out"
ANNOTATIONS = FIXTURE / "annotations.jsonl"


def test_checks_table_has_table7_layout_and_provenance():
    report = robustness.build_report(FIXTURE)
    assert [s.name for s in report.suites] == ["passive_form", "typos"]
    table = robustness.checks_table(report)
    assert table.columns == ["corpus", "perturbation", "check", "n", "validity", "coverage", "bleu", "meteor"]
    # typos: METEOR passes 3 of 3 (Wilson 95 % [44, 100]), BLEU 0 of 3 ([0, 56]); the fixture predates units and
    # medians, so the cell falls back to the mean change; it names no validity card, so the row is unmeasured
    assert table.rows[1] == ["dialogue", "typos", "invariant", "3", "UNMEASURED", "–", "0% [0, 56] (Δ -49.367)",
                             "100% [44, 100] (Δ -0.020)"]
    notes = "\n".join(table.notes)
    assert "Signature bleu: bleu|sacrebleu" in notes and "Suite typos: 3 cases" in notes and "commit" in notes
    assert "Check typos/invariant: |delta| <= tol for 80% of cases" in notes


def test_annotations_are_averaged_per_case():
    ratings = robustness.load_annotations(ANNOTATIONS)
    assert ratings["passive_form-0000"] == {"fluency": 2.5, "semantics": 3.0, "grammar": 2.5}


def test_human_correlation_hand_computed():
    report = robustness.build_report(FIXTURE, ["passive_form"], ANNOTATIONS)
    rhos = robustness.human_correlations(report, report.suites[0].cases)
    # BLEU of the variants 36, 20, 30, 10 -> ranks 4, 2, 3, 1; fluency 2.5, 2, 1, 3 -> ranks 3, 2, 1, 4
    # d = 1, 0, 2, -3: rho = 1 - 6 * 14 / (4 * 15) = -0.4
    assert rhos[("bleu", "fluency")] == pytest.approx(-0.4)
    table = robustness.annotation_table(report)
    assert table.rows[0][:3] == ["passive_form", "4", "-0.40"]
    assert table.rows[-1][0] == robustness.ALL


def test_cli_writes_every_format_and_plots(tmp_path):
    out = tmp_path / "rob"
    assert main(["report", "robustness", "--from", str(FIXTURE), "--annotations", str(ANNOTATIONS),
                 "--out", str(out)]) == 0
    for name in ("robustness.md", "robustness.tex", "robustness.html", "robustness-checks.csv",
                 "robustness-human.csv", "deltas-passive_form.png", "deltas-typos.png"):
        assert (out / name).stat().st_size > 0, name
    tex = (out / "robustness.tex").read_text()
    assert r"\toprule" in tex and r"\bottomrule" in tex and r"$\Delta$" in tex
    assert (out / "deltas-typos.png").read_bytes()[:4] == b"\x89PNG"


def test_errors_are_one_line(tmp_path, capsys):
    assert main(["report", "robustness", "--from", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    assert "no suite outputs" in capsys.readouterr().err
    assert main(["report", "robustness", "--from", str(FIXTURE), "--suites", "nosuch"]) == 2
    bad = tmp_path / "ann.jsonl"
    bad.write_text(json.dumps({"case_id": "typos-0000", "fluency": 5}) + "\n")
    with pytest.raises(InputError, match="from 1 to 3"):
        robustness.load_annotations(bad)
    bad.write_text(json.dumps({"case_id": "zzz", "fluency": 2}) + "\n")
    with pytest.raises(InputError, match="none of its case_ids"):
        robustness.build_report(FIXTURE, None, bad)


def test_broken_summary_names_the_file(tmp_path):
    shutil.copytree(FIXTURE / "typos", tmp_path / "typos")
    (tmp_path / "typos" / "summary.json").write_text('{"suite": "typos"}')
    with pytest.raises(InputError, match="summary.json: missing 'signatures'"):
        robustness.build_report(tmp_path)


def test_annotations_naming_a_suite_only_match_that_suite(tmp_path):
    path = tmp_path / "ann.jsonl"
    lines = [{"case_id": f"typos-000{i}", "suite": "typos", "fluency": f, "semantics": 2, "grammar": g}
             for i, (f, g) in enumerate([(1, 1), (2, 3), (3, 2)])]
    lines.append({"case_id": "typos-0000", "suite": "passive_form", "fluency": 3})  # no such case there
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    report = robustness.build_report(FIXTURE, None, path)
    assert set(report.annotations) == {"typos/typos-0000", "typos/typos-0001", "typos/typos-0002",
                                       "passive_form/typos-0000"}
    rows = {r[0]: r for r in robustness.annotation_table(report).rows}
    assert rows["typos"][1] == "3" and rows["passive_form"][1] == "0"


def test_cells_show_the_median_change_in_the_unit_and_the_raw_median():
    stats = {"pass_rate": 0.9, "n": 160, "passes": 144, "mean_delta": -0.03, "median_delta": -0.0256,
             "median_change": -0.04, "unit": "control"}
    assert robustness._check_cell(stats) == "90% [84, 94] -0.04 (Δ -0.026)"


def test_compare_is_a_paired_exact_mcnemar_and_a_tie_without_significance(tmp_path, capsys):
    report = robustness.build_report(FIXTURE)
    table = robustness.comparison_table(report, "meteor", "bleu")
    rows = {(r[1], r[2]): r for r in table.rows}
    # typos: METEOR passes all 3 cases, BLEU none: 3 discordant pairs, p = 2 * 0.5**3 = 0.25; Holm over 2 rows: 0.5
    typos = rows[("typos", "invariant")]
    assert typos[3:] == ["3", "100% [44, 100]", "0% [0, 56]", "+100.0", "3", "0", "0.25", "0.5", "tie"]
    assert main(["report", "robustness", "--from", str(FIXTURE), "--out", str(tmp_path / "o"),
                 "--compare", "meteor", "bleu"]) == 0
    assert "Paired comparison: meteor vs bleu" in capsys.readouterr().out
    assert (tmp_path / "o" / "robustness-compare-meteor-bleu.csv").is_file()
    assert main(["report", "robustness", "--from", str(FIXTURE), "--compare", "meteor", "nosuch"]) == 2
