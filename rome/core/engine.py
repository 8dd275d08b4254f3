"""The one scoring engine: every command's (hypothesis, reference) pairs go through it.

As SacreBLEU's base class owns the loop its metrics plug into, :class:`ScoringEngine` owns the
loop every command shares (``rome score``, ``rome suite`` and the pytest suites, ``rome
challenge``, ``rome report correlation``, ``rome bench``):

1. the pairs are made **unique** (a single reference and a one-element list are one pair);
2. the score cache is asked for all of them at once (:meth:`ScoreCache.get_many`), under each
   metric's cache signature (:func:`cache_signature`);
3. batch-dependent metrics (idf) are fitted once, with ``Metric.prepare``, on one explicit,
   named :class:`FitCorpus`, whose fingerprint is part of the cache signature;
4. the missing pairs are cut into chunks of :data:`CHUNK_SIZE` and *every* metric scores a chunk
   before the next one starts, so the shared encoder embeds each sentence once for BERTScore,
   MoverScore and RoMe together; each chunk is committed (:meth:`ScoreCache.put_many`) as it
   finishes, so a killed run resumes after its last committed chunk;
5. chunks run in this process (:class:`Inline`), in spawned worker processes
   (:class:`Processes`) or on Ray actors (:class:`Ray`); workers rebuild the metrics from a
   :class:`MetricRecipe` and fit them on the same corpus, only the parent writes the cache.

**The corpus rule** (docs/architecture.md): an idf-like metric is fitted on the unique pairs of
the command's whole input, before any sampling: every line of ``rome score --input``, every
usable item of the files ``rome challenge`` reads (with the "." control), every item of a
``rome report correlation`` dataset that has the chosen reference, every pair of a suite run,
every pair ``rome bench`` times. The same pairs fitted on the same corpus get the same scores
whichever command asks.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from rome.core.cache import ScoreCache
from rome.core.contract import Metric, Reference
from rome.core.errors import InputError, ResourceMissingError

#: pairs scored (by every metric) and committed per step, in every command. 1,024 rather than 256:
#: the encoder and the grammar classifier sort a chunk's texts by length into batches of 64, and a
#: small chunk's batches span more lengths, so more padding (RoMe took 16.2 s on the bench's 1,000
#: pairs in chunks of 256, 13.7 s in one chunk, docs/rome.md); a kill still loses one chunk at most.
CHUNK_SIZE = 1024
#: a pair as given: the reference may be ``None`` where every metric is reference-free
Pair = tuple[str, Reference | None]
#: a pair as keyed: references as a string or a tuple, a missing one as ""
Key = tuple[str, str | tuple[str, ...]]


def normal_pair(pair: Pair) -> Key:
    """The pair's identity: a list of references becomes a tuple (a one-element one its string), none is ""."""
    hypothesis, reference = pair
    if reference is None:
        return hypothesis, ""
    if isinstance(reference, str):
        return hypothesis, reference
    refs = tuple(reference)
    return hypothesis, refs[0] if len(refs) == 1 else refs


def _order_key(pair: Key) -> tuple[str, str]:
    hypothesis, reference = pair
    return (reference if isinstance(reference, str) else "\x1e".join(reference)), hypothesis


def order_pairs(pairs: Iterable[Pair]) -> list[Pair]:
    """Unique pairs grouped by reference (a chunk then shares its references), in a deterministic order;
    each as first given (a list of references as a tuple)."""
    unique: dict[Key, Pair] = {}
    for hypothesis, reference in pairs:
        given = (hypothesis, reference if reference is None or isinstance(reference, str) else tuple(reference))
        unique.setdefault(normal_pair(given), given)
    return [unique[key] for key in sorted(unique, key=_order_key)]


