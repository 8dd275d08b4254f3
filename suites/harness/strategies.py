"""Hypothesis strategies for perturbation property tests: sentences from the shipped data, hostile text.

Suites and tests share these so that a property ("the synonym keeps the token count") is
checked on the kind of text the harness really perturbs (Novikova et al. 2017 human
references, shipped in ``rome/data/datasets/novikova2017/``) and on text built to break things.
"""

from __future__ import annotations

import functools
import string

from hypothesis import strategies as st

from rome.data.novikova import NOVIKOVA_DATASETS as NOVIKOVA
from rome.data.novikova import references_by_mr

#: texts that have broken tokenisers, parsers or edit code before
EDGE_TEXTS = (
    "", " ", "\n\t", ".", "?!", "...", "--", "'", "\"\"", "a", "A.", "I", "X", "-s",
    "The", "the the the", "Café naïve résumé.", "日本語のテキスト。", "Ελληνικά κείμενα.", "🙂🙂🙂",
    "e\u0301", "\u200b", "\u00a0\u00a0", "Dr. Smith bought the car.", "x" * 300,
    "The dog bit the man.\n\nThe cat ate the fish.", "He said: \"they built it\".",
)


@functools.lru_cache(maxsize=4)
def shipped_references(datasets: tuple[str, ...] = NOVIKOVA) -> tuple[str, ...]:
    """Distinct human references of the shipped Novikova data sets, sorted (stable across runs)."""
    found: set[str] = set()
    for name in datasets:
        for refs in references_by_mr(name).values():
            found.update(refs)
    return tuple(sorted(found))


def shipped_sentences(datasets: tuple[str, ...] = NOVIKOVA) -> st.SearchStrategy[str]:
    """One human reference from the shipped data."""
    return st.sampled_from(shipped_references(datasets))


def seeds() -> st.SearchStrategy[int]:
    return st.integers(min_value=0, max_value=2**32 - 1)


def arbitrary_texts(long: bool = True) -> st.SearchStrategy[str]:
    """Empty, whitespace, punctuation only, any Unicode, and (``long``) 20 to 60 shipped sentences glued
    together. A kind that reads every text with a language model pays seconds per long text, so its tests draw
    short ones and check :func:`long_text` on its own (a run's time then does not depend on the draw)."""
    punctuation = st.text(alphabet=string.punctuation + " \t\n", max_size=40)
    glued = st.lists(shipped_sentences(), min_size=20, max_size=60).map(" ".join)
    return st.one_of(
        st.sampled_from(EDGE_TEXTS), punctuation, st.text(max_size=200), *([glued] if long else []),
        st.text(alphabet=st.characters(codec="utf-8"), min_size=1, max_size=50),
    )


def long_text(sentences: int = 40) -> str:
    """A fixed long text: every ``len // sentences``-th shipped reference, glued (stable across runs)."""
    refs = shipped_references()
    return " ".join(refs[:: max(1, len(refs) // sentences)][:sentences])
