"""Metric scores cached on disk, so a rerun or an interrupted run resumes instead of rescoring.

One append-only JSONL file per metric signature under the cache directory; a line holds the
key of one (hypothesis, references) pair and its score. The key hashes the signature and the
texts (and, for batch-dependent metrics such as idf-weighted ones, the whole corpus, because
their scores depend on it). Lines are flushed after every chunk: an interrupt loses one chunk
at most, and a torn last line is ignored on the next read.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from rome.core.contract import Metric


def _digest(*parts: str) -> str:
    hasher = hashlib.sha256()
    for part in parts:
        hasher.update(part.encode("utf-8"))
        hasher.update(b"\x1f")
    return hasher.hexdigest()


def pair_key(signature: str, hypothesis: str, references: Sequence[str]) -> str:
    return _digest(signature, hypothesis, "\x1e".join(references))[:32]


def cache_signature(metric: Metric, hypotheses: Sequence[str], references: Sequence[Sequence[str]]) -> str:
    """The metric's signature, plus a corpus digest when its scores depend on the batch."""
    signature = str(metric.signature())
    if metric.batch_dependent:
        corpus = _digest(*hypotheses, *("\x1e".join(r) for r in references))[:16]
        signature += f"|corpus:{corpus}"
    return signature


def _ends_without_newline(path: Path) -> bool:
    if not path.exists() or path.stat().st_size == 0:
        return False
    with path.open("rb") as handle:
        handle.seek(-1, 2)
        return handle.read(1) != b"\n"


class ScoreCache:
    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)
        self.hits = 0
        self.misses = 0

    def _file(self, signature: str) -> Path:
        slug = re.sub(r"[^A-Za-z0-9._-]+", "_", signature.split("|", 1)[0])[:40]
        return self.directory / f"{slug}-{_digest(signature)[:12]}.jsonl"

    def _load(self, path: Path) -> dict[str, float]:
        found: dict[str, float] = {}
        if not path.exists():
            return found
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
                found[row["key"]] = float(row["score"])
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                continue  # a line torn by an interrupt: that pair is simply scored again
        return found

    def score(self, metric: Metric, hypotheses: Sequence[str], references: Sequence[Sequence[str]],
              chunk_size: int = 256, progress: Callable[[int], None] | None = None) -> np.ndarray:
        """Scores for every pair, computing (and appending) only those not cached yet."""
        signature = cache_signature(metric, hypotheses, references)
        path = self._file(signature)
        cached = self._load(path)
        keys = [pair_key(signature, h, r) for h, r in zip(hypotheses, references)]
        unique_index = {k: i for i, k in reversed(list(enumerate(keys)))}
        todo = [unique_index[k] for k in dict.fromkeys(keys) if k not in cached]
        self.hits += sum(k in cached for k in keys)
        self.misses += len(keys) - sum(k in cached for k in keys)
        if todo and metric.batch_dependent:
            metric.prepare(list(hypotheses), [list(r) for r in references])
        self.directory.mkdir(parents=True, exist_ok=True)
        torn = _ends_without_newline(path)
        with path.open("a", encoding="utf-8") as handle:
            if torn:
                handle.write("\n")  # end the interrupted line so the next one stays readable
            for start in range(0, len(todo), chunk_size):
                chunk = todo[start : start + chunk_size]
                values = metric.score([hypotheses[i] for i in chunk], [list(references[i]) for i in chunk])
                for i, value in zip(chunk, values):
                    cached[keys[i]] = float(value)
                    handle.write(json.dumps({"key": keys[i], "score": float(value)}) + "\n")
                handle.flush()
                if progress:
                    progress(len(chunk))
        return np.array([cached[k] for k in keys], dtype=np.float64)
