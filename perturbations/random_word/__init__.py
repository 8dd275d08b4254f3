"""Random word replacement (RoMe §4.6 case 3): words at random positions become the token ``AAA``.

Following TextAttack (Morris et al., 2020): a custom ``WordSwap`` whose only candidate is the token,
``StopwordModification`` given the project's function words (:data:`~perturbations.language.function_words.FUNCTION_WORDS`:
never replaced) and ``RepeatModification`` (a word is
replaced once), applied greedily one position at a time; the positions are drawn from the seeded
generator (TextAttack's greedy search ranks positions with a victim model's score, and a metric
test has no victim model). "x is a cheap restaurant near y" -> "x is a cheap restaurant AAA AAA".
Replacing several words yields repeated tokens, the form damage the paper tests: ``decrease``.
Split suffixes and clitics of the tokenised data ("hotel -s", "moderate -ly", "hotel 's") and the
delexicalised placeholder ``X`` are not words and are never replaced ("hotel -AAA" is no word swap).
Nor is a piece of a one-token unit (:data:`perturbations.language.spans.ATOMIC_RE`: "5,375", "175.26",
"2.7%", "J.R.R."), which TextAttack's tokenisation splits at its inner punctuation ("5,AAA", "J.AAA.R.").

Without textattack the same choice runs in pure Python (regex words, the same function words);
what is lost is only TextAttack's own tokenisation (``words_from_text``).

Words are runs of grapheme clusters: a letter keeps its combining marks (:data:`WORD_RE` of the ``regex``
package, whose word class includes marks), so decomposed "café" (``e`` + U+0301) becomes ``AAA``, never
``AAÁ`` with the accent left on the token; the text is not normalised (NFC would rewrite the untouched
words too, and no precomposed form exists for most marks). TextAttack splits a letter from its mark
("tre", "s" for decomposed "très"), so a text holding a combining mark takes the Python path.
"""

from __future__ import annotations

import functools
import random
import unicodedata

import regex

from perturbations import thirdparty
from perturbations.base import Edit, Perturbation, Result, Variant, apply_edits
from perturbations.language.function_words import FUNCTION_WORDS, cased_variants
from perturbations.language.spans import atomic_spans, is_piece_of_unit, word_spans

#: BAGEL's delexicalised name/place token: not a word of the sentence, never replaced
PLACEHOLDER = "X"
#: :data:`perturbations.language.spans.WORD_RE` on grapheme clusters: ``regex``'s ``\w`` takes a letter's
#: combining marks with it (``re``'s stops before them)
WORD_RE = regex.compile(r"\w+(?:['’\-]\w+)*")


def has_combining_mark(text: str) -> bool:
    """True when ``text`` holds a combining mark (decomposed accents, most Indic vowel signs)."""
    return any(unicodedata.category(c).startswith("M") for c in text)


@functools.cache
def _token_swap_class():
    """``WordSwap`` subclass built on first use (textattack is imported lazily)."""
    from textattack.transformations import WordSwap

    class WordSwapToken(WordSwap):
        """Replace a word by one fixed token (``AAA`` in RoMe's robustness analysis)."""

        def __init__(self, token: str = "AAA") -> None:
            super().__init__()
            self.token = token

        def _get_replacement_words(self, word: str) -> list[str]:
            return [self.token]

    return WordSwapToken


