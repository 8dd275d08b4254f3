"""The bad-input and fault sweep of issue "product" (#32): defects 2-11, 13, 14 and 16, one test (or more) each.

Each test reproduces its defect on the code before the fix (it failed there) and holds after it. The rules:
an output is written only if it is new or a regular file that is an output of the same kind, never over an
input or a store, under a lock, atomically (rome/core/files.py); JSON input is read with limits and a
one-line error naming the file and line (rome/core/jsonl.py); a dead Ray address fails in seconds.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from reports.cli import main
from rome.core.files import output_lock
from rome.core.jsonl import MAX_DEPTH, read_jsonl


def run_cli(*args: str, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "reports.cli", *args], capture_output=True, text=True, timeout=timeout)


def one_line_error(done: subprocess.CompletedProcess, *fragments: str) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
    for fragment in fragments:
        assert fragment in done.stderr, done.stderr


def refused(capsys, argv: list[str], *fragments: str) -> str:
    """Run ``rome argv`` in this process: exit 2 with one line holding every fragment; returns the line."""
    capsys.readouterr()
    code = main(argv)
    err = capsys.readouterr().err.strip()
    errors = [line for line in err.splitlines() if line.startswith(f"rome {argv[0]}: error: ")]
    assert code == 2 and "Traceback" not in err and len(errors) == 1, err  # progress lines ("scoring ...") aside
    for fragment in fragments:
        assert fragment in errors[0], err
    return errors[0]


def pairs_file(path: Path, n: int, **fields) -> Path:
    lines = [json.dumps({"id": f"p{i}", **fields, "hypothesis": f"the hotel {i} is cheap",
                         "reference": "the hotel is cheap"}) for i in range(n)]
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def score(src: Path, out: Path, *flags: str) -> list[str]:
    return ["score", "--input", str(src), "--output", str(out), "--metric", "bleu", "--no-cache", *flags]


# -- defect 2: --resume on a file that is not a rome output ----------------------------------------------
@pytest.mark.parametrize("content", ['[{"id":1}]', "my notes, not scores\n", '{"id": "p0", "hypothesis": "x"}\n'])
def test_resume_refuses_a_file_that_is_not_a_rome_score_output(tmp_path, capsys, content):
    """Defect 2: ``printf '[{"id":1}]' > r.json; rome score ... --output r.json --resume`` emptied it, exit 0."""
    out = tmp_path / "r.json"
    out.write_text(content, encoding="utf-8")
    refused(capsys, score(pairs_file(tmp_path / "in.jsonl", 3), out, "--resume"), "is not an output of rome score")
    assert out.read_text(encoding="utf-8") == content


def test_force_replaces_only_an_output_of_the_same_command(tmp_path, capsys):
    """The rule of defects 2 and 4 for --force: a user's own file is never replaced, an earlier output is."""
    src = pairs_file(tmp_path / "in.jsonl", 2)
    notes = tmp_path / "notes.jsonl"
    notes.write_text('{"id": 1, "text": "keep"}\n', encoding="utf-8")
    refused(capsys, score(src, notes, "--force"), "is not an output of rome score")
    assert notes.read_text(encoding="utf-8") == '{"id": 1, "text": "keep"}\n'
    out = tmp_path / "out.jsonl"
    assert main(score(src, out)) == 0 and main(score(src, out, "--force")) == 0
    assert len(list(read_jsonl(out))) == 2


# -- defect 3: two runs on one --output --------------------------------------------------------------------
@pytest.mark.parametrize("flag", ["--resume", "--force"])
def test_a_run_on_an_output_another_run_holds_is_refused(tmp_path, flag):
    """Defect 3: two runs on one output both printed "wrote 300"; one run's rows vanished (or 200 duplicates)."""
    src = pairs_file(tmp_path / "in.jsonl", 3)
    out = tmp_path / "out.jsonl"
    assert main(score(src, out)) == 0
    before = out.read_bytes()
    with output_lock(out):  # what a first run holds for as long as it writes
        one_line_error(run_cli(*score(src, out, flag)), "is being written by another run")
    assert out.read_bytes() == before
    assert main(score(src, out, "--resume")) == 0  # released: the next run goes ahead
    assert not [p.name for p in tmp_path.iterdir() if p.name.endswith(".lock")]


