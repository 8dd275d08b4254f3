"""``rome challenge``: outputs, bad input (exit 2, one line), cache reuse, resume after an interruption, workers."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from challenge_samples import CONTROLS, GENERIC, demetr_slice, write_jsonl

from baselines.sacrebleu_metrics import BLEU
from reports.cli import main
from rome.core.cache import ScoreCache
from rome.core.engine import FitCorpus, ScoringEngine, order_pairs

FILES = (*CONTROLS, "minor_id31_full_lower", "critical_id9_ne_replaced")


@pytest.fixture
def env(tmp_path, monkeypatch):
    monkeypatch.setenv("ROME_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("ROME_OUT", str(tmp_path / "out"))
    return tmp_path


def _rows(path):
    with path.open(encoding="utf-8") as handle:
        return list(csv.reader(handle))


def test_outputs_have_the_exact_header_one_row_per_category_and_metric_and_summary_rows(env, capsys):
    folder = demetr_slice(env / "d", FILES, n=4)
    assert main(["challenge", str(folder), "--metric", "bleu", "--metric", "chrf", "--workers", "1"]) == 0
    out = env / "out" / "challenge"
    rows = _rows(out / "accuracy.csv")
    assert rows[0] == ["category", "severity", "metric", "n", "accuracy"]
    labels = [(r[0], r[1], r[2]) for r in rows[1:]]
    categories = [(c, "base") for c in CONTROLS] + [("minor_id31_full_lower", "minor"),
                                                     ("critical_id9_ne_replaced", "critical")]
    summary = [("ALL:base", "base"), ("ALL:minor", "minor"), ("ALL:critical", "critical"), ("ALL", "all")]
    assert labels == [(c, s, m) for c, s in categories + summary for m in ("bleu", "chrf")]
    assert all(0.0 <= float(r[4]) <= 1.0 and r[3] == ("20" if r[0] == "ALL" else "12" if r[0] == "ALL:base" else "4")
               for r in rows[1:])
    by_key = {(r[0], r[2]): float(r[4]) for r in rows[1:]}
    assert all(by_key[(c, m)] == 1.0 for c in CONTROLS for m in ("bleu", "chrf"))  # the three controls
    for name in ("cells.csv", "accuracy.md", "accuracy.html", "accuracy.png", "items.jsonl", "run.json"):
        assert (out / name).stat().st_size > 0
    assert not (out / "summary.json").exists()  # a suite's file name: rome report robustness reads those
    assert _rows(out / "cells.csv")[0][5:] == ["ci_low", "ci_high", "ties", "sensitivity"]
    md = (out / "accuracy.md").read_text(encoding="utf-8")
    assert "| base_id33_empty | base | 4 |" in md and "Signature bleu: bleu|" in md and "## Inputs" in md
    item = json.loads((out / "items.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert set(item["scores"]["bleu"]) == {"good", "bad", "control", "correct"}
    assert "### Accuracy" in capsys.readouterr().out


def test_generic_jsonl_multi_reference_and_unicode_through_the_command(env):
    path = write_jsonl(env / "mine.jsonl", GENERIC)
    assert main(["challenge", str(path), "--metric", "chrf", "--out", str(env / "o"), "--workers", "1"]) == 0
    rows = {(r[0], r[1]): r for r in _rows(env / "o" / "accuracy.csv")[1:]}
    assert set(rows) == {("noun", "major"), ("number", "critical"), ("tense", ""), ("entity", "severe-ish"),
                         ("ALL:major", "major"), ("ALL:critical", "critical"), ("ALL:severe-ish", "severe-ish"),
                         ("ALL", "all")}
    assert rows[("ALL", "all")][3] == "5" and float(rows[("ALL", "all")][4]) == 1.0


@pytest.mark.parametrize(("args", "message"), [
    (["--n-per-category", "0"], "--n-per-category must be at least 1"),
    (["--workers", "0"], "--workers must be at least 1"),
    (["--metric", "nope"], "unknown metric 'nope'"),
])
def test_bad_options_exit_2_with_one_line(env, capsys, args, message):
    folder = demetr_slice(env / "d", ("minor_id2_repeat4",), n=2)
    assert main(["challenge", str(folder), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("rome challenge: error:") and message in err[-1] and "Traceback" not in "".join(err)


def test_bad_files_exit_2_with_one_line(env, capsys):
    bad = env / "bad.jsonl"
    bad.write_text('{"hyp": "a", "ref": "b"}\n', encoding="utf-8")
    assert main(["challenge", str(bad), "--metric", "bleu"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "neither a DEMETR file nor the generic challenge format" in err[0]


def test_rerun_reads_every_score_from_the_cache_and_gives_the_same_table(env, capsys):
    folder = demetr_slice(env / "d", FILES, n=3)
    args = ["challenge", str(folder), "--metric", "bleu", "--metric", "ter", "--workers", "1"]
    assert main([*args, "--out", str(env / "a")]) == 0
    capsys.readouterr()
    assert main([*args, "--out", str(env / "b")]) == 0
    # 15 items x (good, bad, ".") = 45 pairs, 22 unique: the MT and "." pairs of a sentence are shared by its files
    assert "already cached: 44 of 44 scores" in capsys.readouterr().err
    assert (env / "a" / "accuracy.csv").read_text() == (env / "b" / "accuracy.csv").read_text()
    summary = json.loads((env / "b" / "run.json").read_text())
    assert summary["scores"]["computed"] == {"bleu": 0, "ter": 0} and summary["unique_pairs"] == 22


def interrupted_on_third_call(metric):
    """The real metric, interrupted (as by Ctrl-C or a kill) on its third call; same class, same signature."""
    calls, score = [], metric._score_multi

    def scoring(hypotheses, references):
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return score(hypotheses, references)

    metric._score_multi = scoring
    return metric


def test_an_interrupted_run_resumes_after_its_last_committed_chunk(env):
    pairs = order_pairs([(f"the cat sat on mat number {i}", "the cat sat on the mat") for i in range(50)])
    corpus = FitCorpus.of("the test's pairs", pairs)
    cache = ScoreCache(env / "cache.sqlite")
    with pytest.raises(KeyboardInterrupt):
        ScoringEngine({"bleu": interrupted_on_third_call(BLEU())}, cache, chunk_size=10).score(pairs, corpus)
    assert cache.count() == 20  # two chunks committed before the interruption
    resumed = ScoringEngine({"bleu": BLEU()}, cache, chunk_size=10)
    scores = resumed.score(pairs, corpus)["bleu"]
    assert resumed.report.cached == {"bleu": 20} and resumed.report.computed == {"bleu": 30}
    fresh = BLEU().score([h for h, _ in pairs], [r for _, r in pairs])
    assert np.array_equal(scores, fresh)


def test_worker_processes_give_the_scores_of_one_process(env):
    folder = demetr_slice(env / "d", ("minor_id2_repeat4", "minor_id16_function_word"), n=6)
    args = ["challenge", str(folder), "--metric", "chrf", "--metric", "ter", "--no-cache", "--chunk-size", "5"]
    assert main([*args, "--workers", "1", "--out", str(env / "one")]) == 0
    assert main([*args, "--workers", "2", "--out", str(env / "two")]) == 0
    one = [json.loads(line) for line in (env / "one" / "items.jsonl").read_text().splitlines()]
    two = [json.loads(line) for line in (env / "two" / "items.jsonl").read_text().splitlines()]
    assert one == two
    assert json.loads((env / "two" / "run.json").read_text())["scores"]["workers"] == 2


def test_a_worker_ends_when_its_command_is_killed(tmp_path):
    """kill -9 of ``rome challenge`` leaves no worker behind (seen with the real pool: they lived on)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    worker = "from rome.core.engine import _exit_with_parent; import time; _exit_with_parent(0.1); time.sleep(60)"
    command = (f"import subprocess, sys, time; p = subprocess.Popen([sys.executable, '-c', {worker!r}]); "
               "print(p.pid, flush=True); time.sleep(60)")
    parent = subprocess.Popen([sys.executable, "-c", command], stdout=subprocess.PIPE, text=True)
    child = int(parent.stdout.readline())
    time.sleep(1.0)
    assert _alive(child)
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.time() + 10
    while _alive(child) and time.time() < deadline:
        time.sleep(0.1)
    orphaned = _alive(child)
    if orphaned:  # clean up before failing
        os.kill(child, signal.SIGKILL)
    assert not orphaned


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as handle:
            return "\nState:\tZ" not in handle.read()
    except FileNotFoundError:
        return False
