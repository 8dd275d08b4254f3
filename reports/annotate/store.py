"""SQLite storage of ratings: one row per case × annotator, each submit its own committed transaction.

SQLite (standard library) rather than a JSON file because a transaction that commits is on disk
(``synchronous=FULL``): killing the server at any moment loses at most the rating being typed, and
several annotators can write to one store at the same time. The store keeps a rollback journal, not a
write-ahead log: a committed rating is in the ``.sqlite`` file itself, however the server stopped
(SIGTERM, SIGKILL, a crash), so copying that one file (how stores are merged) copies every rating; under
WAL the latest ones lived in ``STORE-wal`` until a clean shutdown folded them in. The table's CHECK constraints
repeat the validation so that no path can store a rating outside 1-3.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TypeVar

from reports.annotate import CRITERIA, RATINGS
from rome.core.errors import InputError
from rome.core.files import OutputKind, safe_output
from rome.core.jsonl import dump_line

SCHEMA_VERSION = "1"
_RATED = " AND ".join(f"{c} IS NOT NULL" for c in CRITERIA)
_UNRATED = " AND ".join(f"{c} IS NULL" for c in CRITERIA)
#: schema versions, one key per kind of table (``schema``: ratings, ``judgements_schema``), in any store
_META = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS ratings (
    case_id TEXT NOT NULL,
    annotator TEXT NOT NULL,
    {", ".join(f"{c} INTEGER CHECK ({c} BETWEEN 1 AND 3)" for c in CRITERIA)},
    skipped INTEGER NOT NULL CHECK (skipped IN (0, 1)),
    text_hash TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (case_id, annotator),
    CHECK ((skipped = 0 AND {_RATED}) OR (skipped = 1 AND {_UNRATED}))
);
"""


@dataclass(frozen=True)
class Rating:
    """One stored row; ``scores`` is empty for a skipped case."""

    case_id: str
    annotator: str
    scores: Mapping[str, int]
    skipped: bool
    text_hash: str
    updated_at: str

    def export_line(self) -> dict:
        return {"case_id": self.case_id, "annotator": self.annotator, **{c: self.scores[c] for c in CRITERIA}}


def validate_scores(scores: object) -> dict[str, int]:
    """The three criteria, each an integer 1-3, and nothing else; raises InputError saying what is wrong."""
    if not isinstance(scores, Mapping):
        raise InputError("ratings must be an object with " + ", ".join(CRITERIA))
    unknown = sorted(set(scores) - set(CRITERIA))
    if unknown:
        raise InputError(f"unknown criterion {unknown[0]!r} (known: {', '.join(CRITERIA)})")
    missing = [c for c in CRITERIA if c not in scores]
    if missing:
        raise InputError(f"missing rating for {', '.join(missing)}")
    for criterion in CRITERIA:
        value = scores[criterion]
        if isinstance(value, bool) or not isinstance(value, int) or value not in RATINGS:
            raise InputError(f"{criterion} must be an integer from 1 to 3, got {value!r}")
    return {c: int(scores[c]) for c in CRITERIA}


