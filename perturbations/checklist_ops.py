"""CheckList's typo and contraction perturbations (Ribeiro et al., 2020), seeded and with edits.

* :class:`Typos`: CheckList's neighbour swap (``Perturb.add_typos``), split into two kinds of slip
  (in a word, next to a space) and drawn only where that kind applies. A typo damages the form, so
  the variant expects the score to ``decrease`` (CheckList uses it as an INV test for classifiers,
  where the label should not change; a metric comparing with a clean reference should notice).
* :class:`Contractions`: ``Perturb.contractions`` expands ("isn't" -> "is not") and contracts
  ("is not" -> "isn't"); meaning and grammar are kept: ``invariant``.

CheckList draws from NumPy's global generator; we seed it from our generator and restore its state,
so the caller's NumPy randomness is untouched. Without checklist, contractions use a short table of
common forms (:data:`_FALLBACK_CONTRACTIONS`): what is lost is CheckList's full 70-entry map.
"""

from __future__ import annotations

import random
import re

from perturbations import _thirdparty
from perturbations._text import diff_edits
from perturbations.base import Perturbation, Result, Variant

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
    if use_checklist or _thirdparty.available("checklist"):
        return "checklist"
    return "python"


def _np_seeded(seed: int, fn, *args, **kwargs):
    """Call a CheckList function under ``np.random.seed(seed)``, restoring NumPy's global state."""
    import numpy as np

    state = np.random.get_state()
    np.random.seed(seed)
    try:
        return fn(*args, **kwargs)
    finally:
        np.random.set_state(state)


#: the two kinds of slip, reported separately: chrF drops spaces, so it cannot see a space slip
SLIPS = ("in_word", "space")


class Typos(Perturbation):
    """``n_typos`` swaps of neighbouring characters, of one kind of slip (``decrease``).

    * ``slip="in_word"``: two different letters inside a word ("restaurant" -> "restuarant");
    * ``slip="space"``: a letter and the space next to it ("the hotel" -> "th ehotel").

    CheckList's ``Perturb.add_typos`` swaps a character with its neighbour at any position, so its
    typos mix both kinds (about 40 % space slips on this data), touch digits of phone numbers
    (which changes a fact, not the spelling) and punctuation; it cannot be told where to swap.
    The same neighbour swap is therefore drawn here from the seeded generator over the allowed
    positions only. Digits are left alone unless ``digits=True``; so are the placeholder ``X``.
    """

    kind = "typos"

    def __init__(self, n_typos: int = 1, slip: str = "in_word", digits: bool = False) -> None:
        if n_typos < 1:
            raise ValueError("n_typos must be at least 1")
        if slip not in SLIPS:
            raise ValueError(f"slip must be one of {', '.join(SLIPS)}")
        self.n_typos, self.slip, self.digits = n_typos, slip, digits

    def describe(self) -> dict:
        return {"kind": self.kind, "n_typos": self.n_typos, "slip": self.slip, "digits": self.digits}

    def card_name(self) -> str:
        return f"typos_{self.slip}"

    def _apply(self, text: str, rng: random.Random) -> Result:
        chars, done, allowed = list(text), set(), self._positions(text)  # judged on the original text
        for _ in range(self.n_typos):
            positions = [j for j in allowed if not {j, j + 1} & done]
            if not positions:
                break
            j = rng.choice(positions)
            chars[j], chars[j + 1] = chars[j + 1], chars[j]
            done |= {j, j + 1}
        if not done:
            return Result.skip(text, f"no place for a {self.slip.replace('_', '-')} slip")
        changed = "".join(chars)
        meta = {"slip": self.slip, "n_typos": len(done) // 2}
        return Result(text, (Variant(changed, self.kind, "decrease", diff_edits(text, changed), meta),))

    def _letter(self, char: str) -> bool:
        return char.isalpha() or (self.digits and char.isdigit())

    def _positions(self, text: str) -> list[int]:
        """Indices j where swapping text[j] and text[j+1] is a slip of this kind."""
        skip = {m.start() for m in re.finditer(r"(?<!\w)X(?!\w)", text)}  # the placeholder
        out = []
        for j in range(len(text) - 1):
            a, b = text[j], text[j + 1]
            if j in skip or j + 1 in skip:
                continue
            if self.slip == "in_word":
                if self._letter(a) and self._letter(b) and a.lower() != b.lower():
                    out.append(j)
            elif (a == " " and self._letter(b)) or (self._letter(a) and b == " "):
                out.append(j)
        return out


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
            perturb = _thirdparty.checklist_perturb()
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
