"""``rome bench`` runs end to end and reports the floor and per-metric rows."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from reports.bench import format_table, load_pairs, run_bench


def test_pairs_come_from_the_shipped_data():
    hyps, refs = load_pairs(5)
    assert len(hyps) == len(refs) == 5 and all(h.strip() for h in hyps)


def test_bench_reports_floor_and_metrics():
    result = run_bench(20, ["bleu", "meteor"])
    assert result.n_pairs == 20 and result.encoder_floor_s > 0
    assert set(result.metrics) == {"bleu", "meteor"}
    assert all(row["pairs_per_s"] > 0 for row in result.metrics.values())
    assert "ALL together" in format_table(result)
    assert json.loads(result.to_json())["n_unique_sentences"] == result.n_unique_sentences


@pytest.mark.slow
def test_bench_cli_json_and_bad_n():
    done = subprocess.run([sys.executable, "-m", "reports.cli", "bench", "--n", "10", "--metric", "bleu", "--json",
                           "--repeats", "2"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["metrics"]["bleu"]["pairs_per_s"] > 0
    assert json.loads(done.stdout)["repeats"] == 2
    bad = subprocess.run([sys.executable, "-m", "reports.cli", "bench", "--n", "5", "--repeats", "0"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--repeats must be at least 1" in bad.stderr and "Traceback" not in bad.stderr
    bad = subprocess.run([sys.executable, "-m", "reports.cli", "bench", "--n", "1"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--n must be at least 2" in bad.stderr


@pytest.mark.slow
def test_rome_is_split_by_step():
    result = run_bench(6, ["rome"])
    steps = result.rome_steps_s
    assert set(steps) == {"encode", "parse", "pool_words", "semantic_emd", "ted_se", "grammar", "scorer"}
    assert all(v >= 0 for v in steps.values()) and steps["encode"] > 0 and steps["parse"] > 0
    assert "RoMe by step: encode" in format_table(result)


def test_peak_memory_is_the_bench_process_own_not_its_parent():
    """The main job starts the bench as a child; Linux's ru_maxrss would carry the parent's peak into it."""
    ballast = bytearray(600 * 1024 * 1024)
    ballast[:: 4096] = b"\1" * len(ballast[:: 4096])  # touch every page: the parent now holds 600 MB
    child = subprocess.run([sys.executable, "-c", "from reports.bench import peak_rss_mb; print(peak_rss_mb())"],
                           capture_output=True, text=True, timeout=120)
    assert child.returncode == 0, child.stderr
    assert 0 < float(child.stdout) < 400
    del ballast
