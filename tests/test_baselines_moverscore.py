"""Our MoverScore equals the real moverscore_v2 (1.0.3), patched in memory, on real BAGEL pairs.

The package cannot be imported as shipped (see docs/moverscore.md); the oracle is the package
itself, imported with transformers and numpy patched in memory (tests/baselines_moverscore_oracle.py).
"""

from __future__ import annotations

import importlib.util
import json
import warnings
from collections import defaultdict

import numpy as np
import pytest
from baselines_moverscore_oracle import patched_moverscore_v2
from require_extras import missing

from baselines.moverscore import MoverScore, english_stop_words
from rome.core.errors import InputError
from rome.core.paths import data_path
from rome.core.registry import build_metric

# find_spec, not importorskip: importing moverscore_v2 unpatched goes to the hub
if importlib.util.find_spec("moverscore_v2") is None or importlib.util.find_spec("pyemd") is None:
    missing("the moverscore oracle needs: pip install pyemd portalocker; pip install --no-deps moverscore==1.0.3",
            module_level=True)

#: measured on 200 BAGEL pairs: max difference 1.8e-6 where hypothesis != reference
TOLERANCE = 1e-5
#: the package computes distances in float32 as sqrt(|x|^2 + |y|^2 - 2xy): for a token against
#: itself that is sqrt(rounding error) ~ 1e-4, so identical texts score 0.9997 there, 1.0 here
IDENTICAL_TEXT_GAP = 1e-3


@pytest.fixture(scope="module")
def oracle():
    with patched_moverscore_v2() as module:
        yield module


def package_scores(mv, hyps, refs, stop_words=(), uniform=False, idf_hyps=None) -> np.ndarray:
    """moverscore_v2 as its README runs it: idf fitted on the references and on the hypotheses."""
    if uniform:
        idf_ref = idf_hyp = defaultdict(lambda: 1.0)
    else:
        idf_ref = mv.get_idf_dict(refs, nthreads=1)
        idf_hyp = mv.get_idf_dict(hyps if idf_hyps is None else idf_hyps, nthreads=1)
    return np.array(mv.word_mover_score(refs, hyps, idf_ref, idf_hyp, stop_words=list(stop_words), device="cpu"))


@pytest.fixture(scope="module")
def pairs() -> tuple[list[str], list[list[str]]]:
    lines = data_path("novikova2017", "bagel.jsonl").read_text().splitlines()
    items = [json.loads(line) for line in lines[:30]]
    hyps = [it["hypothesis"] for it in items] + ["Café naïve près de 東京 .", "le café est fermé"]
    refs = [it["references"] for it in items] + [["Le café de 東京 est fermé ."], ["Café fermé à Paris ."]]
    return hyps, refs


def assert_agrees(ours, expected, same_text):
    """1e-5 where hypothesis and best reference differ; within the float32 gap where they are equal."""
    same_text = np.asarray(same_text)
    assert same_text.sum() < len(same_text) / 2
    np.testing.assert_allclose(ours[~same_text], expected[~same_text], atol=TOLERANCE, rtol=0)
    np.testing.assert_allclose(ours[same_text], expected[same_text], atol=IDENTICAL_TEXT_GAP, rtol=0)


@pytest.mark.slow
@pytest.mark.parametrize("stop", ["none", "english"])
def test_equals_package_with_idf_single_reference(oracle, pairs, stop):
    hyps, refs = pairs[0], [r[0] for r in pairs[1]]
    stop_words = sorted(english_stop_words()) if stop == "english" else []
    ours = MoverScore(stop_words=stop).score(hyps, refs)
    expected = package_scores(oracle, hyps, refs, stop_words)
    assert_agrees(ours, expected, [h == r for h, r in zip(hyps, refs)])
    assert np.ptp(ours) > 0.5


@pytest.mark.slow
def test_equals_package_with_uniform_weights_and_custom_stop_words(oracle, pairs):
    hyps, refs = pairs[0], [r[0] for r in pairs[1]]
    stop_words = ["is", "a", "the", "in", "of", "and", "there"]
    ours = MoverScore(weights="uniform", stop_words=stop_words).score(hyps, refs)
    expected = package_scores(oracle, hyps, refs, stop_words, uniform=True)
    assert_agrees(ours, expected, [h == r for h, r in zip(hyps, refs)])
    assert np.abs(ours - MoverScore(stop_words=stop_words).score(hyps, refs)).max() > 1e-2


