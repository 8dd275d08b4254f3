"""``rome score``: file and single-pair modes, resume, and one-line errors with exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from baselines.sacrebleu_metrics import BLEU
from reports.cli import main
from rome.core.contract import Metric
from rome.core.errors import InputError
from rome.core.registry import register, unregister


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reports.cli", *args], capture_output=True, text=True, timeout=300)


def write(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


@pytest.mark.slow
def test_scores_a_jsonl_file_and_resumes(tmp_path):
    pairs = write(
        tmp_path / "pairs.jsonl",
        [
            json.dumps({"id": "a", "hypothesis": "the hotel is cheap", "reference": "the hotel is inexpensive"}),
            json.dumps({"id": "b", "hypothesis": "", "reference": ["x y", "z"]}),
            "",
            json.dumps({"id": "c", "hypothesis": "Zürich café", "reference": "Zürich café"}),
        ],
    )
    out = tmp_path / "out.jsonl"
    done = run_cli("score", "--input", str(pairs), "--metric", "bleu", "--metric", "meteor", "--output", str(out))
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in rows] == ["a", "b", "c"]
    assert rows[1]["scores"] == {"bleu": 0.0, "meteor": 0.0}
    assert rows[2]["scores"]["bleu"] == pytest.approx(100.0)
    # an interrupted run: keep the first line, resume
    out.write_text(out.read_text().splitlines()[0] + "\n")
    again = run_cli("score", "--input", str(pairs), "--metric", "bleu", "--metric", "meteor",
                    "--output", str(out), "--resume")
    assert again.returncode == 0 and "resuming: 1 of 3" in again.stderr
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == ["a", "b", "c"]


def test_single_pair_prints_a_table():
    done = run_cli("score", "--hyp", "the cat sat", "--ref", "a cat sat", "--metric", "bleu")
    assert done.returncode == 0
    assert done.stdout.startswith("bleu") and "55.0321" in done.stdout


@pytest.mark.parametrize(
    ("lines", "extra", "message"),
    [
        (['{"id": 1, "hypothesis": 3, "reference": "x"}'], [], "pairs.jsonl:1: field 'hypothesis' must be a string"),
        (['{"id": 1, "hypothesis": "a", "reference": "x"}', "{oops"], [], "pairs.jsonl:2: malformed JSON"),
        (['{"id": 1, "hypothesis": "a"}'], [], "field 'reference' must be a string or a non-empty list"),
        (['{"id": 1, "hypothesis": "a", "reference": []}'], [], "field 'reference'"),
        (['[1, 2]'], [], "expected a JSON object"),
        (['{"id": 1, "hypothesis": "a", "reference": "x"}'] * 2, [], "duplicate id 1"),
        (['{"id": 1, "hypothesis": "a", "reference": "x"}'], ["--metric", "nope"], "unknown metric 'nope'"),
    ],
)
def test_bad_input_exits_2_with_one_line(tmp_path, lines, extra, message):
    pairs = write(tmp_path / "pairs.jsonl", lines)
    done = run_cli("score", "--input", str(pairs), "--output", str(tmp_path / "o.jsonl"), "--metric", "bleu", *extra)
    assert done.returncode == 2
    assert message in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


def test_refuses_to_overwrite_without_force(tmp_path):
    pairs = write(tmp_path / "pairs.jsonl", ['{"id": 1, "hypothesis": "a", "reference": "x"}'])
    out = write(tmp_path / "o.jsonl", ["keep me"])
    done = run_cli("score", "--input", str(pairs), "--output", str(out), "--metric", "bleu")
    assert done.returncode == 2 and "--resume" in done.stderr
    assert out.read_text() == "keep me\n"


def test_missing_file_and_missing_arguments():
    assert run_cli("score", "--input", "/no/such.jsonl", "--output", "/tmp/x.jsonl").returncode == 2
    assert run_cli("score").returncode == 2
    assert run_cli("score", "--hyp", "a").returncode == 2


def test_non_utf8_input_and_unwritable_output_are_one_line_errors(tmp_path):
    latin = tmp_path / "latin1.jsonl"
    latin.write_bytes(b'{"id": 1, "hypothesis": "a", "reference": "x"}\n{"id": 2, "hypothesis": "caf\xe9", "reference": "x"}\n')
    done = run_cli("score", "--input", str(latin), "--output", str(tmp_path / "o.jsonl"), "--metric", "bleu")
    assert done.returncode == 2 and "latin1.jsonl:2: not UTF-8 text" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    bom = write(tmp_path / "bom.jsonl", ['\ufeff{"id": 1, "hypothesis": "a b", "reference": "a b"}'])
    assert run_cli("score", "--input", str(bom), "--output", str(tmp_path / "b.jsonl"), "--metric", "bleu").returncode == 0
    pairs = write(tmp_path / "pairs.jsonl", ['{"id": 1, "hypothesis": "a", "reference": "x"}'])
    (tmp_path / "a_dir").mkdir()
    done = run_cli("score", "--input", str(pairs), "--output", str(tmp_path / "a_dir"), "--metric", "bleu", "--force")
    assert done.returncode == 2 and "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1


@pytest.mark.slow
def test_every_registered_metric_scores_offline(tmp_path):
    """The issue's "done when": ``rome score --metric all`` with HF_HUB_OFFLINE=1 on real models."""
    import os

    from rome.core.registry import expand_metric_names

    pairs = write(tmp_path / "pairs.jsonl", [
        json.dumps({"id": "p", "hypothesis": "The hotel is cheap.", "reference": "The hotel is inexpensive."}),
        json.dumps({"id": "e", "hypothesis": "", "reference": ["A cat.", "The cat."]}),
    ])
    out = tmp_path / "o.jsonl"
    done = subprocess.run([sys.executable, "-m", "reports.cli", "score", "--input", str(pairs), "--metric", "all",
                           "--output", str(out)], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "HF_HUB_OFFLINE": "1"})
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert set(rows[0]["scores"]) == set(expand_metric_names(["all"])) >= {"bleu", "meteor", "bertscore", "moverscore", "rome"}
    assert all(isinstance(v, float) and v == v for row in rows for v in row["scores"].values())  # no NaN


