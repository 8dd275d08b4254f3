"""The scorer's feature cache (issue #11): reused only while the pipeline's fingerprints hold."""

from __future__ import annotations

import numpy as np
import pytest

from rome.training.negatives import Pair
from rome.training.scorer import cached_features, feature_fingerprint, train_net

TRAIN = [Pair("The cafe serves thai food .", "Thai food is served at the cafe .", 1, "paraphrase", "m1"),
         Pair("The cafe serves thai food .", "The cafe serves AAA food .", 0, "random_word_aaa", "m1")]
TEST = [Pair("The inn is cheap .", "The inn is inexpensive .", 1, "paraphrase", "m2")]
STALE = 0.123  # a value the real classifier does not give these texts


def _stamp(path, **changes) -> None:
    stored = dict(np.load(path))
    np.savez(path, **{**stored, **changes})


@pytest.mark.slow
def test_grammar_column_is_recomputed_when_the_grammar_weights_change(tmp_path):
    path = tmp_path / "feats.npz"
    x, _, reused = cached_features(path, TRAIN, TEST, "grammar.safetensors:aaa")
    assert reused == "none" and not np.isnan(x).any()
    real_f_g = x[:, 2].copy()
    stored = dict(np.load(path))
    stored["train"][:, 2] = STALE
    _stamp(path, train=stored["train"])

    x, _, reused = cached_features(path, TRAIN, TEST, "grammar.safetensors:aaa")
    assert reused == "all" and (x[:, 2] == STALE).all()  # same weights: the cached column is used

    x, _, reused = cached_features(path, TRAIN, TEST, "grammar.safetensors:bbb")
    assert reused == "semantic", "F_sem and F_ted still hold; only F_g is recomputed"
    assert np.allclose(x[:, 2], real_f_g) and STALE not in x[:, 2]
    assert str(np.load(path)["grammar"]) == "grammar.safetensors:bbb"


@pytest.mark.slow
def test_other_pairs_or_another_pipeline_recompute_everything(tmp_path):
    path = tmp_path / "feats.npz"
    cached_features(path, TRAIN, TEST, None)
    stored = dict(np.load(path))
    _stamp(path, train=np.full_like(stored["train"], STALE))
    x, _, reused = cached_features(path, TRAIN[:1], TEST, None)
    assert reused == "none" and STALE not in x
    _stamp(path, train=np.full_like(x, STALE), features=np.array("rome|code:stale"))
    x, _, reused = cached_features(path, TRAIN[:1], TEST, None)
    assert reused == "none" and STALE not in x
    assert str(np.load(path)["features"]) == feature_fingerprint()
    assert "code:" in feature_fingerprint() and "theta:" in feature_fingerprint()


@pytest.mark.slow
def test_training_is_deterministic():
    rng = np.random.default_rng(0)
    x = rng.random((200, 3))
    y = (x.sum(axis=1) + rng.normal(0, 0.3, 200) > 1.5).astype(float)
    a, b = train_net(x, y, ("f_sem", "f_ted", "f_g"), seed=3), train_net(x, y, ("f_sem", "f_ted", "f_g"), seed=3)
    assert np.array_equal(a.w1, b.w1) and np.array_equal(a.w2, b.w2) and a.b2 == b.b2
