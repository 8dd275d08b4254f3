"""How often words occur and occur together in general English: Google Books bigrams and wordfreq.

A swap can fit its masked slot and still break a collocation the reader expects ("respond to" is
common, "react to an email" is not what was meant). Two general resources, neither read from a
corpus of the project:

* the Google Books bigram counts that ship inside ``symspellpy``
  (``frequency_bigramdictionary_en_243_342.txt``: the 242,342 most frequent lower-case bigrams);
* ``wordfreq``'s Zipf frequencies (log10 of occurrences per billion words, several genres merged).
"""

from __future__ import annotations

import functools
from pathlib import Path

from rome.core.errors import ResourceMissingError

BIGRAM_FILE = "frequency_bigramdictionary_en_243_342.txt"


def bigram_file() -> Path:
    try:
        import symspellpy
    except ModuleNotFoundError as exc:  # pragma: no cover - install problem
        raise ResourceMissingError("symspellpy is not installed; run the README's set-up") from exc
    return Path(symspellpy.__file__).with_name(BIGRAM_FILE)


@functools.lru_cache(maxsize=1)
def _bigrams() -> dict[str, int]:
    counts: dict[str, int] = {}
    with bigram_file().open(encoding="utf-8") as handle:
        for line in handle:
            first, second, count = line.split()
            counts[f"{first} {second}"] = int(count)
    return counts


def bigram_count(first: str, second: str) -> int:
    """Google Books count of the lower-cased bigram (0 when it is not among the listed ones)."""
    return _bigrams().get(f"{first.lower()} {second.lower()}", 0)


@functools.lru_cache(maxsize=65536)
def zipf(word: str) -> float:
    """wordfreq's Zipf frequency of ``word`` in English (0.0 for an unseen word)."""
    try:
        from wordfreq import zipf_frequency
    except ModuleNotFoundError as exc:  # pragma: no cover - install problem
        raise ResourceMissingError("wordfreq is not installed; run the README's set-up") from exc
    return zipf_frequency(word, "en")


def fingerprint_files() -> list[Path]:
    """The bigram table keys every perturbation that reads it (rome.core.fingerprint's data hook)."""
    return [bigram_file()]
