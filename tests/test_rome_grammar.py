"""RoMe's grammatical-acceptability classifier (F_g): the committed weights, real encoder, real CoLA."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from rome.core.errors import InputError, ResourceMissingError
from rome.metric.grammar import (
    DEFAULT_WEIGHTS,
    PRECISION_VARIABLE,
    GrammarClassifier,
    clear_logit_cache,
    default_precision,
    load_default,
    native_bfloat16,
)
from rome.training.grammar import binary_metrics, read_cola

PAIRS = [  # (acceptable, unacceptable)
    ("The cat sat on the mat.", "The cat the mat on sat."),
    ("She has finished her homework.", "She have finish homework her the."),
    ("They are going to the store tomorrow.", "Them is go store to the tomorrow."),
    ("The restaurant serves cheap Italian food.", "The restaurant serve food Italian cheaps the."),
    ("Who did you see yesterday?", "Who did you see Mary yesterday?"),
]


@pytest.fixture(scope="module")
def classifier() -> GrammarClassifier:
    return load_default()


def test_committed_weights_are_small_and_load(classifier):
    assert DEFAULT_WEIGHTS.stat().st_size < 8 * 2**20
    assert classifier.start_layer + classifier.meta["n_layers"] == classifier.encoder.num_layers
    assert load_default() is classifier  # one per process


def test_clear_cases_are_ordered(classifier):
    good = classifier.prob_acceptable([g for g, _ in PAIRS])
    bad = classifier.prob_acceptable([b for _, b in PAIRS])
    assert np.all(good > bad), (good, bad)
    assert np.all(good[:4] > 0.5) and np.all(bad[:4] < 0.5), (good, bad)


@pytest.mark.slow
@pytest.mark.parametrize(("precision", "atol"), [("float32", 1e-5), ("bfloat16", 0.0)])
def test_batch_equals_single_and_is_deterministic(precision, atol):
    """A text's probability does not depend on the texts batched with it (none is padded): in bfloat16
    bitwise, in float32 to its rounding (a one-row matrix product may round otherwise)."""
    if precision == "bfloat16" and not native_bfloat16():
        pytest.skip("torch emulates bfloat16 on this CPU: its bitwise behaviour is not this project's claim")
    classifier = GrammarClassifier.load(DEFAULT_WEIGHTS, precision=precision)
    texts = [t for pair in PAIRS for t in pair] + ["A much longer sentence, with several clauses, longer than the rest.",
                                                   "The dog sat on the mat.", "A cat sat on a mat."]
    clear_logit_cache()  # each text run in this batch, not read back from an earlier test's pass
    batch = classifier.prob_acceptable(texts)
    single = []
    for text in texts:
        clear_logit_cache()
        single.append(classifier.prob_acceptable([text])[0])
    np.testing.assert_allclose(batch, single, atol=atol, rtol=0)
    assert np.array_equal(batch > 0.5, np.array(single) > 0.5)
    clear_logit_cache()
    shuffled = classifier.prob_acceptable(texts[::-1] + texts[3:5])[: len(texts)][::-1]  # other company
    np.testing.assert_allclose(shuffled, batch, atol=atol, rtol=0)
    clear_logit_cache()
    fresh = GrammarClassifier.load(DEFAULT_WEIGHTS, precision=precision)
    fresh.encoder.clear_cache()
    np.testing.assert_array_equal(fresh.prob_acceptable(texts), batch)  # same batches, same numbers
    assert np.array_equal(classifier.prob_acceptable(texts), classifier.prob_acceptable(texts))


def test_precisions_agree_and_are_cached_apart():
    """bfloat16 reads the same texts as float32 to about a hundredth, and the logit
    cache never hands one precision's logit to the other."""
    texts = [t for pair in PAIRS for t in pair]
    low = GrammarClassifier.load(DEFAULT_WEIGHTS, precision="bfloat16")
    full = GrammarClassifier.load(DEFAULT_WEIGHTS, precision="float32")
    clear_logit_cache()
    first = low.prob_acceptable(texts)
    second = full.prob_acceptable(texts)
    np.testing.assert_allclose(first, second, atol=0.03)
    assert np.array_equal(first > 0.5, second > 0.5)
    assert not np.array_equal(first, second)  # each ran its own pass
    assert np.array_equal(full.uncached_logits([t.strip() for t in texts]), full.logits(texts))


