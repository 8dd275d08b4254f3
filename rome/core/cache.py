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
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from rome.core.contract import Reference
from rome.core.errors import InputError

CACHE_FILE = "scores.sqlite"
#: seconds to wait for another process's write lock before giving up with an error
BUSY_TIMEOUT_S = 60.0


def default_cache_dir() -> Path:
    """``ROME_CACHE_DIR``, else ``$XDG_CACHE_HOME/rome-harness``, else ``~/.cache/rome-harness``."""
    if os.environ.get("ROME_CACHE_DIR"):
        return Path(os.environ["ROME_CACHE_DIR"]).expanduser()
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache").expanduser()
    return base / "rome-harness"


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
            db.commit()
        except BaseException:
            db.close()
            raise
        return db

    def _open(self) -> sqlite3.Connection:
        """Connect; a damaged file is set aside and replaced, a busy or unwritable one is an error."""
        if self.path is None:
            return self._connect()
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
        with self._guard():
            for start in range(0, len(items), 500):
                batch = items[start : start + 500]
                marks = ",".join("?" * len(batch))
                for key, score in self._db.execute(f"SELECT key, score FROM scores WHERE key IN ({marks})", batch):
                    found.update(dict.fromkeys(keys[key], float(score)))
        self.hits += len(found)
        self.misses += len(pairs) - len(found)
        return found

    def put_many(self, signature: str, scored: Iterable[tuple[str, Reference, float]]) -> None:
        rows = [(pair_key(signature, h, r), signature, float(s)) for h, r, s in scored]
        with self._guard():
            self._db.executemany("INSERT OR REPLACE INTO scores VALUES (?, ?, ?)", rows)
            self._db.commit()

    def count(self, signature: str | None = None) -> int:
        with self._guard():
            if signature is None:
                return self._db.execute("SELECT COUNT(*) FROM scores").fetchone()[0]
            return self._db.execute("SELECT COUNT(*) FROM scores WHERE signature = ?", (signature,)).fetchone()[0]

    # -- other cached payloads (built suite cases) --------------------------------------
    def get_payload(self, key: str) -> Any | None:
        with self._guard():
            row = self._db.execute("SELECT payload FROM cases WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put_payload(self, key: str, payload: Any) -> None:
        with self._guard():
            self._db.execute("INSERT OR REPLACE INTO cases VALUES (?, ?)", (key, json.dumps(payload, ensure_ascii=False)))
            self._db.commit()

    def close(self) -> None:
        self._db.close()
