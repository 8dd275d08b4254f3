"""English stop words: NLTK's list, as TextAttack's ``StopwordModification`` uses by default."""

from __future__ import annotations

import functools


@functools.lru_cache(maxsize=1)
def default_stopwords() -> frozenset[str]:
    """NLTK's English stop-word list (offline copy, ``rome.core.nltk_data``)."""
    from rome.core import nltk_data

    nltk_data.ensure()
    from nltk.corpus import stopwords

    return frozenset(stopwords.words("english"))


def cased_variants(words: frozenset[str]) -> set[str]:
    """Lower, Title and UPPER forms: ``StopwordModification`` compares words as written."""
    return {v for w in words for v in (w, w.capitalize(), w.upper())}