def test_two_concurrent_runs_keep_every_row_of_the_first(tmp_path):
    """The same, with two real processes: the second is refused while the first writes, the first completes."""
    src = pairs_file(tmp_path / "in.jsonl", 20000)
    out = tmp_path / "out.jsonl"
    log = (tmp_path / "first.txt").open("w", encoding="utf-8")
    first = subprocess.Popen([sys.executable, "-m", "reports.cli", *score(src, out, "--chunk-size", "1")],
                             stdout=subprocess.DEVNULL, stderr=log, text=True)
    deadline = time.monotonic() + 120
    while first.poll() is None and not (out.exists() and out.stat().st_size > 0) and time.monotonic() < deadline:
        time.sleep(0.01)
    try:
        assert first.poll() is None, "the first run ended before the second could start"
        one_line_error(run_cli(*score(src, out, "--resume")), "is being written by another run")
    finally:
        assert first.wait(timeout=300) == 0, (tmp_path / "first.txt").read_text()
    ids = [row["id"] for _, row in read_jsonl(out)]
    assert len(ids) == 20000 and len(set(ids)) == 20000


def test_resume_refuses_an_output_holding_an_id_twice(tmp_path, capsys):
    """Defect 3's aftermath: 500 rows with 200 duplicate ids were accepted by a later --resume."""
    src = pairs_file(tmp_path / "in.jsonl", 3)
    out = tmp_path / "out.jsonl"
    assert main(score(src, out)) == 0
    lines = out.read_text(encoding="utf-8").splitlines(keepends=True)
    out.write_text("".join(lines + lines[:1]), encoding="utf-8")
    refused(capsys, score(src, out, "--resume"), "id 'p0' is in line 1 too")


# -- defect 4: --force over what is not a regular file ------------------------------------------------------
def _special(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / kind
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        if os.geteuid() != 0:
            pytest.skip("creating a device node needs root")
        os.mknod(path, 0o666 | 0o020000, os.makedev(1, 3))  # a character device, like /dev/null
    else:
        path.mkdir()
    return path


@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
@pytest.mark.parametrize("command", ["score", "perturb"])
def test_force_never_replaces_what_is_not_a_regular_file(tmp_path, capsys, kind, command):
    """Defect 4: ``--force`` replaced a named pipe or a device node (as root) by a regular file."""
    target = _special(tmp_path, kind)
    before = os.lstat(target).st_mode
    if command == "score":
        argv = score(pairs_file(tmp_path / "in.jsonl", 2), target, "--force")
    else:
        src = tmp_path / "texts.jsonl"
        src.write_text('{"id": 1, "text": "The cat chased the dog."}\n', encoding="utf-8")
        argv = ["perturb", "--kind", "repetition", "--input", str(src), "--output", str(target), "--force"]
    what = {"fifo": "is a named pipe", "device": "is a character device", "directory": "is a directory"}[kind]
    refused(capsys, argv, what)
    assert os.lstat(target).st_mode == before


# -- defect 5: rome validity --draw --out equal to its own --data -------------------------------------------
def _corpus(tmp_path: Path) -> Path:
    path = tmp_path / "corpus.jsonl"
    path.write_text("".join(json.dumps({"id": f"c{i}", "reference": f"The old man walked to the station {i}.",
                                        "original": f"The old man walked to the station {i}."}) + "\n"
                            for i in range(6)), encoding="utf-8")
    return path


def test_validity_draw_never_writes_over_its_data_nor_a_card_without_force(tmp_path, capsys):
    """Defect 5: the corpus was overwritten by the card; a partly labelled todo card was wiped, no --force asked."""
    corpus = _corpus(tmp_path)
    before = corpus.read_bytes()
    draw = ["validity", "--draw", "repetition", "--data", str(corpus), "--n", "3"]
    refused(capsys, [*draw, "--out", str(corpus)], "is the --data file")
    refused(capsys, [*draw, "--out", str(tmp_path / "sub" / ".." / corpus.name), "--force"], "is the --data file")
    assert corpus.read_bytes() == before
    card = tmp_path / "repetition.todo.jsonl"
    assert main([*draw, "--out", str(card)]) == 0
    labelled = [{**row, "label": "intended"} if i == 0 else row for i, (_, row) in enumerate(read_jsonl(card))]
    card.write_text("".join(json.dumps(row) + "\n" for row in labelled), encoding="utf-8")
    kept = card.read_bytes()
    refused(capsys, [*draw, "--out", str(card)], "exists; pass --force")
    assert card.read_bytes() == kept
    assert main([*draw, "--out", str(card), "--force"]) == 0 and card.read_bytes() != kept


# -- defect 6: annotate sub-commands and the ratings store --------------------------------------------------
def _ratings_store(path: Path) -> Path:
    from reports.annotate.store import AnnotationStore

    with AnnotationStore(path) as store:
        for case, fluency in (("c1", 1), ("c2", 2), ("c3", 3)):
            for annotator in ("ann", "bob"):
                store.save_rating(case, annotator, {"fluency": fluency, "semantics": 2, "grammar": 3}, "h")
    return path


def _judged_card(tmp_path: Path) -> tuple[Path, Path]:
    from reports.annotate.judgements import JudgementStore, load_todo_card

    todo = tmp_path / "repetition.todo.jsonl"
    assert main(["validity", "--draw", "repetition", "--data", str(_corpus(tmp_path)), "--n", "2",
                 "--out", str(todo)]) == 0
    store = tmp_path / "judgements.sqlite"
    with JudgementStore(store) as judgements:
        for line in load_todo_card(todo):
            judgements.save(line, "ann", line.labels()[0], "")
    return todo, store


def _is_sqlite(path: Path) -> bool:
    with sqlite3.connect(path) as conn:
        return bool(conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0])


