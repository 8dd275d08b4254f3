"""Our BERTScore equals ``bert_score.score`` on real BAGEL pairs, and shares the encoder cache."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pytest

from baselines.bertscore import BERTScore
from rome.core.encoder import Encoder, embedded_model_path, get_encoder
from rome.core.errors import InputError
from rome.core.paths import data_path
from rome.core.registry import build_metric

#: measured max difference on 200 BAGEL pairs is 2.4e-7 (float32 matching, different batching); a
#: sentence's embedding also depends on the batch it was first encoded in, which the shared cache
#: keeps (another 2.4e-7 measured, cold batch vs one at a time), so a tolerance for any machine and
#: any test order; a real difference (idf, layer, normalisation) is >= 1e-3
TOLERANCE = 1e-5
#: float32 scores near 1.0 are spaced 1.19e-7 apart; the same embeddings in batches of another
#: shape round differently in the last bits (1.19e-7 measured on a fresh machine): 8 ulps
FLOAT32_ULPS_8 = 8 * float(np.finfo(np.float32).eps)

NON_ASCII = (["Café naïve — 東京 est fermé.", "Ünïcödé hotel près de la gare"],
             [["Le café naïve de 東京 est fermé."], ["a hotel near the station", "Ünïcödé hôtel"]])


@pytest.fixture(scope="module")
def pairs() -> tuple[list[str], list[list[str]]]:
    lines = data_path("novikova2017", "bagel.jsonl").read_text().splitlines()
    items = [json.loads(line) for line in lines[:30]]
    hyps = [it["hypothesis"] for it in items] + NON_ASCII[0]
    refs = [it["references"] for it in items] + NON_ASCII[1]
    assert any(len(r) > 1 for r in refs)
    return hyps, refs


def package_score(hyps, refs, idf: bool):
    import bert_score

    return bert_score.score(hyps, refs, model_type=str(embedded_model_path()), num_layers=6, idf=idf, nthreads=0)


@pytest.mark.slow
@pytest.mark.parametrize("idf", [False, True])
def test_equals_bert_score_package_multi_reference(pairs, idf):
    hyps, refs = pairs
    expected = dict(zip(("precision", "recall", "f1"), package_score(hyps, refs, idf)))
    for output, values in expected.items():
        ours = BERTScore(idf=idf, output=output).score(hyps, refs)
        np.testing.assert_allclose(ours, values.numpy(), atol=TOLERANCE, rtol=0)
    assert np.ptp(expected["f1"].numpy()) > 0.2  # real, varied scores


@pytest.mark.slow
def test_equals_bert_score_package_single_reference_with_idf(pairs):
    hyps, refs = pairs[0], [r[0] for r in pairs[1]]
    _, _, f1 = package_score(hyps, refs, idf=True)
    np.testing.assert_allclose(BERTScore(idf=True).score(hyps, refs), f1.numpy(), atol=TOLERANCE, rtol=0)
    # idf really changes the numbers
    assert np.abs(BERTScore(idf=False).score(hyps, refs) - f1.numpy()).max() > 1e-3


def test_prepare_fits_idf_on_the_whole_input_for_chunked_scoring(pairs):
    hyps, refs = pairs
    metric = BERTScore(idf=True)
    assert metric.batch_dependent and not BERTScore().batch_dependent
    whole = metric.score(hyps, refs)
    chunk_alone = metric.score(hyps[:8], refs[:8])
    assert np.abs(chunk_alone - whole[:8]).max() > 1e-4  # idf over 8 pairs differs
    metric.prepare(hyps, refs)
    chunks = np.concatenate([metric.score(hyps[i : i + 8], refs[i : i + 8]) for i in range(0, len(hyps), 8)])
    np.testing.assert_allclose(chunks, whole, atol=FLOAT32_ULPS_8, rtol=0)


def test_each_unique_sentence_is_encoded_once_across_metrics():
    encoder = get_encoder()
    marker = "cache-check-4711"
    hyps = [f"{marker} the hotel is cheap", f"{marker} a quiet bar", f"{marker} the hotel is cheap"]
    refs = [f"{marker} the hotel is inexpensive", f"{marker} the hotel is inexpensive", f"{marker} a bar"]
    before = encoder.forward_count
    build_metric("bertscore").score(hyps, refs)
    assert encoder.forward_count - before == len(set(hyps + refs)) == 4
    build_metric("bertscore", idf=True).score(hyps, refs)
    build_metric("moverscore").score(hyps, refs)
    assert encoder.forward_count - before == 4  # same layer (last): all from the cache


def test_empty_hypothesis_non_ascii_and_identity():
    metric = BERTScore()
    scores = metric.score(["", "   ", "Café naïve — 東京", "the hotel is cheap"],
                          ["a ref", "a ref", "Café naïve — 東京", "the hotel is cheap"])
    assert scores[0] == scores[1] == metric.worst_score == 0.0
    assert scores[2] == pytest.approx(1.0, abs=1e-6) and scores[3] == pytest.approx(1.0, abs=1e-6)


def test_long_texts_are_truncated_with_one_warning():
    metric = BERTScore()
    metric.encoder = Encoder()  # a fresh encoder: its one-time warning has not fired yet
    long_a, long_b = "the room was clean and " * 300, "the staff were kind and " * 300
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = metric.score([long_a, long_b], [long_b, "short reference"])
    assert sum("truncated" in str(w.message) for w in caught) == 1
    assert np.isfinite(scores).all() and 0.0 < scores.min() <= scores.max() <= 1.0


def test_signature_and_options():
    sig = BERTScore(idf=True, output="recall", layer=4).signature().as_dict()
    assert sig["name"] == "bertscore" and sig["model"] == "all-MiniLM-L6-v2"
    assert (sig["layer"], sig["idf"], sig["output"]) == ("4", "yes", "recall")
    assert sig["bert-score"] == "0.3.13"
    assert BERTScore().signature().as_dict()["layer"] == "last"
    with pytest.raises(InputError, match="output must be one of"):
        BERTScore(output="accuracy")
    with pytest.raises(InputError, match="out of range"):
        BERTScore(layer=7).score(["a"], ["b"])
    lower = BERTScore(layer=2).score(["the hotel is cheap"], ["the hotel is inexpensive"])
    assert lower[0] != pytest.approx(BERTScore().score_one("the hotel is cheap", "the hotel is inexpensive"))


def test_idf_with_an_empty_text_in_the_corpus():
    """bert-score's sent_encode("") needs a method transformers 5 removed; an empty text still
    counts as a document (N = 2 here), exactly as bert-score computed it under transformers 4."""
    import math

    from baselines._corpus import fit_idf
    from rome.core.encoder import get_encoder

    tokenizer = get_encoder().tokenizer
    idf = fit_idf(["", "hotel hotel"], tokenizer)
    hotel = tokenizer("hotel", add_special_tokens=False)["input_ids"][0]
    assert idf[hotel] == pytest.approx(math.log(3 / 2))
    assert idf[tokenizer.cls_token_id] == 0 and idf[tokenizer.sep_token_id] == 0
    assert tokenizer.build_inputs_with_special_tokens([7]) == [tokenizer.cls_token_id, 7, tokenizer.sep_token_id]


#: a reference against which the one-token hypothesis "§" has only negative cosines under the embedded MiniLM
NEGATIVE_REFERENCE = "I am sorry there is no information about a venue in the city centre near X ."
LONGER_PAIR = ("the restaurant near the river serves cheap italian food every day",
               "the hotel is cheap and serves food near the river every single day and night ok")


@pytest.mark.parametrize("hypothesis,reference", [("§", NEGATIVE_REFERENCE), ("∑∫", "The cat sat on the mat.")])
@pytest.mark.parametrize("output", ["precision", "recall", "f1"])
def test_a_score_does_not_depend_on_its_batch_and_stays_in_0_1(hypothesis, reference, output):
    """Issue "product" defect 12: ``--hyp '∑∫'`` scored -0.0043 alone and 0.0 batched with a longer pair.

    Cause: bert-score's matching multiplies the similarities by the padding mask, so a padded position
    offers 0 to each token's greedy max; negative cosines counted as negative only in unpadded rows.
    """
    metric = BERTScore(output=output)
    alone = metric.score([hypothesis], [reference])[0]
    batched = metric.score([hypothesis, LONGER_PAIR[0]], [reference, LONGER_PAIR[1]])[0]
    repeated = metric.score([hypothesis] * 3, [reference, reference, LONGER_PAIR[1]])[0]
    assert 0.0 <= alone <= 1.0 and 0.0 <= batched <= 1.0
    assert batched == pytest.approx(alone, abs=1e-6) and repeated == pytest.approx(alone, abs=1e-6)


def test_idf_on_a_sentence_of_zero_idf_tokens_is_a_number_in_0_1():
    """Every token of "the" is in every reference (idf 0): bert-score divides 0 by 0; scored uniformly instead."""
    for output in ("precision", "recall", "f1"):
        scores = BERTScore(idf=True, output=output).score(["the", "the cat"], ["the dog", "the cat"])
        assert np.isfinite(scores).all() and ((scores >= 0) & (scores <= 1)).all()
        assert scores[0] > 0.05  # "the" matches "the": not a silent 0
