"""BLEU, chrF, TER and METEOR equal their defining libraries on real data."""

from __future__ import annotations

import json

import pytest

from rome.core.paths import data_path
from rome.core.registry import build_metric


@pytest.fixture(scope="module")
def pairs():
    lines = data_path("novikova2017", "sfhotel.jsonl").read_text().splitlines()[:60]
    items = [json.loads(line) for line in lines]
    return [it["hypothesis"] for it in items], [it["references"] for it in items]


def test_bleu_equals_sacrebleu_sentence_bleu_multi_reference(pairs):
    from sacrebleu.metrics import BLEU

    hyps, refs = pairs
    ours = build_metric("bleu").score(hyps, refs)
    ref_impl = BLEU(effective_order=True)
    expected = [ref_impl.sentence_score(h, r).score for h, r in zip(hyps, refs)]
    assert ours.tolist() == pytest.approx(expected, abs=1e-9)
    assert any(len(r) > 1 for r in refs)


def test_chrf_and_ter_equal_sacrebleu(pairs):
    from sacrebleu.metrics import CHRF, TER

    hyps, refs = pairs
    for name, impl in (("chrf", CHRF()), ("ter", TER())):
        ours = build_metric(name).score(hyps, refs)
        assert ours.tolist() == pytest.approx([impl.sentence_score(h, r).score for h, r in zip(hyps, refs)])
    assert build_metric("ter").higher_is_better is False


def test_meteor_equals_nltk_with_offline_wordnet(pairs):
    from nltk.translate.meteor_score import meteor_score

    from baselines.meteor import meteor_tokens
    from rome.core import nltk_data

    hyps, refs = pairs
    ours = build_metric("meteor").score(hyps, refs)
    wn = nltk_data.wordnet()
    expected = [meteor_score([meteor_tokens(x) for x in r], meteor_tokens(h), wordnet=wn) for h, r in zip(hyps, refs)]
    assert ours.tolist() == pytest.approx(expected, abs=1e-12)
    # WordNet is really used: a synonym match (area/region) raises the score over a non-word;
    # METEOR of an exact match is 1 - fragmentation penalty (0.992 here), not 1
    metric = build_metric("meteor")
    assert metric.score_one("the area was great", "the region was great") > metric.score_one(
        "the zzz was great", "the region was great"
    )


def test_metrics_handle_unicode_and_empty():
    for name in ("bleu", "chrf", "ter", "meteor"):
        m = build_metric(name)
        scores = m.score(["Café naïve — 東京", ""], ["Café naïve — 東京", "x"])
        assert scores[1] == m.worst_score
        best = m.score_range[1] if m.higher_is_better else 0.0
        assert scores[0] == pytest.approx(best, abs=1e-2 if name == "meteor" else 1e-9)