@pytest.mark.parametrize("action", ["export", "agreement", "export-card", "validity"])
def test_annotate_never_writes_over_the_store_it_reads(tmp_path, capsys, action):
    """Defect 6: ``export --out``, ``agreement --json``, ``export-card --out``, ``--validity --out`` given the
    store's path replaced the SQLite store by JSON."""
    if action in ("export", "agreement"):
        store = _ratings_store(tmp_path / "ratings.sqlite")
        flag = "--out" if action == "export" else "--json"
        argv = ["annotate", action, "--store", str(store), flag, str(store)]
    else:
        todo, store = _judged_card(tmp_path)
        argv = (["annotate", "export-card", "--store", str(store), "--validity", str(todo), "--annotator", "ann",
                 "--out", str(store)] if action == "export-card" else
                ["annotate", "--validity", str(todo), "--annotator", "ann", "--store", str(store),
                 "--out", str(store), "--port", "0"])
    before = store.read_bytes()
    if action == "validity":  # in a child: a server that is not refused would serve until killed
        try:
            one_line_error(run_cli(*argv, timeout=60), "store")
        except subprocess.TimeoutExpired:
            pytest.fail("the server started, with the labelled card to be written over its store")
    else:
        refused(capsys, argv, "store")
    assert store.read_bytes() == before and _is_sqlite(store)


def test_annotate_export_replaces_an_earlier_export_but_no_other_file(tmp_path, capsys):
    store = _ratings_store(tmp_path / "ratings.sqlite")
    out = tmp_path / "ratings.jsonl"
    assert main(["annotate", "export", "--store", str(store), "--out", str(out)]) == 0
    assert main(["annotate", "export", "--store", str(store), "--out", str(out)]) == 0
    assert len(list(read_jsonl(out))) == 6
    mine = pairs_file(tmp_path / "mine.jsonl", 1)
    before = mine.read_bytes()
    refused(capsys, ["annotate", "export", "--store", str(store), "--out", str(mine)], "is not a ratings export")
    assert mine.read_bytes() == before


# -- defect 7: --resume keeps stale extra fields ------------------------------------------------------------
def test_resume_rows_follow_their_input_lines_other_fields(tmp_path, capsys):
    """Defect 7: ``system`` changed in an input line, ``--resume``: the row kept the old value.

    Rule: a row is its input line plus its scores, as a fresh run writes it (fields other than the texts do
    not change a score, so they are rewritten, not refused); the resumed output equals a fresh run's.
    """
    src = pairs_file(tmp_path / "in.jsonl", 3, system="A")
    out = tmp_path / "out.jsonl"
    assert main(score(src, out)) == 0
    lines = src.read_text(encoding="utf-8").splitlines()
    changed = json.loads(lines[1])
    changed["system"], changed["note"] = "B", "added"
    third = json.loads(lines[2])
    del third["system"]
    src.write_text("\n".join([lines[0], json.dumps(changed), json.dumps(third)]) + "\n", encoding="utf-8")
    assert main(score(src, out, "--resume")) == 0
    fresh = tmp_path / "fresh.jsonl"
    assert main(score(src, fresh)) == 0
    assert out.read_text(encoding="utf-8") == fresh.read_text(encoding="utf-8")
    rows = [row for _, row in read_jsonl(out)]
    assert [row.get("system") for row in rows] == ["A", "B", None] and rows[1]["note"] == "added"