def corpus_fingerprint(hypotheses: Iterable[str], references: Iterable[Reference]) -> str:
    """Order-free but multiplicity-aware digest of a corpus (idf counts repeated documents)."""
    digest = hashlib.sha256()
    flat = [r for ref in references for r in ([ref] if isinstance(ref, str) else list(ref))]
    for side in (sorted(hypotheses), sorted(flat)):
        digest.update("\x1e".join(side).encode("utf-8", "surrogatepass") + b"\x1d")
    return digest.hexdigest()[:16]


@dataclass(frozen=True)
class FitCorpus:
    """The texts batch-dependent (idf) metrics are fitted on: the unique pairs of a command's whole input.

    ``name`` says which input it is (it goes into run metadata); the fingerprint of the pairs goes
    into the cache signature of every batch-dependent metric, so scores fitted on another corpus
    are never served.
    """

    name: str
    pairs: tuple[Key, ...]

    @classmethod
    def of(cls, name: str, pairs: Iterable[Pair]) -> FitCorpus:
        return cls(name, tuple(sorted({normal_pair(p) for p in pairs}, key=_order_key)))

    @property
    def hypotheses(self) -> list[str]:
        return [h for h, _ in self.pairs]

    @property
    def references(self) -> list[Reference]:
        return [r for _, r in self.pairs]

    def fingerprint(self) -> str:
        return corpus_fingerprint(self.hypotheses, self.references)

    def describe(self) -> str:
        return f"{self.name}: {len(self.pairs)} unique pairs, corpus:{self.fingerprint()}"

    def __len__(self) -> int:
        return len(self.pairs)


def cache_signature(metric: Metric, corpus: FitCorpus) -> str:
    """The metric's signature, plus the corpus fingerprint when its scores depend on the batch."""
    signature = str(metric.signature())
    if metric.batch_dependent:
        signature += f"|corpus:{corpus.fingerprint()}"
    return signature


@dataclass(frozen=True)
class MetricRecipe:
    """How to build the engine's metrics again in a worker process or on a Ray actor."""

    names: tuple[str, ...]
    model: str | None = None
    options: tuple[tuple[str, Any], ...] = ()

    def build(self) -> dict[str, Metric]:
        from rome.core.registry import build_metrics

        return build_metrics(list(self.names), self.model, **dict(self.options))


@dataclass
class EngineReport:
    """What the last run did: scores computed and found cached per metric, workers, signatures, CPU time."""

    computed: dict[str, int] = field(default_factory=dict)
    cached: dict[str, int] = field(default_factory=dict)
    workers: int = 1
    signatures: dict[str, str] = field(default_factory=dict)
    #: CPU seconds spent in each metric's ``score`` (summed over workers)
    cpu_seconds: dict[str, float] = field(default_factory=dict)
    #: the corpus batch-dependent metrics were fitted on (:meth:`FitCorpus.describe`)
    corpus: str = ""
    #: metrics a side process scored beside this one (:class:`SideProcess`), in the last run's chunks
    side_process: list[str] = field(default_factory=list)


@dataclass
class ChunkScores:
    scores: dict[str, list[float]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)


#: (unique pair indices of the chunk, metric -> positions within the chunk it still needs)
Chunk = tuple[list[int], dict[str, list[int]]]


