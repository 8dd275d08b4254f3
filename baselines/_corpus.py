"""Corpus statistics (idf) for the embedding baselines: fitted on the call, or once by ``prepare``.

bert-score and MoverScore weight tokens by an inverse document frequency computed over a
corpus, so a pair's score depends on the other pairs. Without :meth:`prepare`, each
``score`` call fits its statistics on that call's whole input, exactly as ``bert_score.score``
and MoverScore's README do; after ``prepare`` the fitted statistics are reused for every
later call (the scoring engines fit on the whole input, then score it in chunks).
"""

from __future__ import annotations

import abc
import threading
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from rome.core.contract import Metric, Reference, normalize_pairs


def fit_idf(texts: Iterable[str], tokenizer) -> dict[int, float]:
    """``bert_score.utils.get_idf_dict``: token id -> log((N+1)/(df+1)), unseen ids log(N+1).

    moverscore_v2's ``get_idf_dict`` is the same formula over the same ids ([CLS] and [SEP]
    included); its process pool is skipped (``nthreads=0``) because forking a process that
    holds a torch model is slow and fragile.
    """
    from bert_score.utils import get_idf_dict

    _restore_special_tokens_builder(tokenizer)
    return get_idf_dict(list(texts), tokenizer, nthreads=0)


def _restore_special_tokens_builder(tokenizer) -> None:
    """Give back ``build_inputs_with_special_tokens``, which transformers 5 removed.

    bert-score 0.3.13 calls it for an empty text (``sent_encode("")``), so any corpus with an
    empty hypothesis crashed idf fitting. The stand-in returns what the old method returned:
    the ids framed by the tokenizer's own special tokens (``[CLS] ... [SEP]`` for BERT).
    """
    try:
        tokenizer.build_inputs_with_special_tokens  # noqa: B018 - probing transformers 4
        return
    except AttributeError:
        pass
    framed = tokenizer("", add_special_tokens=True)["input_ids"]
    head, tail = framed[:1], framed[1:]
    tokenizer.build_inputs_with_special_tokens = lambda ids, ids_b=None: head + list(ids) + tail


def flat_references(references: list[list[str]]) -> list[str]:
    """Every reference of every pair, in order and with repeats, as bert-score flattens them."""
    return [ref for group in references for ref in group]


class CorpusFittedMetric(Metric):
    """A metric whose statistics come from :meth:`prepare` or, failing that, from each call."""

    def __init__(self) -> None:
        self._prepared: Any = None
        self._per_call = threading.local()

    @abc.abstractmethod
    def _fit(self, hypotheses: list[str], references: list[list[str]]) -> Any:
        """Statistics for this corpus, or ``None`` when the metric's settings need none."""

    def prepare(self, hypotheses: Sequence[str], references: Sequence[Reference]) -> None:
        self._prepared = self._fit(*normalize_pairs(hypotheses, references))

    def score(self, hypotheses: Sequence[str], references: Sequence[Reference]) -> np.ndarray:
        if self._prepared is not None:
            return super().score(hypotheses, references)
        self._per_call.stats = self._fit(*normalize_pairs(hypotheses, references))
        try:
            return super().score(hypotheses, references)
        finally:
            self._per_call.stats = None

    def _stats(self) -> Any:
        """The prepared statistics, else those of the ``score`` call in progress."""
        if self._prepared is not None:
            return self._prepared
        return getattr(self._per_call, "stats", None)
