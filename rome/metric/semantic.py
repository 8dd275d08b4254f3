"""RoMe's semantic similarity (paper §2.1, §3.1): an earth mover's distance over aligned words.

Steps, each a small function so tests and ``explain`` can look at them:

1. word weights: sentence-level TF-IDF with idf from general English (WordNet's glosses and
   examples, :meth:`IdfTable.general`), each sentence's weights normalised to sum 1 so that it
   is a probability distribution over its words, as §2.1 describes EMD (:func:`tfidf_weights`);
2. alignment score, Eq. 3 as Figure 3 computes it: ``cos(r_i, h_j) * (1 - pos_ij)`` with the
   relative position difference ``pos_ij = |q(i+1) - p(j+1)| / (pq)`` (:func:`alignment_scores`);
3. hard constraint: a one-to-one alignment, each hypothesis word to at most one reference
   word and each reference word taken at most once (:func:`hard_alignment`), chosen among
   the pairs whose cosine passes delta (see :func:`distance_matrix` for why);
4. transport distance, Eq. 4: ``d_ij = 1 - cos * exp(gamma * pos_ij)`` with the soft penalty
   ``gamma = -|j - i| / max(p, q)`` for hard-aligned pairs whose cosine exceeds delta = 0.6,
   1 for every other pair (:func:`distance_matrix`);
5. EMD, Eq. 1/2/5: transport of total mass ``min(m_sum, n_sum)`` (= 1 for two distributions,
   so every word's weight is moved) solved by POT, divided by that mass; ``F_sem = 1 - EMD``
   (:func:`emd`).

Two departures (D4 and D5, docs/rome.md) in what a word pair's cosine means and which words
weigh: :func:`rome.metric.words.word_similarity` counts one lemma as one word (cosine 1) and two
different numbers as different (0), and the passive voice's own words (*be*, the agent's *by*,
:func:`rome.metric.words.passive_markers`) weigh nothing, as they leave TED-SE's trees.

``mode`` selects the Table 5 ablations: ``"std"`` (plain EMD, ``d = 1 - cos`` everywhere),
``"align"`` (steps 2-4 with the hard position factor of Eq. 3 instead of the soft penalty),
``"soft"`` (the paper's full §3.1).
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from rome.metric.words import Words, passive_markers, word_similarity

MODES = ("std", "align", "soft")
DELTA = 0.6
#: document frequencies of general English (``python -m rome.training.idf``)
GENERAL_IDF_PATH = Path(__file__).resolve().parent / "weights" / "idf_wordnet.json"


class IdfTable:
    """Inverse document frequencies, ``ln((1 + N) / (1 + df)) + 1`` (scikit-learn's smooth idf).

    :meth:`general` (RoMe's default) reads a fixed table of general-English document
    frequencies; ``IdfTable([ref_terms, hyp_terms])`` is the pair-level table of the first
    implementation (words both share weigh 1, words only one has weigh ln(3/2) + 1, however
    common), kept as ``RoMe(idf="pair")``.
    """

    def __init__(self, documents: Iterable[Iterable[str]] = (), name: str = "corpus") -> None:
        df: Counter[str] = Counter()
        n_docs = 0
        for doc in documents:
            df.update(set(doc))
            n_docs += 1
        self.n_docs = n_docs
        self._df = df
        self.name = name

    @classmethod
    def from_counts(cls, n_docs: int, df: Mapping[str, int], name: str) -> IdfTable:
        table = cls(name=name)
        table.n_docs, table._df = n_docs, Counter(df)
        return table

    @staticmethod
    @lru_cache(maxsize=1)
    def general() -> IdfTable:
        """The committed general-English table (WordNet 3.0 glosses and examples)."""
        data = json.loads(GENERAL_IDF_PATH.read_text(encoding="utf-8"))
        return IdfTable.from_counts(int(data["n_docs"]), data["df"], "wordnet")

    def __getitem__(self, term: str) -> float:
        return math.log((1 + self.n_docs) / (1 + self._df.get(term, 0))) + 1.0


def tfidf_weights(terms: list[str], idf: Mapping[str, float] | IdfTable) -> np.ndarray:
    """Each word's TF-IDF in its sentence, normalised to sum 1: the sentence as a distribution.

    Repeated words share their term's weight, so "tesla tesla tesla" weighs no more than the
    term would with its count. Summing to 1 (rather than the L2 norm of the first
    implementation) makes Eq. 2's total mass ``min(m_sum, n_sum)`` = 1 for both sentences, so
    every word ships its weight: a hypothesis word with no match (an added, repeated or
    wrong word) and a reference word the hypothesis lost both cost; with L2 norms the
    lighter side shipped only its own mass and additions and omissions were nearly free.
    """
    if not terms:
        return np.zeros(0)
    counts = Counter(terms)
    term_weight = {t: c / len(terms) * idf[t] for t, c in counts.items()}
    total = sum(term_weight.values())
    return np.array([term_weight[t] / counts[t] / total for t in terms])


def relative_position(p: int, q: int) -> np.ndarray:
    """``|q(i+1) - p(j+1)| / (pq)`` for reference word i (of p) and hypothesis word j (of q)."""
    i = np.arange(p).reshape(-1, 1)
    j = np.arange(q).reshape(1, -1)
    return np.abs(q * (i + 1) - p * (j + 1)) / (p * q)


def alignment_scores(cos: np.ndarray) -> np.ndarray:
    """Eq. 3 as Figure 3 computes it: cosine times ``1 - relative position difference``.

    Eq. 3 is printed without the ``1 -``, but every number of Figure 3 is
    ``cos * (1 - pos)`` (e.g. founded/founded: 0.97 = 1 - 1/35); without it the score
    would reward distant positions.
    """
    return cos * (1.0 - relative_position(*cos.shape))


def hard_alignment(scores: np.ndarray) -> np.ndarray:
    """Boolean (p, q) mask of a one-to-one alignment maximising the total alignment score.

    Solved as an assignment problem (scipy's Hungarian solver), which is the hard constraint
    of §3.1 in both directions: no hypothesis word aligns to two reference words and no
    reference word is taken twice, so "tesla tesla tesla" aligns one "tesla" only.
    """
    from scipy.optimize import linear_sum_assignment

    rows, cols = linear_sum_assignment(scores, maximize=True)
    mask = np.zeros(scores.shape, dtype=bool)
    mask[rows, cols] = True
    return mask


def soft_penalty(p: int, q: int) -> np.ndarray:
    """``exp(gamma * pos_ij)`` with ``gamma = -|j - i| / max(p, q)`` (Eq. 4 and §3.1)."""
    i = np.arange(p).reshape(-1, 1)
    j = np.arange(q).reshape(1, -1)
    gamma = -np.abs(j - i) / max(p, q)
    return np.exp(gamma * relative_position(p, q))


def distance_matrix(cos: np.ndarray, mode: str = "soft", delta: float = DELTA) -> np.ndarray:
    """The (p, q) transport distances of one pair for an ablation ``mode`` (see module doc).

    The one-to-one alignment is solved over the confident pairs only (cosine > delta). Run
    over all pairs, the position factor of Eq. 3 lets a near but unrelated word win the
    assignment (MiniLM gives unrelated words cosines of 0.3-0.6), and the word's true match
    in a passive rewrite is lost, e.g. "Tesla ... Elon" would take "Tesla"'s only alignment.
    """
    if mode not in MODES:
        raise ValueError(f"semantic mode must be one of {MODES}, got {mode!r}")
    if mode == "std":
        return np.clip(1.0 - cos, 0.0, 1.0)
    confident = cos > delta
    aligned = hard_alignment(np.where(confident, alignment_scores(cos), 0.0)) & confident
    factor = 1.0 - relative_position(*cos.shape) if mode == "align" else soft_penalty(*cos.shape)
    close = cos * factor
    return np.where(aligned, np.clip(1.0 - close, 0.0, 1.0), 1.0)


def emd(ref_weights: np.ndarray, hyp_weights: np.ndarray, distances: np.ndarray) -> float:
    """Eq. 1/5 under the constraints of Eq. 2: partial transport of ``min(m_sum, n_sum)``.

    ``ot.partial.partial_wasserstein`` adds a dummy point and solves the exact LP, so each
    word ships at most its weight (the marginal inequalities the released code dropped).
    """
    import ot

    m_sum, n_sum = ref_weights.sum(), hyp_weights.sum()
    mass = min(m_sum, n_sum)
    if mass <= 0:
        return 1.0
    if abs(m_sum - n_sum) < 1e-9:  # two distributions: the plain (faster) exact solver
        plan = ot.emd(ref_weights, hyp_weights * (m_sum / n_sum), distances)
    else:
        plan = ot.partial.partial_wasserstein(ref_weights, hyp_weights, distances, m=mass)
    return float(np.clip((plan * distances).sum() / mass, 0.0, 1.0))


@dataclass(frozen=True)
class SemanticResult:
    f_sem: float
    distances: np.ndarray
    ref_weights: np.ndarray
    hyp_weights: np.ndarray


def semantic_similarity(
    ref: Words,
    hyp: Words,
    mode: str = "soft",
    delta: float = DELTA,
    idf: Mapping[str, float] | IdfTable | None = None,
    rules: bool = True,
) -> SemanticResult:
    """``F_sem = 1 - EMD(H, R)`` for one pair; ``idf`` defaults to the general-English table.

    ``rules=False`` (``rome/paper``) drops this project's word rules (one lemma one word, numbers,
    verb groups, the passive's weightless markers): plain cosines and plain TF-IDF weights, as the
    paper has them. Two different prepositions or articles keep their cosine here (TED-SE holds them
    apart): the EMD measures how much meaning one sentence carries of the other, and two prepositions'
    closeness is a fair answer for a paraphrase (docs/rome.md: D6 and "Tried and rejected").
    """
    if len(ref) == 0 or len(hyp) == 0:
        return SemanticResult(0.0, np.ones((len(ref), len(hyp))), np.zeros(len(ref)), np.zeros(len(hyp)))
    table = idf if idf is not None else IdfTable.general()
    distances = distance_matrix(word_similarity(ref, hyp, rules), mode, delta)
    if rules:
        m, n = content_weights(ref, table), content_weights(hyp, table)
    else:
        m, n = tfidf_weights(ref.keys, table), tfidf_weights(hyp.keys, table)
    return SemanticResult(1.0 - emd(m, n, distances), distances, m, n)


def content_weights(words: Words, idf: Mapping[str, float] | IdfTable) -> np.ndarray:
    """:func:`tfidf_weights` with the passive voice's markers at 0, renormalised to sum 1.

    "Chinese food is served by House of nanking" then ships the same content as "House of
    nanking serves chinese food"; a sentence of markers only keeps its plain weights.
    """
    weights = tfidf_weights(words.keys, idf)
    markers = list(passive_markers(words))
    if markers and len(markers) < len(words):
        weights[markers] = 0.0
        weights /= weights.sum()
    return weights