def test_precision_setting(monkeypatch):
    for value, expected in (("float32", "float32"), ("BFloat16", "bfloat16")):
        monkeypatch.setenv(PRECISION_VARIABLE, value)
        assert default_precision() == expected
    monkeypatch.setenv(PRECISION_VARIABLE, "auto")
    assert default_precision() == ("bfloat16" if native_bfloat16() else "float32")
    monkeypatch.setenv(PRECISION_VARIABLE, "half")
    with pytest.raises(InputError, match=PRECISION_VARIABLE):
        default_precision()
    with pytest.raises(InputError, match="precision"):
        GrammarClassifier.load(DEFAULT_WEIGHTS, precision="int8")



def test_a_metric_keeps_the_precision_it_was_built_with(monkeypatch):
    """The precision is read once, when RoMe or GRUEN is built: its signature names the pass it runs even
    when the setting changes later in the process (a signature is a cache key)."""
    from baselines.gruen import GRUEN
    from rome.metric.metric import RoMe

    monkeypatch.setenv(PRECISION_VARIABLE, "float32")
    rome, gruen = RoMe(), GRUEN()
    monkeypatch.setenv(PRECISION_VARIABLE, "bfloat16")
    assert "grammar-precision:float32" in str(rome.signature())
    assert "cola-precision:float32" in str(gruen.signature())
    assert rome.grammar.precision == gruen.classifier.precision == "float32"
    assert rome.grammar is load_default("float32") and load_default() is load_default("bfloat16")
    assert RoMe().grammar.precision == "bfloat16"

def _forward_counter(classifier):
    """Texts run through the classifier's layers, counted by a forward hook on its module; and the hook."""
    counted = [0]
    handle = classifier.module.register_forward_hook(
        lambda module, args, out: counted.__setitem__(0, counted[0] + len(out)))
    return counted, handle


@pytest.mark.slow
def test_rome_and_gruen_share_one_pass_over_the_same_outputs(classifier):
    """Both load these weights; whichever scores second reads the first one's logits, unchanged."""
    from rome.core.registry import build_metric

    outputs = ["the hotel is cheap and near the park .", "X is a restaurant in the riverside area .",
               "There is no information about a restaurant near the river."]
    rome, gruen = build_metric("rome"), build_metric("gruen/grammar")
    counted, handle = _forward_counter(classifier)  # the process's classifier, which both metrics load
    try:
        clear_logit_cache()
        rome.score(outputs, ["The hotel is cheap."] * len(outputs))
        assert counted[0] == len(outputs)
        shared = gruen.score(outputs, None)
        assert counted[0] == len(outputs)  # GRUEN's CoLA feature ran no pass of its own
        clear_logit_cache()
        own = classifier.logits(outputs)
        assert counted[0] == 2 * len(outputs)
    finally:
        handle.remove()
    np.testing.assert_allclose(shared, np.maximum(0.0, own / 2 / 8 + 0.5), atol=1e-6)  # the scores it would give alone


def test_the_shared_logits_follow_the_weights():
    """Weights changed in place (a notebook fine-tuning them) are another digest: no stale logit is served."""
    import torch

    texts = ["The cat sat on the mat.", "The cat the mat on sat."]
    classifier = GrammarClassifier.load(DEFAULT_WEIGHTS)
    before, digest = classifier.logits(texts), classifier.weights_digest()
    with torch.no_grad():
        classifier.module.head.bias += 1.0
    assert classifier.weights_digest() != digest
    np.testing.assert_allclose(classifier.logits(texts), before + 1.0, atol=1e-5)
    classifier.module.train()  # dropout: nothing cached, nothing read back
    counted, _ = _forward_counter(classifier)
    classifier.logits(texts)
    assert counted[0] == len(texts)


