"""A lemma in a given Penn tag, and the lemmas of a word form, from lemminflect's lexicon.

A swapped word must keep the inflection of the word it replaces ("permits", "largest"); when
lemminflect knows no one-word form the swap is refused rather than guessed.
"""

from __future__ import annotations

import functools

#: tags whose form is the lemma itself
BASE_TAGS = frozenset({"NN", "JJ", "RB", "VB", "VBP"})


@functools.lru_cache(maxsize=50_000)
def inflect(lemma: str, tag: str) -> str | None:
    """``lemma`` in Penn tag ``tag`` ("permit", "VBZ" -> "permits"); ``None`` without a lexicon form.

    Comparatives and superlatives come from the lexicon only (``getAllInflections``), so an
    adjective without a one-word comparative ("expensive") is refused instead of "expensiver"."""
    if tag in BASE_TAGS:
        return lemma
    if tag in ("JJR", "JJS", "RBR", "RBS"):
        from lemminflect import getAllInflections

        upos = "ADJ" if tag.startswith("JJ") else "ADV"
        forms = getAllInflections(lemma, upos=upos).get(tag)
        return forms[0] if forms else None
    from lemminflect import getInflection

    forms = getInflection(lemma, tag=tag)
    return forms[0] if forms else None


@functools.lru_cache(maxsize=50_000)
def lemmas_of(word: str) -> frozenset[str]:
    """Every lemma lemminflect gives ``word`` (any part of speech), plus the word itself, lower-cased."""
    from lemminflect import getAllLemmas

    return frozenset({lem.lower() for forms in getAllLemmas(word.lower()).values() for lem in forms}
                     | {word.lower()})

