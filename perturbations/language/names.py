"""Words a meaning-keeping or name-sensitive perturbation must not touch.

A metric test changes one thing at a time; a swap inside a name ("Little nepal" -> "Small
nepal"), a number ("1686 market street" -> "1686 price avenue"), or a domain word whose
"synonym" is another thing (hotel -> motel, restaurant -> diner) changes the facts instead.
This module marks such tokens on a spaCy parse:

* named entities and numeric entities (spaCy NER), tokens with digits, e-mail/URL-like tokens;
* capitalised words that are not sentence-initial (names, also when NER misses them), and the
  delexicalised placeholder ``X`` of BAGEL;
* the split suffix tokens of the Novikova references ("hotel -s", "moderate -ly") and the word
  they belong to;
* the slot values of the Novikova meaning representations (:func:`domain_phrases`): names,
  areas, addresses, food types, price ranges. They are read automatically from the MRs through the
  data layer (``rome.data.novikova``), never chosen by reading the texts; on other text they simply
  do not occur.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from rome.core.parsing import ParsedText, Token

#: spaCy entity labels that name something or state a quantity
ENTITY_LABELS = frozenset({
    "PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE",
    "DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL",
})
#: BAGEL's delexicalised name/place token
PLACEHOLDER = "X"
_DIGIT = re.compile(r"\d")
_SUFFIX = re.compile(r"^-[a-z]+$")
_SPLIT = re.compile(r"[^a-z0-9]+")


#: slots whose values are names of things (a venue, a place, an address, a cuisine)
NAME_SLOTS = frozenset({"name", "near", "area", "address", "addr", "food"})


@functools.lru_cache(maxsize=2)
def slot_value_phrases(names_only: bool = False) -> frozenset[tuple[str, ...]]:
    """Lower-cased word tuples of the Novikova slot values (BAGEL, SFHOTEL, SFREST); ``names_only``:
    only the values of :data:`NAME_SLOTS` ("little nepal", "big 4 restaurant", "1686 market street")."""
    from rome.data.novikova import NOVIKOVA_DATASETS, load_rows, parse_mr

    found: set[tuple[str, ...]] = set()
    for dataset in NOVIKOVA_DATASETS:
        for row in load_rows(dataset):
            act = parse_mr(row["mr"])
            for slot, value in act.slots if act else ():
                words = tuple(w for w in _SPLIT.split(value.lower().replace("_", " ")) if w)
                if words and value.lower() not in ("dont_care", "none", "") and (
                        not names_only or slot in NAME_SLOTS):
                    found.add(words)
    return frozenset(found)


@functools.lru_cache(maxsize=1)
def place_phrases() -> frozenset[tuple[str, ...]]:
    """Lower-cased word tuples of the places of the data: area, near and address values."""
    from rome.data.novikova import NOVIKOVA_DATASETS, load_rows, parse_mr

    found = set()
    for dataset in NOVIKOVA_DATASETS:
        for row in load_rows(dataset):
            act = parse_mr(row["mr"])
            for slot, value in act.slots if act else ():
                if slot in ("area", "near", "address", "addr") and value.lower() not in ("dont_care", "none", "x", ""):
                    found.add(tuple(w for w in _SPLIT.split(value.lower().replace("_", " ")) if w))
    return frozenset(found)


def domain_phrases() -> frozenset[tuple[str, ...]]:
    """Every slot value of the data's meaning representations (read from the MRs, not chosen by hand):
    the facts a reference must state, which a meaning-keeping swap leaves alone."""
    return slot_value_phrases()


def _phrase_ranges(words: list[str], phrases: Iterable[tuple[str, ...]]) -> list[tuple[int, int]]:
    """``[start, end)`` word ranges where a phrase occurs (case-insensitive, whole words)."""
    by_first: dict[str, list[tuple[str, ...]]] = {}
    for phrase in phrases:
        by_first.setdefault(phrase[0], []).append(phrase)
    lowered = [w.lower() for w in words]
    return [(i, i + len(phrase)) for i, word in enumerate(lowered) for phrase in by_first.get(word, ())
            if tuple(lowered[i : i + len(phrase)]) == phrase]


def _phrase_hits(words: list[str], phrases: Iterable[tuple[str, ...]]) -> set[int]:
    """Indices of ``words`` covered by any phrase."""
    return {i for start, end in _phrase_ranges(words, phrases) for i in range(start, end)}


def name_ranges(parsed: ParsedText) -> list[tuple[int, int]]:
    """Token ranges of the multi-word names of the data (values of :data:`NAME_SLOTS`) in ``parsed``."""
    phrases = [p for p in slot_value_phrases(names_only=True) if len(p) > 1]
    return _phrase_ranges([t.text for t in parsed.tokens], phrases)


def is_suffix_token(text: str) -> bool:
    """The Novikova references' split suffixes: "-s", "-ly", "-es" (not words)."""
    return bool(_SUFFIX.match(text))


def sentence_starts(parsed: ParsedText) -> set[int]:
    """Token indices that begin a sentence (first token, and after . ! ? or a line break)."""
    starts, after_end = set(), True
    for tok in parsed.tokens:
        if tok.pos == "SPACE" or not tok.text.strip():
            continue
        if after_end:
            starts.add(tok.i)
        after_end = tok.text in (".", "!", "?") or "\n" in tok.whitespace
    return starts


def is_name_like(tok: Token, sentence_initial: bool) -> bool:
    """Entities, numbers, capitalised words inside a sentence, the placeholder ``X``."""
    if tok.ent_type in ENTITY_LABELS or _DIGIT.search(tok.text) or "@" in tok.text or "/" in tok.text:
        return True
    if tok.text == PLACEHOLDER or (tok.text[:1].isupper() and not sentence_initial):
        return True
    return sentence_initial and tok.pos == "PROPN"


def protected_tokens(parsed: ParsedText, domain: bool = True) -> set[int]:
    """Indices of tokens a word swap must leave alone (see the module docstring); ``domain=False``:
    names only (name-like tokens and the values of :data:`NAME_SLOTS`), for swaps that should change
    descriptive words such as "cheap" (a price-range value)."""
    starts = sentence_starts(parsed)
    tokens = parsed.tokens
    out = {t.i for t in tokens if is_name_like(t, t.i in starts)}
    for tok in tokens:
        if is_suffix_token(tok.text):
            out.update({tok.i, tok.i - 1} - {-1})
    phrases = domain_phrases() if domain else slot_value_phrases(names_only=True)
    return out | _phrase_hits([t.text for t in tokens], phrases)
