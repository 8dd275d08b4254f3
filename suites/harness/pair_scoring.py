"""Score many unique (hypothesis, reference) pairs with several metrics: cached, resumable, in parallel.

``rome challenge`` scores the full DEMETR set (about 24k unique pairs) with every metric in one
command. :meth:`ScoreCache.score` scores one metric over all pairs; here the pairs are cut into
chunks and *every* metric scores a chunk before the next one starts, so the shared encoder's
bounded cache embeds each sentence once for BERTScore, MoverScore and RoMe together (metric by
metric over 24k pairs, it would evict and embed everything three times). Pairs are ordered by
reference, so the pairs of one reference fall in one chunk.

The cache is the one score cache (:mod:`rome.core.cache`, same keys as ``ScoreCache.score``):
only missing (pair, metric) scores are computed, and each chunk is committed as it finishes,
so a killed run resumes after its last committed chunk. Batch-dependent metrics (idf) are
fitted once on the ``corpus`` the caller gives, whose fingerprint is in the cache key.

With ``workers > 1`` chunks go to that many spawned processes (each builds the metrics once,
fits them on the same corpus and runs torch with ``cores / workers`` threads): on two cores the
Python-bound steps (METEOR, TER, RoMe's parser and tree edit distance) then run side by side
instead of one after another. The parent alone writes the cache.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from rome.core.cache import ScoreCache, cache_signature
from rome.core.contract import Metric, Reference
from rome.core.errors import InputError, ResourceMissingError

Pair = tuple[str, Reference]
CHUNK_SIZE = 256


def default_workers() -> int:
    """One worker per core, at most 4 (each holds its own models: about 1 GB)."""
    return max(1, min(4, os.cpu_count() or 1))


@dataclass
class ScoringReport:
    """What a run did: scores computed and found cached, per metric; workers used."""

    computed: dict[str, int] = field(default_factory=dict)
    cached: dict[str, int] = field(default_factory=dict)
    workers: int = 1
    signatures: dict[str, str] = field(default_factory=dict)
    #: CPU seconds spent in each metric's ``score`` (summed over workers)
    cpu_seconds: dict[str, float] = field(default_factory=dict)


@dataclass
class ChunkScores:
    scores: dict[str, list[float]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


def order_pairs(pairs: Sequence[Pair]) -> list[Pair]:
    """Unique pairs, grouped by reference (so a chunk shares its references), deterministic order."""
    unique = dict.fromkeys((h, tuple(r) if not isinstance(r, str) else r) for h, r in pairs)

    def key(pair: Pair) -> tuple[str, str]:
        hyp, ref = pair
        return ("\x1e".join(ref) if not isinstance(ref, str) else ref), hyp

    return sorted(unique, key=key)


class PairScorer:
    """Scores of ``pairs`` under ``metrics``, through ``cache``; see the module docstring."""

    def __init__(self, metrics: dict[str, Metric], cache: ScoreCache, corpus: tuple[Sequence[str], Sequence[Reference]],
                 model: str | None = None, workers: int = 1, chunk_size: int = CHUNK_SIZE) -> None:
        if chunk_size < 1:
            raise InputError("the chunk size must be at least 1")
        if workers < 1:
            raise InputError("--workers must be at least 1")
        self.metrics, self.cache, self.corpus = metrics, cache, corpus
        self.model, self.workers, self.chunk_size = model, workers, chunk_size
        self.report = ScoringReport(workers=1)

    def missing(self, pairs: list[Pair]) -> tuple[dict[str, dict[int, float]], dict[int, list[str]]]:
        """Cached scores per metric, and for each pair index the metrics still to score."""
        found: dict[str, dict[int, float]] = {}
        todo: dict[int, list[str]] = {}
        corpus_h, corpus_r = self.corpus
        for name, metric in self.metrics.items():
            signature = cache_signature(metric, corpus_h, corpus_r)
            self.report.signatures[name] = signature
            found[name] = self.cache.get_many(signature, pairs)
            self.report.cached[name] = len(found[name])
            for i in range(len(pairs)):
                if i not in found[name]:
                    todo.setdefault(i, []).append(name)
        return found, todo

    def chunks(self, todo: dict[int, list[str]]) -> list[tuple[list[int], dict[str, list[int]]]]:
        """(pair indices, metric -> positions in the chunk still to score), in pair order."""
        order = sorted(todo)
        out = []
        for start in range(0, len(order), self.chunk_size):
            indices = order[start : start + self.chunk_size]
            plan: dict[str, list[int]] = {}
            for pos, i in enumerate(indices):
                for name in todo[i]:
                    plan.setdefault(name, []).append(pos)
            out.append((indices, plan))
        return out

    def score(self, pairs: Sequence[Pair], progress: Callable[[int], None] | None = None,
              on_start: Callable[[int], None] | None = None) -> dict[str, np.ndarray]:
        """metric -> scores aligned with ``pairs`` (pairs must be unique; see :func:`order_pairs`).

        ``on_start(total)`` is called with the number of (pair, metric) scores to compute,
        ``progress(k)`` after each committed chunk with the scores it held.
        """
        pairs = list(pairs)
        found, todo = self.missing(pairs)
        chunks = self.chunks(todo)
        total = sum(len(names) for names in todo.values())
        if on_start:
            on_start(total)
        self.report.computed = {name: 0 for name in self.metrics}
        if chunks:
            # a worker costs a start (imports, models, idf): worth it only with a couple of chunks each
            pooled = self.workers > 1 and len(chunks) >= 2 * self.workers
            results = self._run_pool(pairs, chunks) if pooled else self._run_local(pairs, chunks)
            for (indices, plan), scored in results:
                self._commit(pairs, indices, plan, scored, found)
                if progress:
                    progress(sum(len(p) for p in plan.values()))
        return {name: np.array([found[name][i] for i in range(len(pairs))], dtype=np.float64)
                for name in self.metrics}

    def _commit(self, pairs: list[Pair], indices: list[int], plan: dict[str, list[int]],
                chunk: ChunkScores, found: dict[str, dict[int, float]]) -> None:
        scored = chunk.scores
        for name, seconds in chunk.seconds.items():
            self.report.cpu_seconds[name] = self.report.cpu_seconds.get(name, 0.0) + seconds
        for name, positions in plan.items():
            rows = [(pairs[indices[p]][0], pairs[indices[p]][1], s) for p, s in zip(positions, scored[name])]
            self.cache.put_many(self.report.signatures[name], rows)
            found[name].update({indices[p]: s for p, s in zip(positions, scored[name])})
            self.report.computed[name] += len(positions)

    # -- in this process ----------------------------------------------------------------
    def _run_local(self, pairs: list[Pair], chunks):
        prepare(self.metrics, self.corpus, {n for _, plan in chunks for n in plan})
        for indices, plan in chunks:
            yield (indices, plan), score_chunk(self.metrics, [pairs[i] for i in indices], plan)

    # -- in worker processes ------------------------------------------------------------
    def _run_pool(self, pairs: list[Pair], chunks):
        import multiprocessing

        workers = min(self.workers, len(chunks))
        self.report.workers = workers
        threads = max(1, (os.cpu_count() or 1) // workers)
        needed = sorted({n for _, plan in chunks for n in plan})
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_init_worker,
                                   initargs=(list(self.metrics), self.model, self.corpus, threads, needed))
        pending: dict[Future, tuple[list[int], dict[str, list[int]]]] = {}
        queue = list(chunks)
        try:
            while queue or pending:
                while queue and len(pending) < 2 * workers:  # bounded: a kill loses little work
                    indices, plan = queue.pop(0)
                    future = pool.submit(_worker_score, [pairs[i] for i in indices], plan)
                    pending[future] = (indices, plan)
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    chunk = pending.pop(future)
                    yield chunk, future.result()
        except BrokenProcessPool:
            raise ResourceMissingError("a scoring worker died (out of memory?); the scores committed so far are "
                                       "cached: run the same command again to resume, or use --workers 1") from None
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def prepare(metrics: dict[str, Metric], corpus: tuple[Sequence[str], Sequence[Reference]], names: set[str]) -> None:
    """Fit the batch-dependent metrics among ``names`` once, on the whole corpus."""
    for name in names:
        metric = metrics[name]
        if metric.batch_dependent:
            metric.prepare(list(corpus[0]), list(corpus[1]))


def score_chunk(metrics: dict[str, Metric], pairs: list[Pair], plan: dict[str, list[int]]) -> ChunkScores:
    """Each planned metric's scores of its positions of the chunk (metrics in the order given), and
    the CPU seconds each took (this process's; an encoder metric's include the sentences it embedded
    first for the others)."""
    out = ChunkScores()
    for name, metric in metrics.items():
        positions = plan.get(name)
        if positions:
            start = time.process_time()
            scores = metric.score([pairs[p][0] for p in positions], [pairs[p][1] for p in positions])
            out.seconds[name] = time.process_time() - start
            out.scores[name] = [float(s) for s in scores]
    return out


_WORKER: dict[str, Any] = {}


def _exit_with_parent(interval: float = 1.0) -> None:
    """End this worker when the command that started it is gone (killed with -9, it cannot say so):
    a worker keeps nothing, its parent commits, so nothing is lost and no orphan keeps a core busy."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(interval)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


def _init_worker(names: list[str], model: str | None, corpus, threads: int, needed: list[str]) -> None:
    """Build the metrics once per worker (as the parent did) and fit the batch-dependent ones."""
    _exit_with_parent()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ["OMP_NUM_THREADS"] = str(threads)  # read by torch when an encoder metric first imports it
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(threads)
    from rome.core.registry import build_metrics

    metrics = build_metrics(names, model)
    prepare(metrics, corpus, set(needed))
    _WORKER["metrics"] = metrics


def _worker_score(pairs: list[Pair], plan: dict[str, list[int]]) -> ChunkScores:
    return score_chunk(_WORKER["metrics"], pairs, plan)