# -- defect 8: Ray at a dead address ------------------------------------------------------------------------
def test_ray_at_a_dead_address_fails_fast_with_one_line(tmp_path):
    """Defect 8: ``--engine ray --ray-address 127.0.0.1:1`` hung > 6 min, printing nothing."""
    pytest.importorskip("ray")
    out = tmp_path / "out.jsonl"
    started = time.monotonic()
    done = run_cli(*score(pairs_file(tmp_path / "in.jsonl", 2), out, "--engine", "ray", "--ray-address", "127.0.0.1:1"),
                   timeout=120)
    one_line_error(done, "no Ray cluster answers at 127.0.0.1:1")
    assert time.monotonic() - started < 60 and not out.exists()


def test_ray_at_an_address_that_is_not_ray_fails_with_one_line(tmp_path):
    """D7: an address that accepts TCP but is not Ray (here ``python -m http.server``) hung > 170 s in
    ``ray.init``; it is one rome line, before Ray starts (a hang would exceed the subprocess's timeout)."""
    pytest.importorskip("ray")
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(100):  # until it listens
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        out = tmp_path / "out.jsonl"
        done = run_cli(*score(pairs_file(tmp_path / "in.jsonl", 2), out, "--engine", "ray", "--ray-address",
                              f"127.0.0.1:{port}"), timeout=120)
        one_line_error(done, f"127.0.0.1:{port} accepts connections but is not Ray")
        assert not out.exists()
    finally:
        server.terminate()
        server.wait(timeout=30)


# -- defects 9, 10: nesting, huge numbers, NaN / Infinity in any JSON input ----------------------------------
BAD_VALUES = {
    "nested": "[" * 100_000 + "]" * 100_000,
    "huge integer": "1" * 5000,
    "NaN": "NaN",
    "Infinity": "-Infinity",
    "overflowing float": "1e999",
}
EXPECTED = {"nested": f"nested more than {MAX_DEPTH} levels", "huge integer": "a number of 5000 characters",
            "NaN": "NaN is not a JSON number", "Infinity": "-Infinity is not a JSON number",
            "overflowing float": "the number 1e999 is too large"}


def _bad_line(fields: dict, value: str) -> str:
    return json.dumps(fields)[:-1] + f', "extra": {value}}}'


