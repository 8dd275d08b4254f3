"""The write defects of the "product 2" sweep (N03, N04, N06, D20), concurrent runs into one folder, and
trainers that never write into the package.

Each test failed on the code before its fix. The rules (rome/core/files.py): every output folder is written by
:func:`rome.core.files.output_folder` -- locked for the run, written beside the folder and swapped in, never
over a file rome did not record writing there; no output lies inside the installed package; a folder that
is a file is refused before any scoring.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import threading
import time
import urllib.request
from pathlib import Path

import pytest

from reports.cli import main
from rome.core.errors import InputError
from rome.core.paths import inside_package, package_dirs

TEXTS = [{"id": "a", "reference": "the cat sat on the mat today", "original": "the cat sat on the mat today"},
         {"id": "b", "reference": "a dog ran in the park", "original": "a dog ran in the park quickly"},
         {"id": "c", "reference": "we ate dinner at home", "original": "we ate dinner at home tonight"}]


@pytest.fixture
def small(tmp_path) -> Path:
    path = tmp_path / "small.jsonl"
    path.write_text("".join(json.dumps(t) + "\n" for t in TEXTS), encoding="utf-8")
    return path


def suite(small: Path, out: Path, *more: str) -> list[str]:
    return ["suite", "typos_in_word", "--data", str(small), "--metric", "bleu", "--n", "3", "--out", str(out),
            "--no-cache", *more]


def challenge(out: Path) -> list[str]:
    return ["challenge", "demetr/minor_id15_case", "--metric", "bleu", "--n-per-category", "3", "--bootstrap", "10",
            "--workers", "1", "--no-cache", "--out", str(out)]


def refused(capsys, argv: list[str], *fragments: str) -> str:
    """``rome argv`` exits 2 with one error line holding every fragment; returns all of stderr."""
    capsys.readouterr()
    code = main(argv)
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith(f"rome {argv[0]}: error: ")]
    assert code == 2 and "Traceback" not in err and len(errors) == 1, err
    for fragment in fragments:
        assert fragment in errors[0], err
    return err


# -- N04: a suite, challenge or report never replaces a file it did not write ------------------------------
def test_n04_suite_keeps_a_users_file_of_the_same_name(tmp_path, small, capsys):
    """N04: ``mkdir mydocs; echo mine > mydocs/summary.md; rome suite ... --out mydocs`` replaced it, rc 0."""
    mydocs = tmp_path / "mydocs"
    mydocs.mkdir()
    (mydocs / "summary.md").write_text("mine\n")
    err = refused(capsys, suite(small, mydocs), "holds summary.md, which rome did not write")
    assert "scoring" not in err  # refused before any work
    assert (mydocs / "summary.md").read_text() == "mine\n" and sorted(os.listdir(mydocs)) == ["summary.md"]


def test_rerunning_into_a_folder_rome_wrote_works_and_keeps_the_users_other_files(tmp_path, small):
    out = tmp_path / "out"
    assert main(suite(small, out)) in (0, 1)  # 1: a check failed, the outputs are written all the same
    first = {name: (out / name).read_text() for name in ("cases.jsonl", "summary.json")}
    (out / "notes.txt").write_text("my notes\n")
    assert main(suite(small, out, "--seed", "5")) in (0, 1)
    assert (out / "notes.txt").read_text() == "my notes\n"
    seeds = [json.loads(text)["sample"]["seed"] for text in (first["summary.json"], (out / "summary.json").read_text())]
    assert seeds == [2026, 5]  # the suite's own seed (its cards'), then the one asked for
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".out.")]  # no staging or lock left


def test_n04_challenge_keeps_a_users_file_of_the_same_name(tmp_path, capsys):
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "accuracy.csv").write_text("my,own\n")
    refused(capsys, challenge(mine), "holds accuracy.csv, which rome did not write")
    assert (mine / "accuracy.csv").read_text() == "my,own\n"
    out = tmp_path / "out"
    assert main(challenge(out)) == 0 and main(challenge(out)) == 0  # its own folder: rerun as before
    assert (out / "accuracy.csv").read_text().startswith("category,severity,metric,n,accuracy")


def test_n04_report_keeps_a_users_file_of_the_same_name(tmp_path, small, capsys):
    suites = tmp_path / "suites"
    assert main(suite(small, suites / "typos_in_word")) in (0, 1)
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "robustness.md").write_text("# my table\n")
    refused(capsys, ["report", "robustness", "--from", str(suites), "--out", str(mine)],
            "holds robustness.md, which rome did not write")
    assert (mine / "robustness.md").read_text() == "# my table\n"
    out = tmp_path / "report"
    for _ in range(2):
        assert main(["report", "robustness", "--from", str(suites), "--out", str(out)]) == 0
    assert (out / "robustness.md").read_text().startswith("# Robustness of the metrics")


# -- D20: an output folder that is a file ---------------------------------------------------------------
@pytest.mark.parametrize("command", ["suite", "challenge", "cache"])
def test_d20_a_folder_that_is_a_file_is_refused_before_scoring(tmp_path, small, capsys, monkeypatch, command):
    """D20: "File exists: PATH" after scoring everything (suite, challenge, ``ROME_CACHE_DIR``)."""
    afile = tmp_path / "afile.txt"
    afile.write_text("not a folder\n")
    if command == "cache":
        monkeypatch.setenv("ROME_CACHE_DIR", str(afile))
        argv = [a for a in suite(small, tmp_path / "out") if a != "--no-cache"]
        err = refused(capsys, argv, "ROME_CACHE_DIR", "is a file, not a folder")
    else:
        argv = suite(small, afile) if command == "suite" else challenge(afile)
        err = refused(capsys, argv, f"--out {afile} is a file, not a folder")
    assert "scoring" not in err and afile.read_text() == "not a folder\n"


# -- N03: no output inside the installed package ----------------------------------------------------------
def test_n03_validity_never_replaces_a_shipped_card_through_a_symlink(tmp_path, small, capsys):
    """N03: ``rome validity --draw ... --out <symlink to a shipped card> --force`` replaced the judged card."""
    shipped = package_dirs()[1] / "cards" / "dialogue" / "typos_in_word.jsonl"
    before = hashlib.sha256(shipped.read_bytes()).hexdigest()
    link = tmp_path / "card.jsonl"
    link.symlink_to(shipped)
    for out in (link, shipped):
        refused(capsys, ["validity", "--draw", "typos_in_word", "--data", str(small), "--n", "3", "--out", str(out),
                         "--force"], "inside the installed rome-harness package")
    assert hashlib.sha256(shipped.read_bytes()).hexdigest() == before


def test_no_output_folder_inside_the_package(small, capsys):
    inside = package_dirs()[3] / "my-run"  # suites/my-run
    refused(capsys, suite(small, inside), "inside the installed rome-harness package")
    assert not inside.exists()


# -- one run at a time, complete or absent ------------------------------------------------------------------
def test_two_concurrent_runs_into_one_folder_never_interleave(tmp_path):
    """Two writers of one folder at once (two threads: flock is per open file, as between processes): the
    second is refused while the first holds it; the folder then holds the first's files only."""
    from rome.core.files import output_folder

    out = tmp_path / "out"
    entered, release, errors = threading.Event(), threading.Event(), []

    def first() -> None:
        try:
            with output_folder(out) as folder:
                (folder / "a.txt").write_text("first\n")
                entered.set()
                release.wait(30)
                (folder / "b.txt").write_text("first\n")
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
            entered.set()

    thread = threading.Thread(target=first)
    thread.start()
    assert entered.wait(30)
    assert not out.exists()  # nothing in place while the run is going
    with pytest.raises(InputError, match="is being written by another run"), output_folder(out) as folder:
        (folder / "a.txt").write_text("second\n")
    release.set()
    thread.join(30)
    assert not errors
    assert sorted(os.listdir(out)) == [".rome-output.json", "a.txt", "b.txt"]
    assert {(out / n).read_text() for n in ("a.txt", "b.txt")} == {"first\n"}