class ScoringEngine:
    """Scores of pairs under ``metrics``, through ``cache`` (``None``: none), run by ``executor``.

    ``recipe`` (how to build the same metrics again) is needed by the executors that run
    elsewhere (:class:`Processes`, :class:`Ray`); :meth:`build` makes both at once.
    """

    def __init__(self, metrics: dict[str, Metric], cache: ScoreCache | None = None,
                 executor: Executor | None = None, chunk_size: int = CHUNK_SIZE,
                 recipe: MetricRecipe | None = None) -> None:
        if chunk_size < 1:
            raise InputError("the chunk size must be at least 1")
        self.metrics, self.cache, self.recipe = metrics, cache, recipe
        self.executor = executor or Inline()
        self.chunk_size = chunk_size
        self.report = EngineReport()
        self._prepared: dict[str, str] = {}  # metric -> fingerprint of the corpus it was fitted on here

    @classmethod
    def build(cls, names: Sequence[str], model: str | None = None, cache: ScoreCache | None = None,
              executor: Executor | None = None, chunk_size: int = CHUNK_SIZE, **options: Any) -> ScoringEngine:
        recipe = MetricRecipe(tuple(names), model, tuple(sorted(options.items())))
        return cls(recipe.build(), cache, executor, chunk_size, recipe)

    # -- the loop -------------------------------------------------------------------------
    def score(self, pairs: Sequence[Pair], corpus: FitCorpus, names: Sequence[str] | None = None,
              progress: Callable[[int], None] | None = None,
              on_start: Callable[[int], None] | None = None) -> dict[str, np.ndarray]:
        """metric -> scores aligned with ``pairs`` (repeats allowed: each unique pair is scored once).

        ``on_start(total)`` gets the number of (pair, metric) scores to compute, ``progress(k)``
        the scores each committed chunk held.
        """
        names = list(names or self.metrics)
        out = {name: np.empty(len(pairs), dtype=np.float64) for name in names}
        for start, end, scores in self.stream(pairs, corpus, names, progress, on_start):
            for name in names:
                out[name][start:end] = scores[name]
        return out

    def stream(self, pairs: Sequence[Pair], corpus: FitCorpus, names: Sequence[str] | None = None,
               progress: Callable[[int], None] | None = None,
               on_start: Callable[[int], None] | None = None) -> Iterator[tuple[int, int, dict[str, np.ndarray]]]:
        """``(start, end, metric -> scores of pairs[start:end])`` in input order, each slice as soon as
        every pair in it is scored (cached pairs at once), so a caller can write rows as they finish."""
        names = list(names or self.metrics)
        unknown = [n for n in names if n not in self.metrics]
        if unknown:
            raise InputError(f"the engine has no metric {', '.join(unknown)}")
        keys = [self._key(p, names) for p in pairs]
        index: dict[Key, int] = {}
        positions = [index.setdefault(k, len(index)) for k in keys]
        unique = list(index)
        found, todo = self._cached(unique, corpus, names)
        chunks = self._chunks(todo)
        if on_start:
            on_start(sum(len(n) for n in todo.values()))
        done = 0

        def ready() -> Iterator[tuple[int, int, dict[str, np.ndarray]]]:
            nonlocal done
            end = done
            while end < len(pairs) and all(positions[end] in found[n] for n in names):
                end += 1
            if end > done:
                slice_scores = {n: np.array([found[n][positions[i]] for i in range(done, end)]) for n in names}
                yield done, end, slice_scores
                done = end

        yield from ready()
        if chunks:
            for chunk, scored in self.executor.run(self, unique, chunks, corpus):
                self._commit(unique, chunk, scored, found)
                if progress:
                    progress(sum(len(p) for p in chunk[1].values()))
                yield from ready()
        if done < len(pairs):  # every chunk came back, so this cannot happen unless an executor lost one
            raise RuntimeError(f"the engine lost {len(pairs) - done} scores; this is a bug")

    # -- steps ----------------------------------------------------------------------------
    def _key(self, pair: Pair, names: list[str]) -> Key:
        if pair[1] is None:
            needing = [n for n in names if self.metrics[n].needs_reference]
            if needing:
                raise InputError(f"{', '.join(needing)} need{'s' if len(needing) == 1 else ''} a reference")
        return normal_pair(pair)

    def _cached(self, unique: list[Key], corpus: FitCorpus,
                names: list[str]) -> tuple[dict[str, dict[int, float]], dict[int, list[str]]]:
        """Cached scores per metric, and for each unique pair the metrics still to score."""
        self.report = EngineReport(workers=1, corpus=corpus.describe())
        found: dict[str, dict[int, float]] = {}
        todo: dict[int, list[str]] = {}
        for name in names:
            signature = cache_signature(self.metrics[name], corpus)
            self.report.signatures[name] = signature
            found[name] = self.cache.get_many(signature, unique) if self.cache is not None else {}
            self.report.cached[name] = len(found[name])
            self.report.computed[name] = 0
            for i in range(len(unique)):
                if i not in found[name]:
                    todo.setdefault(i, []).append(name)
        return found, todo

    def _chunks(self, todo: dict[int, list[str]]) -> list[Chunk]:
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

    def prepare_here(self, corpus: FitCorpus, chunks: list[Chunk]) -> None:
        """Fit this process's batch-dependent metrics that the chunks need, once per corpus."""
        needed = {n for _, plan in chunks for n in plan}
        fingerprint = corpus.fingerprint()
        for name in needed:
            metric = self.metrics[name]
            if metric.batch_dependent and self._prepared.get(name) != fingerprint:
                prepare(metric, corpus)
                self._prepared[name] = fingerprint

    def _commit(self, unique: list[Key], chunk: Chunk, scored: ChunkScores,
                found: dict[str, dict[int, float]]) -> None:
        indices, plan = chunk
        for name, seconds in scored.seconds.items():
            self.report.cpu_seconds[name] = self.report.cpu_seconds.get(name, 0.0) + seconds
        for name, where in plan.items():
            values = scored.scores[name]
            if self.cache is not None:
                rows = [(unique[indices[p]][0], unique[indices[p]][1], s) for p, s in zip(where, values)]
                self.cache.put_many(self.report.signatures[name], rows)
            found[name].update({indices[p]: s for p, s in zip(where, values)})
            self.report.computed[name] += len(where)