class RandomWordReplacement(Perturbation):
    """Replace ``n_words`` words that are no function word, at seeded random positions, with ``token``."""

    kind = "random_word"

    def __init__(self, n_words: int = 2, token: str = "AAA", kept_words: frozenset[str] = FUNCTION_WORDS,
                 use_textattack: bool | None = None) -> None:
        if n_words < 1:
            raise ValueError("n_words must be at least 1")
        self.n_words = n_words
        self.token = token
        #: lower-case words never replaced (default: the function words)
        self.kept_words = frozenset(kept_words)
        #: None: textattack when importable; False: always the pure-Python path
        self.use_textattack = use_textattack

    def backend(self, text: str = "") -> str:
        """``textattack`` or ``python``; a ``text`` with a combining mark always goes the Python path (module doc)."""
        if self.use_textattack is False or has_combining_mark(text):
            return "python"
        if self.use_textattack or thirdparty.available("textattack"):
            return "textattack"
        return "python"

    def describe(self) -> dict:
        return {"kind": self.kind, "n_words": self.n_words, "token": self.token, "backend": self.backend()}

    def _apply(self, text: str, rng: random.Random) -> Result:
        backend = self.backend(text)
        if backend == "textattack":
            state = rng.getstate()
            try:
                words, chosen = self._choose_textattack(text, rng)
                spans = word_spans(text, words)
            except ValueError:  # TextAttack's tokenisation could not be aligned with the text
                rng.setstate(state)
                backend = "python"
        if backend == "python":
            words, chosen = self._choose_python(text, rng)
            spans = [m.span() for m in WORD_RE.finditer(text)]
        if not chosen:
            return Result.skip(text, "no word that may be replaced (only function words, the token or no words)")
        edits = [Edit(spans[i][0], spans[i][1], words[i], self.token) for i in sorted(chosen)]
        meta = {"backend": backend, "positions": sorted(chosen), "replaced": [words[i] for i in sorted(chosen)]}
        if len(chosen) < self.n_words:
            meta["note"] = f"only {len(chosen)} replaceable word(s), {self.n_words} requested"
        return Result(text, (Variant(apply_edits(text, edits), self.kind, "decrease", tuple(edits), meta),))

    def _replaceable(self, words: list[str], done: set[int], text: str = "") -> list[int]:
        """Indices of words that may be replaced: no function word, no token, no split suffix, no placeholder,
        no piece of a one-token unit."""
        suffixes = (_suffix_indices(text, words) | _unit_pieces(text, words)) if text else set()
        return [i for i, w in enumerate(words)
                if i not in done and unicodedata.normalize("NFC", w).lower() not in self.kept_words and w != self.token
                and w != PLACEHOLDER and i not in suffixes]

    def _choose_python(self, text: str, rng: random.Random) -> tuple[list[str], list[int]]:
        words = WORD_RE.findall(text)
        chosen: list[int] = []
        for _ in range(self.n_words):
            candidates = self._replaceable(words, set(chosen), text)
            if not candidates:
                break
            chosen.append(rng.choice(candidates))
        return words, chosen

    def _choose_textattack(self, text: str, rng: random.Random) -> tuple[list[str], list[int]]:
        """Greedy: one word at a time, the candidates being TextAttack's modifiable indices."""
        thirdparty.textattack()
        from textattack.constraints.pre_transformation import RepeatModification, StopwordModification
        from textattack.shared import AttackedText

        swap = _token_swap_class()(self.token)
        constraints = [RepeatModification(), StopwordModification(stopwords=self._lowercase_and_title())]
        current = AttackedText(text)
        words = list(current.words)
        chosen: list[int] = []
        for _ in range(self.n_words):
            allowed = set(self._replaceable(words, set(chosen), text))
            for constraint in constraints:
                allowed &= constraint(current, swap)
            if not allowed:
                break
            index = rng.choice(sorted(allowed))
            swapped = swap(current, pre_transformation_constraints=constraints, indices_to_modify={index})
            if not swapped:
                break
            current = swapped[0]
            chosen.append(index)
        return words, chosen

    def _lowercase_and_title(self) -> set[str]:
        return cased_variants(self.kept_words)


def _suffix_indices(text: str, words: list[str]) -> set[int]:
    """Words that are split suffixes or clitics, not words: the data's "hotel -s", "moderate -ly",
    "hotel 's" (a word glued after "-" or an apostrophe that follows a space or starts the text)."""
    try:
        spans = word_spans(text, words)
    except ValueError:
        return set()
    out = set()
    for i, (start, _) in enumerate(spans):
        if start > 0 and text[start - 1] in "-'’" and (start == 1 or text[start - 2].isspace()):
            out.add(i)
    return out


def _unit_pieces(text: str, words: list[str]) -> set[int]:
    """Words that are only a piece of a one-token unit ("375" of "5,375", "R" of "J.R.R.")."""
    units = atomic_spans(text)
    if not units:
        return set()
    try:
        spans = word_spans(text, words)
    except ValueError:
        return set()
    return {i for i, span in enumerate(spans) if is_piece_of_unit(span, units)}