def _command_input(tmp_path: Path, command: str, value: str) -> tuple[list[str], Path]:
    """The argv of one command that reads a JSONL whose second line holds ``value``, and that file."""
    good = {"score": {"id": 1, "hypothesis": "a cheap hotel", "reference": "the hotel is cheap"},
            "perturb": {"id": 1, "text": "The cat chased the dog."},
            "suite": {"id": 1, "reference": "The old man walked.", "original": "The old man walked."},
            "challenge": {"id": 1, "reference": "a", "good": "a", "bad": "b", "category": "x"},
            "correlation": {"id": 1, "hypothesis": "a cheap hotel", "references": ["the hotel"], "quality": 2},
            "annotate": {"id": 1, "reference": "the hotel", "hypothesis": "a hotel"},
            "annotations": {"case_id": "c1", "fluency": 2, "semantics": 2, "grammar": 2}}[command]
    path = tmp_path / f"{command}.jsonl"
    path.write_text(json.dumps({**good, "id": 0}) + "\n" + _bad_line(good, value) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    argv = {"score": ["score", "--input", str(path), "--output", str(out / "o.jsonl"), "--metric", "bleu"],
            "perturb": ["perturb", "--kind", "repetition", "--input", str(path), "--output", str(out / "o.jsonl")],
            "suite": ["suite", "repetition", "--data", str(path), "--metric", "bleu", "--out", str(out), "--no-cache"],
            "challenge": ["challenge", str(path), "--metric", "bleu", "--out", str(out), "--no-cache"],
            "correlation": ["report", "correlation", "--dataset", str(path), "--metric", "bleu", "--out", str(out),
                            "--no-cache"],
            "annotate": ["annotate", "--cases", str(path), "--annotator", "ann", "--port", "0"],
            "annotations": ["report", "robustness", "--from", str(_suite_outputs(tmp_path)), "--annotations",
                            str(path), "--out", str(out)]}[command]
    return argv, path


def _suite_outputs(tmp_path: Path) -> Path:
    """A minimal suite output folder (summary.json and cases.jsonl as rome suite writes them)."""
    source = tmp_path / "outputs"
    (source / "rep").mkdir(parents=True, exist_ok=True)
    summary = {"suite": "repetition", "corpus": "dialogue", "signatures": {"bleu": "bleu|x"},
               "checks": {"bleu": {"decrease": {"pass_rate": 0.5, "n": 2, "passes": 1, "passed": False,
                                                "requirement": "r"}}},
               "check_expectations": {"decrease": "decrease"}}
    (source / "rep" / "summary.json").write_text(json.dumps(summary), encoding="utf-8")
    cases = [{"case_id": f"c{i}", "suite": "repetition", "expectation": "decrease",
              "scores": {"bleu": {"original": 50.0, "variant": 40.0 + i, "delta": -10.0 + i, "control": None}},
              "checks": {"bleu": {"decrease": bool(i)}}} for i in range(2)]
    (source / "rep" / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    return source


@pytest.mark.parametrize("bad", list(BAD_VALUES))
@pytest.mark.parametrize("command", ["score", "perturb", "suite", "challenge", "correlation", "annotate",
                                     "annotations"])
def test_json_input_with_limits_is_a_one_line_error_naming_file_and_line(tmp_path, capsys, command, bad):
    """Defects 9 and 10: a deeply nested value or a 5,000-digit integer gave a RecursionError / ValueError
    traceback; NaN and Infinity were copied into score output lines (and "nan%" into robustness.md)."""
    argv, path = _command_input(tmp_path, command, BAD_VALUES[bad])
    if command == "annotate":  # in a child: a server that accepted the cases would serve until killed
        try:
            one_line_error(run_cli(*argv, timeout=60), f"{path}:2: ", EXPECTED[bad])
        except subprocess.TimeoutExpired:
            pytest.fail("the annotation server started on cases holding a value JSON does not allow")
    else:
        refused(capsys, argv, f"{path}:2: ", EXPECTED[bad])
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("bad", list(BAD_VALUES))
def test_a_suite_summary_with_bad_json_is_a_one_line_error(tmp_path, capsys, bad):
    source = _suite_outputs(tmp_path)
    summary = source / "rep" / "summary.json"
    text = json.dumps(json.loads(summary.read_text(encoding="utf-8")), indent=1)
    summary.write_text(text.replace('"pass_rate": 0.5', f'"pass_rate": {BAD_VALUES[bad]}'), encoding="utf-8")
    line = text.splitlines().index(next(x for x in text.splitlines() if '"pass_rate"' in x)) + 1
    refused(capsys, ["report", "robustness", "--from", str(source), "--out", str(tmp_path / "out")],
            f"{summary}:{line}: ", EXPECTED[bad])


# -- defect 11: a lone surrogate in the validity API ---------------------------------------------------------
def test_validity_api_refuses_a_lone_surrogate_with_a_400(tmp_path):
    """Defect 11: POST a note ``"\\udc00"`` to the validity API: HTTP 500 (the store could not encode it)."""
    from reports.annotate.judgements import JudgementStore, load_todo_card
    from reports.annotate.validity import create_validity_app

    todo, _ = _judged_card(tmp_path)
    with JudgementStore(tmp_path / "fresh.sqlite") as store:
        client = create_validity_app(load_todo_card(todo), store, "alice", tmp_path / "card.jsonl").test_client()
        line = client.get("/api/lines/0").get_json()
        for field in ("note", "label"):
            body = {"line": line["line"], "label": line["labels"][0]["label"], "note": "fine"}
            raw = json.dumps(body).replace('"fine"' if field == "note" else f'"{body["label"]}"', '"\\udc00"')
            reply = client.post("/api/judgements", data=raw, content_type="application/json")
            assert reply.status_code == 400 and "lone surrogate" in reply.get_json()["error"], reply.get_data()
        assert store.judgements("alice") == {}


# -- defect 13: tampered outputs and summaries ----------------------------------------------------------------
@pytest.mark.parametrize("tamper,message", [
    (lambda row: row["scored_with"].update(signatures=[]), "scored_with.signatures is not an object"),
    (lambda row: row["scored_with"].update(input=7), "scored_with.input is not a hash"),
    (lambda row: row.update(scores=[1.0]), "'scores' is not an object of numbers"),
    (lambda row: row["scores"].update(bleu="high"), "'scores' is not an object of numbers"),
    (lambda row: row.pop("id"), "it has no 'id'"),
])
def test_resume_on_a_tampered_output_is_a_one_line_error(tmp_path, capsys, tamper, message):
    """Defect 13: ``scored_with.signatures: []`` then ``--resume``: AttributeError traceback."""
    src = pairs_file(tmp_path / "in.jsonl", 2)
    out = tmp_path / "out.jsonl"
    assert main(score(src, out)) == 0
    rows = [row for _, row in read_jsonl(out)]
    tamper(rows[0])
    out.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    before = out.read_bytes()
    refused(capsys, score(src, out, "--resume"), f"{out}:1: ", message)
    assert out.read_bytes() == before


@pytest.mark.parametrize("path,value,message", [
    (("checks", "bleu", "decrease", "pass_rate"), "high", "checks.bleu.decrease.pass_rate is 'high'"),
    (("checks", "bleu", "decrease", "n"), -3, "checks.bleu.decrease.n is -3"),
    (("checks", "bleu", "decrease"), [1], "checks.bleu.decrease is [1]"),
    (("signatures",), [], "signatures is []"),
    (("coverage",), {"texts_tried": "many"}, "coverage.texts_tried is 'many'"),
    (("validity",), {"published": "yes"}, "validity.published is 'yes'"),
    (("trained_on_families",), {"bleu": "x"}, "trained_on_families.bleu is 'x'"),
])
def test_a_tampered_summary_is_a_one_line_error(tmp_path, capsys, path, value, message):
    """Defect 13: a summary.json with a string pass rate into ``rome report robustness``: ValueError traceback."""
    source = _suite_outputs(tmp_path)
    summary_path = source / "rep" / "summary.json"
    summary = json.loads(summary_path.read_text(encoding="utf-8"))
    node = summary
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    summary_path.write_text(json.dumps(summary), encoding="utf-8")
    refused(capsys, ["report", "robustness", "--from", str(source), "--out", str(tmp_path / "out")],
            str(summary_path), message)


def test_tampered_cases_are_a_one_line_error(tmp_path, capsys):
    source = _suite_outputs(tmp_path)
    cases = source / "rep" / "cases.jsonl"
    rows = [row for _, row in read_jsonl(cases)]
    rows[1]["scores"]["bleu"]["delta"] = "much"
    cases.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    refused(capsys, ["report", "robustness", "--from", str(source), "--out", str(tmp_path / "out")],
            f"{cases}:2: scores.bleu.delta is 'much'")


# -- defect 14: misleading messages and labels ----------------------------------------------------------------
def test_pearson_of_ratings_near_1e307_is_computed_not_called_constant():
    """Defect 14: ratings near 1e307 overflowed Pearson's sums to NaN, and the report called them constant."""
    from reports.stats import coefficient, resampled_coefficients

    rng = np.random.default_rng(0)
    ratings, scores = rng.uniform(1e307, 1.7e308, 50), rng.uniform(0, 1, 50)
    expected = coefficient(ratings / 1e308, scores, "pearson")
    assert coefficient(ratings, scores, "pearson") == pytest.approx(expected, rel=1e-9)
    indices = rng.integers(0, 50, (5, 50))
    assert np.allclose(resampled_coefficients(ratings, scores, "pearson", indices),
                       resampled_coefficients(ratings / 1e308, scores, "pearson", indices))


def test_correlation_report_on_huge_ratings_says_no_cell_is_undefined(tmp_path, capsys):
    texts = ["the hotel is cheap", "a cheap hotel", "the hotel is near the station", "it is a hotel", "cheap",
             "the cheap hotel is near", "no hotel"]
    data = tmp_path / "rated.jsonl"
    data.write_text("".join(json.dumps({"id": i, "hypothesis": t, "references": ["a cheap hotel"],
                                        "quality": 1e307 * (1 + 5 * (i % 3)) + i * 1e306}) + "\n"
                            for i, t in enumerate(texts)), encoding="utf-8")
    out = tmp_path / "out"
    assert main(["report", "correlation", "--dataset", str(data), "--metric", "bleu", "--bootstrap", "20",
                 "--no-cache", "--out", str(out), "--coefficient", "pearson"]) == 0
    report = (out / "correlation.md").read_text(encoding="utf-8")
    assert "constant" not in report and "not defined" not in report


def test_a_category_mixing_a_severity_and_none_is_not_labelled_with_the_one(tmp_path):
    """Defect 14: a category with one "major" and one missing severity was labelled "major"."""
    from rome.data.challenge import category_severity, load_challenge

    path = tmp_path / "mine.jsonl"
    rows = [{"id": 1, "reference": "a b", "good": "a b", "bad": "a c", "category": "x", "severity": "major"},
            {"id": 2, "reference": "d e", "good": "d e", "bad": "d f", "category": "x"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    items = load_challenge([path]).items
    assert category_severity(items) == "major+(none)"
    assert category_severity(items[:1]) == "major" and category_severity(items[1:]) == ""


@pytest.mark.parametrize("command", ["score", "perturb"])
def test_a_pipe_or_dev_null_as_input_is_read_not_called_missing(tmp_path, capsys, command):
    """Defect 14: a pipe or /dev/null as --input was reported as "no such file"."""
    line = ('{"id": 1, "hypothesis": "a cheap hotel", "reference": "the hotel"}\n' if command == "score"
            else '{"id": 1, "text": "The cat chased the dog."}\n')
    extra = ["--metric", "bleu", "--no-cache"] if command == "score" else ["--kind", "repetition"]
    out = tmp_path / "out.jsonl"
    err = refused(capsys, [command, "--input", "/dev/null", "--output", str(out), *extra], "/dev/null: no ")
    assert "no such file" not in err
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    writer = subprocess.Popen(["sh", "-c", f"printf '%s' '{line.strip()}' > {fifo}"])
    try:
        assert main([command, "--input", str(fifo), "--output", str(out), *extra]) == 0
    finally:
        writer.wait(timeout=30)
    assert len(list(read_jsonl(out))) == 1


def test_a_line_appended_to_the_input_is_not_blamed_on_another_model(tmp_path, capsys):
    """Defect 14: a line appended to the input, then --resume with a corpus-fitted metric: "another --model"."""
    src = pairs_file(tmp_path / "in.jsonl", 3)
    out = tmp_path / "out.jsonl"
    argv = ["score", "--input", str(src), "--output", str(out), "--metric", "novikova/cider", "--no-cache"]
    assert main(argv) == 0
    with src.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps({"id": "new", "hypothesis": "a new line", "reference": "the hotel is cheap"}) + "\n")
    err = refused(capsys, [*argv, "--resume"], "the input's pairs changed since")
    assert "another --model" not in err


# -- defect 16: several runs of one suite in the robustness table --------------------------------------------
def test_several_runs_of_one_suite_give_rows_that_name_their_run(tmp_path):
    """Defect 16: two outputs of one suite on one corpus gave rows that could not be told apart.

    Rule: they stay separate rows (pooling two samples would count a text drawn by both twice and narrow
    every interval), each naming its output folder in a ``run`` column, shown only when needed.
    """
    from reports.robustness import build_report, checks_table

    source = _suite_outputs(tmp_path)
    single = checks_table(build_report(source))
    assert "run" not in single.columns
    shutil.copytree(source / "rep", source / "rep-seed5")
    table = checks_table(build_report(source))
    keys = [tuple(row[: table.columns.index("n")]) for row in table.rows]
    assert table.columns[:4] == ["corpus", "perturbation", "check", "run"]
    assert len(keys) == 2 and len(set(keys)) == 2 and {k[3] for k in keys} == {"rep", "rep-seed5"}


# -- the same rule for commands with an output folder ---------------------------------------------------------
@pytest.mark.parametrize("command", ["suite", "challenge", "correlation", "annotations"])
def test_a_command_never_writes_its_folder_over_its_own_input(tmp_path, capsys, command):
    """An input lying in the output folder could be one of the files of fixed names written there
    (``rome challenge out/items.jsonl --out out`` replaced its own input by its per-item scores)."""
    argv, path = _command_input(tmp_path, command, "1")
    if command == "correlation":  # a valid rating file: every item with the same criteria
        path.write_text("".join(json.dumps({"id": i, "hypothesis": f"a hotel {i}", "references": ["the hotel"],
                                            "quality": i}) + "\n" for i in range(4)), encoding="utf-8")
    if command == "suite":  # enough texts for the suite to run to its outputs (it did, over its --data)
        text = "The old man walked slowly to the big station number {} today."
        path.write_text("".join(json.dumps({"id": f"c{i}", "reference": text.format(i), "original": text.format(i)})
                                + "\n" for i in range(12)), encoding="utf-8")
    inside = tmp_path / "out" / {"suite": "cases.jsonl", "challenge": "items.jsonl", "correlation": "scores.jsonl",
                                 "annotations": "robustness.csv"}[command]
    inside.parent.mkdir()
    shutil.move(path, inside)
    argv = [str(inside) if arg == str(path) else arg for arg in argv]
    before = inside.read_bytes()
    refused(capsys, argv, "holds the", "give another --out")
    assert inside.read_bytes() == before


# -- issue 42 item 11, X06 and X07: a text of one long line -------------------------------------------------
PARAGRAPH = ("The council said that the colour of the theatre was organised by the neighbour's favourite centre. "
             "She thinks the programme is good and I know that it is cheap. In London the police arrested the man. "
             "We realised the harbor was full. The angry dog bit the man. ")


class CountingTokens(tuple):
    """A parse's tokens that count every token read (by iteration, index or slice): the work of a rule set."""

    reads: int

    def __new__(cls, tokens):
        counted = super().__new__(cls, tokens)
        counted.reads = 0
        return counted

    def __iter__(self):
        for token in super().__iter__():
            self.reads += 1
            yield token

    def __getitem__(self, key):
        got = super().__getitem__(key)
        self.reads += len(got) if isinstance(key, slice) else 1
        return got


@pytest.mark.parametrize("kind", ["spelling", "optional_that", "passive"])
def test_x06_a_rewrite_reads_each_token_of_a_long_text_a_bounded_number_of_times(kind):
    """X06: on one long line spelling and optional_that took time growing with the square of its length
    (spelling 120 KB 8.7 s, 240 KB 79 s): each token looked at every token before it or read them all."""
    from perturbations.registry import build_perturbation
    from rome.core.parsing import get_parser

    perturbation = build_perturbation(kind)
    per_token = []
    for copies in (4, 16):
        parsed = get_parser().parse_one(PARAGRAPH * copies)
        counted = dataclasses.replace(parsed, tokens=CountingTokens(parsed.tokens))
        if kind == "passive":
            from perturbations.passive import clause_heads

            assert clause_heads(counted)
        else:
            # every direction is read; one that would leave the text in two spellings gives no edit
            assert [perturbation.edits(counted, direction) for direction in perturbation.directions] != [[], []]
        per_token.append(counted.tokens.reads / len(parsed.tokens))
    assert per_token[1] < 1.5 * per_token[0], per_token  # 4 times the text: 4 times the reads, not 16


def test_x07_a_text_over_spacys_limit_is_parsed_in_pieces_at_sentence_ends():
    """X07: spaCy refuses a text over ``nlp.max_length`` (E088); the parser cuts it after a sentence's end
    into pieces under the limit and joins their parses (indices, heads and offsets into the whole text)."""
    from rome.core.parsing import SpacyParser, get_parser

    text = PARAGRAPH * 12
    parser = SpacyParser()
    parser.nlp.max_length = 1000
    parsed = parser.parse_one(text)
    whole = get_parser().parse_one(text)
    assert parsed.text == text and "".join(t.text + t.whitespace for t in parsed.tokens) == text
    assert [t.i for t in parsed.tokens] == list(range(len(parsed.tokens)))
    assert all(text[t.idx : t.idx + len(t.text)] == t.text for t in parsed.tokens)
    assert [t.text for t in parsed.tokens] == [t.text for t in whole.tokens]
    assert all(parsed.tokens[t.head].text == whole.tokens[t.head].text for t in parsed.tokens)
    assert len(parsed.roots) >= 3 * 12 // 2  # one tree per piece at least: no head crosses a cut
    spans = [parsed.tokens[e.start : e.end] for e in parsed.entities]
    assert parsed.entities and all(text[s[0].idx : s[-1].idx + len(s[-1].text)] == e.text
                                   for s, e in zip(spans, parsed.entities))


@pytest.mark.parametrize("kind", ["spelling", "optional_that", "passive"])
def test_x07_rome_perturb_on_a_line_over_spacys_limit_writes_its_variants(tmp_path, capsys, monkeypatch, kind):
    """X07: a text over 1,000,000 characters failed with spaCy's E088 traceback, exit 1 (the limit is lowered
    here, on the real parser, so that the test parses a short text)."""
    from rome.core.parsing import get_parser

    parser = get_parser()
    monkeypatch.setattr(parser.nlp, "max_length", 1000)
    parser.clear_cache()
    src = tmp_path / "long.jsonl"
    src.write_text(json.dumps({"id": "long", "text": PARAGRAPH * 12}) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    try:
        assert main(["perturb", "--kind", kind, "--input", str(src), "--output", str(out)]) == 0
    finally:
        parser.clear_cache()  # parses made in pieces are not kept for later tests
    row = json.loads(out.read_text(encoding="utf-8"))
    assert row["variants"] and all(v["text"] != row["text"] for v in row["variants"])