def prepare(metric: Metric, corpus: FitCorpus) -> None:
    """Fit a batch-dependent metric on the corpus (its idf); others need nothing."""
    if metric.batch_dependent:
        metric.prepare(corpus.hypotheses, corpus.references)


def score_chunk(metrics: dict[str, Metric], pairs: list[Key], plan: dict[str, list[int]]) -> ChunkScores:
    """Each planned metric's scores of its positions of the chunk (metrics in the order given), and
    the CPU seconds each took (an encoder metric's include the sentences it embedded first for the others)."""
    out = ChunkScores()
    for name, metric in metrics.items():
        where = plan.get(name)
        if where:
            start = time.process_time()
            scores = metric.score([pairs[p][0] for p in where], [pairs[p][1] for p in where])
            out.seconds[name] = time.process_time() - start
            out.scores[name] = [float(s) for s in scores]
    release_freed_memory()
    return out


_malloc_trim = None  # glibc's malloc_trim once found; False where there is none


def peak_rss_mb() -> float:
    """This process's peak resident memory in MB: ``VmHWM`` of ``/proc/self/status`` where Linux gives it.

    ``ru_maxrss`` is not used there: Linux carries it across ``fork`` and ``exec``, so a bench started by
    a large parent (the main job runs it as a child) would report the parent's peak, not its own.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux and BSD: kB (macOS: bytes)


def release_freed_memory() -> None:
    """Hand memory freed by the last chunk back to the OS (glibc ``malloc_trim``; no-op elsewhere).

    Batches of varying shapes leave glibc's heap fragmented, so without this a long stream's
    resident size creeps up (measured: +300 MB per 30k pairs) although every cache is bounded.
    """
    global _malloc_trim
    if _malloc_trim is None:
        try:
            _malloc_trim = ctypes.CDLL("libc.so.6").malloc_trim
        except (OSError, AttributeError):
            _malloc_trim = False
    if _malloc_trim:
        _malloc_trim(0)


# -- executors ------------------------------------------------------------------------------
class Executor:
    """Runs the chunks of one call; yields ``(chunk, ChunkScores)`` as each finishes (any order)."""

    name = "executor"

    def run(self, engine: ScoringEngine, pairs: list[Key], chunks: list[Chunk],
            corpus: FitCorpus) -> Iterator[tuple[Chunk, ChunkScores]]:
        raise NotImplementedError


class Inline(Executor):
    """In this process, chunk after chunk; with ``side`` (the default), a chunk's ``side_process`` metrics are
    scored by :class:`SideProcess` while this process scores the others, where that pays."""

    name = "inline"

    def __init__(self, side: bool = True) -> None:
        self.side = side

    def run(self, engine, pairs, chunks, corpus):
        engine.prepare_here(corpus, chunks)
        for indices, plan in chunks:
            chunk = [pairs[i] for i in indices]
            beside = SIDE.plan(engine.metrics, plan) if self.side else {}
            pending = SIDE.submit(engine.metrics, chunk, beside) if beside else None
            scored = score_chunk(engine.metrics, chunk, {n: w for n, w in plan.items() if n not in beside})
            if beside:
                side_scored, was_beside = SIDE.collect(pending, engine.metrics, chunk, beside)
                scored.scores.update(side_scored.scores)
                scored.seconds.update(side_scored.seconds)
                if was_beside:
                    engine.report.side_process = sorted({*engine.report.side_process, *beside})
            yield (indices, plan), scored


def usable_cores() -> int:
    """The cores this process may run on (its affinity where the OS says it, else every core)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # macOS, Windows
        return os.cpu_count() or 1


