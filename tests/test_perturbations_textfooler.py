"""TextFooler swap: TextAttack building blocks offline, the guards, and the variants it makes."""

from __future__ import annotations

import numpy as np
import pytest
from require_extras import missing

from perturbations import _embeddings, _thirdparty
from perturbations.base import apply_edits
from perturbations.textfooler import WORDNET, TextFoolerSwap, _meaning_kept

EAGLE = "The Eagle is a cheap coffee shop near the river in the city centre."
NO_ITALIAN = "There are no restaurants that serve Italian food in this area."


def need_textattack():
    if not _thirdparty.available("textattack"):
        missing(f"textattack not importable: {_thirdparty.missing_reason('textattack')}")


def test_nearest_neighbour_matrix_matches_brute_force():
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(300, 16)).astype(np.float32)
    nn = _embeddings.nearest_neighbour_matrix(vectors, k=5, chunk=64)
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    sims = unit @ unit.T
    np.fill_diagonal(sims, np.inf)
    assert (nn[:, 0] == np.arange(300)).all()  # self first, as TextAttack's nn.npy
    assert (nn == np.argsort(-sims, axis=1)[:, :5]).all()


def test_minilm_word_embedding_is_a_working_textattack_embedding():
    need_textattack()
    from textattack.shared import WordEmbedding

    table = _embeddings.minilm_word_embedding()
    assert isinstance(table, WordEmbedding) and table.nn_matrix.shape[0] > 20_000
    neighbours = [table.index2word(i) for i in table.nearest_neighbours(table.word2index("restaurant"), 5)]
    assert "restaurants" in neighbours


@pytest.mark.parametrize("old,new,kept", [
    ("cheap", "expensive", False),  # WordNet antonym (close in MiniLM's input embeddings)
    ("good", "bad", False),
    ("serves", "served", False),  # same lemma: an inflection, not a synonym
    ("hotels", "hotel", False),
    ("cheap", "inexpensive", True),
    ("restaurants", "eateries", True),
])
def test_meaning_guard(old, new, kept):
    assert _meaning_kept(old, new) is kept


def test_part_of_speech_constraint_tags_with_spacy():
    need_textattack()
    from textattack.constraints.grammaticality import PartOfSpeech

    from perturbations.textfooler import _spacy_pos_class

    pos = _spacy_pos_class()()
    assert isinstance(pos, PartOfSpeech)
    assert pos._get_pos(["The"], "hotel", ["is", "cheap"]) == "NN"
    assert pos._get_pos(["The", "hotel"], "serves", ["food"]) == "VBZ"


def check_variant(text: str, p: TextFoolerSwap, seed: int = 0):
    result = p.apply(text, seed)
    (variant,) = result.variants
    assert variant.kind == "textfooler" and variant.expectation == "invariant"
    assert apply_edits(text, list(variant.edits)) == variant.text
    swaps = variant.meta["swaps"]
    assert 1 <= len(swaps) <= p.n_words
    assert all(s["old"] != s["new"] and _meaning_kept(s["old"], s["new"]) for s in swaps)
    assert variant.meta["sentence_similarity"] >= p.min_sentence_sim
    assert p.apply(text, seed) == result
    return variant


def test_textattack_path_offline():
    need_textattack()
    p = TextFoolerSwap()
    expected = _embeddings.COUNTER_FITTED if _embeddings.counter_fitted_cached() else _embeddings.MINILM_INPUT
    assert p.backend() == expected
    variant = check_variant(EAGLE, p)
    assert variant.meta["embedding"] == expected
    if expected == _embeddings.MINILM_INPUT:
        assert "an inexpensive" in variant.text  # cheap -> inexpensive, with a -> an
        assert "The Eagle" in variant.text  # stop words and sentence-initial "The" kept


def test_wordnet_path():
    p = TextFoolerSwap(use_textattack=False)
    assert p.backend() == WORDNET
    variant = check_variant(NO_ITALIAN, p)
    assert variant.text == "There are no eateries that serve Italian food in this region."
    assert check_variant(EAGLE, p).text.startswith("The Eagle is an inexpensive ")


@pytest.mark.parametrize("text,expected", [  # WordNet path, outputs read and judged correct by hand
    ("She bought an old car from her neighbour.", "She purchased an old automobile from her neighbour."),
    ("The museum is closed on Mondays.", "The museum is shut on Mondays."),
])
def test_wordnet_path_table(text, expected):
    assert check_variant(text, TextFoolerSwap(use_textattack=False)).text == expected


def test_long_text_never_raises():
    text = " ".join([EAGLE, NO_ITALIAN] * 4)  # ~100 words
    result = TextFoolerSwap(use_textattack=False).apply(text, 0)
    assert result.variants and apply_edits(text, list(result.variants[0].edits)) == result.variants[0].text


@pytest.mark.parametrize("text", ["it is the", "!!!", "the of and"])
def test_nothing_to_swap_is_skipped(text):
    result = TextFoolerSwap(use_textattack=False).apply(text, 0)
    assert not result.variants and "no word" in result.skipped


def test_counter_fitted_used_when_cached(tmp_path, monkeypatch):
    folder = tmp_path / "word_embeddings" / "paragramcf"
    folder.mkdir(parents=True)
    for name in ("paragram.npy", "wordlist.pickle", "nn.npy"):
        (folder / name).write_bytes(b"")
    monkeypatch.setenv("TA_CACHE_DIR", str(tmp_path))
    assert _embeddings.counter_fitted_cached()
    if _thirdparty.available("textattack"):
        assert TextFoolerSwap().backend() == _embeddings.COUNTER_FITTED
    monkeypatch.setenv("TA_CACHE_DIR", str(tmp_path / "empty"))
    assert not _embeddings.counter_fitted_cached()


def test_bad_settings_are_rejected():
    with pytest.raises(ValueError):
        TextFoolerSwap(embedding="glove")
    with pytest.raises(ValueError):
        TextFoolerSwap(n_words=0)


@pytest.mark.parametrize("text,start,new,expected", [
    ("is an indian place", 6, "chinese", "is a chinese place"),
    ("A cheap one", 2, "inexpensive", "An inexpensive one"),
    ("banana cheap", 7, "old", "banana old"),
    ("an 7", 3, "7", "an 7"),
])
def test_article_agreement(text, start, new, expected):
    from perturbations._text import with_article_fixes
    from perturbations.base import Edit

    end = start + len(text[start:].split()[0])
    edits = with_article_fixes(text, [Edit(start, end, text[start:end], new)])
    assert apply_edits(text, edits) == expected
