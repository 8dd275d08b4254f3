"""The one score cache: SQLite, keyed by (metric signature, hypothesis, references).

Every command scores through the one engine (:mod:`rome.core.engine`), which asks this cache
for whole batches (:meth:`ScoreCache.get_many`) and commits each scored chunk
(:meth:`ScoreCache.put_many`), so a pair scored by one command is a hit for the others. A
signature pins every setting, the metric's code and its weights (see
:mod:`rome.core.fingerprint`), so editing a metric or retraining it misses the cache by itself.
Batch-dependent metrics (idf) add a fingerprint of the corpus they were fitted on
(:func:`rome.core.engine.cache_signature`).

Scores are committed chunk by chunk: an interrupted run resumes after the last chunk. A
damaged file found when the cache is opened is moved aside (``*.corrupt-<time>-<pid>``) and a
new one started, with a warning; damage found later, a lock held too long or an unwritable
file is a one-line :class:`InputError` naming the file and ``--no-cache`` (never "damaged"
for a lock: deleting a cache another process is writing would lose its work). SQLite rather than JSON lines: concurrent processes (pytest workers)
can share it (WAL + busy timeout) and lookups do not load the whole history.

The cache has no bound of its own: each entry's last use (written, or read, to the hour) is kept in
a table of its own, ``used``, so that ``rome cache prune`` can drop entries not used for some days,
entries of signatures no current metric has, or the least recently used entries down to a size
(:meth:`ScoreCache.prune`). A separate table rather than a column, so a cache file stays usable by
an older harness that writes rows without one; an entry with no record yet (written before, or by
such a harness) counts as used when a pruning command first sees it.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rome.core.contract import Reference
from rome.core.errors import InputError

CACHE_FILE = "scores.sqlite"
#: seconds to wait for another process's write lock before giving up with an error
BUSY_TIMEOUT_S = 60.0
#: a cache hit re-records an entry's last use only when the record is older than this (reads stay reads)
TOUCH_EVERY_S = 3600
#: milliseconds a read waits for the write lock to record its use before leaving it unrecorded
TOUCH_WAIT_MS = 1000


def default_cache_dir() -> Path:
    """``ROME_CACHE_DIR``, else ``$XDG_CACHE_HOME/rome-harness``, else ``~/.cache/rome-harness``."""
    from rome.core.paths import cache_dir

    return cache_dir()


def default_cache_path() -> Path:
    return default_cache_dir() / CACHE_FILE


def _refs(reference: Reference) -> list[str]:
    return [reference] if isinstance(reference, str) else list(reference)


def pair_key(signature: str, hypothesis: str, reference: Reference) -> str:
    """A pair's key; a single reference and a one-element list are the same pair."""
    blob = json.dumps([signature, hypothesis, _refs(reference)], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def _identity(path: Path) -> tuple[int, int] | None:
    try:
        stat = path.stat()
    except FileNotFoundError:
        return None
    return stat.st_dev, stat.st_ino


@dataclass(frozen=True)
class SignatureUsage:
    """The scores cached under one signature: how many, the bytes they hold, when last used (epoch seconds)."""

    signature: str
    entries: int
    payload_bytes: int
    last_used: int | None


@dataclass(frozen=True)
class PruneResult:
    """What :meth:`ScoreCache.prune` dropped (or would drop, on a dry run) and the file's size before and after."""

    scores: int
    cases: int
    bytes_before: int
    bytes_after: int
    signatures: tuple[str, ...] = ()


class ScoreCache:
    """Get and put scores (and built suite cases); ``path=None`` keeps everything in memory."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.hits = 0
        self.misses = 0
        self.set_aside: Path | None = None
        self._db = self._open()

    # -- opening, damage ------------------------------------------------------------------
    def _connect(self) -> sqlite3.Connection:
        db = sqlite3.connect(str(self.path) if self.path else ":memory:", timeout=BUSY_TIMEOUT_S)
        try:
            if self.path is not None:
                db.execute("PRAGMA journal_mode=WAL")
                row = db.execute("PRAGMA quick_check").fetchone()
                if row is None or row[0] != "ok":
                    raise sqlite3.DatabaseError(f"integrity check failed: {row[0] if row else 'no answer'}")
            db.execute("CREATE TABLE IF NOT EXISTS scores (key TEXT PRIMARY KEY, signature TEXT, score REAL)")
            db.execute("CREATE TABLE IF NOT EXISTS cases (key TEXT PRIMARY KEY, payload TEXT)")
            db.execute("CREATE TABLE IF NOT EXISTS used (key TEXT PRIMARY KEY, at INTEGER NOT NULL) WITHOUT ROWID")
            db.commit()
        except BaseException:
            db.close()
            raise
        return db

    def _open(self) -> sqlite3.Connection:
        """Connect; a damaged file is set aside and replaced, a busy or unwritable one is an error."""
        if self.path is None:
            return self._connect()
        from rome.core.files import refuse_unusable_folder

        # a cache folder that is a file: said now, before any scoring, naming the setting to change
        refuse_unusable_folder(self.path.parent, "the score cache folder (ROME_CACHE_DIR)")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        before = _identity(self.path)
        try:
            return self._connect()
        except sqlite3.OperationalError as exc:  # locked, unwritable, not openable: not damage
            raise InputError(self._unusable(exc)) from None
        except sqlite3.DatabaseError as exc:  # SQLITE_CORRUPT, SQLITE_NOTADB, failed quick_check
            if _identity(self.path) == before:  # not already replaced by a concurrent process
                self.set_aside = self._move_aside()
                print(f"warning: score cache {self.path} is damaged ({exc}); moved it to {self.set_aside.name} "
                      "and started a new one", file=sys.stderr)
        try:
            return self._connect()
        except sqlite3.DatabaseError as exc:
            raise InputError(self._unusable(exc)) from None

    def _move_aside(self) -> Path:
        stamp = f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
        target = self.path.with_name(f"{self.path.name}.corrupt-{stamp}")
        self.path.replace(target)
        for suffix in ("-wal", "-shm"):
            side = self.path.with_name(self.path.name + suffix)
            if side.exists():
                side.replace(target.with_name(target.name + suffix))
        return target

    def _unusable(self, exc: sqlite3.Error) -> str:
        return (f"score cache {self.path} cannot be used ({exc}); run with --no-cache, "
                "or set ROME_CACHE_DIR to another folder")

    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Damage or a lock met while running: one line naming the cache and ``--no-cache``."""
        try:
            yield
        except sqlite3.OperationalError as exc:
            raise InputError(self._unusable(exc)) from None
        except sqlite3.DatabaseError as exc:
            raise InputError(f"score cache {self.path} is damaged ({exc}); delete it (the next run starts "
                             "a new one) or run with --no-cache") from None

    # -- scores ---------------------------------------------------------------------------
    def get_many(self, signature: str, pairs: Sequence[tuple[str, Reference]]) -> dict[int, float]:
        """Cached scores of ``pairs``, by position in ``pairs``."""
        keys: dict[str, list[int]] = {}
        for i, (h, r) in enumerate(pairs):
            keys.setdefault(pair_key(signature, h, r), []).append(i)
        found: dict[int, float] = {}
        items = list(keys)
        now = int(time.time())
        stale_use: list[str] = []
        with self._guard():
            for start in range(0, len(items), 500):
                batch = items[start : start + 500]
                marks = ",".join("?" * len(batch))
                query = (f"SELECT s.key, s.score, u.at FROM scores AS s LEFT JOIN used AS u ON u.key = s.key "
                         f"WHERE s.key IN ({marks})")
                for key, score, at in self._db.execute(query, batch):
                    found.update(dict.fromkeys(keys[key], float(score)))
                    if at is None or at < now - TOUCH_EVERY_S:
                        stale_use.append(key)
            if stale_use:
                self._touch(stale_use, now)
        self.hits += len(found)
        self.misses += len(pairs) - len(found)
        return found

    def put_many(self, signature: str, scored: Iterable[tuple[str, Reference, float]]) -> None:
        rows = [(pair_key(signature, h, r), signature, float(s)) for h, r, s in scored]
        with self._guard():
            self._db.executemany("INSERT OR REPLACE INTO scores VALUES (?, ?, ?)", rows)
            self._mark_used([key for key, _, _ in rows], int(time.time()))
            self._db.commit()

    def _mark_used(self, keys: Sequence[str], at: int) -> None:
        self._db.executemany("INSERT OR REPLACE INTO used VALUES (?, ?)", [(key, at) for key in keys])

    def _touch(self, keys: Sequence[str], at: int) -> None:
        """Record a read as a use, if the write lock comes within a second: a hit must not wait on (or fail
        for) another process's long write, and a use left unrecorded only makes the entry look older."""
        self._db.execute(f"PRAGMA busy_timeout = {TOUCH_WAIT_MS}")
        try:
            self._mark_used(keys, at)
            self._db.commit()
        except sqlite3.OperationalError:
            self._db.rollback()
        finally:
            self._db.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")

    def count(self, signature: str | None = None) -> int:
        with self._guard():
            if signature is None:
                return self._db.execute("SELECT COUNT(*) FROM scores").fetchone()[0]
            return self._db.execute("SELECT COUNT(*) FROM scores WHERE signature = ?", (signature,)).fetchone()[0]

    # -- other cached payloads (built suite cases) --------------------------------------
    def get_payload(self, key: str) -> Any | None:
        now = int(time.time())
        with self._guard():
            row = self._db.execute("SELECT c.payload, u.at FROM cases AS c LEFT JOIN used AS u ON u.key = c.key "
                                   "WHERE c.key = ?", (key,)).fetchone()
            if row is not None and (row[1] is None or row[1] < now - TOUCH_EVERY_S):
                self._touch([key], now)
        return json.loads(row[0]) if row else None

    def put_payload(self, key: str, payload: Any) -> None:
        with self._guard():
            self._db.execute("INSERT OR REPLACE INTO cases VALUES (?, ?)", (key, json.dumps(payload, ensure_ascii=False)))
            self._mark_used([key], int(time.time()))
            self._db.commit()

    # -- size: report and prune -----------------------------------------------------------
    def disk_bytes(self) -> int:
        """Bytes the cache takes on disk: the database file and its write-ahead log (0 in memory)."""
        if self.path is None:
            return 0
        return sum(p.stat().st_size for p in (self.path, self.path.with_name(self.path.name + "-wal")) if p.exists())

    def usage(self) -> list[SignatureUsage]:
        """Scores per signature, most entries first (entries never seen by a pruning command: last use ``None``)."""
        with self._guard():
            rows = self._db.execute(
                "SELECT s.signature, COUNT(*), SUM(length(s.key) + length(s.signature) + 8), MAX(u.at) "
                "FROM scores AS s LEFT JOIN used AS u ON u.key = s.key GROUP BY s.signature").fetchall()
        return sorted((SignatureUsage(sig, n, size, at) for sig, n, size, at in rows), key=lambda u: (-u.entries, u.signature))

    def payload_count(self) -> int:
        with self._guard():
            return self._db.execute("SELECT COUNT(*) FROM cases").fetchone()[0]

    def prune(self, older_than_s: float | None = None, keep_signature: Callable[[str], bool] | None = None,
              max_bytes: int | None = None, dry_run: bool = False) -> PruneResult:
        """Drop scores of signatures ``keep_signature`` refuses, scores and built cases not used for
        ``older_than_s`` seconds, then the least recently used ones until the file holds ``max_bytes``.

        An entry without a record of its last use gets one now (it counts as just used: pruning never drops
        what it cannot date). The file is compacted after (``VACUUM``). With ``dry_run`` nothing is changed
        and the size after is an estimate (each entry's share of the file in proportion to its bytes).
        """
        before = self.disk_bytes()
        now = int(time.time())
        with self._guard():
            self._db.commit()
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._date_unseen(now)
                scale = self._bytes_per_raw_byte()
                signatures: tuple[str, ...] = ()
                scores = cases = 0
                if keep_signature is not None:
                    cached = [row[0] for row in self._db.execute("SELECT DISTINCT signature FROM scores")]
                    signatures = tuple(sorted(sig for sig in cached if not keep_signature(sig)))
                    for signature in signatures:
                        self._db.execute("DELETE FROM used WHERE key IN (SELECT key FROM scores WHERE signature = ?)",
                                         (signature,))
                        scores += self._db.execute("DELETE FROM scores WHERE signature = ?", (signature,)).rowcount
                if older_than_s is not None:
                    dropped = self._drop_used_before(now - older_than_s, inclusive=False)
                    scores, cases = scores + dropped[0], cases + dropped[1]
                if max_bytes is not None:
                    dropped = self._drop_least_recent(max_bytes, scale)
                    scores, cases = scores + dropped[0], cases + dropped[1]
                estimate = int(sum(size for _, size in self._raw_bytes_by_use()) * scale)
            except BaseException:
                self._db.rollback()
                raise
            if dry_run:
                self._db.rollback()
                return PruneResult(scores, cases, before, min(before, estimate), signatures)
            self._db.commit()
            if scores or cases:
                self._compact()
            for _ in range(8):  # compacted, the share of each entry is known better: drop more if still too big
                if max_bytes is None or self._live_bytes() <= max_bytes or self._entry_count() == 0:
                    break
                dropped = self._drop_least_recent(max_bytes, self._bytes_per_raw_byte())
                self._db.commit()
                scores, cases = scores + dropped[0], cases + dropped[1]
                self._compact()
        return PruneResult(scores, cases, before, self.disk_bytes(), signatures)

    def _date_unseen(self, now: int) -> None:
        for table in ("scores", "cases"):
            self._db.execute(f"INSERT OR IGNORE INTO used SELECT key, ? FROM {table}", (now,))
        self._db.execute("DELETE FROM used WHERE key NOT IN (SELECT key FROM scores UNION ALL SELECT key FROM cases)")

    def _drop_used_before(self, cutoff: float, inclusive: bool) -> tuple[int, int]:
        """Delete scores and cases last used before ``cutoff`` (or at it, ``inclusive``); (scores, cases) dropped."""
        op = "<=" if inclusive else "<"
        dropped = []
        for table in ("scores", "cases"):
            dropped.append(self._db.execute(
                f"DELETE FROM {table} WHERE key IN (SELECT key FROM used WHERE at {op} ?)", (cutoff,)).rowcount)
        self._db.execute(f"DELETE FROM used WHERE at {op} ?", (cutoff,))
        return dropped[0], dropped[1]

    def _raw_bytes_by_use(self) -> list[tuple[int, int]]:
        """(last use, bytes of the entries last used then), oldest first: a score's key twice (its row and
        its index), its signature and its number; a case's key and payload; each entry's ``used`` record."""
        raw: dict[int, int] = {}
        for at, size in self._db.execute(
                "SELECT u.at, SUM(length(s.key) * 3 + length(s.signature) + 16) FROM scores AS s JOIN used AS u "
                "ON u.key = s.key GROUP BY u.at UNION ALL "
                "SELECT u.at, SUM(length(c.key) * 3 + length(c.payload) + 8) FROM cases AS c JOIN used AS u "
                "ON u.key = c.key GROUP BY u.at"):
            raw[at] = raw.get(at, 0) + size
        return sorted(raw.items())

    def _bytes_per_raw_byte(self) -> float:
        """File bytes in use per byte of the entries' content (page overhead, free space in pages)."""
        total = sum(size for _, size in self._raw_bytes_by_use())
        return self._live_bytes() / total if total else 1.0

    def _drop_least_recent(self, max_bytes: int, scale: float) -> tuple[int, int]:
        """Drop the least recently used entries, whole last-use times at a time, until the entries left are
        estimated (``scale`` file bytes per content byte) to fit ``max_bytes``; (scores, cases) dropped."""
        by_use = self._raw_bytes_by_use()
        left, cutoff = sum(size for _, size in by_use), None
        for at, size in by_use:
            if left * scale <= max_bytes:
                break
            left, cutoff = left - size, at
        return (0, 0) if cutoff is None else self._drop_used_before(cutoff, inclusive=True)

    def _live_bytes(self) -> int:
        """Bytes of the database's pages in use (free pages, which ``VACUUM`` returns, left out)."""
        page_size = self._db.execute("PRAGMA page_size").fetchone()[0]
        pages = self._db.execute("PRAGMA page_count").fetchone()[0] - self._db.execute("PRAGMA freelist_count").fetchone()[0]
        return pages * page_size

    def _entry_count(self) -> int:
        return self._db.execute("SELECT (SELECT COUNT(*) FROM scores) + (SELECT COUNT(*) FROM cases)").fetchone()[0]

    def _compact(self) -> None:
        """Give the pages freed back to the file system; another process's open read may refuse it (then the
        free pages are reused by later entries)."""
        try:
            self._db.execute("VACUUM")
            if self.path is not None:
                self._db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.OperationalError as exc:
            print(f"warning: score cache {self.path} could not be compacted ({exc}); its free pages will be "
                  "reused by later entries", file=sys.stderr)

    def close(self) -> None:
        self._db.close()