#: the fewest pairs a side-process metric must have in a chunk for the chunk to use the side process: below it
#: the round trip (and the process's start, on first use) costs more than running beside saves
SIDE_MIN_PAIRS = 256


class SideProcessLost(Exception):
    """The side process did not score a job: score it here. ``gone``: it died or cannot be reached, so this
    process stops using it; otherwise it could not load this job's metrics (a class it cannot import)."""

    def __init__(self, why: str, gone: bool = True) -> None:
        super().__init__(why)
        self.gone = gone


class SideProcess:
    """One small process that scores a chunk's ``side_process`` metrics (sacrebleu's BLEU, chrF and TER: pure
    Python, no model, about 50 MB) while this process scores the others.

    The model metrics keep two cores busy only in their encoder and classifier passes; their parses, tree edit
    distances and transports run on one core and leave the other idle. The side process runs at the lowest
    priority, so it takes a core when this process leaves one free and waits while the passes use both (on
    ``rome bench``'s 1,000 pairs, docs/rome.md, "Speed"). Its scores are this process's (same code, same
    inputs); where it cannot start, load a metric or answer, the chunk is scored here.

    It is a plain interpreter started with :mod:`subprocess`, not :mod:`multiprocessing`: spawn would run the
    caller's own script again in it, and a script without a ``__main__`` guard would score itself twice. It
    stays in this process's session (a session of its own would be a scheduling group of its own, which the
    kernel's autogroups give a core's fair share whatever its priority), born with Ctrl-C blocked and then
    ignoring it (a terminal's Ctrl-C stops this process, which stops it), and ends when its pipe to this
    process closes, so also when this one is killed.
    """

    _BOOT = ("import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_IGN); "
             "signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT}); os.nice(19); "
             "from multiprocessing.connection import Connection; "
             "c = Connection(int(sys.argv[1])); sys.path[:] = c.recv(); "
             "from rome.core.engine import serve_side_jobs; serve_side_jobs(c)")

    def __init__(self) -> None:
        self._process: Any = None
        self._connection: Any = None
        self._broken = False
        self._lock = threading.Lock()  # one job in flight: engines in several threads take turns

    def plan(self, metrics: dict[str, Metric], plan: dict[str, list[int]]) -> dict[str, list[int]]:
        """The part of a chunk's plan to score beside: ``{}`` unless it pays (two free cores, other metrics to
        run meanwhile, at least :data:`SIDE_MIN_PAIRS` pairs)."""
        beside = {name: where for name, where in plan.items() if getattr(metrics[name], "side_process", False)}
        if (self._broken or not beside or len(beside) == len(plan) or usable_cores() < 2
                or max(len(where) for where in beside.values()) < SIDE_MIN_PAIRS):
            return {}
        return beside

    def submit(self, metrics: dict[str, Metric], chunk: list[Key], beside: dict[str, list[int]]) -> Future | None:
        """Send the ``beside`` part of a chunk to the side process (started on first use) from a thread, so
        this one goes on at once; ``None`` where its metrics cannot be sent (the caller scores them here)."""
        import pickle

        try:
            job = pickle.dumps(({name: metrics[name] for name in beside}, chunk, beside))
        except (pickle.PicklingError, TypeError, AttributeError):
            return None
        future: Future = Future()
        threading.Thread(target=self._round_trip, args=(job, future), name="rome-side-process", daemon=True).start()
        return future

    def _round_trip(self, job: bytes, future: Future) -> None:
        with self._lock:
            try:
                connection = self._started()
                connection.send_bytes(job)
                kind, value = connection.recv()
            except BaseException as exc:  # gone, or an answer that does not unpickle: the job is lost, not failed
                future.set_exception(SideProcessLost(repr(exc)))
                return
        if kind == "scores":
            future.set_result(value)
        elif kind == "error":  # the metric's own error: the one scoring here would raise
            future.set_exception(value)
        else:
            future.set_exception(SideProcessLost(str(value), gone=False))

    def _started(self):
        if self._broken:
            raise SideProcessLost("the side process was stopped")
        if self._connection is None:
            import multiprocessing
            import subprocess

            ours, theirs = multiprocessing.Pipe()
            blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # inherited: none lands in its start
            try:
                self._process = subprocess.Popen(
                    [sys.executable, "-c", self._BOOT, str(theirs.fileno())], pass_fds=[theirs.fileno()],
                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                )
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            theirs.close()
            ours.send(list(sys.path))
            self._connection = ours
        return self._connection

    def collect(self, pending: Future | None, metrics: dict[str, Metric], chunk: list[Key],
                beside: dict[str, list[int]]) -> tuple[ChunkScores, bool]:
        """The side process's scores of the chunk, or, where it could not score them, this process's; and
        whether they are the side process's."""
        if pending is not None:
            try:
                return pending.result(), True
            except SideProcessLost as lost:
                if lost.gone:  # the rest of this process's runs score everything here
                    self.close()
        return score_chunk(metrics, chunk, beside), False

    def close(self) -> None:
        """Stop the side process for good: this process's next runs score everything here."""
        self._broken = True
        if self._connection is not None:
            self._connection.close()  # it ends when its pipe closes
        if self._process is not None:
            try:
                self._process.wait(timeout=5)
            except Exception:
                self._process.kill()

    def peak_rss_mb(self) -> float:
        """The side process's peak resident memory in MB (0 where none is running)."""
        if self._connection is None or self._broken:
            return 0.0
        future: Future = Future()
        self._round_trip(b"peak_rss", future)
        try:
            return float(future.result())
        except SideProcessLost:
            return 0.0


