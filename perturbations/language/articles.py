"""The indefinite article before a replaced word: "a cheap" -> "an inexpensive".

The article is chosen by ``inflect`` (it knows "an hour", "a unique", "an FBI agent"), the one
article rule of the project; a replaced word keeps its article's letter case.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from perturbations.base import Edit
from perturbations.language.casing import match_case

_ARTICLE_BEFORE = re.compile(r"(?<![\w'’])(a|an|A|An|AN)(\s+)$")


@functools.lru_cache(maxsize=1)
def _engine():
    import inflect

    return inflect.engine()


@functools.lru_cache(maxsize=50_000)
def indefinite_article(word: str) -> str:
    """'a' or 'an' before ``word``, by inflect's pronunciation rules."""
    return _engine().a(word).split(" ", 1)[0].lower()


def article_for(word: str, model: str) -> str:
    """The article before ``word`` in ``model``'s case; "same" takes "the" ("a different place" ->
    "the same place": English has no "a same")."""
    article = "the" if word.lower() == "same" else indefinite_article(word)
    return match_case(article, model)


def article_edit(text: str, start: int, new_word: str) -> Edit | None:
    """The article fix for a word replaced at ``start``, if the article before it must change."""
    match = _ARTICLE_BEFORE.search(text[:start])
    if match is None or not new_word[:1].isalnum():
        return None
    article = match.group(1)
    wanted = article_for(new_word, article)
    if wanted == article:
        return None
    return Edit(match.start(1), match.end(1), article, wanted)


def with_article_fixes(text: str, edits: Sequence[Edit]) -> list[Edit]:
    """``edits`` plus the article fixes they need (never overlapping an edit), sorted by position."""
    out = list(edits)
    for edit in edits:
        fix = article_edit(text, edit.start, edit.new)
        if fix and not any(fix.start < e.end and e.start < fix.end for e in out):
            out.append(fix)
    return sorted(out, key=lambda e: e.start)
