"""Whether a passive the grammar allows reads naturally: the context model's pseudo-log-likelihood.

The grammar (:mod:`perturbations.passive.clause`) says which clauses *have* a passive; whether this one
reads as a writer of the text would have written it depends on the words ("Free internet is offered by
the hotel" reads well, "The summer can hardly be waited by her" does not), so the independent context
model (:mod:`rome.context.model`, never a metric's encoder) reads it: the variant sentence's
pseudo-log-likelihood per word piece against the original sentence's (Salazar et al. 2020). A rewrite is
kept when

    mean_pll(variant sentence) - mean_pll(original sentence) >= -delta

``delta`` (:data:`NATURALNESS_DELTA`) is set by ``scripts/research/passive_threshold.py`` from labelled
development-half texts (``scripts/research/passive_dev.py`` draws them) and the gold set; only the sentence holding
the clause is scored, so a long text costs no more than its rewritten sentences.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

#: how far the variant's mean log-probability per word piece may fall below the original's (nats). Set by
#: ``scripts/research/passive_threshold.py``: the smallest multiple of 0.1 that keeps every development line read as
#: valid (tests/fixtures/passive_dev_labels.jsonl, development-half texts of the three shipped corpora) and
#: every expected passive of the gold set (tests/fixtures/passive_gold.jsonl). On those readings the
#: difference does not separate valid from invalid passives (most passives score above their original), so
#: the reading is a guard against rewrites that read far worse, not a filter tuned to the readers' labels. 1.4 with
#: the final head (its lowest: the gold passive "Free internet is offered by the hotel.", -1.31)
NATURALNESS_DELTA = 1.4
#: distance between the pieces masked together in one pass of the pseudo-log-likelihood (every 7th piece:
#: about 15 %, MPNet's pre-training rate): seven passes per sentence instead of one per piece
PLL_SPACING = 7


#: sentences whose pseudo-log-likelihood is kept in memory (a suite meets the same original again, a
#: variant is often read twice): the oldest is dropped first
CACHE_SIZE = 20_000
_scores: dict[tuple[int | None, str], tuple[float, int]] = {}


@dataclass(frozen=True)
class NaturalnessReading:
    """The context model's reading of one rewritten sentence against the original one."""

    original_pll: float
    original_pieces: int
    variant_pll: float
    variant_pieces: int

    @property
    def difference(self) -> float:
        """mean log-probability per piece, variant minus original (higher: the variant reads better)."""
        return self.variant_pll / max(self.variant_pieces, 1) - self.original_pll / max(self.original_pieces, 1)

    def as_dict(self) -> dict[str, float | int]:
        return {"pll_original": round(self.original_pll, 4), "pieces_original": self.original_pieces,
                "pll_variant": round(self.variant_pll, 4), "pieces_variant": self.variant_pieces,
                "pll_difference": round(self.difference, 4)}


def read(pairs: Sequence[tuple[str, str]], spacing: int | None = PLL_SPACING) -> list[NaturalnessReading]:
    """The context model's reading of each (original sentence, variant sentence), in one batched call
    (each distinct sentence scored once). A likelihood comparison, not the perturbations' judge
    (:mod:`perturbations.judge`, a calibrated probability of validity)."""
    from rome.context.model import get_context_model

    if not pairs:
        return []
    texts = [t for t in dict.fromkeys(t for pair in pairs for t in pair) if (spacing, t) not in _scores]
    if texts:
        for text, score in zip(texts, get_context_model().pseudo_log_likelihood(texts, spacing=spacing)):
            if len(_scores) >= CACHE_SIZE:
                _scores.pop(next(iter(_scores)))
            _scores[spacing, text] = score
    return [NaturalnessReading(*_scores[spacing, original], *_scores[spacing, variant])
            for original, variant in pairs]


def context_signature() -> str:
    """The context model's signature (encoder and head), which keys cases built with its reading."""
    from rome.context.model import get_context_model

    return get_context_model().signature()
