"""MoverScore (Zhao et al. 2019), moverscore_v2's ``word_mover_score`` re-implemented on POT.

Written here because the ``moverscore`` 1.0.3 package cannot run as shipped (it downloads
DistilBERT from the hub and moves it to ``cuda:0`` at import, and uses APIs removed from
transformers and numpy; docs/moverscore.md lists the obstacles). The computation is the
package's, step by step, on the shared cached encoder; tests/test_baselines_moverscore.py
proves equality with the real package patched in memory.

Per pair: tokens are [CLS] + word pieces + [SEP] (truncated to the model's limit); pieces that
are stop words, contain ``##`` or are one punctuation character get zero weight; the other
tokens carry idf weights (or 1); last-layer embeddings are L2-normalised; the score is
1 - the earth mover's distance between the reference's and the hypothesis's weighted tokens
under Euclidean distance (1-grams, as moverscore_v2 computes whatever ``n_gram`` says).

One departure from the package, where it is not well defined: a text whose idf weights give
it no mass at all (a lone "." once punctuation is dropped and [CLS]/[SEP], present in every
text, have idf 0; every text of a corpus sharing one reference) has nothing to move, and
moverscore_v2 then scores the pair 1.0, a perfect score for "." against any translation.
Here that text alone is weighted uniformly, as the package weights every text in its
uniform mode (docs/moverscore.md has the rule and the measurements).
"""

from __future__ import annotations

import hashlib
import string
import warnings
from collections import defaultdict
from collections.abc import Sequence
from importlib.metadata import version

import numpy as np

from baselines._corpus import CorpusFittedMetric, fit_idf, flat_references
from rome.core.encoder import TokenEmbeddings, get_encoder
from rome.core.errors import InputError

WEIGHTS = ("idf", "uniform")
PUNCTUATION = frozenset(string.punctuation)

IdfPair = tuple[dict[int, float], dict[int, float]]