def test_empty_unicode_and_long_inputs(classifier):
    long_text = " ".join(["the dog that chased the cat"] * 400)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the encoder warns once that it truncated
        probs = classifier.prob_acceptable(["", "   ", "Café naïve — 東京 😀 ﬁne.", long_text])
    assert probs.shape == (4,) and probs.dtype == np.float64
    assert probs[0] == 0.0 and probs[1] == 0.0
    assert np.all(np.isfinite(probs)) and np.all((probs >= 0) & (probs <= 1))
    assert classifier.prob_acceptable([]).shape == (0,)


def test_bad_input_is_a_one_line_error(classifier):
    with pytest.raises(InputError):
        classifier.prob_acceptable("a single string")
    with pytest.raises(InputError):
        classifier.prob_acceptable(["fine", None])


@pytest.mark.slow
@pytest.mark.parametrize(("part", "accuracy", "mcc"), [("in_domain_dev", 0.74, 0.34), ("out_of_domain_dev", 0.71, 0.25)])
def test_dev_regression(classifier, part, accuracy, mcc):
    """The committed weights measured 0.755 / 0.363 (in domain, 527 sentences) and 0.721 /
    0.264 (out of domain, 516) accuracy / MCC (docs/grammar.md); always "acceptable" scores 0.69 /
    0.0, and a loading or pooling bug falls far below these bounds. Runs of one recipe differ by
    several points of MCC between the two sets (an earlier head: 0.326 / 0.301), so the bounds sit a little
    under the committed run's, not at it."""
    texts, labels = read_cola(part)
    scores = binary_metrics(labels, classifier.prob_acceptable(texts))
    assert scores["accuracy"] >= accuracy and scores["mcc"] >= mcc, scores


def test_repeated_content_words_are_judged_unacceptable(classifier):
    bad, good = classifier.prob_acceptable(["The hotel hotel hotel is is cheap and and near the the park.",
                                            "The hotel is cheap and near the park."])
    assert bad < 0.3 < 0.7 < good


def test_repetition_is_judged_unacceptable(classifier):
    """The paper's Table 2 repetition case (its F_g: 0.17)."""
    bad, good = classifier.prob_acceptable(["Elon elon elon elon elon founded tesla tesla tesla.",
                                            "Elon Musk has founded Tesla Motors."])
    assert bad < 0.3 < 0.7 < good


def test_named_model_missing_offline_is_one_clear_line():
    with pytest.raises(ResourceMissingError) as err:
        GrammarClassifier.from_pretrained("no-such-user/no-such-cola-model")
    assert "\n" not in str(err.value) and "no-such-cola-model" in str(err.value)


def test_named_local_sequence_classifier_is_used(tmp_path):
    """A local checkpoint (here: MiniLM with an untrained 2-label head) goes through the hub path."""
    from transformers import AutoModelForSequenceClassification, AutoTokenizer

    from rome.core.encoder import embedded_model_path

    base = str(embedded_model_path())
    model = AutoModelForSequenceClassification.from_pretrained(
        base, num_labels=2, id2label={0: "unacceptable", 1: "acceptable"}, label2id={"unacceptable": 0, "acceptable": 1}
    )
    model.save_pretrained(tmp_path)
    AutoTokenizer.from_pretrained(base).save_pretrained(tmp_path)
    named = GrammarClassifier.from_pretrained(str(tmp_path))
    assert named.acceptable_index == 1
    probs = named.prob_acceptable(["The cat sat on the mat.", ""])
    assert probs[1] == 0.0 and 0.0 < probs[0] < 1.0
