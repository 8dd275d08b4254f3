"""CheckList's contraction perturbation (Ribeiro et al., 2020), seeded and with edits.

(CheckList's typos live in :mod:`perturbations.typos`, as two kinds of slip.)

* :class:`Contractions`: ``Perturb.contractions`` expands ("isn't" -> "is not") and contracts
  ("is not" -> "isn't"); meaning and grammar are kept: ``invariant``.

CheckList draws from NumPy's global generator; we seed it from our generator and restore its state,
so the caller's NumPy randomness is untouched. Without checklist, contractions use a short table of
common forms (:data:`_FALLBACK_CONTRACTIONS`): what is lost is CheckList's full 70-entry map.
"""

from __future__ import annotations

import random
import re

from perturbations import thirdparty
from perturbations.base import Perturbation, Result, Variant
from perturbations.language.spans import diff_edits

#: A reduced stand-in for CheckList's map, used only when checklist is not installed.
_FALLBACK_CONTRACTIONS = {
    "is not": "isn't", "are not": "aren't", "was not": "wasn't", "were not": "weren't",
    "do not": "don't", "does not": "doesn't", "did not": "didn't", "cannot": "can't",
    "will not": "won't", "would not": "wouldn't", "could not": "couldn't", "should not": "shouldn't",
    "has not": "hasn't", "have not": "haven't", "it is": "it's", "that is": "that's",
    "there is": "there's", "I am": "I'm", "you are": "you're", "we are": "we're", "they are": "they're",
}


def _backend(use_checklist: bool | None) -> str:
    if use_checklist is False:
        return "python"
    if use_checklist or thirdparty.available("checklist"):
        return "checklist"
    return "python"


class Contractions(Perturbation):
    """Expand or contract English contractions (CheckList ``Perturb.contractions``): ``invariant``."""

    kind = "contractions"

    def __init__(self, use_checklist: bool | None = None) -> None:
        self.use_checklist = use_checklist

    def describe(self) -> dict:
        return {"kind": self.kind, "backend": _backend(self.use_checklist)}

    def _apply(self, text: str, rng: random.Random) -> Result:
        backend = _backend(self.use_checklist)
        if backend == "checklist":
            perturb = thirdparty.checklist_perturb()
            candidates = [("expand", perturb.expand_contractions(text)), ("contract", perturb.contract(text))]
        else:
            candidates = [("expand", _fallback(text, expand=True)), ("contract", _fallback(text, expand=False))]
        variants = tuple(
            Variant(new, self.kind, "invariant", diff_edits(text, new), {"backend": backend, "direction": d})
            for d, new in candidates
            if new != text
        )
        if not variants:
            return Result.skip(text, "no contraction to expand and no expandable phrase to contract")
        return Result(text, variants)


def _fallback(text: str, expand: bool) -> str:
    table = {v: k for k, v in _FALLBACK_CONTRACTIONS.items()} if expand else _FALLBACK_CONTRACTIONS
    pattern = re.compile(r"\b(" + "|".join(re.escape(k) for k in table) + r")\b", flags=re.IGNORECASE)

    def replace(match: re.Match) -> str:
        found = match.group(0)
        new = table.get(found, table.get(found.lower(), found))
        return found[0] + new[1:]

    return pattern.sub(replace, text)
