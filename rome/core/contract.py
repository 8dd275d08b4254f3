"""The metric contract every metric (RoMe and every baseline) implements.

Modelled on SacreBLEU's ``Metric``: one small abstract class, batch scoring, and a
*signature* that pins every setting that changes a number, so a table can say exactly
what produced it. Metadata (``higher_is_better``, ``score_range``, ``needs_reference``)
follows torchmetrics / HF evaluate.
"""

from __future__ import annotations

import abc
import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar

import numpy as np

from rome.core.errors import InputError
from rome.core.fingerprint import code_fingerprint, harness_version
from rome.core.jsonl import has_lone_surrogate

Reference = str | Sequence[str]

#: Version of the installed harness, pinned in every signature (with the code fingerprint).
HARNESS_VERSION = harness_version()


@dataclass(frozen=True)
class Signature:
    """Ordered ``key:value`` fields, rendered ``name|k1:v1|k2:v2`` like SacreBLEU's signatures."""

    name: str
    fields: tuple[tuple[str, str], ...] = field(default_factory=tuple)

    def __str__(self) -> str:
        parts = [self.name, *(f"{key}:{value}" for key, value in self.fields)]
        return "|".join(parts)

    def as_dict(self) -> dict[str, str]:
        return {"name": self.name, **dict(self.fields)}


#: Unicode categories of characters that show something: letters, marks are not (a lone combining mark
#: shows nothing), numbers, punctuation, symbols. Spaces, controls, format characters (zero-width
#: space, byte-order mark, soft hyphen), surrogates and unassigned code points show nothing.
_VISIBLE_CATEGORIES = frozenset("LNPS")


def has_visible_text(text: str) -> bool:
    """Whether ``text`` shows at least one character; text that does not is empty text.

    Decided here once, so every metric treats ``""``, ``"  "``, ``"\u200b"`` or a lone combining
    mark the same way: an empty hypothesis gets the worst score, an empty reference is no reference.
    """
    return any(unicodedata.category(ch)[0] in _VISIBLE_CATEGORIES for ch in text)


def _check_text(value: object, what: str, index: int) -> str:
    if not isinstance(value, str):
        raise InputError(f"{what} #{index} must be a string, got {type(value).__name__}")
    if has_lone_surrogate(value):
        raise InputError(f"{what} #{index} holds a lone surrogate (a \\ud800-\\udfff code point without "
                         "its pair), which is not valid Unicode text")
    return value


def normalize_pairs(
    hypotheses: Sequence[str], references: Sequence[Reference]
) -> tuple[list[str], list[list[str]]]:
    """Validate the batch and turn every reference into a non-empty list of strings."""
    if isinstance(hypotheses, str) or isinstance(references, str):
        raise InputError("hypotheses and references must be sequences of texts, not a single string")
    if hypotheses is None or references is None:
        raise InputError("hypotheses and references must be sequences of texts, not None")
    hyps = [_check_text(h, "hypothesis", i) for i, h in enumerate(hypotheses)]
    refs_in = list(references)
    if len(hyps) != len(refs_in):
        raise InputError(f"got {len(hyps)} hypotheses but {len(refs_in)} references")
    refs: list[list[str]] = []
    for i, ref in enumerate(refs_in):
        if isinstance(ref, str):
            refs.append([ref])
            continue
        if ref is None or not isinstance(ref, Sequence) or len(ref) == 0:
            raise InputError(f"reference #{i} must be a string or a non-empty list of strings")
        refs.append([_check_text(r, "reference", i) for r in ref])
    return hyps, refs