class WordCount(Metric):
    """A reference-free metric (registered at run time below): the hypothesis's length in words."""

    name = "words_for_test"
    needs_reference = False
    score_range = (0.0, float("inf"))

    @property
    def worst_score(self) -> float:
        return 0.0

    def _score_pairs(self, hypotheses, references):
        return np.array([len(h.split()) for h in hypotheses], dtype=float)


@pytest.fixture
def reference_free():
    register("words_for_test")(WordCount)
    yield "words_for_test"
    unregister("words_for_test")


def test_lines_without_a_reference_when_no_metric_needs_one(tmp_path, reference_free, capsys):
    pairs = write(tmp_path / "pairs.jsonl", [
        json.dumps({"id": "a", "hypothesis": "the hotel is cheap"}),
        json.dumps({"id": "b", "hypothesis": "a quiet bar", "reference": "a bar"}),
        json.dumps({"id": "c", "hypothesis": ""}),
    ])
    out = tmp_path / "o.jsonl"
    assert main(["score", "--input", str(pairs), "--metric", reference_free, "--output", str(out),
                 "--chunk-size", "2"]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["id"], r["scores"][reference_free]) for r in rows] == [("a", 4.0), ("b", 3.0), ("c", 0.0)]
    assert "reference" not in rows[0] and rows[1]["reference"] == "a bar"
    # a metric that needs references still refuses such lines, naming the line and field
    assert main(["score", "--input", str(pairs), "--metric", reference_free, "--metric", "bleu",
                 "--output", str(tmp_path / "p.jsonl")]) == 2
    assert "pairs.jsonl:1: field 'reference'" in capsys.readouterr().err
    assert main(["score", "--hyp", "a b c", "--metric", reference_free]) == 0
    assert capsys.readouterr().out.split()[:2] == [reference_free, "3.0000"]
    assert main(["score", "--hyp", "a b c", "--metric", "bleu"]) == 2
    assert "--hyp needs at least one --ref" in capsys.readouterr().err


def test_reference_free_metric_takes_references_none():
    metric = WordCount()
    assert metric.score(["a b", "c"], None).tolist() == [2.0, 1.0]
    with pytest.raises(InputError):
        BLEU().score(["a"], None)
