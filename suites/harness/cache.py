"""On-disk score cache: one SQLite file, keyed by (metric signature, hypothesis, reference).

Scores are committed chunk by chunk, so a rerun is fast and an interrupted run resumes
where it stopped. The signature pins every setting that changes a number (model, layer,
library versions), so a changed metric never reads a stale score.

Batch-dependent metrics (``batch_dependent=True``, e.g. BERTScore with idf) score a pair
differently depending on the corpus they were fitted on. The runner fits them with
``Metric.prepare`` on the suite's whole corpus (every reference and hypothesis of the run)
and adds a fingerprint of that corpus to the key (:func:`corpus_signature`): the same suite
and sample hit the cache, a different sample recomputes rather than reuse scores fitted on
other texts.

SQLite (standard library) rather than a JSONL log: concurrent pytest processes can share it
(WAL mode + busy timeout) and lookups do not load the whole history into memory.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
from collections.abc import Iterable, Sequence
from pathlib import Path

from rome.core.data_paths import REPO_ROOT


def default_cache_path() -> Path:
    """``$ROME_CACHE_DIR/suite_scores.sqlite``, default ``<repo>/.cache/``."""
    base = Path(os.environ.get("ROME_CACHE_DIR", REPO_ROOT / ".cache")).expanduser()
    return base / "suite_scores.sqlite"


def _key(signature: str, hypothesis: str, reference: str | Sequence[str]) -> str:
    ref = reference if isinstance(reference, str) else json.dumps(list(reference), ensure_ascii=False)
    blob = json.dumps([signature, hypothesis, ref], ensure_ascii=False)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


def corpus_signature(signature: str, texts: Iterable[str]) -> str:
    """``signature`` extended with a fingerprint of the corpus a batch-dependent metric was fitted on."""
    digest = hashlib.sha256("\n".join(sorted(set(texts))).encode("utf-8")).hexdigest()[:16]
    return f"{signature}|corpus:{digest}"


class ScoreCache:
    """Get and put scores; ``path=None`` keeps them in memory only (``--suite-no-cache``)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(self.path) if self.path else ":memory:", timeout=60)
        if self.path is not None:
            self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("CREATE TABLE IF NOT EXISTS scores (key TEXT PRIMARY KEY, signature TEXT, score REAL)")
        self._db.execute("CREATE TABLE IF NOT EXISTS cases (key TEXT PRIMARY KEY, payload TEXT)")
        self._db.commit()
        self.hits = 0
        self.misses = 0

    def get_many(self, signature: str, pairs: Sequence[tuple[str, str]]) -> dict[tuple[str, str], float]:
        """Cached scores of the (hypothesis, reference) pairs that are in the cache."""
        keys = {_key(signature, h, r): (h, r) for h, r in pairs}
        found: dict[tuple[str, str], float] = {}
        items = list(keys)
        for start in range(0, len(items), 500):
            batch = items[start : start + 500]
            marks = ",".join("?" * len(batch))
            for key, score in self._db.execute(f"SELECT key, score FROM scores WHERE key IN ({marks})", batch):
                found[keys[key]] = float(score)
        self.hits += len(found)
        self.misses += len(keys) - len(found)
        return found

    def put_many(self, signature: str, scored: Iterable[tuple[str, str, float]]) -> None:
        rows = [(_key(signature, h, r), signature, float(s)) for h, r, s in scored]
        self._db.executemany("INSERT OR REPLACE INTO scores VALUES (?, ?, ?)", rows)
        self._db.commit()

    def get_cases(self, key: str) -> list[dict] | None:
        row = self._db.execute("SELECT payload FROM cases WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put_cases(self, key: str, cases: list[dict]) -> None:
        self._db.execute("INSERT OR REPLACE INTO cases VALUES (?, ?)", (key, json.dumps(cases, ensure_ascii=False)))
        self._db.commit()

    def count(self, signature: str | None = None) -> int:
        if signature is None:
            return self._db.execute("SELECT COUNT(*) FROM scores").fetchone()[0]
        return self._db.execute("SELECT COUNT(*) FROM scores WHERE signature = ?", (signature,)).fetchone()[0]

    def close(self) -> None:
        self._db.close()
