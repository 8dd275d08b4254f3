"""Character spans of words, and edits recovered from a diff (for libraries that return whole strings)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from perturbations.base import Edit

#: A word as TextAttack's ``words_from_text`` sees it (letters/digits, inner ' and -).
WORD_RE = re.compile(r"\w+(?:['’\-]\w+)*")
_PIECE_RE = re.compile(r"\w+|\s+|[^\w\s]")

#: Written units that are ONE token although a word regex (or TextAttack's ``words_from_text``) splits them
#: at their inner punctuation. From English orthography (Quirk et al. 1985 App. III.7-8; Chicago Manual of
#: Style 9.18-9.22, 10.4): a number with a decimal point or thousands separators ("5,375", "175.26",
#: "418476000000.0"), a ratio or clock time ("3:2", "10:45"), a percentage ("2.7%", "40 %") and an
#: abbreviation or initials with inner periods ("J.R.R.", "U.S.", "e.g.", "Ph.D.").
ATOMIC_RE = re.compile(
    r"(?<![\w.,:])\d+(?:[.,:]\d+)+(?:\s?%)?"          # 5,375 / 175.26 / 10:45 / 2.7%
    r"|(?<![\w.,:])\d+\s?%"                             # 40% / 40 %
    r"|(?<![\w.])(?:[A-Za-z]{1,2}\.){2,}"               # J.R.R. / U.S. / e.g. / Ph.D.
    r"|(?<![\w.])(?:[A-Za-z]\.)+[A-Za-z](?![\w.])"      # U.S (no final period)
)


def atomic_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the one-token units of :data:`ATOMIC_RE` in ``text``."""
    return [m.span() for m in ATOMIC_RE.finditer(text)]


def is_piece_of_unit(span: tuple[int, int], units: Sequence[tuple[int, int]]) -> bool:
    """Whether the word at ``span`` is only a *piece* of a one-token unit ("375" of "5,375", "R" of
    "J.R.R."): replacing or repeating it would cut the unit ("5,AAA", "19,500 500 500"), a damage no
    word-level perturbation promises; "40" of "40%" is a piece too ("AAA%")."""
    start, end = span
    return any(u_start <= start and end <= u_end and (start, end) != (u_start, u_end) for u_start, u_end in units)


def word_spans(text: str, words: Sequence[str] | None = None) -> list[tuple[int, int]]:
    """Character spans of ``words`` found left to right in ``text`` (default: :data:`WORD_RE` words).

    Used to turn a word-index edit (TextAttack's view of a text) into a character :class:`Edit`.
    """
    if words is None:
        return [m.span() for m in WORD_RE.finditer(text)]
    spans, cursor = [], 0
    for word in words:
        start = text.find(word, cursor)
        if start < 0:
            raise ValueError(f"word {word!r} not found in text after offset {cursor}")
        spans.append((start, start + len(word)))
        cursor = start + len(word)
    return spans


def diff_edits(original: str, changed: str) -> tuple[Edit, ...]:
    """The edits turning ``original`` into ``changed``, by a word/space/punctuation-level diff.

    For library functions (CheckList's) that return a whole new string rather than spans.
    """
    a, b = _PIECE_RE.findall(original), _PIECE_RE.findall(changed)
    a_starts = _starts(a)
    edits = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            continue
        start, end = a_starts[i1], a_starts[i2]
        edits.append(Edit(start, end, original[start:end], "".join(b[j1:j2])))
    return tuple(edits)


def _starts(pieces: list[str]) -> list[int]:
    starts, pos = [], 0
    for piece in pieces:
        starts.append(pos)
        pos += len(piece)
    starts.append(pos)
    return starts
