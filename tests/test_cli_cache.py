"""``rome cache`` reports the score cache and ``rome cache prune`` bounds it (issue #32 item 3).

Real SQLite files throughout. Time passing is made by writing older last-use times into the cache's
``used`` table (what a cache left alone for weeks holds), never by faking the scores.
"""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest

from baselines.sacrebleu_metrics import BLEU
from reports.cli import main
from rome.core.cache import TOUCH_EVERY_S, ScoreCache, pair_key
from rome.core.errors import ResourceMissingError
from rome.core.registry import register, unregister

DAY = 86400


@pytest.fixture
def cache_dir(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("ROME_CACHE_DIR", str(folder))
    return folder


def pairs(prefix: str, n: int) -> list[tuple[str, str, float]]:
    return [(f"{prefix} hypothesis {i} " * 4, f"{prefix} reference {i}", float(i)) for i in range(n)]


def age(path: Path, signature: str, days: float) -> None:
    """Date every score of ``signature`` ``days`` days back."""
    with sqlite3.connect(path) as db:
        db.execute("UPDATE used SET at = ? WHERE key IN (SELECT key FROM scores WHERE signature = ?)",
                   (int(time.time() - days * DAY), signature))


def last_use(path: Path, key: str) -> int | None:
    with sqlite3.connect(path) as db:
        row = db.execute("SELECT at FROM used WHERE key = ?", (key,)).fetchone()
    return row[0] if row else None


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(["cache", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_the_report_gives_place_size_and_entries_per_signature(cache_dir, capsys):
    path = cache_dir / "scores.sqlite"
    cache = ScoreCache(path)
    current = str(BLEU().signature())
    cache.put_many(current, pairs("a", 30))
    cache.put_many("bleu|harness:0.1.0|code:000000000000", pairs("b", 12))
    cache.put_payload("suite cases", {"cases": []})
    cache.close()
    code, out, _ = cli(capsys, "--json")
    report = json.loads(out)
    assert code == 0 and report["path"] == str(path) and report["bytes"] == path.stat().st_size + (
        path.with_name("scores.sqlite-wal").stat().st_size if path.with_name("scores.sqlite-wal").exists() else 0)
    assert report["scores"] == 42 and report["suite_cases"] == 1
    by_signature = {row["signature"]: row for row in report["signatures"]}
    assert by_signature[current]["entries"] == 30 and by_signature[current]["current"] is True
    assert by_signature["bleu|harness:0.1.0|code:000000000000"] == {**by_signature["bleu|harness:0.1.0|code:000000000000"],
                                                                    "entries": 12, "current": False}
    code, out, _ = cli(capsys)
    assert code == 0 and f"score cache: {path}" in out and "42 scores under 2 signature(s), 1 not current" in out
    assert any(line.split()[0] == "30" and line.rstrip().endswith(current) for line in out.splitlines())


def test_no_cache_yet_is_said_and_not_created(cache_dir, capsys):
    for argv in ([], ["prune", "--older-than", "1"]):
        code, out, _ = cli(capsys, *argv)
        assert code == 0 and "no score cache" in out
    assert not cache_dir.exists()


@pytest.mark.parametrize("argv,message", [
    (["prune"], "--older-than DAYS, --keep-signatures current and/or --max-mb N"),
    (["prune", "--older-than", "-1"], "--older-than must be"),
    (["prune", "--older-than", "nan"], "--older-than must be"),
    (["prune", "--max-mb", "0"], "--max-mb must be"),
])
def test_bad_prune_options_are_one_line_errors(cache_dir, capsys, argv, message):
    code, _, err = cli(capsys, *argv)
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1


def test_prune_older_than_drops_only_entries_not_used_since(cache_dir, capsys):
    path = cache_dir / "scores.sqlite"
    cache = ScoreCache(path)
    cache.put_many("old", pairs("old", 20))
    cache.put_many("recent", pairs("recent", 20))
    cache.put_payload("old cases", {"n": 1})
    cache.close()
    age(path, "old", 40)
    age(path, "recent", 10)
    with sqlite3.connect(path) as db:
        db.execute("UPDATE used SET at = ? WHERE key = 'old cases'", (int(time.time() - 40 * DAY),))
    code, out, _ = cli(capsys, "prune", "--older-than", "30")
    assert code == 0 and "dropped 20 scores and 1 set(s)" in out
    cache = ScoreCache(path)
    assert cache.count("old") == 0 and cache.count("recent") == 20 and cache.get_payload("old cases") is None
    assert cache.get_many("recent", [(h, r) for h, r, _ in pairs("recent", 20)]) == {i: float(i) for i in range(20)}


def test_a_hit_counts_as_a_use(tmp_path):
    """An entry read every week is not "older than 30 days" because it was written long ago; a read does not
    write again within the hour (reads stay reads)."""
    path = tmp_path / "scores.sqlite"
    cache = ScoreCache(path)
    cache.put_many("sig", pairs("a", 2))
    hypothesis, reference, _ = pairs("a", 2)[0]
    key = pair_key("sig", hypothesis, reference)
    recent = int(time.time()) - TOUCH_EVERY_S // 2
    with sqlite3.connect(path) as db:
        db.execute("UPDATE used SET at = ?", (recent,))
    assert cache.get_many("sig", [(hypothesis, reference)]) == {0: 0.0}
    assert last_use(path, key) == recent  # used within the hour: not written again
    age(path, "sig", 40)
    cache.get_many("sig", [(hypothesis, reference)])
    assert last_use(path, key) >= int(time.time()) - 5
    result = cache.prune(older_than_s=30 * DAY)
    assert (result.scores, cache.count("sig")) == (1, 1)  # the one not read was dropped, the one read kept


def test_keep_signatures_current_drops_scores_no_installed_metric_signs(cache_dir, capsys):
    class Unbuildable(BLEU):
        name = "unbuildable_for_test"

        def __init__(self):
            raise ResourceMissingError("its weights are not installed here")

    path = cache_dir / "scores.sqlite"
    current = str(BLEU().signature())
    edited_code = current.rsplit("code:", 1)[0] + "code:000000000000"
    older_harness = current.replace("|harness:", "|harness:0.0.0-old|was:")
    stale = [edited_code, older_harness, "removed_metric|harness:0.1.0|code:abc"]
    unjudgeable = "unbuildable_for_test|harness:0.1.0|code:abc"
    cache = ScoreCache(path)
    for signature in [current, *stale, unjudgeable]:
        cache.put_many(signature, pairs(signature[:6], 5))
    cache.close()
    register("unbuildable_for_test")(Unbuildable)
    try:
        code, out, _ = cli(capsys, "prune", "--keep-signatures", "current", "--dry-run")
        assert code == 0 and "would drop 15 scores" in out
        assert ScoreCache(path).count() == 25  # a dry run changes nothing
        code, out, _ = cli(capsys, "prune", "--keep-signatures", "current")
    finally:
        unregister("unbuildable_for_test")
    assert code == 0 and "dropped 15 scores" in out and all(f"not current: {s}" in out for s in stale)
    cache = ScoreCache(path)
    assert {u.signature: u.entries for u in cache.usage()} == {current: 5, unjudgeable: 5}


def test_max_mb_drops_the_least_recently_used_entries_down_to_the_size(cache_dir, capsys):
    path = cache_dir / "scores.sqlite"
    cache = ScoreCache(path)
    for batch in range(10):
        cache.put_many(f"batch{batch}", pairs(f"b{batch}", 4000))
    cache.close()
    with sqlite3.connect(path) as db:  # batch 0 last used 10 days ago, batch 9 one day ago
        for batch in range(10):
            db.execute("UPDATE used SET at = ? WHERE key IN (SELECT key FROM scores WHERE signature = ?)",
                       (int(time.time() - (10 - batch) * DAY), f"batch{batch}"))
    before = path.stat().st_size
    assert before > 6_000_000
    code, out, _ = cli(capsys, "prune", "--max-mb", "2")
    assert code == 0, out
    after = sum(p.stat().st_size for p in cache_dir.glob("scores.sqlite*"))
    assert after <= 2_000_000, out
    left = {u.signature: u.entries for u in ScoreCache(path).usage()}
    assert left and sum(left.values()) < 40000
    kept = sorted(int(name[5:]) for name in left)
    assert kept == list(range(kept[0], 10))  # the newest batches, whole but maybe the oldest one kept
    assert all(entries == 4000 for name, entries in left.items() if int(name[5:]) > kept[0])
    assert after > 2_000_000 * 0.5, "far more was dropped than the bound asks"


def test_an_old_cache_file_is_read_dated_and_stays_writable_by_an_older_harness(tmp_path, capsys, monkeypatch):
    """A cache written before last uses were recorded: opened, its entries served and counted as used when
    first seen (never dropped as old); a harness of before still writes rows to it as it did."""
    path = tmp_path / "cache" / "scores.sqlite"
    path.parent.mkdir()
    monkeypatch.setenv("ROME_CACHE_DIR", str(path.parent))
    rows = pairs("legacy", 10)
    with sqlite3.connect(path) as db:  # the schema of before
        db.execute("CREATE TABLE scores (key TEXT PRIMARY KEY, signature TEXT, score REAL)")
        db.execute("CREATE TABLE cases (key TEXT PRIMARY KEY, payload TEXT)")
        db.executemany("INSERT INTO scores VALUES (?, ?, ?)", [(pair_key("sig", h, r), "sig", s) for h, r, s in rows])
    cache = ScoreCache(path)
    assert cache.get_many("sig", [(h, r) for h, r, _ in rows[:3]]) == {0: 0.0, 1: 1.0, 2: 2.0}
    cache.close()
    with sqlite3.connect(path) as db:  # an older harness sharing the file: positional inserts, as it wrote them
        db.execute("INSERT OR REPLACE INTO scores VALUES (?, ?, ?)", (pair_key("sig", "x", "y"), "sig", 0.5))
        db.execute("INSERT OR REPLACE INTO cases VALUES (?, ?)", ("older cases", "{}"))
    code, out, _ = cli(capsys)
    assert code == 0 and "11 scores under 1 signature(s)" in out
    code, out, _ = cli(capsys, "prune", "--older-than", "1")
    assert code == 0 and "dropped 0 scores and 0 set(s)" in out
    assert ScoreCache(path).count("sig") == 11
    with sqlite3.connect(path) as db:  # every entry dated now, the older harness's included
        assert db.execute("SELECT COUNT(*), MIN(at) FROM used").fetchone()[0] == 12
        assert db.execute("SELECT MIN(at) FROM used").fetchone()[0] >= int(time.time()) - 60


def test_a_hit_while_another_process_writes_is_served_without_waiting_for_its_lock(tmp_path):
    path = tmp_path / "scores.sqlite"
    cache = ScoreCache(path)
    cache.put_many("sig", pairs("a", 1))
    hypothesis, reference, _ = pairs("a", 1)[0]
    age(path, "sig", 40)
    old = last_use(path, pair_key("sig", hypothesis, reference))
    other = sqlite3.connect(path)
    other.execute("BEGIN IMMEDIATE")  # another process in the middle of a long write
    try:
        started = time.monotonic()
        assert cache.get_many("sig", [(hypothesis, reference)]) == {0: 0.0}
        assert time.monotonic() - started < 10  # not the 60 s a write waits for the lock
    finally:
        other.rollback()
        other.close()
    assert last_use(path, pair_key("sig", hypothesis, reference)) == old  # left unrecorded, nothing failed
    cache.put_many("sig", pairs("b", 1))  # the cache still writes afterwards
    assert cache.count("sig") == 2


@pytest.mark.parametrize("limit", ["inf", "1e400", "1e308", "1.7e308"])
def test_an_infinite_max_mb_is_no_size_limit(cache_dir, capsys, limit):
    """``--max-mb inf`` (or a number too large for a float, or whose bytes are: 1e308 MB raised OverflowError, N01)
    means no size limit: nothing is dropped for size, the other rules still apply, and no OverflowError escapes."""
    path = cache_dir / "scores.sqlite"
    cache = ScoreCache(path)
    cache.put_many("old", pairs("old", 20))
    cache.put_many("recent", pairs("recent", 20))
    cache.close()
    age(path, "old", 40)
    code, out, _ = cli(capsys, "prune", "--max-mb", limit)
    assert code == 0, out
    assert ScoreCache(path).count("old") == 20
    code, out, _ = cli(capsys, "prune", "--max-mb", limit, "--older-than", "30")
    assert code == 0 and "dropped 20 scores" in out
    cache = ScoreCache(path)
    assert cache.count("old") == 0 and cache.count("recent") == 20
