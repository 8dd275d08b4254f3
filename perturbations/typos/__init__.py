"""Typos (CheckList's ``Perturb.add_typos``, Ribeiro et al., 2020) as two kinds of slip, seeded and with edits.

A typo damages the form, so the variant expects the score to ``decrease`` (CheckList uses it as an
INV test for classifiers, where the label should not change; a metric comparing with a clean
reference should notice). The two kinds are reported separately (one validity card, one suite each).
"""

from __future__ import annotations

import functools
import random
import re

from perturbations.base import Edit, Perturbation, Result, Variant
from perturbations.language.spans import diff_edits


@functools.lru_cache(maxsize=50_000)
def is_english_word(word: str) -> bool:
    """Whether ``word`` is a word of lemminflect's lexicon or a function word."""
    from lemminflect import getAllLemmas

    from perturbations.language.function_words import FUNCTION_WORDS

    return bool(getAllLemmas(word)) or word in FUNCTION_WORDS


#: An acronym or initialism: a word of two or more capital letters only ("UN", "NASA", "FIC"). Its letters
#: are not spelled out as a word a reader can correct: a swap gives another possible name ("UN" -> "NU",
#: "FIC" -> "FCI"), a changed fact rather than a misspelling. The single-letter placeholder ``X`` is
#: refused by :data:`PLACEHOLDER`. Source: English orthography of abbreviations (Quirk et al. 1985 App. I.
#: 101-104: acronyms and initialisms are written in capitals).
ACRONYM = re.compile(r"(?<![A-Za-z])[A-Z]{2,}(?![A-Za-z])")
#: BAGEL's delexicalised name token: a slip on it damages no word of the sentence
PLACEHOLDER = re.compile(r"(?<!\w)X(?!\w)")

#: the two kinds of slip, reported separately: chrF drops spaces, so it cannot see a space slip
SLIPS = ("in_word", "space")


def swap_edits(text: str, changed: str, swapped: set[int]) -> tuple[Edit, ...]:
    """The word-level edits of neighbour swaps at ``swapped`` (``changed`` has ``text``'s length), each diffed
    within the words around it only: a diff of the whole text costs quadratic time in its length."""
    windows: list[list[int]] = []
    for j in sorted(swapped):
        lo, hi = j, j + 1
        while lo > 0 and not text[lo - 1].isspace() and not changed[lo - 1].isspace():
            lo -= 1
        while hi < len(text) and not text[hi].isspace() and not changed[hi].isspace():
            hi += 1
        if windows and lo <= windows[-1][1]:
            windows[-1][1] = max(windows[-1][1], hi)
        else:
            windows.append([lo, hi])
    return tuple(Edit(lo + e.start, lo + e.end, e.old, e.new)
                 for lo, hi in windows for e in diff_edits(text[lo:hi], changed[lo:hi]))


class Typos(Perturbation):
    """``n_typos`` swaps of neighbouring characters, of one kind of slip (``decrease``).

    * ``slip="in_word"``: two different letters inside a word ("restaurant" -> "restuarant");
    * ``slip="space"``: a letter and the space next to it ("the hotel" -> "th ehotel").

    CheckList's ``Perturb.add_typos`` swaps a character with its neighbour at any position, so its
    typos mix both kinds (about 40 % space slips on this data), touch digits of phone numbers
    (which changes a fact, not the spelling) and punctuation; it cannot be told where to swap.
    The same neighbour swap is therefore drawn here from the seeded generator over the allowed
    positions only. Digits are left alone unless ``digits=True``; so is the placeholder ``X``; an in-word
    swap that spells another word ("on" -> "no") is refused; so is any slip touching an acronym
    (:data:`ACRONYM`).
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
            positions = [j for j in allowed if not {j, j + 1} & done and not self._real_word(chars, j)]
            if not positions:
                break
            j = rng.choice(positions)
            chars[j], chars[j + 1] = chars[j + 1], chars[j]
            done |= {j, j + 1}
        if not done:
            return Result.skip(text, f"no place for a {self.slip.replace('_', '-')} slip")
        changed = "".join(chars)
        meta = {"slip": self.slip, "n_typos": len(done) // 2}
        return Result(text, (Variant(changed, self.kind, "decrease", swap_edits(text, changed, done), meta),))

    def _real_word(self, chars: list[str], j: int) -> bool:
        """An in-word swap that spells another English word ("on" -> "no", "There" -> "Three") is a
        different word, not a misspelling: refused (lemminflect's lexicon and the function words)."""
        if self.slip != "in_word":
            return False
        start, end = j, j + 2
        while start > 0 and chars[start - 1].isalpha():
            start -= 1
        while end < len(chars) and chars[end].isalpha():
            end += 1
        word = chars[start:end]
        word[j - start], word[j - start + 1] = word[j - start + 1], word[j - start]
        return is_english_word("".join(word).lower())

    def _letter(self, char: str) -> bool:
        return char.isalpha() or (self.digits and char.isdigit())

    def _positions(self, text: str) -> list[int]:
        """Indices j where swapping text[j] and text[j+1] is a slip of this kind."""
        skip = {m.start() for m in PLACEHOLDER.finditer(text)}
        skip |= {j for m in ACRONYM.finditer(text) for j in range(m.start(), m.end())}
        out = []
        for j in range(len(text) - 1):
            a, b = text[j], text[j + 1]
            if j in skip or j + 1 in skip:
                continue
            if self.slip == "space" and (j - 1 in skip or j + 2 in skip):
                continue  # the moved letter would be glued onto the placeholder or acronym ("Xi s", "UNm et")
            if self.slip == "in_word":
                if self._letter(a) and self._letter(b) and a.lower() != b.lower():
                    out.append(j)
            elif (a == " " and self._letter(b)) or (self._letter(a) and b == " "):
                out.append(j)
        return out
