"""Faults and bad input that must never lose work: output = input, --force, lone surrogates, --resume.

Each test reproduces a defect of issue #11 (item numbers in the docstrings) before its fix.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reports.cli import main
from rome.core.contract import Metric
from rome.core.errors import InputError
from rome.core.jsonl import read_jsonl, repair_incomplete_tail
from rome.core.registry import register, unregister


def run_cli(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reports.cli", *args], capture_output=True, text=True, timeout=timeout)


def pairs_file(path: Path, n: int, start: int = 0) -> Path:
    lines = [json.dumps({"id": f"p{i}", "hypothesis": f"the hotel {i} is cheap", "reference": "the hotel is cheap"})
             for i in range(start, start + n)]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def one_line_error(done: subprocess.CompletedProcess, *fragments: str) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    for fragment in fragments:
        assert fragment in done.stderr


def score_rows(n: int, **fields) -> str:
    """Lines shaped as rome score writes them (what ``--force`` may replace), with ``fields`` added."""
    return "".join(json.dumps({"id": i, **fields, "scores": {}, "scored_with": {}}) + "\n" for i in range(n))


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".partial"))


# -- (1) the output is the input ------------------------------------------------------
def _spellings(tmp_path: Path, src: Path) -> dict[str, Path]:
    (tmp_path / "sub").mkdir()
    link = tmp_path / "link.jsonl"
    link.symlink_to(src)
    hard = tmp_path / "hard.jsonl"
    os.link(src, hard)
    return {"same": src, "dotted": tmp_path / "sub" / ".." / src.name, "symlink": link, "hardlink": hard}


@pytest.mark.parametrize("spelling", ["same", "dotted", "symlink", "hardlink"])
@pytest.mark.parametrize("flag", ["--force", "--resume"])
def test_score_refuses_to_write_over_its_input(tmp_path, spelling, flag):
    """Issue item 1: ``--input f --output f --force`` emptied f; with --resume it said "wrote 0"."""
    src = pairs_file(tmp_path / "pairs.jsonl", 3)
    before = src.read_bytes()
    output = _spellings(tmp_path, src)[spelling]
    done = run_cli("score", "--input", str(src), "--output", str(output), "--metric", "bleu", flag)
    one_line_error(done, "is the input file")
    assert src.read_bytes() == before


def test_perturb_refuses_to_write_over_its_input(tmp_path):
    src = tmp_path / "texts.jsonl"
    src.write_text('{"id": 1, "text": "The cat chased the dog."}\n', encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(src)
    done = run_cli("perturb", "--kind", "repetition", "--input", str(src), "--output", str(link), "--force")
    one_line_error(done, "is the input file")
    assert src.read_text(encoding="utf-8") == '{"id": 1, "text": "The cat chased the dog."}\n'


def test_resume_and_force_together_are_refused(tmp_path):
    src = pairs_file(tmp_path / "pairs.jsonl", 2)
    out = pairs_file(tmp_path / "out.jsonl", 1)
    one_line_error(run_cli("score", "--input", str(src), "--output", str(out), "--metric", "bleu",
                           "--resume", "--force"), "--resume or --force")


# -- (1) --force never destroys the old output before the new one is complete -------
def test_force_replaces_the_output_only_when_the_new_one_is_complete(tmp_path):
    src = pairs_file(tmp_path / "pairs.jsonl", 5)
    out = tmp_path / "out.jsonl"
    out.write_text(score_rows(1), encoding="utf-8")
    out.chmod(0o640)
    done = run_cli("score", "--input", str(src), "--output", str(out), "--metric", "bleu", "--force", "--chunk-size", "2")
    assert done.returncode == 0, done.stderr
    assert [r["id"] for _, r in read_jsonl(out)] == [f"p{i}" for i in range(5)]
    assert leftovers(tmp_path) == [] and (out.stat().st_mode & 0o777) == 0o640


def test_force_through_a_symlink_replaces_the_file_it_points_to(tmp_path):
    src = pairs_file(tmp_path / "pairs.jsonl", 2)
    real = tmp_path / "real.jsonl"
    real.write_text(score_rows(1), encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(real)
    assert run_cli("score", "--input", str(src), "--output", str(link), "--metric", "bleu", "--force").returncode == 0
    assert link.is_symlink() and len(real.read_text(encoding="utf-8").splitlines()) == 2


def _start_and_wait_for_partial(tmp_path: Path, out: Path, n: int) -> subprocess.Popen:
    src = pairs_file(tmp_path / "pairs.jsonl", n)
    # stderr to a file, not a pipe nobody reads while the run goes on: a full pipe would block the
    # run's progress bar (and its "interrupted" line) and turn a slow machine into a hang
    log = (tmp_path / "stderr.txt").open("w", encoding="utf-8")
    # SIGINT at its default in the child, as at a terminal: a test run started in the background by a
    # non-interactive shell inherits SIGINT ignored, and then Python never raises KeyboardInterrupt
    proc = subprocess.Popen([sys.executable, "-m", "reports.cli", "score", "--input", str(src), "--output", str(out),
                             "--metric", "bleu", "--force", "--chunk-size", "1"],
                            stdout=subprocess.DEVNULL, stderr=log, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        partial = [p for p in tmp_path.iterdir() if p.name.endswith(".partial") and p.stat().st_size > 0]
        if partial:
            return proc
        time.sleep(0.01)
    proc.kill()
    pytest.fail(f"no partial output appeared (exit {proc.poll()}): {(tmp_path / 'stderr.txt').read_text()}")


@pytest.mark.parametrize("how", ["SIGKILL", "SIGINT"])
def test_killed_force_run_leaves_the_old_output_intact(tmp_path, how):
    """Issue item 1: killed mid-run, a 2,000-line file became 0 bytes."""
    out = tmp_path / "out.jsonl"
    old = score_rows(2000, old=True)
    out.write_text(old, encoding="utf-8")
    proc = _start_and_wait_for_partial(tmp_path, out, 20000)
    proc.send_signal(getattr(signal, how))
    proc.wait(timeout=60)
    assert out.read_text(encoding="utf-8") == old
    if how == "SIGINT":  # an interrupt cleans its temporary file up; only SIGKILL can leave one
        assert proc.returncode == 130 and leftovers(tmp_path) == []


# -- (3) lone surrogates ------------------------------------------------------------
def test_read_jsonl_rejects_a_lone_surrogate_naming_file_line_and_field(tmp_path):
    path = tmp_path / "s.jsonl"
    path.write_text('{"id": 1, "text": "fine \\ud83d\\ude00"}\n{"id": 2, "meta": {"notes": ["ok", "a \\ud800 b"]}}\n',
                    encoding="utf-8")
    with pytest.raises(InputError, match=r"s\.jsonl:2: field 'meta\.notes\[1\]' holds a lone surrogate"):
        list(read_jsonl(path))
    path.write_text('{"id": 1, "text": "a pair is fine: \\ud83d\\ude00, an escaped backslash too: \\\\ud800"}\n',
                    encoding="utf-8")
    assert [obj["text"] for _, obj in read_jsonl(path)] == ["a pair is fine: \U0001f600, an escaped backslash too: \\ud800"]


@pytest.mark.parametrize("command", ["score", "perturb"])
def test_lone_surrogate_is_a_one_line_error_without_output(tmp_path, command):
    """Issue item 3: traceback, exit 1 and a 0-byte output that blocked the rerun."""
    src = tmp_path / "in.jsonl"
    out = tmp_path / "out.jsonl"
    if command == "score":
        src.write_text('{"id": 1, "hypothesis": "ok", "reference": "ok"}\n'
                       '{"id": 2, "hypothesis": "a \\ud800 b", "reference": "x"}\n', encoding="utf-8")
        done = run_cli("score", "--input", str(src), "--output", str(out), "--metric", "bleu")
    else:
        src.write_text('{"id": 1, "text": "a \\udfff b"}\n', encoding="utf-8")
        done = run_cli("perturb", "--kind", "repetition", "--input", str(src), "--output", str(out))
    one_line_error(done, f"{src}:{2 if command == 'score' else 1}:", "lone surrogate")
    assert not out.exists()


def test_text_on_the_command_line_that_is_not_utf8_is_a_one_line_error():
    """Bytes that are not UTF-8 reach Python as lone surrogates; a tokenizer raised TypeError on them."""
    done = subprocess.run([sys.executable, "-m", "reports.cli", "score", "--hyp", "caf\udce9", "--ref", "a", "--metric", "bleu"],
                          capture_output=True, timeout=300)
    assert done.returncode == 2 and b"Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert b"--hyp is not valid UTF-8 text" in done.stderr


# -- a fresh run that fails before its first row leaves no file behind ---------------
class Broken(Metric):
    name = "broken_for_test"

    def _score_pairs(self, hypotheses, references):
        raise InputError("this metric refuses every pair")


def test_failed_fresh_run_leaves_no_empty_output(tmp_path, capsys):
    register("broken_for_test")(Broken)
    try:
        src = pairs_file(tmp_path / "pairs.jsonl", 3)
        out = tmp_path / "out.jsonl"
        assert main(["score", "--input", str(src), "--output", str(out), "--metric", "broken_for_test"]) == 2
        assert not out.exists() and "refuses every pair" in capsys.readouterr().err
    finally:
        unregister("broken_for_test")


# -- (6) --resume compares the metrics ------------------------------------------------
def test_resume_scores_the_requested_metrics_missing_from_rows_already_written(tmp_path):
    """Issue item 6: resuming a BLEU-only output with --metric chrf wrote nothing and exited 0."""
    src = pairs_file(tmp_path / "pairs.jsonl", 5)
    full = tmp_path / "full.jsonl"
    assert run_cli("score", "--input", str(src), "--output", str(full), "--metric", "bleu", "--metric", "chrf").returncode == 0
    out = tmp_path / "out.jsonl"
    assert run_cli("score", "--input", str(src), "--output", str(out), "--metric", "bleu").returncode == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    out.write_text("".join(line + "\n" for line in lines[:3]), encoding="utf-8")  # interrupted after 3 rows
    done = run_cli("score", "--input", str(src), "--output", str(out), "--metric", "bleu", "--metric", "chrf",
                   "--resume")
    assert done.returncode == 0, done.stderr
    assert "adding chrf to 3 rows" in done.stderr and "resuming: 3 of 5" in done.stderr
    rows, expected = [r for _, r in read_jsonl(out)], [r for _, r in read_jsonl(full)]
    assert [r["id"] for r in rows] == [r["id"] for r in expected]
    for row, want in zip(rows, expected):
        assert row["scores"] == pytest.approx(want["scores"], abs=1e-12)
    again = run_cli("score", "--input", str(src), "--output", str(out), "--metric", "chrf", "--resume")
    assert again.returncode == 0 and "resuming: 5 of 5" in again.stderr
    assert [r for _, r in read_jsonl(out)] == rows  # a subset of what is there: nothing to do


# -- (7) --resume after a kill inside a write ----------------------------------------
def test_resume_drops_a_last_line_cut_off_mid_write(tmp_path):
    """Issue item 7: a cut-off last line made --resume exit 2 and needed a manual repair."""
    src = pairs_file(tmp_path / "pairs.jsonl", 4)
    full = tmp_path / "full.jsonl"
    assert run_cli("score", "--input", str(src), "--output", str(full), "--metric", "bleu").returncode == 0
    data = full.read_bytes()
    cut = data[: data.index(b"\n", data.index(b"\n") + 1) + 20]  # two rows and 20 bytes of the third
    out = tmp_path / "out.jsonl"
    out.write_bytes(cut)
    done = run_cli("score", "--input", str(src), "--output", str(out), "--metric", "bleu", "--resume")
    assert done.returncode == 0, done.stderr
    assert "dropped an incomplete last line" in done.stderr and "resuming: 2 of 4" in done.stderr
    assert out.read_bytes() == data


def test_repair_keeps_a_complete_last_line_that_lacks_its_newline(tmp_path):
    path = tmp_path / "o.jsonl"
    path.write_bytes(b'{"id": 1}\n{"id": 2}')
    assert repair_incomplete_tail(path) is None
    assert path.read_bytes() == b'{"id": 1}\n{"id": 2}\n'
    path.write_bytes('{"id": 1}\n{"id": "caf\u00e9'.encode()[:-1])  # cut inside a two-byte character
    assert "dropped an incomplete last line" in repair_incomplete_tail(path)
    assert path.read_bytes() == b'{"id": 1}\n'
    path.write_bytes(b'{"id": ')
    assert repair_incomplete_tail(path) is not None and path.read_bytes() == b""
    path.write_bytes(b'{"id": 1}\n{oops}\n{"id": 3}\n')  # damage inside the file is not a cut: left alone
    assert repair_incomplete_tail(path) is None and path.read_bytes() == b'{"id": 1}\n{oops}\n{"id": 3}\n'


@pytest.mark.parametrize("command", ["annotate", "report"])
def test_other_jsonl_readers_refuse_a_lone_surrogate(tmp_path, capsys, command):
    """Every command reads JSONL through rome.core.jsonl.read_jsonl, so the same one-line error."""
    src = tmp_path / "in.jsonl"
    line = {"id": 1, "hypothesis": "a \\udc80 b", "reference": "x", "references": ["x"], "quality": 3}
    src.write_text(json.dumps(line).replace("\\\\udc80", "\\udc80") + "\n", encoding="utf-8")
    if command == "annotate":
        code = main(["annotate", "--cases", str(src), "--annotator", "a", "--port", "0"])
    else:
        code = main(["report", "correlation", "--dataset", str(src), "--metric", "bleu", "--no-cache",
                     "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1
    assert f"{src}:1: field 'hypothesis' holds a lone surrogate" in err