def test_a_second_cli_run_into_a_folder_in_use_is_refused(tmp_path, small):
    out = tmp_path / "out"
    holder = subprocess.Popen(
        [sys.executable, "-c", "import sys, time\nfrom rome.core.files import output_folder\n"
         f"with output_folder({str(out)!r}):\n    print('held', flush=True)\n    time.sleep(120)\n"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        done = subprocess.run([sys.executable, "-m", "reports.cli", *suite(small, out)], capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and "is being written by another run" in done.stderr
        assert "scoring" not in done.stderr
    finally:
        holder.kill()
        holder.wait(10)


def test_a_failed_run_leaves_the_old_folder_whole(tmp_path):
    from rome.core.files import output_folder

    out = tmp_path / "out"
    with output_folder(out) as folder:
        (folder / "old.txt").write_text("old\n")
    with pytest.raises(RuntimeError), output_folder(out) as folder:
        (folder / "new.txt").write_text("new\n")
        raise RuntimeError("interrupted")
    assert sorted(os.listdir(out)) == [".rome-output.json", "old.txt"]
    assert sorted(os.listdir(tmp_path)) == ["out"]  # no staging folder or lock left beside it
    (tmp_path / ".out.abcd1234.partial").mkdir()  # what a run killed by SIGKILL leaves
    (tmp_path / ".out.jsonl.abcd1234.partial").write_text("another output's partial file\n")
    with output_folder(out) as folder:  # a complete rerun: the old run's files are gone, not mixed in
        (folder / "new.txt").write_text("new\n")
    assert sorted(os.listdir(out)) == [".rome-output.json", "new.txt"]
    assert sorted(os.listdir(tmp_path)) == [".out.jsonl.abcd1234.partial", "out"]


# -- N06: a SIGTERM'd annotation server leaves a complete store ----------------------------------------------
def test_n06_sigterm_keeps_every_rating_in_the_store_file_alone(tmp_path):
    """N06: after ``kill PID`` the latest ratings were only in ``STORE-wal``; copying the ``.sqlite`` lost them."""
    from reports.annotate.cases import AnnotationPair

    cases = [{"id": f"c{i}", "reference": "the hotel is cheap .", "hypothesis": f"the hotel {i} is cheap ."}
             for i in range(4)]
    cases_file = tmp_path / "cases.jsonl"
    cases_file.write_text("".join(json.dumps(c) + "\n" for c in cases), encoding="utf-8")
    store = tmp_path / "store.sqlite"
    cmd = [sys.executable, "-m", "reports.cli", "annotate", "--cases", str(cases_file), "--annotator", "alice",
           "--store", str(store), "--port", "0"]
    proc = subprocess.Popen(cmd, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"})
    try:
        deadline, url = time.monotonic() + 60, None
        while url is None and time.monotonic() < deadline:
            found = re.search(r"open (http://127\.0\.0\.1:\d+)/", proc.stderr.readline())
            url = found.group(1) if found else None
        assert url, "the annotation server did not start"
        for case in cases[:3]:
            body = {"case": AnnotationPair(case["id"], (), "").public_id, "ratings": {"fluency": 2, "semantics": 3, "grammar": 1}}
            request = urllib.request.Request(f"{url}/api/ratings", method="POST", data=json.dumps(body).encode(),
                                             headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=10) as reply:
                assert reply.status == 200
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        proc.stderr.close()
    copied = tmp_path / "copy" / "store.sqlite"
    copied.parent.mkdir()
    shutil.copy(store, copied)  # the documented merge workflow copies the store file, nothing beside it
    exported = tmp_path / "ratings.jsonl"
    assert main(["annotate", "export", "--store", str(copied), "--out", str(exported)]) == 0
    rows = [json.loads(line) for line in exported.read_text().splitlines()]
    assert sorted(row["case_id"] for row in rows) == ["c0", "c1", "c2"]


# -- X05: an output folder holding only the user's empty folders ----------------------------------------
def test_x05_a_users_empty_subfolder_survives_a_run_into_its_folder(tmp_path, small):
    """X05: ``mkdir -p out/photos_to_sort; rome suite ... --out out`` swapped the folder whole and deleted it."""
    out = tmp_path / "out"
    (out / "photos_to_sort" / "later").mkdir(parents=True)
    assert main(suite(small, out)) in (0, 1)
    assert (out / "photos_to_sort" / "later").is_dir() and (out / "summary.json").is_file()
    assert main(suite(small, out, "--seed", "5")) in (0, 1)  # a rerun replaces rome's files, keeps the folder
    assert (out / "photos_to_sort" / "later").is_dir()
    assert json.loads((out / "summary.json").read_text())["sample"]["seed"] == 5


# -- X04: the working folder (or one above it) as the output folder ------------------------------------------
@pytest.mark.parametrize("out", [".", "..", "../.."])
def test_x04_the_working_folder_or_one_above_it_is_refused_before_any_work(tmp_path, small, capsys, monkeypatch, out):
    """X04: ``rome suite ... --out .`` swapped the working folder itself: the shell was left in a deleted folder."""
    here = tmp_path / "runs" / "empty"
    here.mkdir(parents=True)
    monkeypatch.chdir(here)
    err = refused(capsys, suite(small, Path(out)), f"--out {out}", "the working folder")
    assert "scoring" not in err
    assert os.path.samefile(os.getcwd(), here) and os.listdir(here) == []
    assert sorted(os.listdir(tmp_path)) == ["runs", "small.jsonl"]  # no staging folder or lock beside any of them


# -- X08: a single-file output stopped by SIGTERM ----------------------------------------------------------
def _partials(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".partial"))


def test_x08_sigterm_leaves_no_partial_file(tmp_path):
    """X08: ``timeout 5 rome perturb ... --output o.jsonl`` left ``.o.jsonl.XXXX.partial``, which stayed."""
    src = tmp_path / "big.jsonl"
    src.write_text("".join(json.dumps({"id": i, "text": f"the hotel {i} is cheap and near the river"}) + "\n"
                           for i in range(100_000)), encoding="utf-8")
    out = tmp_path / "o.jsonl"
    proc = subprocess.Popen([sys.executable, "-m", "reports.cli", "perturb", "--kind", "repetition", "--input", str(src),
                             "--output", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not _partials(tmp_path) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert _partials(tmp_path), f"no partial output appeared (exit {proc.poll()})"
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert _partials(tmp_path) == [] and not out.exists()


def test_an_interrupt_inside_a_constructor_prints_one_line(tmp_path):
    """A stop landing inside a library's constructor (CI caught it in tqdm's, under the test above) left a
    half-built object whose finalizer printed an "Exception ignored ... Traceback" after "interrupted". The
    quiet hook lasts only while ``main`` ends: a program calling it keeps its own."""
    script = textwrap.dedent("""
        import sys
        import reports.cli.cache as cache
        from reports.cli import main

        class HalfBuilt:
            def __init__(self):
                raise KeyboardInterrupt  # as a SIGTERM landing before the constructor set its fields

            def __del__(self):
                self.position  # what tqdm's close() reads

        class InACycle(HalfBuilt):
            def __init__(self):
                self.me = self  # freed only by the garbage collector
                super().__init__()

        before = sys.unraisablehook
        for kind in (HalfBuilt, InACycle):
            cache.run = lambda args: kind()
            code = main(["cache", "info"])
            assert sys.unraisablehook is before, "main() left its quiet hook in the caller's process"
        sys.exit(code)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120, cwd=tmp_path,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])})
    assert done.returncode == 130, done.stderr
    assert done.stderr.strip() == "rome cache: interrupted\nrome cache: interrupted", done.stderr


def test_x08_a_later_run_removes_the_partial_files_a_killed_run_left(tmp_path, capsys):
    """What SIGKILL leaves (no handler runs) goes with the next run on the same output; nothing else does."""
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": 1, "text": "the hotel is cheap"}) + "\n", encoding="utf-8")
    out = tmp_path / "o.jsonl"
    stale = tmp_path / ".o.jsonl.k3x_9a0b.partial"
    stale.write_text('{"id": 0, "text": "half a row')
    kept = [".o.jsonl.k3x_9a0b.partial.mine", ".other.jsonl.k3x_9a0b.partial", ".o.jsonl.toolong123.partial",
            "o.jsonl.k3x_9a0b.partial"]
    for name in kept:
        (tmp_path / name).write_text("not rome's temporary file of o.jsonl\n")
    (tmp_path / ".o.jsonl.dir12345.partial").mkdir()  # a folder of that name is not what a file output leaves
    assert main(["perturb", "--kind", "repetition", "--input", str(src), "--output", str(out)]) == 0
    assert not stale.exists() and out.is_file()
    assert all((tmp_path / name).read_text() == "not rome's temporary file of o.jsonl\n" for name in kept)
    assert (tmp_path / ".o.jsonl.dir12345.partial").is_dir()


# -- trainers write to the cache or --out, never the package -----------------------------------------------
def test_trainers_default_to_the_cache_folder_not_the_package(tmp_path, monkeypatch, capsys):
    from baselines.context import train as context_train
    from rome.training import grammar, scorer

    monkeypatch.setenv("ROME_CACHE_DIR", str(tmp_path / "cache"))
    outs = [context_train.parse_args([]).out, grammar.parse_args([]).out, scorer.parse_args([]).out]
    for out in outs:
        assert not inside_package(out) and (tmp_path / "cache" / "trained") in out.parents, out
    assert inside_package(grammar.parse_args(["--evaluate-only"]).out)  # measuring reads the shipped weights
    with pytest.raises(SystemExit):  # quantising is a measurement of saved weights, not a training option
        grammar.parse_args(["--int8"])
    assert "use it with --evaluate-only" in capsys.readouterr().err
    afile = tmp_path / "afile"
    afile.write_text("x")
    with pytest.raises(InputError, match="is a file, not a folder"):  # said before hours of training
        context_train.parse_args(["--out", str(afile)])


def test_idf_trainer_writes_to_the_cache_and_leaves_the_shipped_table(tmp_path, monkeypatch):
    from rome.metric.semantic import GENERAL_IDF_PATH
    from rome.training import idf

    monkeypatch.setenv("ROME_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(idf, "wordnet_documents", lambda: ["a cat sat", "a dog sat", "the cat ran"])
    before = hashlib.sha256(GENERAL_IDF_PATH.read_bytes()).hexdigest()
    assert idf.main([]) == 0
    written = tmp_path / "cache" / "trained" / GENERAL_IDF_PATH.name
    assert json.loads(written.read_text())["df"] == {"a": 2, "cat": 2, "sat": 2}
    assert hashlib.sha256(GENERAL_IDF_PATH.read_bytes()).hexdigest() == before


def test_a_trainer_stopped_while_writing_leaves_its_old_output_whole(tmp_path, monkeypatch):
    """Trainers write through rome.core.files: an interrupt before the write completes (here at its flush to
    disk, and inside a library that writes by file name) leaves the file it replaces as it was, and no
    partial file."""
    import numpy as np

    from rome.core import files
    from rome.core.files import replaced_path_when_complete
    from rome.metric.scorer import ScorerNet

    net = ScorerNet(features=("f",), w1=np.ones((1, 1)), b1=np.zeros(1), w2=np.ones(1), b2=0.0, meta={"run": 1})
    path = tmp_path / "scorer.json"
    net.save(path)
    before = path.read_bytes()
    net.meta["run"] = 2

    def interrupted(fd: int) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(files.os, "fsync", interrupted)
    with pytest.raises(KeyboardInterrupt):
        net.save(path)
    monkeypatch.undo()
    assert path.read_bytes() == before and sorted(p.name for p in tmp_path.iterdir()) == ["scorer.json"]

    weights = tmp_path / "head.safetensors"
    weights.write_bytes(b"old")
    with pytest.raises(RuntimeError), replaced_path_when_complete(weights) as tmp:
        tmp.write_bytes(b"half")
        raise RuntimeError("killed")
    assert weights.read_bytes() == b"old" and sorted(p.name for p in tmp_path.iterdir()) == ["head.safetensors",
                                                                                             "scorer.json"]
    with replaced_path_when_complete(weights) as tmp:
        tmp.write_bytes(b"new")
    assert weights.read_bytes() == b"new"


def test_a_writer_is_handed_the_folder_its_caller_holds_and_a_second_holder_meets_the_lock(tmp_path):
    """Issue 42 item 5: a writer inside a held output folder is given that folder explicitly (``into``), so the
    paths it returns are the final ones; no thread-local join, and a second ``output_folder`` on the same
    folder inside the block is refused like another run."""
    from reports.tables import Table, write_all
    from rome.core.files import output_folder

    out = tmp_path / "report"
    table = Table(title="t", columns=["a"], rows=[["1"]], label="t")
    with output_folder(out, names=("r.md",)) as staging:
        written = write_all(out, "r", "title", [table], into=staging)
        assert (staging / "r.md").is_file() and not (out / "r.md").exists()
        with pytest.raises(InputError, match="being written by another run"), output_folder(out, names=("r.md",)):
            pass
    assert written[0] == out / "r.md" and (out / "r.md").read_text(encoding="utf-8").startswith("# title")
