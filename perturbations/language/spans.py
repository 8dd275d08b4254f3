"""Character spans of words, and edits recovered from a diff (for libraries that return whole strings)."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from perturbations.base import Edit

#: A word as TextAttack's ``words_from_text`` sees it (letters/digits, inner ' and -).
WORD_RE = re.compile(r"\w+(?:['’\-]\w+)*")
_PIECE_RE = re.compile(r"\w+|\s+|[^\w\s]")


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
