"""Where RoMe's time goes: the real pipeline's steps, timed by a clock the pipeline itself holds.

:meth:`rome.metric.RoMe.features` and :func:`rome.metric.words.analyse` wrap each step in
:func:`step` (encode, parse, pool_words, semantic_emd, ted_se, grammar, scorer). Outside
:func:`recording` a step costs one context-variable lookup; inside it, the seconds of each step
add up in the recording's dict. So the profile measures the code that scores, not a copy of it.
Used by ``rome bench`` (``reports/bench.py``: its per-step split of RoMe's time).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

#: the recording in progress in this context (``None``: steps are not timed)
_recording: ContextVar[dict[str, float] | None] = ContextVar("rome_step_times", default=None)


@contextmanager
def step(name: str) -> Iterator[None]:
    """Add the time spent inside to step ``name`` of the recording in progress, if any."""
    times = _recording.get()
    if times is None:
        yield
        return
    start = time.perf_counter()
    try:
        yield
    finally:
        times[name] = times.get(name, 0.0) + time.perf_counter() - start


@contextmanager
def recording() -> Iterator[dict[str, float]]:
    """Seconds per step of every RoMe computation run inside, filled in as the steps run."""
    times: dict[str, float] = {}
    token = _recording.set(times)
    try:
        yield times
    finally:
        _recording.reset(token)


def rome_step_times(hypotheses: list[str], references: list[str], with_grammar: bool = True) -> dict[str, float]:
    """Seconds per step (encode, parse, pool_words, semantic_emd, ted_se, grammar, scorer) of ``RoMe().score``.

    Models are loaded outside the clock and the encoder's and parser's caches emptied first, so the
    numbers are what a cold run pays on top of start-up. ``with_grammar=False`` times ``rome/ted``: no
    grammar step, the two-feature scorer (missing grammar weights raise, as RoMe itself does).
    """
    from rome.core.parsing import clear_parse_caches
    from rome.metric.metric import RoMe

    metric = RoMe(variant="grammar" if with_grammar else "ted")
    metric.score(["warm up"], ["warm up"])  # load the encoder, parser, classifier and scorer
    metric.encoder.clear_cache()
    clear_parse_caches()
    with recording() as times:
        metric.score(list(hypotheses), list(references))
    metric.encoder.clear_cache()
    return times