#: the process's one side process, shared by its engines (one start per process)
SIDE = SideProcess()


def serve_side_jobs(connection) -> None:
    """The side process's loop: a pickled ``(metrics, chunk, plan)`` in, ``("scores", ChunkScores)`` out; a
    metric's error goes back as ``("error", exc)``, a job it cannot load as ``("lost", why)``. It ends when
    the pipe closes."""
    import pickle

    while True:
        try:
            job = connection.recv_bytes()
        except (EOFError, OSError):
            return
        if job == b"peak_rss":
            connection.send(("scores", peak_rss_mb()))
            continue
        try:
            metrics, chunk, plan = pickle.loads(job)
        except Exception as exc:  # e.g. a metric class defined in the caller's own script
            connection.send(("lost", f"the side process cannot load the metrics: {exc!r}"))
            continue
        try:
            answer = ("scores", score_chunk(metrics, chunk, plan))
        except Exception as exc:
            answer = ("error", exc)
        try:
            connection.send(answer)
        except Exception as exc:  # an error that does not pickle
            connection.send(("lost", f"the side process could not send its answer: {exc!r}"))


def default_workers() -> int:
    """One worker per core, at most 4 (each holds its own models: about 1 GB)."""
    return max(1, min(4, os.cpu_count() or 1))