@pytest.mark.slow
@pytest.mark.parametrize("uniform", [False, True])
def test_multi_reference_is_best_over_references(oracle, pairs, uniform):
    """idf: references flattened (each one a document), each hypothesis counted once."""
    hyps, refs = pairs
    assert any(len(group) > 1 for group in refs)
    flat_h = [h for h, group in zip(hyps, refs) for _ in group]
    flat_r = [r for group in refs for r in group]
    per_ref = package_scores(oracle, flat_h, flat_r, uniform=uniform, idf_hyps=hyps)
    bounds = np.cumsum([0] + [len(group) for group in refs])
    expected = np.array([per_ref[bounds[i] : bounds[i + 1]].max() for i in range(len(refs))])
    ours = MoverScore(weights="uniform" if uniform else "idf").score(hyps, refs)
    assert_agrees(ours, expected, [h in group for h, group in zip(hyps, refs)])


@pytest.mark.slow
def test_identical_texts_score_one_where_the_package_rounds_in_float32(oracle):
    texts = ["X is a restaurant in the city centre .", "the hotel is cheap"]
    ours = MoverScore(weights="uniform").score(texts, texts)
    expected = package_scores(oracle, texts, texts, uniform=True)
    assert ours == pytest.approx([1.0, 1.0], abs=1e-7)
    assert (expected < 1.0 - 1e-5).all() and (expected > 1.0 - IDENTICAL_TEXT_GAP).all()


def uniform_idf():
    return defaultdict(lambda: 1.0)


@pytest.mark.slow
def test_a_hypothesis_without_idf_mass_is_weighted_uniformly_where_the_package_scores_one(oracle):
    """"." keeps only [CLS]/[SEP] (idf 0: in every hypothesis); the package scores it 1.0, a perfect score."""
    hyps, refs = ["the hotel is cheap", "."], ["the hotel is inexpensive", "a cheap hotel near the station"]
    with pytest.warns(UserWarning, match="no idf-weighted token"):
        ours = MoverScore().score(hyps, refs)
    expected = package_scores(oracle, hyps, refs)
    assert expected[1] == 1.0 and ours[1] < 0.0  # the package's degenerate case; ours departs from it
    assert ours[0] == pytest.approx(expected[0], abs=TOLERANCE)  # well defined: equal
    idf_ref = oracle.get_idf_dict(refs, nthreads=1)  # the rule, checked on the package: "." weighted uniformly
    fallback = oracle.word_mover_score(refs[1:], hyps[1:], idf_ref, uniform_idf(), device="cpu")[0]
    assert ours[1] == pytest.approx(fallback, abs=TOLERANCE)


@pytest.mark.slow
def test_references_all_alike_are_weighted_uniformly_where_the_package_scores_one(oracle):
    """Issue #11 item 5: a 2-line file sharing one reference gave "zzz qqq" a perfect 1.0."""
    ref = "The hotel is cheap."
    hyps, refs = ["zzz qqq", "the hotel is cheap ."], [ref, ref]
    with pytest.warns(UserWarning, match="no idf-weighted token"):
        ours = MoverScore().score(hyps, refs)
    assert package_scores(oracle, hyps, refs).tolist() == [1.0, 1.0]
    idf_hyp = oracle.get_idf_dict(hyps, nthreads=1)
    expected = np.array(oracle.word_mover_score(refs, hyps, uniform_idf(), idf_hyp, device="cpu"))
    # the second hypothesis is the reference's own pieces to the uncased model: the package's float32
    # self-distance gap applies (8e-5 on one machine, under 1e-5 on another)
    np.testing.assert_allclose(ours[0], expected[0], atol=TOLERANCE, rtol=0)
    np.testing.assert_allclose(ours[1], expected[1], atol=IDENTICAL_TEXT_GAP, rtol=0)
    assert ours[0] < 0.0 < 0.5 < ours[1]


