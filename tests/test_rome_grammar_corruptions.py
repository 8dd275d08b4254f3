"""The grammar classifier's pre-training data (intact vs damaged texts) and its low-rank storage."""

from __future__ import annotations

import random

import numpy as np
import pytest

from rome.training.grammar_corruptions import (
    DAMAGES,
    Word,
    _damage,
    corruption_pairs,
    damage,
    detokenize,
    other_inflections,
    tag,
)

SENTENCE = [Word("The", "DET", "the"), Word("dog", "NOUN", "dog"), Word("chases", "VERB", "chase"),
            Word("the", "DET", "the"), Word("cat", "NOUN", "cat"), Word(".", "PUNCT", ".")]


@pytest.mark.parametrize("words, text", [
    (["I", "'m", "here", "."], "I'm here."),
    (["they", "do", "n't", "know", ",", "do", "they", "?"], "They don't know, do they?"),
    (["a", "(", "small", ")", "price", "of", "$", "5"], "A (small) price of $5"),
    (["John", "'s", "dog", "barked", "!"], "John's dog barked!"),
])
def test_detokenize_table(words, text):
    assert detokenize(words) == text


def test_each_damage_kind_changes_the_words_as_named():
    rng = random.Random(0)
    words = [w.text for w in SENTENCE]
    swapped = _damage(SENTENCE, "swap", rng)
    assert sorted(swapped) == sorted(words) and swapped != words
    deleted = _damage(SENTENCE, "delete", rng)
    assert len(deleted) == len(words) - 1 and "." in deleted
    inserted = _damage(SENTENCE, "insert", rng)
    assert len(inserted) == len(words) + 1
    inflected = _damage(SENTENCE, "inflect", rng)
    changed = [(a, b) for a, b in zip(words, inflected) if a != b]
    assert len(changed) == 1 and changed[0][0] in {"dog", "chases", "cat"}
    moved = _damage(SENTENCE, "move", rng)
    assert sorted(moved) == sorted(words) and moved != words
    repeated = _damage(SENTENCE, "repeat", rng)
    extra = len(repeated) - len(words)
    assert 2 <= extra <= 4
    i = next(k for k, (a, b) in enumerate(zip(words, repeated)) if a != b) - 1  # the stuttered word
    assert repeated[i + 1 : i + 1 + extra] == [words[i].lower()] * extra
    assert repeated[:i + 1] + repeated[i + 1 + extra:] == words


def test_inflections_come_from_lemminflect():
    assert "chased" in other_inflections(Word("chases", "VERB", "chase"))
    assert "chases" not in other_inflections(Word("chases", "VERB", "chase"))
    assert {"were", "is", "be"} <= set(other_inflections(Word("was", "AUX", "be")))


def test_damage_never_returns_the_clean_text_and_is_seeded():
    clean = detokenize([w.text for w in SENTENCE])
    outs = [damage(SENTENCE, random.Random(seed)) for seed in range(40)]
    assert all(o is not None and o.lower() != clean.lower() for o in outs)
    assert all(o[0].isupper() for o in outs)  # capitals are no cue
    assert outs == [damage(SENTENCE, random.Random(seed)) for seed in range(40)]
    assert len(set(outs)) > 10
    assert damage(SENTENCE[:2], random.Random(0)) is None
    assert set(DAMAGES) == {"swap", "delete", "insert", "inflect", "move", "repeat"}


def test_corruption_pairs_with_the_real_tagger():
    texts = ["The committee approved the new budget yesterday.", "She has written three books.", "Yes.",
             "Rain is expected in the north."]
    pairs, labels = corruption_pairs(texts, seed=3)
    assert labels == [1, 0] * (len(pairs) // 2) and len(pairs) == 6  # "Yes." has no room for damage
    assert pairs[0] == texts[0] and pairs[1] != pairs[0]
    assert corruption_pairs(texts, seed=3) == (pairs, labels)
    assert [w.pos for w in tag(["She runs."])[0]] == ["PRON", "VERB", "PUNCT"]


def test_low_rank_delta_round_trip():
    import torch

    from rome.metric.grammar import apply_low_rank_delta, low_rank_delta

    gen = torch.Generator().manual_seed(0)
    base = {"layers.0.w": torch.randn(12, 8, generator=gen), "layers.0.b": torch.zeros(12)}
    tuned = {"layers.0.w": base["layers.0.w"] + torch.randn(12, 3, generator=gen) @ torch.randn(3, 8, generator=gen),
             "layers.0.b": torch.ones(12), "head.weight": torch.ones(1, 12)}
    stored = low_rank_delta(tuned, base, rank=3)
    assert set(stored) == {"layers.0.w.delta_a", "layers.0.w.delta_b", "layers.0.b", "head.weight"}
    assert stored["layers.0.w.delta_a"].shape == (12, 3) and stored["layers.0.w.delta_b"].shape == (3, 8)
    back = apply_low_rank_delta(stored, base)
    np.testing.assert_allclose(back["layers.0.w"].numpy(), tuned["layers.0.w"].numpy(), atol=1e-5)
    assert torch.equal(back["layers.0.b"], tuned["layers.0.b"]) and set(back) == set(tuned)
    with pytest.raises(ValueError, match="pretrained layers"):  # a random head is no base
        low_rank_delta(tuned, {**base, "head.weight": torch.zeros(1, 12)}, rank=1)
    truncated = apply_low_rank_delta(low_rank_delta(tuned, base, rank=1), base)
    assert not np.allclose(truncated["layers.0.w"].numpy(), tuned["layers.0.w"].numpy(), atol=1e-3)
