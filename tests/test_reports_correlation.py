"""``rome report correlation`` end to end on real data with the cheap metrics (BLEU, METEOR)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as sps

from reports.cli import main
from reports.correlation import CorrelationConfig, run_correlation
from rome.core.cache import ScoreCache
from rome.data.judged import load_dataset

WEBNLG = Path(__file__).parent / "fixtures" / "webnlg2017_human_synthetic.csv"
ARGS = ["--metric", "bleu", "--metric", "meteor", "--n", "40", "--bootstrap", "50", "--seed", "1"]


@pytest.fixture(scope="module")
def bagel_out(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("bagel")
    assert main(["report", "correlation", "--dataset", "bagel", *ARGS, "--out", str(out)]) == 0
    return out


def read_rows(path: Path) -> list[dict[str, str]]:
    with path.open(newline="") as handle:
        return list(csv.DictReader(handle))


def test_every_output_is_written(bagel_out):
    for name in ("correlation.md", "correlation.tex", "correlation.html", "correlations.csv", "williams.csv",
                 "correlation-corr-pooled.csv", "correlation-corr-dusek.csv", "heatmap.png", "scores.jsonl"):
        assert (bagel_out / name).stat().st_size > 0, name
    md = (bagel_out / "correlation.md").read_text()
    assert "Signature bleu: bleu|" in md and "Signature meteor: meteor|" in md
    assert "novikova2017/bagel.jsonl (shipped" in md and "seeded sample of 40" in md
    tex = (bagel_out / "correlation.tex").read_text()
    assert tex.count(r"\toprule") == tex.count(r"\bottomrule") >= 3 and r"$\rho$" in tex
    assert "<img src='heatmap.png'" in (bagel_out / "correlation.html").read_text()


def test_numbers_match_scipy_on_the_written_scores(bagel_out):
    items = [json.loads(line) for line in (bagel_out / "scores.jsonl").read_text().splitlines()]
    assert len(items) == 40
    rows = read_rows(bagel_out / "correlations.csv")
    assert len(rows) == 3 * 2 * 3 * 3  # groups (pooled, Dusek, LOLS) x metrics x criteria x methods
    lols = [it for it in items if it["system"] == "LOLS"]
    want = sps.kendalltau([it["scores"]["meteor"] for it in lols], [it["human"]["quality"] for it in lols])
    got = next(r for r in rows if (r["group"], r["metric"], r["criterion"], r["method"])
               == ("LOLS", "meteor", "quality", "kendall"))
    assert float(got["value"]) == pytest.approx(want.statistic)
    assert int(got["n"]) == len(lols)
    assert float(got["ci_low"]) <= float(got["value"]) <= float(got["ci_high"])


def test_williams_matrix_covers_both_orders(bagel_out):
    rows = read_rows(bagel_out / "williams.csv")
    pooled = {(r["metric_a"], r["metric_b"], r["criterion"]): r for r in rows if r["group"] == "pooled"}
    a, b = pooled[("bleu", "meteor", "quality")], pooled[("meteor", "bleu", "quality")]
    assert float(a["t"]) == pytest.approx(-float(b["t"]))
    assert int(a["df"]) == 40 - 3


def test_rerun_resumes_from_the_cache(tmp_path):
    import sqlite3


    data = load_dataset("bagel")
    config = CorrelationConfig(["bleu"], n_items=30, n_resamples=20, seed=2)
    db = tmp_path / "scores.sqlite"
    first = run_correlation(data, config, ScoreCache(db))
    assert first.cache["misses"] == 30
    with sqlite3.connect(db) as conn:  # an interrupted run: only some scores were committed
        conn.execute("DELETE FROM scores WHERE rowid IN (SELECT rowid FROM scores LIMIT 20)")
    second = run_correlation(data, config, ScoreCache(db))
    assert second.cache == {"hits": 10, "misses": 20}
    np.testing.assert_array_equal(first.scores["bleu"], second.scores["bleu"])
    assert first.cells == second.cells  # same seed, same numbers
    third = run_correlation(data, config, ScoreCache(db))
    assert third.cache == {"hits": 30, "misses": 0}


def test_webnlg_per_team_and_empty_outputs(tmp_path):
    out = tmp_path / "webnlg"
    assert main(["report", "correlation", "--dataset", "webnlg2017", "--path", str(WEBNLG), "--metric", "bleu",
                 "--bootstrap", "0", "--out", str(out)]) == 0
    rows = read_rows(out / "correlations.csv")
    assert {r["group"] for r in rows} == {"pooled", "ADAPT", "melbourne", "tilburg"}
    assert all(r["ci_low"] == "" for r in rows)  # --bootstrap 0: no interval, written empty
    assert "nan" not in (out / "correlations.csv").read_text().lower()
    md = (out / "correlation.md").read_text()
    assert "empty or null system texts (scored as empty): 2" in md
    assert "3 items without a human reference left out" in md
    items = [json.loads(line) for line in (out / "scores.jsonl").read_text().splitlines()]
    by_id = {it["id"]: it["scores"]["bleu"] for it in items}
    assert by_id["4"] == 0.0 and by_id["9"] == 0.0  # null / empty texts get BLEU's worst score


def test_mr_reference_protocol(tmp_path):
    data = load_dataset("bagel")
    config = CorrelationConfig(["bleu"], reference="mr", n_items=20, n_resamples=0)
    result = run_correlation(data, config, ScoreCache(tmp_path / "scores.sqlite"))
    assert result.left_out == 0 and len(result.items) == 20
    assert ("pooled", "bleu", "informativeness", "spearman") in result.cells


@pytest.mark.parametrize("argv,message", [
    (["--dataset", "webnlg2017"], "--path"),
    (["--dataset", "bagel", "--metric", "nosuch"], "unknown metric"),
    (["--dataset", "bagel", "--metric", "bleu", "--n", "2"], "at least 3"),
    (["--dataset", "nosuch.jsonl"], "unknown dataset"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, argv, message):
    assert main(["report", "correlation", *argv, "--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_metric_all_leaves_out_unavailable_metrics_and_says_so(tmp_path):
    """A metric whose weights are missing (a stand-in: the state of a fresh clone) is noted, not fatal."""
    from reports.correlation import provenance_notes
    from rome.core.contract import Metric
    from rome.core.errors import ResourceMissingError
    from rome.core.registry import register, unregister

    class Unavailable(Metric):
        name = "unavailable"

        def _score_pairs(self, hypotheses, references):
            raise ResourceMissingError("weights.json missing; train it first")

    register("unavailable")(Unavailable)
    try:
        data = load_dataset("bagel")
        config = CorrelationConfig(["bleu", "unavailable"], n_items=10, n_resamples=0, skip_unavailable=True)
        result = run_correlation(data, config, ScoreCache(tmp_path / "scores.sqlite"))
        assert list(result.scores) == ["bleu"]
        assert any("Left out unavailable" in n and "weights.json" in n for n in provenance_notes(result))
        config.skip_unavailable = False
        with pytest.raises(ResourceMissingError):
            run_correlation(data, config, ScoreCache(None))
    finally:
        unregister("unavailable")


def test_two_datasets_give_a_side_by_side_table(tmp_path, capsys):
    out = tmp_path / "both"
    assert main(["report", "correlation", "--dataset", "bagel", "--dataset", "sfhotel", "--metric", "bleu",
                 "--n", "30", "--bootstrap", "0", "--coefficient", "spearman", "--out", str(out)]) == 0
    table = capsys.readouterr().out
    assert "| metric | bagel informativeness |" in table and "sfhotel quality |" in table
    assert (out / "bagel" / "correlations.csv").exists() and (out / "sfhotel" / "heatmap.png").exists()
    rows = read_rows(out / "sfhotel" / "correlations.csv")
    assert {r["method"] for r in rows} == {"spearman"}
    want = next(r for r in rows if (r["group"], r["criterion"], r["method"]) == ("pooled", "quality", "spearman"))
    combined = (out / "correlation-combined.csv").read_text().splitlines()[1].split(",")
    assert combined[0] == "bleu" and combined[-1].startswith(f"{float(want['value']):.2f}")


class CountingBLEU:
    """BLEU that counts the pairs it scores (registered at run time below)."""

    scored = 0

    @staticmethod
    def build():
        from baselines.sacrebleu_metrics import BLEU

        class Counting(BLEU):
            name = "counting_bleu"

            def _score_multi(self, hypotheses, references):
                CountingBLEU.scored += len(hypotheses)
                return super()._score_multi(hypotheses, references)

        return Counting()


@pytest.mark.parametrize("bad,shown", [
    ('"quality": "4.0"', "'quality' must be a finite number, got '4.0' (a string)"),
    ('"quality": "NaN"', "'quality' must be a finite number, got 'NaN' (a string)"),
    # not JSON: refused by the JSON reader itself, with the line (issue "product", defect 10)
    ('"quality": Infinity', "Infinity is not a JSON number"),
    ('"human": {"quality": -Infinity}', "-Infinity is not a JSON number"),
    ('"human": {"quality": "4.0"}', "'quality' must be a finite number, got '4.0' (a string)"),
    ('"quality": null', "'quality' must be a finite number, got null"),  # issue "ground" #11: no file or line
    ('"quality": true', "'quality' must be a finite number, got true (a boolean)"),
    ('"fluency": 3', "'quality' is missing (other items have it)"),
])
def test_bad_ratings_are_refused_before_any_metric_scores(tmp_path, capsys, bad, shown):
    """Issue item 4: "4.0" silently dropped a criterion; Infinity was refused only after scoring."""
    from rome.core.registry import register, unregister

    texts = ["the hotel is cheap", "a cheap hotel", "the hotel is near the station", "it is a hotel", "cheap", "no"]
    lines = [json.dumps({"id": i, "hypothesis": text, "references": ["a cheap hotel"], "quality": i % 4})
             for i, text in enumerate(texts)]
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(lines) + "\n", encoding="utf-8")
    lines[3] = '{"id": 3, "hypothesis": "it is a hotel", "references": ["a cheap hotel"], ' + bad + "}"
    data = tmp_path / "rated.jsonl"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    register("counting_bleu")(CountingBLEU.build)
    CountingBLEU.scored = 0
    try:
        # the same file with good ratings is scored: the counter can move
        assert main(["report", "correlation", "--dataset", str(good), "--metric", "counting_bleu", "--bootstrap", "0",
                     "--no-cache", "--out", str(tmp_path / "ok")]) == 0
        assert CountingBLEU.scored == len(texts)
        capsys.readouterr()
        CountingBLEU.scored = 0
        assert main(["report", "correlation", "--dataset", str(data), "--metric", "counting_bleu", "--no-cache",
                     "--out", str(tmp_path / "out")]) == 2
    finally:
        unregister("counting_bleu")
    err = capsys.readouterr().err.strip()
    expected = shown if "JSON number" in shown else f"rating {shown}"
    assert len(err.splitlines()) == 1 and f"{data}:4: {expected}" in err
    assert CountingBLEU.scored == 0 and not (tmp_path / "out").exists()


def test_constant_ratings_say_why_their_cells_are_empty(tmp_path, capsys):
    """Issue "ground" #11: constant ratings gave "–" in every cell with no note why."""
    texts = ["the hotel is cheap", "a cheap hotel", "the hotel is near the station", "it is a hotel", "cheap", "no"]
    lines = [json.dumps({"id": i, "hypothesis": text, "references": ["a cheap hotel"], "quality": 3,
                         "fluency": i % 3}) for i, text in enumerate(texts)]
    data = tmp_path / "flat.jsonl"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["report", "correlation", "--dataset", str(data), "--metric", "bleu", "--bootstrap", "0",
                 "--no-cache", "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "–" in out and "quality: every human rating is 3" in out
    assert "fluency: every human rating" not in out


def test_long_runs_say_what_they_are_doing_even_without_a_terminal(tmp_path, capsys):
    """Issue "ground" #16: 2,500 multi-reference items took 2 min 19 s with no progress output."""
    texts = ["the hotel is cheap", "a cheap hotel", "the hotel is near the station", "it is a hotel", "cheap", "no"]
    lines = [json.dumps({"id": i, "hypothesis": text, "references": ["a cheap hotel", "the hotel"], "quality": i % 4})
             for i, text in enumerate(texts)]
    data = tmp_path / "rated.jsonl"
    data.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["report", "correlation", "--dataset", str(data), "--metric", "bleu", "--metric", "chrf",
                 "--bootstrap", "20", "--no-cache", "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "scoring bleu: 6 items" in err and "scoring chrf: 6 items" in err
    assert "correlating 2 metrics with 1 criteria" in err and "20 bootstrap resamples" in err


def test_webnlg2020_correlation_runs_on_its_two_averages(tmp_path):
    out = tmp_path / "w20"
    assert main(["report", "correlation", "--dataset", "webnlg2020", "--metric", "bleu", "--n", "60",
                 "--bootstrap", "0", "--coefficient", "spearman", "--out", str(out)]) == 0
    rows = [r for r in read_rows(out / "correlations.csv") if r["group"] == "pooled"]
    assert {r["criterion"] for r in rows} >= {"overall_adequacy", "overall_fluency"}
    assert all(r["value"] not in ("", "nan") for r in rows)


def test_webnlg2020_refuses_the_mr_protocol(tmp_path, capsys):
    assert main(["report", "correlation", "--dataset", "webnlg2020", "--reference", "mr", "--metric", "bleu",
                 "--out", str(tmp_path)]) == 2
    assert "no meaning representation" in capsys.readouterr().err