@pytest.mark.slow
def test_demetr_empty_control_scores_the_lone_full_stop_below_the_translation(oracle):
    """Issue #10: on DEMETR's base_id33_empty the package (and ours before) put "." above every translation."""
    from rome.data.challenge import demetr_dir, read_demetr

    items = list(read_demetr(demetr_dir() / "base_id33_empty.json"))[:25]
    goods, bads, eng = [it.good for it in items], [it.bad for it in items], [it.reference[0] for it in items]
    assert set(bads) == {"."}
    metric = MoverScore()
    metric.prepare(goods + bads, eng + eng)
    with pytest.warns(UserWarning, match="no idf-weighted token"):
        ours = metric.score(goods + bads, eng + eng)
    idf_ref, idf_hyp = oracle.get_idf_dict(eng + eng, nthreads=1), oracle.get_idf_dict(goods + bads, nthreads=1)
    package = np.array(oracle.word_mover_score(eng + eng, goods + bads, idf_ref, idf_hyp, device="cpu"))
    n = len(items)
    assert (package[n:] == 1.0).all() and (package[n:] > package[:n]).all()
    assert (ours[:n] > ours[n:]).all() and (ours[n:] < 0).all()
    same = np.array([g == r for g, r in zip(goods, eng)])
    np.testing.assert_allclose(ours[:n][~same], package[:n][~same], atol=TOLERANCE, rtol=0)


def test_a_text_with_nothing_to_weigh_gets_the_worst_score():
    metric = MoverScore(weights="uniform", stop_words=["[CLS]", "[SEP]", "the"])
    scores = metric.score(["the", "the hotel"], ["the hotel", "the"])
    assert scores.tolist() == [-1.0, -1.0]


@pytest.mark.slow
def test_single_pair_falls_back_to_uniform_weights_with_a_warning(oracle):
    hyp, ref = "there is a cheap hotel near the station", "a cheap hotel is close to the station"
    assert package_scores(oracle, [hyp], [ref])[0] == 1.0  # idf of a one-text corpus is all zero
    with pytest.warns(UserWarning, match="at least two texts"):
        ours = MoverScore().score_one(hyp, ref)
    assert ours == pytest.approx(package_scores(oracle, [hyp], [ref], uniform=True)[0], abs=TOLERANCE)
    assert ours < 0.95


def test_prepare_fits_idf_once_for_chunked_scoring(pairs):
    hyps, refs = pairs
    metric = MoverScore(stop_words="english")
    assert metric.batch_dependent and not MoverScore(weights="uniform").batch_dependent
    whole = metric.score(hyps, refs)
    assert np.abs(metric.score(hyps[:6], refs[:6]) - whole[:6]).max() > 1e-3
    metric.prepare(hyps, refs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # prepared: no small-corpus fallback even for one pair
        chunks = np.concatenate([metric.score(hyps[i : i + 6], refs[i : i + 6]) for i in range(0, len(hyps), 6)])
        metric.score_one(hyps[0], refs[0])
    np.testing.assert_allclose(chunks, whole, atol=1e-12, rtol=0)


def test_empty_hypothesis_non_ascii_signature_and_options():
    metric = build_metric("moverscore", weights="uniform")
    scores = metric.score(["", "Café naïve — 東京 ."], ["a reference", "Café naïve — 東京 ."])
    assert scores[0] == metric.worst_score == -1.0
    assert scores[1] == pytest.approx(1.0, abs=1e-7)
    sig = MoverScore(stop_words="english").signature().as_dict()
    assert (sig["model"], sig["weights"], sig["stop"], sig["n_gram"]) == ("all-MiniLM-L6-v2", "idf", "english", "1")
    assert MoverScore(stop_words=["a", "the"]).signature().as_dict()["stop"].startswith("custom-")
    assert MoverScore().signature().as_dict()["stop"] == "none"
    with pytest.raises(InputError, match="weights must be one of"):
        MoverScore(weights="tfidf")
    with pytest.raises(InputError, match="stop_words must be"):
        MoverScore(stop_words="german")


def test_long_texts_are_truncated_with_one_warning():
    from rome.core.encoder import Encoder

    metric = MoverScore(weights="uniform")
    metric.encoder = Encoder()  # a fresh encoder: its one-time warning has not fired yet
    long_a, long_b = "the room was clean and " * 300, "the staff were kind and " * 300
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = metric.score([long_a, long_b], [long_b, "short reference"])
    assert sum("truncated" in str(w.message) for w in caught) == 1
    assert np.isfinite(scores).all() and -1.0 <= scores.min() <= scores.max() < 1.0
