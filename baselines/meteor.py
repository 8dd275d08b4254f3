"""METEOR from nltk (Banerjee & Lavie 2005) with WordNet synonyms read offline.

nltk's ``meteor_score`` wants pre-tokenised input; we tokenise with sacrebleu's ``13a``
tokenizer (punctuation split off, as in WMT evaluations) and lower-case, as METEOR does.
nltk matches synonyms on stemmed words, so some WordNet synonyms never match
(car/automobile): that is nltk's behaviour and is kept.
"""

from __future__ import annotations

import functools

import numpy as np

from rome.core import nltk_data
from rome.core.contract import Metric


@functools.lru_cache(maxsize=1)
def _tokenizer():
    """One 13a tokenizer for the process: building one compiles its regular expressions."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    return Tokenizer13a()


def meteor_tokens(text: str) -> list[str]:
    return _tokenizer()(text.lower()).split()


class METEOR(Metric):
    """nltk ``meteor_score`` (alpha 0.9, beta 3, gamma 0.5); best over references (nltk's rule)."""

    name = "meteor"

    def __init__(self, alpha: float = 0.9, beta: float = 3.0, gamma: float = 0.5) -> None:
        self.alpha, self.beta, self.gamma = alpha, beta, gamma
        self._wordnet_reader = None

    @property
    def _wordnet(self):
        """WordNet, loaded on the first score (seconds), so building the metric for its
        signature alone (a warm suite cache) does not pay for it."""
        if self._wordnet_reader is None:
            self._wordnet_reader = nltk_data.wordnet()
        return self._wordnet_reader

    def _score_multi(self, hypotheses: list[str], references: list[list[str]]) -> np.ndarray:
        from nltk.translate.meteor_score import meteor_score

        out = []
        for hyp, refs in zip(hypotheses, references):
            ref_tokens = [meteor_tokens(r) for r in refs]
            out.append(
                meteor_score(
                    ref_tokens, meteor_tokens(hyp), alpha=self.alpha, beta=self.beta,
                    gamma=self.gamma, wordnet=self._wordnet,
                )
            )
        return np.array(out, dtype=np.float64)

    def _score_pairs(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        return self._score_multi(hypotheses, [[r] for r in references])

    def _signature_fields(self) -> list[tuple[str, object]]:
        import nltk

        return [
            ("nltk", nltk.__version__), ("wordnet", "3.0-debian"), ("tok", "13a-lc"),
            ("alpha", self.alpha), ("beta", self.beta), ("gamma", self.gamma),
        ]