class Processes(Executor):
    """Spawned worker processes, each building the metrics once, fitting them on the same corpus and
    running torch with ``cores / workers`` threads: on two cores the Python-bound steps (METEOR, TER,
    RoMe's parser and tree edit distance) run side by side. With fewer than two chunks per worker the
    chunks run inline (a worker's start, imports and models, costs more than it saves)."""

    name = "processes"

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers if workers is not None else default_workers()
        if self.workers < 1:
            raise InputError("--workers must be at least 1")

    def run(self, engine, pairs, chunks, corpus):
        if self.workers == 1 or len(chunks) < 2 * self.workers:
            yield from Inline().run(engine, pairs, chunks, corpus)
            return
        if engine.recipe is None:
            raise InputError("worker processes need the metrics' recipe: build the engine with ScoringEngine.build")
        import multiprocessing

        workers = min(self.workers, len(chunks))
        engine.report.workers = workers
        threads = max(1, (os.cpu_count() or 1) // workers)
        needed = sorted({n for _, plan in chunks for n in plan})
        pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                   initializer=_init_worker, initargs=(engine.recipe, corpus, threads, needed))
        pending: dict[Future, Chunk] = {}
        queue = list(chunks)
        try:
            while queue or pending:
                while queue and len(pending) < 2 * workers:  # bounded: a kill loses little work
                    indices, plan = queue.pop(0)
                    pending[pool.submit(_worker_score, [pairs[i] for i in indices], plan)] = (indices, plan)
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    chunk = pending.pop(future)
                    yield chunk, future.result()
        except BrokenProcessPool:
            raise ResourceMissingError("a scoring worker died (out of memory?); the scores committed so far are "
                                       "cached: run the same command again to resume, or use --workers 1") from None
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


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


def _init_worker(recipe: MetricRecipe, corpus: FitCorpus, threads: int, needed: list[str]) -> None:
    """Build the metrics once per worker (as the parent did) and fit the batch-dependent ones."""
    _exit_with_parent()
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ["OMP_NUM_THREADS"] = str(threads)  # read by torch when an encoder metric first imports it
    if "torch" in sys.modules:
        sys.modules["torch"].set_num_threads(threads)
    metrics = recipe.build()
    for name in needed:
        prepare(metrics[name], corpus)
    _WORKER["metrics"] = metrics


def _worker_score(pairs: list[Key], plan: dict[str, list[int]]) -> ChunkScores:
    return score_chunk(_WORKER["metrics"], pairs, plan)


#: seconds a cluster address has to accept a connection before the ray engine gives up on it
RAY_PROBE_TIMEOUT_S = 5.0


def probe_ray_address(address: str, timeout: float = RAY_PROBE_TIMEOUT_S) -> None:
    """One-line InputError unless something accepts a TCP connection at ``address`` (``host:port`` or
    ``ray://host:port``; ``auto`` and ``local`` are Ray's own lookups, left to it).

    ``ray.init`` itself retries a dead address for minutes without a word (and takes ~30 s to die on
    SIGTERM); a refused or unanswered connection here is known in at most ``timeout`` seconds.
    """
    if address in ("auto", "local"):
        return
    host, sep, port = address.split("://", 1)[-1].rpartition(":")
    if not sep or not port.isdigit() or not host:
        raise InputError(f"Ray address {address!r}: expected host:port (or ray://host:port, or auto)")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout) as connection:
            speaks_grpc = _answers_http2(connection)
    except OSError as exc:
        why = f"no answer within {timeout:g} s" if isinstance(exc, TimeoutError) else (exc.strerror or str(exc))
        raise InputError(f"no Ray cluster answers at {address} ({why}); start one "
                         "(ray start --head) or give its address with --ray-address / RAY_ADDRESS") from None
    if not speaks_grpc:  # ray.init would wait on it for minutes
        raise InputError(f"{address} accepts connections but is not Ray (it does not answer Ray's gRPC); give the "
                         "cluster's address (ray status prints it) with --ray-address / RAY_ADDRESS")


