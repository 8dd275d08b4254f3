"""The on-disk score cache: a rerun scores nothing, an interrupted run resumes, corpus-fitted metrics re-key."""

from __future__ import annotations

import random

import pytest

from baselines.sacrebleu_metrics import BLEU
from perturbations.base import Perturbation, Result, Variant
from rome.core import registry
from rome.core.cache import ScoreCache
from suites.harness import Invariant, Novikova, Suite
from suites.harness.runner import CHUNK_SIZE, SuiteRun


class CountingBLEU(BLEU):
    """The real sentence BLEU, counting the pairs it scores (and optionally stopping after some)."""

    name = "bleu_counting"
    scored = 0
    prepared: list[int] = []
    stop_after: int | None = None

    def _score_multi(self, hypotheses, references):
        cls = type(self)
        if cls.stop_after is not None and cls.scored >= cls.stop_after:
            raise KeyboardInterrupt("simulated interruption")
        cls.scored += len(hypotheses)
        return super()._score_multi(hypotheses, references)


class CorpusBLEU(CountingBLEU):
    """Pretends to fit corpus statistics, like BERTScore's idf, to exercise the batch-dependent path."""

    name = "bleu_corpus"
    batch_dependent = True

    def prepare(self, hypotheses, references):
        type(self).prepared.append(len(hypotheses))


class CountingSwap(Perturbation):
    kind = "swap_first_two"
    calls = 0

    def _apply(self, text: str, rng: random.Random) -> Result:
        type(self).calls += 1
        words = text.split()
        if len(words) < 3:
            return Result.skip(text, "too short")
        return Result(text, (Variant(" ".join([words[1], words[0], *words[2:]]), self.kind, "invariant"),))


@pytest.fixture(autouse=True)
def counting_metrics():
    registry.register("bleu_counting")(CountingBLEU)
    registry.register("bleu_corpus")(CorpusBLEU)
    CountingBLEU.scored, CountingBLEU.stop_after, CountingBLEU.prepared = 0, None, []
    CorpusBLEU.scored, CorpusBLEU.stop_after, CorpusBLEU.prepared = 0, None, []
    CountingSwap.calls = 0
    yield
    registry.unregister("bleu_counting")
    registry.unregister("bleu_corpus")


def make_suite(n: int, metric: str = "bleu_counting") -> Suite:
    return Suite(name="cache_test", data=Novikova(), n=n, seed=3, perturbation=CountingSwap(),
                 metrics=[metric], checks=[Invariant(tolerance=0.05)])


def test_rerun_hits_the_cache_and_gives_the_same_results(tmp_path):
    db = tmp_path / "scores.sqlite"
    first = SuiteRun(make_suite(30), cache=ScoreCache(db))
    result = first.result("bleu_counting", "invariant")
    # 30 originals, 30 variants and 30 controls (the scale-free unit's unrelated text per case)
    assert CountingBLEU.scored == 90 and CountingSwap.calls >= 30

    CountingBLEU.scored, CountingSwap.calls = 0, 0
    second = SuiteRun(make_suite(30), cache=ScoreCache(db))
    again = second.result("bleu_counting", "invariant")
    assert CountingBLEU.scored == 0, "a warm rerun must not score"
    assert CountingSwap.calls == 0, "a warm rerun must not perturb again"
    assert second.cache.hits == 90 and second.cache.misses == 0
    assert again.outcomes == result.outcomes and again.mean_delta == result.mean_delta


def test_interrupted_run_resumes_after_the_last_committed_chunk(tmp_path):
    db = tmp_path / "scores.sqlite"
    n = CHUNK_SIZE  # 3n pairs (originals, variants, controls) = three chunks
    CountingBLEU.stop_after = CHUNK_SIZE
    with pytest.raises(KeyboardInterrupt):
        SuiteRun(make_suite(n), cache=ScoreCache(db)).result("bleu_counting", "invariant")
    assert ScoreCache(db).count() == CHUNK_SIZE

    CountingBLEU.scored, CountingBLEU.stop_after = 0, None
    resumed = SuiteRun(make_suite(n), cache=ScoreCache(db))
    result = resumed.result("bleu_counting", "invariant")
    assert CountingBLEU.scored == 3 * n - CHUNK_SIZE, "only the pairs after the interruption are scored"
    fresh = SuiteRun(make_suite(n), cache=ScoreCache(None)).result("bleu_counting", "invariant")
    assert result.outcomes == fresh.outcomes and result.mean_delta == pytest.approx(fresh.mean_delta)


def test_batch_dependent_metric_is_fitted_on_the_whole_corpus_and_keyed_by_it(tmp_path):
    db = tmp_path / "scores.sqlite"
    run = SuiteRun(make_suite(20, "bleu_corpus"), cache=ScoreCache(db))
    run.result("bleu_corpus", "invariant")
    assert CorpusBLEU.prepared == [40], "prepare() sees every pair of the suite once, not chunk by chunk"
    assert "|corpus:" in run.signature("bleu_corpus")

    SuiteRun(make_suite(20, "bleu_corpus"), cache=ScoreCache(db)).result("bleu_corpus", "invariant")
    assert CorpusBLEU.prepared == [40], "same corpus: cache hit, no refit"

    CorpusBLEU.scored = 0
    bigger = SuiteRun(make_suite(25, "bleu_corpus"), cache=ScoreCache(db))
    bigger.result("bleu_corpus", "invariant")
    # 25 originals, 25 variants and 25 controls, all scored again under the new fit
    assert CorpusBLEU.scored == 75, "another corpus: scores fitted on the old one are not reused"
    assert bigger.signature("bleu_corpus") != run.signature("bleu_corpus")


def test_cases_are_deterministic_for_a_seed():
    a = SuiteRun(make_suite(15), cache=ScoreCache(None)).cases
    b = SuiteRun(make_suite(15), cache=ScoreCache(None)).cases
    assert a == b and len(a) == 15
    other = Suite(name="cache_test", data=Novikova(), n=15, seed=4, perturbation=CountingSwap(),
                  metrics=["bleu"], checks=[Invariant()])
    assert SuiteRun(other, cache=ScoreCache(None)).cases != a
