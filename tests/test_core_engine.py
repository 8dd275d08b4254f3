"""The one scoring engine: every command gives a pair the same number under the same corpus.

``rome score``, a suite run, ``rome challenge``, ``rome report correlation`` and ``rome bench``
each read the same six (hypothesis, reference) pairs from their own input format, so each
command's whole input (the corpus its idf-like metrics are fitted on) is the same; MoverScore
(idf), RoMe and BLEU then give every pair one number whichever command asked. The same pairs
inside a larger corpus give MoverScore other numbers (and another cache signature): the corpus
is what counts, and the test could fail. Each command runs without the score cache, with the
encoder's and parser's caches emptied before it, so every number is computed afresh.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import numpy as np
import pytest
from require_extras import import_or_missing

from baselines.gruen import clear_likelihood_cache
from perturbations.base import Perturbation, Result, Variant
from reports.bench import run_bench
from reports.cli import main
from rome.core.cache import ScoreCache
from rome.core.encoder import get_encoder
from rome.core.engine import (
    CHUNK_SIZE,
    FitCorpus,
    Inline,
    Ray,
    ScoringEngine,
    cache_signature,
    get_executor,
    order_pairs,
)
from rome.core.errors import InputError
from rome.core.parsing import clear_parse_caches
from rome.core.registry import build_metric
from rome.metric.grammar import clear_logit_cache
from suites.harness import Decrease, JsonlPairs, Suite
from suites.harness.runner import SuiteRun

METRICS = ["bleu", "moverscore", "rome"]
ITEMS = [  # (reference, good hypothesis, bad hypothesis): the challenge items; "." is the challenge's control
    ("The Golden Curry is a family friendly Indian restaurant near the river.",
     "The Golden Curry is a kid friendly Indian restaurant by the river.",
     "The Golden Curry is a kid friendly Chinese restaurant by the river."),
    ("Alimentum serves cheap Italian food in the city centre.",
     "Alimentum is a cheap Italian place in the city centre.",
     "Alimentum is an expensive Italian place in the city centre."),
]
PAIRS = [(hyp, ref) for ref, good, bad in ITEMS for hyp in (good, bad, ".")]


def _fresh() -> None:
    """Empty the in-process caches, so the next command embeds, parses and classifies every sentence itself
    (a logit cached by an earlier test comes from another batch, equal only to about 1e-7)."""
    get_encoder(None).clear_cache()
    clear_parse_caches()
    clear_logit_cache()
    clear_likelihood_cache()


def _write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def by_score_command(tmp: Path, pairs: list[tuple[str, str]]) -> dict[tuple[str, str], dict[str, float]]:
    source = _write_jsonl(tmp / "pairs.jsonl", [{"id": i, "hypothesis": h, "reference": r}
                                                 for i, (h, r) in enumerate(pairs)])
    out = tmp / "scored.jsonl"
    args = ["score", "--input", str(source), "--output", str(out), "--no-cache"]
    assert main([*args, *(a for m in METRICS for a in ("--metric", m))]) == 0
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    return {(row["hypothesis"], row["reference"]): row["scores"] for row in rows}


class ToDot(Perturbation):
    """Every text becomes ".": the cases' variants are the challenge's "." control."""

    kind = "to_dot_for_test"

    def _apply(self, text: str, rng: random.Random) -> Result:
        return Result(text, (Variant(".", self.kind, "decrease"),))


def by_suite(tmp: Path) -> dict[tuple[str, str], dict[str, float]]:
    originals = _write_jsonl(tmp / "originals.jsonl", [{"id": f"{i}-{j}", "reference": ref, "original": hyp}
                                                       for i, (ref, *hyps) in enumerate(ITEMS)
                                                       for j, hyp in enumerate(hyps)])
    suite = Suite(name="engine_test", data=JsonlPairs(str(originals)), perturbation=ToDot(), metrics=METRICS,
                  checks=[Decrease()])
    run = SuiteRun(suite, cache=ScoreCache(None))
    scores = {name: run.scores(name) for name in METRICS}
    assert set(run._pairs()) == set(PAIRS)  # the suite's whole input (its fitting corpus) is the six pairs
    assert set(PAIRS) <= set(scores["bleu"])  # beside them: each case's control, scored, not fitted on
    return {pair: {name: scores[name][pair] for name in METRICS} for pair in PAIRS}


def by_challenge(tmp: Path) -> dict[tuple[str, str], dict[str, float]]:
    source = _write_jsonl(tmp / "items.jsonl", [{"id": str(i), "reference": ref, "good": good, "bad": bad,
                                                  "category": "test"} for i, (ref, good, bad) in enumerate(ITEMS)])
    out = tmp / "challenge"
    args = ["challenge", str(source), "--workers", "1", "--no-cache", "--bootstrap", "10", "--out", str(out)]
    assert main([*args, *(a for m in METRICS for a in ("--metric", m))]) == 0
    found: dict[tuple[str, str], dict[str, float]] = {}
    for line, (ref, good, bad) in zip((out / "items.jsonl").read_text(encoding="utf-8").splitlines(), ITEMS):
        item = json.loads(line)
        for role, hyp in (("good", good), ("bad", bad), ("control", ".")):
            found[(hyp, ref)] = {name: item["scores"][name][role] for name in METRICS}
    return found


def by_correlation(tmp: Path) -> dict[tuple[str, str], dict[str, float]]:
    rows = [{"id": str(i), "system": "s", "hypothesis": h, "references": [r], "human": {"quality": float(i % 3)}}
            for i, (h, r) in enumerate(PAIRS)]
    source = _write_jsonl(tmp / "judged.jsonl", rows)
    out = tmp / "correlation"
    args = ["report", "correlation", "--dataset", str(source), "--no-cache", "--bootstrap", "0", "--out", str(out)]
    assert main([*args, *(a for m in METRICS for a in ("--metric", m))]) == 0
    scored = {row["id"]: row["scores"] for row in map(json.loads, (out / "scores.jsonl").read_text().splitlines())}
    return {pair: scored[str(i)] for i, pair in enumerate(PAIRS)}


def by_bench() -> dict[tuple[str, str], dict[str, float]]:
    result = run_bench(metrics=METRICS, pairs=([h for h, _ in PAIRS], [r for _, r in PAIRS]))
    return {pair: {name: result.scores[name][i] for name in METRICS} for i, pair in enumerate(PAIRS)}


@pytest.fixture(scope="module")
def commands(tmp_path_factory) -> dict[str, dict[tuple[str, str], dict[str, float]]]:
    tmp = tmp_path_factory.mktemp("engine")
    out = {}
    for name, run in (("score", lambda: by_score_command(tmp, PAIRS)), ("suite", lambda: by_suite(tmp)),
                      ("challenge", lambda: by_challenge(tmp)), ("correlation", lambda: by_correlation(tmp)),
                      ("bench", by_bench)):
        _fresh()
        out[name] = run()
    return out


@pytest.mark.slow
@pytest.mark.parametrize("command", ["suite", "challenge", "correlation", "bench"])
def test_every_command_gives_each_pair_the_number_rome_score_gives(commands, command):
    want, got = commands["score"], commands[command]
    assert set(got) == set(want) == set(PAIRS)
    for pair in PAIRS:
        for name in METRICS:
            assert got[pair][name] == want[pair][name], f"{command} {name} {pair}: {got[pair][name]} != {want[pair][name]}"


@pytest.mark.slow
def test_the_numbers_are_real_and_the_corpus_counts(commands, tmp_path):
    scores = commands["score"]
    for ref, good, _ in ITEMS:  # the good translation above the "." control under every metric
        assert all(scores[(good, ref)][m] > scores[(".", ref)][m] for m in METRICS)
    larger = [*PAIRS, ("A pub in the city centre near the Crowne Plaza Hotel.", ITEMS[1][0])]
    _fresh()
    other = by_score_command(tmp_path, larger)
    for pair in PAIRS:  # RoMe uses no corpus: the same up to float32 noise (one more sentence pads the batch)
        assert other[pair]["bleu"] == scores[pair]["bleu"]
        assert other[pair]["rome"] == pytest.approx(scores[pair]["rome"], abs=1e-6)
    changed = [pair for pair in PAIRS if abs(other[pair]["moverscore"] - scores[pair]["moverscore"]) > 1e-6]
    assert len(changed) >= 3, "MoverScore's idf is fitted on the corpus: another corpus, other numbers"
    metric = build_metric("moverscore")
    assert cache_signature(metric, FitCorpus.of("a", PAIRS)) != cache_signature(metric, FitCorpus.of("b", larger))
    assert cache_signature(metric, FitCorpus.of("a", PAIRS)) == cache_signature(metric, FitCorpus.of("c", PAIRS[::-1]))


# -- the engine itself ------------------------------------------------------------------------
class CountingBLEU:
    """Counts the pairs the wrapped metric scores and the corpora it is fitted on."""

    def __init__(self, batch_dependent: bool = False) -> None:
        self.metric = build_metric("bleu")
        self.batch_dependent = batch_dependent
        self.needs_reference = True
        self.scored: list[int] = []
        self.prepared: list[int] = []

    def score(self, hypotheses, references):
        self.scored.append(len(hypotheses))
        return self.metric.score(hypotheses, references)

    def prepare(self, hypotheses, references):
        self.prepared.append(len(hypotheses))

    def signature(self):
        return self.metric.signature()


def test_repeated_pairs_are_scored_once_and_streamed_in_input_order(tmp_path):
    pairs = [("the hotel is cheap", "the hotel is cheap"), ("a bar", ["a pub", "a bar"]),
             ("the hotel is cheap", ["the hotel is cheap"]), ("a bar", ("a pub", "a bar"))]
    counting = CountingBLEU()
    engine = ScoringEngine({"bleu": counting}, ScoreCache(tmp_path / "scores.sqlite"), chunk_size=1)
    slices = list(engine.stream(pairs, FitCorpus.of("four", pairs)))
    assert [(s, e) for s, e, _ in slices] == [(0, 1), (1, 4)]  # pairs 2 and 3 repeat 0 and 1
    assert sum(counting.scored) == 2 and engine.report.computed == {"bleu": 2}
    values = np.concatenate([v["bleu"] for _, _, v in slices])
    assert values[0] == values[2] == pytest.approx(100.0) and values[1] == values[3] == pytest.approx(100.0)
    again = ScoringEngine({"bleu": counting}, ScoreCache(tmp_path / "scores.sqlite"))
    assert again.score(pairs, FitCorpus.of("four", pairs))["bleu"].tolist() == values.tolist()
    assert sum(counting.scored) == 2 and again.report.cached == {"bleu": 2}


def test_a_batch_dependent_metric_is_fitted_once_on_the_named_corpus():
    counting = CountingBLEU(batch_dependent=True)
    pairs = [(f"the cat sat on mat {i}", "the cat sat on the mat") for i in range(10)]
    corpus = FitCorpus.of("ten pairs and one more", [*pairs, ("a dog", "the cat")])
    engine = ScoringEngine({"bleu": counting}, None, chunk_size=3)
    engine.score(pairs, corpus)
    assert counting.prepared == [11] and counting.scored == [3, 3, 3, 1]  # fitted once, scored chunk by chunk
    assert engine.report.signatures["bleu"].endswith(f"|corpus:{corpus.fingerprint()}")
    assert engine.report.corpus.startswith("ten pairs and one more: 11 unique pairs")
    engine.score(pairs[:2], corpus)
    assert counting.prepared == [11], "the same corpus: not fitted again"


def test_a_missing_reference_is_an_error_only_for_a_metric_that_needs_one():
    engine = ScoringEngine({"bleu": build_metric("bleu")})
    with pytest.raises(InputError, match="bleu needs a reference"):
        engine.score([("a text", None)], FitCorpus.of("one", [("a text", None)]))
    assert order_pairs([("b", ["y"]), ("a", "y"), ("b", "y"), ("a", "x")]) == [("a", "x"), ("a", "y"), ("b", ("y",))]


def test_executors_by_name_and_one_chunk_size():
    assert isinstance(get_executor("local"), Inline) and get_executor("processes", workers=2).workers == 2
    with pytest.raises(InputError, match="unknown engine"):
        get_executor("spark")
    with pytest.raises(InputError, match="at least 1"):
        get_executor("processes", workers=0)
    from suites.harness import runner

    assert runner.CHUNK_SIZE is CHUNK_SIZE == 1024


@pytest.mark.slow
def test_ray_actors_give_the_rows_of_this_process():
    """Same scores from a local Ray instance started here; the model metrics agree to float noise
    (an actor runs torch on one thread, this process on two)."""
    ray = import_or_missing("ray", "the ray engine test needs ray (pip install 'ray==2.60.0')")
    from rome.core.paths import data_path

    lines = data_path("novikova2017", "bagel.jsonl").read_text().splitlines()[:16]
    pairs = [(row["hypothesis"], row["references"]) for row in map(json.loads, lines)]
    names = ["bleu", "meteor", "bertscore", "moverscore", "rome"]
    corpus = FitCorpus.of("16 BAGEL outputs", pairs)
    here = ScoringEngine.build(names, chunk_size=5).score(pairs, corpus)
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        engine = ScoringEngine.build(names, executor=Ray(workers=2), chunk_size=5)
        remote = engine.score(pairs, corpus)
    finally:
        ray.shutdown()
    assert engine.report.workers == 2
    for name in names:
        if name in ("bleu", "meteor"):
            assert remote[name].tolist() == here[name].tolist()
        np.testing.assert_allclose(remote[name], here[name], atol=1e-5, rtol=0)


def test_rome_score_in_worker_processes_writes_the_output_of_this_process(tmp_path):
    pairs = [(f"the hotel number {i} is cheap", ["the hotel is cheap", f"hotel {i} is not expensive"]) for i in range(12)]
    source = _write_jsonl(tmp_path / "in.jsonl", [{"id": i, "hypothesis": h, "reference": r}
                                                  for i, (h, r) in enumerate(pairs)])
    args = ["score", "--input", str(source), "--metric", "bleu", "--metric", "chrf", "--no-cache", "--chunk-size", "2"]
    assert main([*args, "--output", str(tmp_path / "here.jsonl")]) == 0
    assert main([*args, "--output", str(tmp_path / "there.jsonl"), "--engine", "processes", "--workers", "2"]) == 0
    assert (tmp_path / "here.jsonl").read_text() == (tmp_path / "there.jsonl").read_text()