def utc_timestamp() -> str:
    """Now, in UTC, to the second (the rows' ``updated_at``)."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


_Store = TypeVar("_Store", bound="SqliteStore")


class SqliteStore:
    """One SQLite file opened for durable writes shared by the server's threads (ratings, judgements).

    A rollback journal (``journal_mode=DELETE``) with ``synchronous=FULL``, so a write that returned is in
    the file itself (a store opened in WAL mode by an older version is switched back, its log folded in; one
    still held in WAL by another process is checkpointed after each write); a busy timeout, so several
    annotators' servers can write to one file; every open error an :class:`InputError` naming the file.
    A subclass names what it stores (``noun``, ``a_noun`` for messages) and creates or checks its tables
    in :meth:`_setup`.
    """

    noun = "store"
    a_noun = "a store"

    def __init__(self, path: str | Path, create: bool = True):
        self.path = Path(path)
        if not create and not self.path.is_file():
            raise InputError(f"{self.path}: no such {self.noun}")
        self._lock = threading.Lock()
        try:
            if create:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self._conn.execute("PRAGMA busy_timeout=5000")
            mode = self._conn.execute("PRAGMA journal_mode=DELETE").fetchone()
            self._wal = bool(mode) and str(mode[0]).lower() == "wal"  # another process holds it in WAL
            self._conn.execute("PRAGMA synchronous=FULL")
            self._setup(create)
        except (OSError, sqlite3.OperationalError) as exc:
            raise InputError(f"{self.path}: cannot open the {self.noun} ({exc})") from None
        except sqlite3.DatabaseError as exc:
            raise InputError(f"{self.path}: not {self.a_noun} ({exc})") from None

    def _setup(self, create: bool) -> None:
        raise NotImplementedError

    def _tables(self) -> set[str]:
        return {r[0] for r in self._conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}

    def _stored_version(self, create: bool, schema: str, key: str, version: str) -> str | None:
        """Create ``schema``'s tables and record ``version`` under ``key`` (if ``create``); the version stored.

        The version lives in the ``meta`` table, one key per kind of row, so that one file can hold
        ratings and judgements and each is checked on its own.
        """
        if create:
            self._conn.executescript(_META + schema)
            self._conn.execute("INSERT OR IGNORE INTO meta VALUES (?, ?)", (key, version))
        row = self._conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return None if row is None else row[0]

    def close(self) -> None:
        self._conn.close()

    def __enter__(self: _Store) -> _Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _write(self, sql: str, params: Sequence[object]) -> None:
        """Run one statement in its own transaction, committed before returning (rolled back if it fails)."""
        with self._lock:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.execute(sql, params)
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")
            if self._wal:  # fold the log into the file, so the file alone holds the write
                self._conn.execute("PRAGMA wal_checkpoint(FULL)")


class AnnotationStore(SqliteStore):
    """Ratings in one SQLite file; safe to share between the server's threads."""

    noun = "annotation store"
    a_noun = "an annotation store"

    def _setup(self, create: bool) -> None:
        if not create and not {"meta", "ratings"} <= self._tables():
            raise InputError(f"{self.path}: not an annotation store (no ratings table)")
        version = self._stored_version(create, _SCHEMA, "schema", SCHEMA_VERSION)
        if version != SCHEMA_VERSION:
            found = "no schema version" if version is None else f"schema {version}"
            raise InputError(f"{self.path}: {found}; this version reads annotation store schema {SCHEMA_VERSION}")

    def save_rating(self, case_id: str, annotator: str, scores: Mapping[str, int], text_hash: str) -> Rating:
        """Insert or replace this annotator's rating of the case, committed before returning."""
        valid = validate_scores(scores)
        row = Rating(case_id, annotator, valid, False, text_hash, utc_timestamp())
        columns = ", ".join(CRITERIA)
        updates = ", ".join(f"{c}=excluded.{c}" for c in CRITERIA)
        self._write(f"INSERT INTO ratings (case_id, annotator, {columns}, skipped, text_hash, updated_at) "
                    f"VALUES (?, ?, ?, ?, ?, 0, ?, ?) ON CONFLICT (case_id, annotator) DO UPDATE SET "
                    f"{updates}, skipped=0, text_hash=excluded.text_hash, updated_at=excluded.updated_at",
                    (case_id, annotator, *(valid[c] for c in CRITERIA), text_hash, row.updated_at))
        return row

    def save_skip(self, case_id: str, annotator: str, text_hash: str) -> None:
        """Mark the case skipped for this annotator; an existing rating is kept, never erased by a skip."""
        self._write("INSERT INTO ratings (case_id, annotator, skipped, text_hash, updated_at) "
                    "VALUES (?, ?, 1, ?, ?) ON CONFLICT (case_id, annotator) DO NOTHING",
                    (case_id, annotator, text_hash, utc_timestamp()))

    def ratings(self, annotator: str | None = None) -> list[Rating]:
        """Every row (rated and skipped), ordered by case id then annotator."""
        sql = f"SELECT case_id, annotator, {', '.join(CRITERIA)}, skipped, text_hash, updated_at FROM ratings"
        params: tuple[str, ...] = ()
        if annotator is not None:
            sql, params = sql + " WHERE annotator = ?", (annotator,)
        with self._lock:
            rows = self._conn.execute(sql + " ORDER BY case_id, annotator", params).fetchall()
        n = len(CRITERIA)
        return [Rating(r[0], r[1], {} if r[2 + n] else dict(zip(CRITERIA, r[2:2 + n])), bool(r[2 + n]),
                       r[3 + n], r[4 + n]) for r in rows]

    def annotators(self) -> list[str]:
        with self._lock:
            return [r[0] for r in self._conn.execute("SELECT DISTINCT annotator FROM ratings ORDER BY annotator")]


def load_ratings(paths: Iterable[str | Path]) -> list[Rating]:
    """The rated (not skipped) rows of one or more stores, e.g. one per annotator's machine.

    The same case × annotator in two stores must carry the same ratings; otherwise it is an
    input error naming both files, because silently picking one would hide lost work.
    """
    merged: dict[tuple[str, str], tuple[Rating, Path]] = {}
    for path in paths:
        with AnnotationStore(path, create=False) as store:
            for row in store.ratings():
                if row.skipped:
                    continue
                key = (row.case_id, row.annotator)
                if key in merged and dict(merged[key][0].scores) != dict(row.scores):
                    raise InputError(f"case {key[0]!r} by {key[1]!r} rated differently in {merged[key][1]} "
                                     f"and {path}")
                merged.setdefault(key, (row, Path(path)))
    return [merged[k][0] for k in sorted(merged)]


#: what ``rome annotate export`` writes: the only file an export is written over
RATINGS_EXPORT = OutputKind("a ratings export of rome annotate", frozenset({"case_id", "annotator", *CRITERIA}))


def export_jsonl(rows: Iterable[Rating], out: str | Path, stores: Iterable[str | Path] = ()) -> int:
    """Write one line per rated case × annotator (format in docs/annotation.md); returns the count.

    Written with the one safe writer (:func:`rome.core.files.safe_output`): never over one of the ``stores``
    read nor over anything but an earlier export, and renamed into place, so a crash never leaves a
    half-written export.
    """
    count = 0
    with safe_output(Path(out), RATINGS_EXPORT, flag="--out",
                     inputs=[("the annotation store", Path(store)) for store in stores]) as handle:
        for row in rows:
            if not row.skipped:
                handle.write(dump_line(row.export_line()))
                count += 1
    return count
