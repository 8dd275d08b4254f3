"""Word and sentence embeddings for the TextFooler perturbation, offline first.

TextFooler (Jin et al., 2020) uses counter-fitted Paragram vectors for candidate words and the
Universal Sentence Encoder for sentence similarity; TextAttack downloads both at run time.
:func:`word_embedding` uses the counter-fitted table when it is already in the user's TextAttack
cache, otherwise builds a ``textattack.shared.WordEmbedding`` from the embedded MiniLM encoder's
whole-word *input* embeddings, with a precomputed ``nn_matrix`` (TextAttack 0.3.11's
``nearest_neighbours`` fails without one). :func:`sentence_similarity` uses the embedded encoder
(``rome.core.encoder.get_encoder()``: mean-pooled, as sentence-transformers pools MiniLM).
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
from collections.abc import Sequence

import numpy as np

from perturbations import _thirdparty

COUNTER_FITTED = "counter-fitted-paragram"
MINILM_INPUT = "minilm-input-embeddings"
_WHOLE_WORD = re.compile(r"^[a-z]{2,}$")


def counter_fitted_cached() -> bool:
    """Whether TextAttack's counter-fitted embedding is in the user's cache (no download needed)."""
    cache = os.environ.get("TA_CACHE_DIR", os.path.expanduser("~/.cache/textattack"))
    folder = os.path.join(cache, "word_embeddings", "paragramcf")
    return all(os.path.exists(os.path.join(folder, f)) for f in ("paragram.npy", "wordlist.pickle", "nn.npy"))


def nearest_neighbour_matrix(vectors: np.ndarray, k: int, chunk: int = 2048) -> np.ndarray:
    """Row i: the indices of the ``k`` nearest rows to row i by cosine, i itself first."""
    import torch

    unit = torch.nn.functional.normalize(torch.from_numpy(np.asarray(vectors, dtype=np.float32)), dim=1)
    out = np.empty((len(unit), k), dtype=np.int64)
    with torch.no_grad():
        for lo in range(0, len(unit), chunk):
            sims = unit[lo : lo + chunk] @ unit.T
            rows = torch.arange(sims.shape[0])
            sims[rows, lo + rows] = float("inf")  # self first, as TextAttack's nn.npy has it
            out[lo : lo + chunk] = sims.topk(k, dim=1).indices.numpy()
    return out


def _cached_nn_matrix(vectors: np.ndarray, words: list[str], k: int) -> np.ndarray:
    """:func:`nearest_neighbour_matrix`, kept on disk keyed by the vocabulary and vectors."""
    from rome.core.nltk_data import data_dir

    digest = hashlib.sha256("\n".join(words).encode() + vectors.tobytes()).hexdigest()[:16]
    path = data_dir().parent / "textfooler" / f"minilm-nn-{k}-{digest}.npy"
    if path.exists():
        return np.load(path)
    nn = nearest_neighbour_matrix(vectors, k)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
    np.save(tmp, nn)
    os.replace(tmp, path)
    return nn


@functools.lru_cache(maxsize=2)
def minilm_word_embedding(k: int = 51):
    """A ``WordEmbedding`` over MiniLM's whole-word vocabulary (≈ 21.7k words; built in seconds)."""
    _thirdparty.textattack()
    from textattack.shared import WordEmbedding

    from rome.core.encoder import get_encoder

    encoder = get_encoder()
    vocab = encoder.tokenizer.get_vocab()
    words = sorted(w for w in vocab if _WHOLE_WORD.match(w))
    matrix = encoder.model.get_input_embeddings().weight.detach().cpu().numpy()
    vectors = np.ascontiguousarray(matrix[[vocab[w] for w in words]], dtype=np.float32)
    word2index = {w: i for i, w in enumerate(words)}
    index2word = dict(enumerate(words))
    return WordEmbedding(vectors, word2index, index2word, nn_matrix=_cached_nn_matrix(vectors, words, k))


def word_embedding(prefer: str = "auto"):
    """``(name, WordEmbedding)``: counter-fitted when cached (or asked for), else MiniLM's."""
    if prefer == COUNTER_FITTED or (prefer == "auto" and counter_fitted_cached()):
        _thirdparty.textattack()
        from textattack.shared import WordEmbedding

        return COUNTER_FITTED, WordEmbedding.counterfitted_GLOVE_embedding()
    return MINILM_INPUT, minilm_word_embedding()


def sentence_vectors(texts: Sequence[str]) -> np.ndarray:
    """Unit-length mean-pooled last-layer vectors of the embedded encoder (special tokens left out)."""
    from rome.core.encoder import get_encoder

    out = []
    for emb in get_encoder().encode(list(texts)):
        keep = [i for i, (s, e) in enumerate(emb.offsets) if e > s]
        vec = emb.vectors[keep].mean(axis=0) if keep else np.zeros(emb.vectors.shape[1], np.float32)
        out.append(vec / max(float(np.linalg.norm(vec)), 1e-12))
    return np.stack(out) if out else np.zeros((0, 0), np.float32)


def sentence_similarity(original: str, others: Sequence[str]) -> np.ndarray:
    """Cosine similarity of each of ``others`` to ``original`` (embedded MiniLM encoder)."""
    if not others:
        return np.zeros(0)
    vecs = sentence_vectors([original, *others])
    return vecs[1:] @ vecs[0]