class Metric(abc.ABC):
    """Base class: subclasses set the metadata and implement :meth:`_score_pairs`.

    ``score`` validates input, gives empty hypotheses the metric's worst score (never NaN),
    and reduces multi-reference inputs to the best score over the references (as bert-score
    does). Metrics with native multi-reference support (BLEU) override :meth:`_score_multi`.
    Empty means no visible character (:func:`has_visible_text`); an empty reference is dropped,
    and a pair left without one gets the worst score too, so no metric ever sees empty text.
    """

    name: ClassVar[str]
    higher_is_better: ClassVar[bool] = True
    score_range: ClassVar[tuple[float, float]] = (0.0, 1.0)
    needs_reference: ClassVar[bool] = True
    #: True when a pair's score depends on the other pairs of the batch (e.g. corpus idf).
    batch_dependent: ClassVar[bool] = False
    #: True for metrics whose constructor takes ``model=`` (the CLI's ``--model``).
    uses_encoder: ClassVar[bool] = False
    #: True for a metric that is pure Python with no model and little memory (sacrebleu's): where two cores
    #: are free, the engine may score it in a small side process while this one runs the others (:class:`Inline`
    #: in :mod:`rome.core.engine`). Its scores are the same either way.
    side_process: ClassVar[bool] = False

    # -- public API -------------------------------------------------------------------
    def score(self, hypotheses: Sequence[str], references: Sequence[Reference] | None) -> np.ndarray:
        """Score each hypothesis against its reference(s); returns float64 of shape (n,).

        A reference-free metric (``needs_reference = False``) also takes ``references=None``.
        """
        if references is None and not self.needs_reference and hypotheses is not None:
            references = [""] * len(hypotheses)
        hyps, refs = normalize_pairs(hypotheses, references)
        if self.needs_reference:
            refs = [[r for r in rs if has_visible_text(r)] for rs in refs]
        out = np.full(len(hyps), self.worst_score, dtype=np.float64)
        keep = [i for i, h in enumerate(hyps) if has_visible_text(h) and (refs[i] or not self.needs_reference)]
        if keep:
            scores = self._score_multi([hyps[i] for i in keep], [refs[i] for i in keep])
            out[keep] = np.asarray(scores, dtype=np.float64)
        if np.isnan(out).any():
            bad = int(np.flatnonzero(np.isnan(out))[0])
            raise RuntimeError(f"{self.name} produced NaN for pair #{bad}; this is a bug")
        return out

    def prepare(self, hypotheses: Sequence[str], references: Sequence[Reference]) -> None:
        """Fit corpus-level statistics (e.g. idf) on a whole input before it is scored in chunks.

        Only ``batch_dependent`` metrics need it; without it they use each ``score`` call's batch.
        """

    def score_one(self, hypothesis: str, reference: Reference) -> float:
        return float(self.score([hypothesis], [reference])[0])

    def signature(self) -> Signature:
        """Every setting that changes a number, then the harness version and ``code:<hash>``.

        The code hash covers the source of this class and its bases (the contract included),
        every project module they import, transitively (:func:`rome.core.fingerprint.code_fingerprint`),
        and :meth:`fingerprint_files` (weights), so a cache keyed by the
        signature misses after an edit or a retrain without anyone bumping a version.
        """
        fields = (*self._signature_fields(), ("harness", HARNESS_VERSION), ("code", self.code_fingerprint()))
        return Signature(self.name, tuple((k, str(v)) for k, v in fields))

    def code_fingerprint(self) -> str:
        """The class and its bases, every project module they import (transitively) and the named files."""
        return code_fingerprint(*type(self).__mro__, files=self.fingerprint_files())

    def fingerprint_files(self) -> list[Path]:
        """Files beyond the code the class imports whose change changes a score: weights, data.

        The code is found by :func:`~rome.core.fingerprint.code_fingerprint` (every project module
        the class's modules import, transitively: the shared encoder for encoder-based metrics).
        """
        return []

    @property
    def worst_score(self) -> float:
        """The score an empty hypothesis gets: the bottom of the range in the metric's own sense."""
        low, high = self.score_range
        worst = low if self.higher_is_better else high
        if math.isinf(worst):
            raise NotImplementedError(f"{self.name} must define worst_score (its range is unbounded)")
        return worst

    # -- for subclasses ---------------------------------------------------------------
    @abc.abstractmethod
    def _score_pairs(self, hypotheses: list[str], references: list[str]) -> np.ndarray:
        """Score single-reference pairs; hypotheses are non-empty."""

    def _score_multi(self, hypotheses: list[str], references: list[list[str]]) -> np.ndarray:
        """Default multi-reference rule: score each reference, keep the best one."""
        flat_h = [h for h, refs in zip(hypotheses, references) for _ in refs]
        flat_r = [r for refs in references for r in refs]
        flat = np.asarray(self._score_pairs(flat_h, flat_r), dtype=np.float64)
        best = np.maximum if self.higher_is_better else np.minimum
        out, start = [], 0
        for refs in references:
            out.append(best.reduce(flat[start : start + len(refs)]))
            start += len(refs)
        return np.asarray(out)

    def _signature_fields(self) -> list[tuple[str, object]]:
        """Settings that change a number, in display order (model, layer, idf, ...)."""
        return []

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.signature()}>"
