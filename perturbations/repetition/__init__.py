"""Repetition (RoMe Table 2: "Elon elon elon elon elon founded tesla tesla tesla"): a word or phrase repeated.

Degenerate generators repeat themselves; a robust metric must score such output lower
(``decrease``). Words are found with a regular expression rather than the parser so the
perturbation is cheap and works on any text; content words are preferred over function words
(:data:`perturbations.language.function_words.FUNCTION_WORDS`, the closed classes), since "the the the" is a different, easier failure. Split
suffixes ("hotel -s s s s") and the placeholder ``X`` are not words and are never repeated. A one-token
unit (:data:`perturbations.language.spans.ATOMIC_RE`: "19,500", "30955.0", "2.7%", "J.R.R.") is one word:
it is repeated whole ("19,500 19,500 19,500"), never a piece of it ("19,500 500 500"). Words are runs of
grapheme clusters (the ``regex`` package's ``\\w`` takes a letter's combining marks with it), so a decomposed
"café" is repeated with its accent, never split from it.
"""

from __future__ import annotations

import random

import regex

from perturbations.base import Edit, Perturbation, Result, Variant, apply_edits
from perturbations.language.function_words import FUNCTION_WORDS
from perturbations.language.spans import ATOMIC_RE

#: a one-token unit first (so "19,500" is one match), else a word with inner apostrophes or hyphens; ``regex``'s
#: ``\w`` keeps combining marks with their letter (``re``'s stops before them: "cafe" + U+0301 -> "cafe")
WORD = regex.compile(ATOMIC_RE.pattern + r"|\w+(?:['\u2019-]\w+)*")


#: BAGEL's delexicalised name/place token: repeating it repeats no word of the sentence
PLACEHOLDER = "X"


def is_word(text: str, match: regex.Match) -> bool:
    """Not a split suffix or clitic of the tokenised data ("hotel -s", "hotel 's") and not ``X``."""
    start = match.start()
    glued = start > 0 and text[start - 1] in "-'\u2019" and (start == 1 or text[start - 2].isspace())
    return not glued and match.group() != PLACEHOLDER


class Repetition(Perturbation):
    """Repeat one word (or a run of up to ``max_phrase_words`` words) ``repeats`` extra times."""

    kind = "repetition"

    def __init__(self, min_repeats: int = 2, max_repeats: int = 4, max_phrase_words: int = 1) -> None:
        if not 1 <= min_repeats <= max_repeats:
            raise ValueError("need 1 <= min_repeats <= max_repeats")
        if max_phrase_words < 1:
            raise ValueError("max_phrase_words must be >= 1")
        self.min_repeats, self.max_repeats, self.max_phrase_words = min_repeats, max_repeats, max_phrase_words

    def describe(self) -> dict:
        return {"kind": self.kind, "min_repeats": self.min_repeats, "max_repeats": self.max_repeats,
                "max_phrase_words": self.max_phrase_words}

    def _apply(self, text: str, rng: random.Random) -> Result:
        words = [m for m in WORD.finditer(text) if is_word(text, m)]
        if not words:
            return Result.skip(text, "no word to repeat")
        content = [i for i, m in enumerate(words) if m.group().lower() not in FUNCTION_WORDS]
        first = rng.choice(content or list(range(len(words))))
        last = first
        for _ in range(rng.randint(1, self.max_phrase_words) - 1):  # extend over words separated by spaces
            if last + 1 < len(words) and not text[words[last].end() : words[last + 1].start()].strip():
                last += 1
        start, end = words[first].start(), words[last].end()
        phrase = text[start:end]
        copy = phrase[:1].lower() + phrase[1:] if not text[:start].strip() and not phrase.isupper() else phrase
        repeats = rng.randint(self.min_repeats, self.max_repeats)
        edit = Edit(end, end, "", " " + " ".join([copy] * repeats))
        meta = {"phrase": phrase, "repeats": repeats}
        return Result(text, (Variant(apply_edits(text, [edit]), self.kind, "decrease", (edit,), meta),))