def english_stop_words() -> frozenset[str]:
    """scikit-learn's English stop-word list (318 words), for ``stop_words="english"``."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return frozenset(ENGLISH_STOP_WORDS)


class MoverScore(CorpusFittedMetric):
    """1 - EMD between idf-weighted contextual token embeddings of reference and hypothesis.

    ``weights="idf"`` (the package README's recipe) fits one idf on the references and another
    on the hypotheses: of each ``score`` call, or of the corpus given to :meth:`prepare`.
    ``weights="uniform"`` gives every token (also [CLS] and [SEP]) weight 1, as the package's
    ``defaultdict(lambda: 1.)``. Multi-reference: the best score over the references.

    Degenerate idf, where moverscore_v2 scores 1.0 whatever the texts (no mass, no flow, no cost):

    * a call without :meth:`prepare` with fewer than two references or hypotheses (idf of a
      one-text corpus is 0 everywhere) uses uniform weights throughout, with a warning;
    * a text left with no idf mass (only stop words, punctuation, sub-words and idf-0 tokens:
      a lone ".", or references all equal) is weighted uniformly on its own, the other side
      keeping its idf; a warning says so once per metric. Elsewhere the scores equal the package's;
    * a text with no token to weigh even then (custom stop words covering [CLS] and [SEP])
      gets the worst score, -1, like an empty hypothesis.
    """

    name = "moverscore"
    uses_encoder = True
    batch_dependent = True
    score_range = (-1.0, 1.0)

    def __init__(
        self, model: str | None = None, weights: str = "idf", stop_words: str | Sequence[str] = ()
    ) -> None:
        super().__init__()
        if weights not in WEIGHTS:
            raise InputError(f"moverscore weights must be one of {', '.join(WEIGHTS)}, got {weights!r}")
        self.encoder = get_encoder(model)
        self.weights = weights
        self.batch_dependent = weights == "idf"
        self.stop_words, self.stop_words_label = _stop_words(stop_words)

    # -- weights ----------------------------------------------------------------------
    def _fit(self, hypotheses: list[str], references: list[list[str]]) -> IdfPair | None:
        if self.weights != "idf":
            return None
        refs = flat_references(references)
        if len(refs) < 2 or len(hypotheses) < 2:
            warnings.warn(
                "moverscore idf needs a corpus of at least two texts per side; using uniform "
                "weights (call prepare() on the whole input, or pass weights='uniform')",
                stacklevel=4,
            )
            return None
        tokenizer = self.encoder.tokenizer
        return fit_idf(refs, tokenizer), fit_idf(hypotheses, tokenizer)

    def _idf(self) -> IdfPair:
        stats = self._stats()
        if stats is not None:
            return stats
        uniform: dict[int, float] = defaultdict(lambda: 1.0)
        return uniform, uniform

    # -- scoring ----------------------------------------------------------------------
    def _score_pairs(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        unique = list(dict.fromkeys([*references, *hypotheses]))
        table = dict(zip(unique, self.encoder.encode(unique)))
        idf_ref, idf_hyp = self._idf()
        return np.array(
            [self._pair(table[r], table[h], idf_ref, idf_hyp) for h, r in zip(hypotheses, references)]
        )

    def _pair(
        self, ref: TokenEmbeddings, hyp: TokenEmbeddings, idf_ref: dict[int, float], idf_hyp: dict[int, float]
    ) -> float:
        import ot

        ref_mass, ref_vectors = self._weighted_tokens(ref, idf_ref)
        hyp_mass, hyp_vectors = self._weighted_tokens(hyp, idf_hyp)
        if ref_mass.sum() == 0 or hyp_mass.sum() == 0:
            return self.worst_score  # nothing to weigh even uniformly (stop words cover [CLS]/[SEP])
        cost = ot.dist(ref_vectors, hyp_vectors, metric="euclidean")
        return 1.0 - float(ot.emd2(ref_mass / ref_mass.sum(), hyp_mass / hyp_mass.sum(), cost))

    def _weighted_tokens(self, emb: TokenEmbeddings, idf: dict[int, float]) -> tuple[np.ndarray, np.ndarray]:
        """Weights and unit vectors of the tokens that carry mass (zero-weight ones cannot move).

        A text to which idf gives no mass is weighted uniformly over its non-ignored tokens
        ([CLS] and [SEP] included), where moverscore_v2 would move nothing and score 1.0.
        """
        counted = np.array([not self._ignored(tok) for tok in emb.tokens])
        mass = np.array([idf[tid] if keep else 0.0 for keep, tid in zip(counted, emb.input_ids)])
        if mass.sum() == 0 and counted.any():
            self._warn_uniform_fallback()
            mass = counted.astype(np.float64)
        keep = mass > 0
        vectors = emb.vectors[keep].astype(np.float64)
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-30
        return mass[keep], vectors

    def _warn_uniform_fallback(self) -> None:
        if not getattr(self, "_warned_fallback", False):
            self._warned_fallback = True
            warnings.warn("moverscore: a text has no idf-weighted token (e.g. only punctuation, or every "
                          "reference alike); that text is weighted uniformly (docs/moverscore.md)", stacklevel=2)

    def _ignored(self, token: str) -> bool:
        return token in self.stop_words or "##" in token or token in PUNCTUATION

    def _signature_fields(self) -> list[tuple[str, object]]:
        return [
            ("model", self.encoder.signature_name), ("layer", "last"), ("weights", self.weights),
            ("stop", self.stop_words_label), ("n_gram", 1), ("emd", f"pot-{version('POT')}"),
        ]


def _stop_words(stop_words: str | Sequence[str]) -> tuple[frozenset[str], str]:
    """The stop-word set and its signature label: ``none``, ``english`` or ``custom-<hash>``."""
    if isinstance(stop_words, str):
        if stop_words in ("", "none"):
            return frozenset(), "none"
        if stop_words == "english":
            return english_stop_words(), "english"
        raise InputError(f"moverscore stop_words must be 'none', 'english' or a list of words, got {stop_words!r}")
    words = frozenset(stop_words)
    if not words:
        return words, "none"
    digest = hashlib.sha1(" ".join(sorted(words)).encode()).hexdigest()[:8]
    return words, f"custom-{digest}"
