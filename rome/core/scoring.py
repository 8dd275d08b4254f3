"""Scoring engines: stream chunks of pairs through metrics, locally or on a Ray cluster.

Both engines take the same items and metric names and yield scored chunks in input
order, so ``rome score`` writes the same output whichever runs. Memory stays flat in the
input size: only one chunk's embeddings are alive per worker (the encoder cache is bounded).
Ray is imported only by :class:`RayEngine`, so the local path pays nothing for it.
"""

from __future__ import annotations

import ctypes
import os
from collections.abc import Iterable, Iterator
from typing import Any

from rome.core.contract import Metric
from rome.core.errors import InputError, ResourceMissingError
from rome.core.registry import build_metrics

Item = dict[str, Any]


def chunked(items: list[Item], size: int) -> Iterator[list[Item]]:
    for start in range(0, len(items), size):
        yield items[start : start + size]


def references_for(metric: Metric, items: list[Item]) -> list[Any] | None:
    """The items' references; ``None`` for a reference-free metric when some item has none."""
    refs = [it.get("reference") for it in items]
    if not metric.needs_reference and any(r is None for r in refs):
        return None
    return refs


def prepare_metrics(metrics: dict[str, Metric], corpus: list[Item]) -> None:
    """Fit corpus statistics (idf) on the whole input, not per chunk, for batch-dependent metrics."""
    hyps = [it["hypothesis"] for it in corpus]
    for metric in metrics.values():
        if metric.batch_dependent:
            metric.prepare(hyps, references_for(metric, corpus))


def score_chunk(metrics: dict[str, Metric], chunk: list[Item]) -> list[Item]:
    """The chunk's items, each with ``scores: {metric: float}`` added.

    Items may lack a reference when no metric needs one (``needs_reference = False``).
    """
    hyps = [it["hypothesis"] for it in chunk]
    scores = {name: metric.score(hyps, references_for(metric, chunk)) for name, metric in metrics.items()}
    return [{**item, "scores": {n: float(s[i]) for n, s in scores.items()}} for i, item in enumerate(chunk)]


_malloc_trim = None  # glibc's malloc_trim once found; False where there is none


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


class LocalEngine:
    name = "local"

    def run(
        self, items: list[Item], corpus: list[Item], names: list[str], model: str | None, chunk_size: int
    ) -> Iterable[list[Item]]:
        metrics = build_metrics(names, model)
        prepare_metrics(metrics, corpus)
        for chunk in chunked(items, chunk_size):
            yield score_chunk(metrics, chunk)
            release_freed_memory()


class RayEngine:
    """Score chunks on Ray actors (each builds the metrics once and keeps its encoder warm).

    Connects to ``RAY_ADDRESS`` (or ``address=``) when set, else starts a local instance.
    """

    name = "ray"

    def __init__(self, address: str | None = None, workers: int | None = None) -> None:
        self.address = address or os.environ.get("RAY_ADDRESS")
        self.workers = workers

    def _ray(self):
        try:
            import ray
        except ImportError as exc:
            raise ResourceMissingError("the ray engine needs ray: pip install 'ray==2.60.0'") from exc
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if self.address:
                kwargs["address"] = self.address
            else:
                kwargs["num_cpus"] = self.workers or os.cpu_count() or 1
            ray.init(**kwargs)
        return ray

    def run(
        self, items: list[Item], corpus: list[Item], names: list[str], model: str | None, chunk_size: int
    ) -> Iterable[list[Item]]:
        ray = self._ray()
        from ray.util import ActorPool

        corpus_ref = ray.put(corpus)
        n_workers = self.workers or max(1, int(ray.available_resources().get("CPU", 1)))
        actor_cls = ray.remote(num_cpus=1)(_ScoringActor)
        actors = [actor_cls.remote(names, model, corpus_ref) for _ in range(n_workers)]
        pool = ActorPool(actors)
        yield from pool.map(lambda actor, chunk: actor.score.remote(chunk), chunked(items, chunk_size))


class _ScoringActor:
    def __init__(self, names: list[str], model: str | None, corpus: list[Item]) -> None:
        import torch

        os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
        torch.set_num_threads(1)  # one CPU per actor: no oversubscription
        self.metrics = build_metrics(names, model)
        prepare_metrics(self.metrics, corpus)

    def score(self, chunk: list[Item]) -> list[Item]:
        scored = score_chunk(self.metrics, chunk)
        release_freed_memory()
        return scored


def get_engine(name: str, **options: Any) -> LocalEngine | RayEngine:
    if name == "local":
        return LocalEngine()
    if name == "ray":
        return RayEngine(**options)
    raise InputError(f"unknown engine {name!r}; choose local or ray")
