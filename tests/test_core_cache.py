"""The score cache survives damage (issue #11 item 2): set aside and rebuilt at open, one-line errors later.

Damage is made for real on a real SQLite file (bytes overwritten, file truncated); a run
that meets damage, a lock or an unwritable cache must end with exit code 2 (an input
problem), never 1 (the code of a failing robustness check).
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from baselines.sacrebleu_metrics import BLEU
from reports.cli import main
from rome.core import cache as cache_module
from rome.core.cache import ScoreCache
from rome.core.errors import InputError
from rome.core.registry import register, unregister

PAGE = 4096


def filled(path: Path, rows: int = 3000) -> Path:
    """A cache of ``rows`` scores (about 160 bytes each: many pages) and one payload, closed."""
    cache = ScoreCache(path)
    cache.put_many("sig", [(f"hypothesis {i} " * 6, "reference", float(i)) for i in range(rows)])
    cache.put_payload("cases", {"n": rows})
    cache.close()
    assert not path.with_name(path.name + "-wal").exists() or path.stat().st_size > 10 * PAGE
    return path


def damage(path: Path, how: str) -> None:
    size = path.stat().st_size
    with path.open("r+b") as handle:
        if how == "header":  # "SQLite format 3\0" and the page size
            handle.write(b"this is no database")
        elif how == "page":  # one page in the middle of the b-tree
            handle.seek((size // PAGE // 2) * PAGE)
            handle.write(bytes(range(256)) * (PAGE // 256))
        elif how == "truncated":
            handle.truncate(size // 2)


@pytest.mark.parametrize("how", ["header", "page", "truncated"])
def test_a_damaged_cache_is_set_aside_and_rebuilt_with_a_warning(tmp_path, capsys, how):
    path = filled(tmp_path / "scores.sqlite")
    damage(path, how)
    damaged = path.read_bytes()
    cache = ScoreCache(path)
    err = capsys.readouterr().err
    assert f"warning: score cache {path} is damaged" in err and "started a new one" in err
    assert cache.set_aside is not None and cache.set_aside.read_bytes() == damaged  # kept for inspection
    assert cache.count() == 0 and cache.get_payload("cases") is None
    cache.put_many("sig", [("a", "b", 1.5)])
    cache.close()
    assert ScoreCache(path).get_many("sig", [("a", "b")]) == {0: 1.5}
    assert capsys.readouterr().err == ""  # the new file is healthy


@pytest.mark.slow
def test_rome_suite_runs_on_a_damaged_cache(tmp_path):
    cache_dir = tmp_path / "cache"
    path = filled(cache_dir / "scores.sqlite")
    damage(path, "header")
    env = {**os.environ, "ROME_CACHE_DIR": str(cache_dir)}
    done = subprocess.run([sys.executable, "-m", "reports.cli", "suite", "repetition", "--metric", "bleu", "--n", "5",
                           "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode in (0, 1) and "Traceback" not in done.stderr, done.stderr
    assert "is damaged" in done.stderr and (tmp_path / "out" / "summary.json").is_file()
    assert len(list(cache_dir.glob("scores.sqlite.corrupt-*"))) == 1
    again = subprocess.run([sys.executable, "-m", "reports.cli", "suite", "repetition", "--metric", "bleu", "--n", "5",
                            "--out", str(tmp_path / "out2")], capture_output=True, text=True, timeout=300, env=env)
    assert again.returncode == done.returncode and "damaged" not in again.stderr


def test_damage_found_while_running_is_a_one_line_error_naming_the_cache(tmp_path):
    path = filled(tmp_path / "scores.sqlite", rows=40000)  # 6.5 MB: more than SQLite's 2 MB page cache
    cache = ScoreCache(path)
    with path.open("r+b") as handle:  # everything after the first page, once the cache is open
        handle.seek(PAGE)
        handle.write(bytes(range(256)) * ((path.stat().st_size - PAGE) // 256))
    with pytest.raises(InputError, match=rf"score cache {path} is damaged .*--no-cache"):
        cache.get_many("sig", [(f"hypothesis {i} " * 6, "reference") for i in range(40000)])


class DamagingBLEU(BLEU):
    """BLEU that damages the default score cache before it scores: damage arriving mid-run.

    Another process's commit comes first, so the run's connection cannot keep answering from the
    pages it holds in memory (SQLite drops them when the write-ahead log moves): the run must read
    the damaged pages, as a process meeting a disk fault mid-run would.
    """

    name = "bleu_damaging"

    def _score_multi(self, hypotheses, references):
        import sqlite3

        from rome.core.cache import default_cache_path

        path = default_cache_path()
        with sqlite3.connect(path) as other:
            other.execute("INSERT OR REPLACE INTO cases VALUES ('other process', '{}')")
        with path.open("r+b") as handle:
            handle.seek(PAGE)
            handle.write(bytes(range(256)) * ((path.stat().st_size - PAGE) // 256))
        return super()._score_multi(hypotheses, references)


def test_rome_suite_meeting_damage_mid_run_exits_2_with_one_line(tmp_path, monkeypatch, capsys):
    cache_dir = tmp_path / "cache"
    filled(cache_dir / "scores.sqlite", rows=40000)
    monkeypatch.setenv("ROME_CACHE_DIR", str(cache_dir))
    register("bleu_damaging")(DamagingBLEU)
    try:
        code = main(["suite", "repetition", "--metric", "bleu_damaging", "--n", "5", "--out", str(tmp_path / "o")])
    finally:
        unregister("bleu_damaging")
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err[-1].startswith("rome suite: error: score cache") and "--no-cache" in err[-1]
    assert str(cache_dir / "scores.sqlite") in err[-1] and not any("Traceback" in line for line in err)


def test_a_locked_cache_is_an_error_that_does_not_call_it_damaged(tmp_path, monkeypatch):
    path = filled(tmp_path / "scores.sqlite", rows=10)
    monkeypatch.setattr(cache_module, "BUSY_TIMEOUT_S", 0.2)
    cache = ScoreCache(path)
    other = sqlite3.connect(path)
    other.execute("BEGIN EXCLUSIVE")  # another process in the middle of a long write
    try:
        with pytest.raises(InputError) as raised:
            cache.put_many("sig", [("a", "b", 1.0)])
    finally:
        other.rollback()
        other.close()
    message = str(raised.value)
    assert "database is locked" in message and "--no-cache" in message and "damaged" not in message
    assert path.is_file() and not list(tmp_path.glob("*.corrupt-*"))  # nothing moved aside


def test_a_cache_that_cannot_be_opened_is_an_error_not_set_aside(tmp_path):
    folder = tmp_path / "scores.sqlite"
    folder.mkdir()  # a directory where the file should be
    with pytest.raises(InputError, match="cannot be used .*--no-cache"):
        ScoreCache(folder)
    assert folder.is_dir() and not list(tmp_path.glob("*.corrupt-*"))
