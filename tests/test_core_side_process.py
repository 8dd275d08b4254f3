"""The engine's side process: sacrebleu's metrics scored beside the others give the numbers scored here.

A chunk's ``side_process`` metrics (BLEU, chrF, TER) go to one small process at the lowest priority while
this process scores the rest (``rome/core/engine.py``, :class:`SideProcess`). These tests run the real side
process: its scores must equal this process's bitwise, a metric's own error must come back as itself, a
job it cannot load or a process that died must leave the chunk scored here, and it must not outlive its
parent. The engine uses it only on two or more cores; the tests say there are two, so they also run where
fewer are free.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from rome.core import engine as engine_module
from rome.core.contract import Metric
from rome.core.engine import SIDE_MIN_PAIRS, FitCorpus, Inline, ScoringEngine
from rome.core.errors import InputError
from rome.core.registry import build_metric

ROOT = Path(__file__).resolve().parents[1]


class WordCount(Metric):
    """A metric scored here (no ``side_process``): the side process needs other work to run beside."""

    name = "word_count"
    score_range = (0.0, float("inf"))

    def _score_pairs(self, hypotheses, references):
        return np.array([len(h.split()) for h in hypotheses], dtype=float)


class RefusesLongWords(Metric):
    """A side-process metric with its own error, importable in the side process (this module)."""

    name = "refuses"
    side_process = True

    def _score_pairs(self, hypotheses, references):
        if any("antidisestablishment" in h for h in hypotheses):
            raise InputError("refuses: a word too long to score")
        return np.ones(len(hypotheses))


def pairs(n: int) -> list[tuple[str, str]]:
    return [(f"the hotel {i} is near the river and cheap", f"hotel {i} by the river , cheap") for i in range(n)]


def metrics() -> dict[str, Metric]:
    return {"word_count": WordCount(), **{name: build_metric(name) for name in ("bleu", "chrf", "ter")}}


@pytest.fixture
def side(monkeypatch):
    """A side process of the test's own (the module's one is shared by the test session), on two cores."""
    fresh = engine_module.SideProcess()
    monkeypatch.setattr(engine_module, "SIDE", fresh)
    monkeypatch.setattr(engine_module, "usable_cores", lambda: 2)
    yield fresh
    fresh.close()


def test_the_side_process_gives_the_scores_of_this_process(side):
    some = pairs(SIDE_MIN_PAIRS + 44)
    beside = ScoringEngine(metrics())
    beside_scores = beside.score(some, FitCorpus.of("some", some))
    here = ScoringEngine(metrics(), executor=Inline(side=False))
    here_scores = here.score(some, FitCorpus.of("some", some))
    assert beside.report.side_process == ["bleu", "chrf", "ter"] and here.report.side_process == []
    for name in here_scores:
        assert np.array_equal(beside_scores[name], here_scores[name]), name
    pid = side._process.pid
    assert os.getsid(pid) == os.getsid(0), "this session: a session's own scheduling group would not yield"
    assert os.getpriority(os.PRIO_PROCESS, pid) == 19, "the lowest priority: it yields the cores"
    os.kill(pid, signal.SIGINT)  # what a terminal's Ctrl-C sends to the whole foreground group
    time.sleep(0.5)
    assert side._process.poll() is None, "Ctrl-C is this process's to handle"
    again = beside.score(some[::-1], FitCorpus.of("some", some))
    assert beside.report.side_process == ["bleu", "chrf", "ter"]
    assert np.array_equal(again["ter"], here_scores["ter"][::-1])
    assert 10 < side.peak_rss_mb() < 300


def test_small_chunks_and_single_metrics_are_scored_here(side):
    few = pairs(SIDE_MIN_PAIRS - 1)
    engine = ScoringEngine(metrics())
    engine.score(few, FitCorpus.of("few", few))
    many = pairs(SIDE_MIN_PAIRS)
    engine.score(many, FitCorpus.of("many", many), names=["bleu", "ter"])  # nothing else to run beside
    assert engine.report.side_process == [] and side._process is None, "never started"


def test_a_metric_error_in_the_side_process_is_the_metric_error(side):
    some = [*pairs(SIDE_MIN_PAIRS), ("an antidisestablishment hotel", "a hotel")]
    for executor in (Inline(), Inline(side=False)):
        engine = ScoringEngine({"word_count": WordCount(), "refuses": RefusesLongWords()}, executor=executor)
        with pytest.raises(InputError, match="^refuses: a word too long to score$"):
            engine.score(some, FitCorpus.of("some", some))
    assert side._process is not None and side._process.poll() is None, "a metric's error leaves it running"


def test_a_metric_it_cannot_send_or_load_is_scored_here(side, monkeypatch):
    class Local(RefusesLongWords):  # defined in a function: it does not pickle
        name = "local"

    some = pairs(SIDE_MIN_PAIRS)
    engine = ScoringEngine({"word_count": WordCount(), "local": Local()})
    assert engine.score(some, FitCorpus.of("some", some))["local"].tolist() == [1.0] * len(some)
    assert engine.report.side_process == []
    # pickled here as __main__.RefusesLongWords, which the side process's own __main__ does not hold
    monkeypatch.setattr(RefusesLongWords, "__module__", "__main__")
    monkeypatch.setattr(sys.modules["__main__"], "RefusesLongWords", RefusesLongWords, raising=False)
    engine = ScoringEngine({"word_count": WordCount(), "refuses": RefusesLongWords()})
    assert engine.score(some, FitCorpus.of("some", some))["refuses"].tolist() == [1.0] * len(some)
    assert engine.report.side_process == [] and side._process.poll() is None, "a job it cannot load: still running"


def test_a_side_process_that_died_leaves_the_chunks_scored_here(side):
    some = pairs(SIDE_MIN_PAIRS)
    engine = ScoringEngine(metrics())
    first = engine.score(some, FitCorpus.of("some", some))
    assert engine.report.side_process == ["bleu", "chrf", "ter"]
    side._process.kill()
    side._process.wait()
    again = engine.score(some, FitCorpus.of("some", some))
    assert engine.report.side_process == [], "scored here once it is gone"
    for name in first:
        assert np.array_equal(first[name], again[name]), name


def test_the_side_process_ends_with_a_parent_killed_outright():
    script = ("import sys, time; from rome.core.engine import SIDE; SIDE._started(); "
              "print(SIDE._process.pid, flush=True); time.sleep(120)")
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        child = int(parent.stdout.readline())
        parent.send_signal(signal.SIGKILL)
        parent.wait()
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and _alive(child):
            time.sleep(0.1)
        assert not _alive(child), "the side process outlived its parent"
    finally:
        parent.kill()


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its reaper does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state not in ("Z", "X")
