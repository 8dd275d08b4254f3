"""scripts/research/judge_genres.py: the judge's operating points by genre, on the committed fit rows (no model).

The per-genre figures add up to the kind's rows, the committed-threshold verdicts are the shipped judge's own
(:meth:`perturbations.judge.Judge._probabilities` on the committed features), the refit procedure with no genre
left out gives back the committed thresholds, and the report is written only where it may be.
"""

from __future__ import annotations

import json

import pytest
from research_scripts import load_script

from perturbations.judge import KINDS, get_judge, load_weights
from rome.core.errors import InputError

load_script("judge_data")  # judge_train imports it by name, judge_genres imports judge_train
train = load_script("judge_train")
genres = load_script("judge_genres")


@pytest.fixture(scope="module")
def committed():
    weights = load_weights()
    rows = genres.load_rows(train.ROWS, weights)
    return rows, genres.report(rows, weights, weights["seed"])


def test_the_genres_are_the_corpora_swords_and_gold(committed):
    rows, result = committed
    assert sum(result["counts"].values()) == len(rows)
    assert {g for _, g in result["counts"]} == set(genres.GENRES)
    assert {s for s, g in result["counts"] if g in genres.CORPORA} == {"cards", "labels"}
    with pytest.raises(InputError, match="names none of"):
        genres.genre({"source": "cards", "group": "poetry:1"})
    with pytest.raises(InputError, match="unknown source"):
        genres.genre({"source": "tweets", "group": "x"})


def test_per_genre_figures_add_up_and_precisions_are_proportions(committed):
    rows, result = committed
    for kind in KINDS:
        k = result["kinds"][kind]
        assert k["rows"] == sum(r["kind"] == kind for r in rows)
        per_genre = {g: f for g, f in k["committed"].items() if g != "all"}
        for key in ("n", "valid", "accepted", "accepted_valid"):
            assert sum(f[key] for f in per_genre.values()) == k["committed"]["all"][key], (kind, key)
        assert set(k["leave_one_out"]) == set(per_genre)
        for g, f in k["leave_one_out"].items():
            assert (f["n"], f["valid"]) == (per_genre[g]["n"], per_genre[g]["valid"])
        for f in [*k["committed"].values(), *k["leave_one_out"].values()]:
            assert 0 <= f["accepted_valid"] <= f["accepted"] <= f["n"]
            if f["accepted"]:
                low, high = f["interval"]
                assert 0 <= low <= f["precision"] + 1e-12 and f["precision"] <= high + 1e-12 and high <= 1
                assert f["threshold"] <= f["mean_p"] < 1
            else:
                assert f["precision"] is None and f["interval"] is None
            assert f["auc"] is None or 0 <= f["auc"] <= 1


def test_committed_verdicts_are_the_shipped_judges(committed):
    rows, result = committed
    for kind in KINDS:
        judge = get_judge(kind)
        mine = [r for r in rows if r["kind"] == kind]
        p = judge._probabilities([r["features"] for r in mine])
        accepted = {}
        for r, pv in zip(mine, p):
            g = genres.genre(r)
            accepted[g] = accepted.get(g, 0) + judge.accepts(pv)
        assert {g: f["accepted"] for g, f in result["kinds"][kind]["committed"].items() if g != "all"} == accepted
        assert result["kinds"][kind]["committed"]["all"]["threshold"] == judge.threshold


def test_the_refit_with_nothing_left_out_is_the_trainers(committed):
    _, result = committed
    assert result["refit_thresholds"] == {k: e["threshold"] for k, e in load_weights()["kinds"].items()}


def test_the_command_prints_or_writes_its_report_and_nothing_else(tmp_path, capsys):
    assert genres.main([]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith(genres.TITLE) and "in-sample" in printed and "Leave one genre out" in printed
    out = tmp_path / "genres.md"
    assert genres.main(["--out", str(out)]) == 0
    assert out.read_text(encoding="utf-8") == printed
    assert genres.main(["--out", str(out)]) == 0  # its own report is replaced
    mine = tmp_path / "notes.md"
    mine.write_text("my notes\n")
    with pytest.raises(InputError, match="--out"):
        genres.main(["--out", str(mine)])
    assert mine.read_text() == "my notes\n"
    other = tmp_path / "rows.json"
    data = json.loads(train.ROWS.read_text(encoding="utf-8"))
    other.write_text(json.dumps({**data, "window": data["window"] + 1}))
    with pytest.raises(InputError, match="another model or window"):
        genres.main(["--rows", str(other)])
    copy = tmp_path / "copy.json"
    copy.write_text(train.ROWS.read_text(encoding="utf-8"))
    with pytest.raises(InputError, match="is the rows file"):
        genres.main(["--rows", str(copy), "--out", str(copy)])
    assert copy.read_text(encoding="utf-8") == train.ROWS.read_text(encoding="utf-8")