#: an HTTP/2 client's connection preface and an empty SETTINGS frame (RFC 9113, 3.4 and 6.5)
_HTTP2_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _answers_http2(connection: socket.socket) -> bool:
    """Whether the server answers an HTTP/2 preface with its SETTINGS frame, as every gRPC server (Ray's GCS and
    its client server) does at once; an HTTP/1 server, or one that says nothing (the socket's timeout), does not."""
    try:
        connection.sendall(_HTTP2_PREFACE)
        header = b""
        while len(header) < 9:
            piece = connection.recv(9 - len(header))
            if not piece:
                return False
            header += piece
    except OSError:  # a reset or the socket's timeout: no gRPC server
        return False
    return header[3] == 4  # the frame's type: SETTINGS


class Ray(Executor):
    """Ray actors (each builds the metrics once, fits them on the corpus and keeps its encoder warm).

    Connects to ``RAY_ADDRESS`` (or ``address=``) when set, else starts a local instance. An address
    that does not answer is a one-line error within seconds (:func:`probe_ray_address`).
    """

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        self.address = address or os.environ.get("RAY_ADDRESS")
        self.workers = workers
        if workers is not None and workers < 1:
            raise InputError("--workers must be at least 1")

    def _ray(self):
        try:
            import ray
        except ImportError as exc:
            raise ResourceMissingError("the ray engine needs ray: pip install 'ray==2.60.0'") from exc
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address:
                probe_ray_address(self.address)
                kwargs["address"] = self.address
            else:
                kwargs["num_cpus"] = self.workers or os.cpu_count() or 1
            try:
                ray.init(**kwargs)
            except ConnectionError as exc:  # e.g. ``auto`` with no cluster running
                raise InputError(f"cannot connect to Ray at {self.address or 'a local instance'}: "
                                 f"{str(exc).splitlines()[0]}") from None
        return ray

    def run(self, engine, pairs, chunks, corpus):
        if engine.recipe is None:
            raise InputError("Ray actors need the metrics' recipe: build the engine with ScoringEngine.build")
        ray = self._ray()
        from ray.util import ActorPool

        n_workers = self.workers or max(1, int(ray.available_resources().get("CPU", 1)))
        n_workers = min(n_workers, len(chunks))
        engine.report.workers = n_workers
        needed = sorted({n for _, plan in chunks for n in plan})
        corpus_ref = ray.put(corpus)
        actor_cls = ray.remote(num_cpus=1)(_ScoringActor)
        actors = [actor_cls.remote(engine.recipe, corpus_ref, needed) for _ in range(n_workers)]
        pool = ActorPool(actors)
        work = [(chunk, [pairs[i] for i in chunk[0]]) for chunk in chunks]
        results = pool.map(lambda actor, job: actor.score.remote(job[1], job[0][1]), work)
        for (chunk, _), scored in zip(work, results):
            yield chunk, scored


class _ScoringActor:
    def __init__(self, recipe: MetricRecipe, corpus: FitCorpus, needed: list[str]) -> None:
        import torch

        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        torch.set_num_threads(1)  # one CPU per actor: no oversubscription
        self.metrics = recipe.build()
        for name in needed:
            prepare(self.metrics[name], corpus)

    def score(self, pairs: list[Key], plan: dict[str, list[int]]) -> ChunkScores:
        return score_chunk(self.metrics, pairs, plan)


def get_executor(name: str, workers: int | None = None, address: str | None = None) -> Executor:
    """``inline`` (``local``), ``processes`` or ``ray`` by name (the CLI's ``--engine``)."""
    if name in ("inline", "local"):
        return Inline()
    if name == "processes":
        return Processes(workers)
    if name == "ray":
        return Ray(address, workers)
    raise InputError(f"unknown engine {name!r}; choose local, processes or ray")
