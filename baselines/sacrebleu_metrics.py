"""BLEU, chrF and TER from sacrebleu, sentence level, with sacrebleu's native multi-reference."""

from __future__ import annotations

import numpy as np

from rome.core.contract import Metric


class _SacreBLEUMetric(Metric):
    """Shared plumbing: one sacrebleu metric object, ``sentence_score`` per hypothesis."""

    score_range = (0.0, 100.0)
    side_process = True

    def __init__(self) -> None:
        self._impl = self._build()

    def _build(self):  # pragma: no cover - abstract
        raise NotImplementedError

    def _score_multi(self, hypotheses: list[str], references: list[list[str]]) -> np.ndarray:
        return np.array([self._impl.sentence_score(h, refs).score for h, refs in zip(hypotheses, references)])

    def _score_pairs(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        return self._score_multi(hypotheses, [[r] for r in references])

    def _signature_fields(self) -> list[tuple[str, object]]:
        # nrefs changes per call, so it is left out of the pinned settings; sacrebleu refuses to
        # build a signature before the first score, so the (dropped) nrefs gets a placeholder
        settings = {"num_refs": 1, **vars(self._impl)}
        sig = str(self._impl._SIGNATURE_TYPE(settings)).split("|")
        return [("sacrebleu", "|".join(p for p in sig if not p.startswith("nrefs:")))]


class BLEU(_SacreBLEUMetric):
    """Sentence BLEU with effective order (Papineni et al. 2002; sacrebleu), 0-100."""

    name = "bleu"

    def __init__(self, tokenize: str = "13a", lowercase: bool = False) -> None:
        self.tokenize, self.lowercase = tokenize, lowercase
        super().__init__()

    def _build(self):
        from sacrebleu.metrics import BLEU as SacreBLEU

        return SacreBLEU(effective_order=True, tokenize=self.tokenize, lowercase=self.lowercase)


class ChrF(_SacreBLEUMetric):
    """Character n-gram F-score (Popovic 2015; sacrebleu); ``word_order=2`` gives chrF++."""

    name = "chrf"

    def __init__(self, word_order: int = 0) -> None:
        self.word_order = word_order
        super().__init__()

    def _build(self):
        from sacrebleu.metrics import CHRF

        return CHRF(word_order=self.word_order)


class TER(_SacreBLEUMetric):
    """Translation edit rate (Snover et al. 2006; sacrebleu): lower is better, unbounded above."""

    name = "ter"
    higher_is_better = False
    score_range = (0.0, float("inf"))

    def _build(self):
        from sacrebleu.metrics import TER as SacreTER

        return SacreTER()

    @property
    def worst_score(self) -> float:
        """An empty hypothesis deletes every reference word: TER 100, as sacrebleu computes it."""
        return 100.0
