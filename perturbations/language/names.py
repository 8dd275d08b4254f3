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


#: lower-case words a title or a name may hold between its capitalised words ("Death on a Factory Farm",
#: "College of William and Mary", "It's Great to Be Young"): English title-case rules (Chicago Manual of
#: Style, 8.159) keep articles, short prepositions and conjunctions lower-case inside a title
TITLE_LINKERS = frozenset({"a", "an", "the", "and", "or", "nor", "but", "of", "on", "in", "at", "to", "for",
                           "by", "from", "with", "as", "de", "la", "le", "van", "von", "der", "du", "del"})
#: surname particles (nobiliary and patronymic): lower-case words that belong to the surname they precede
#: ("Anna van der Berg", "Pieter de Groot", "Hugo ter Horst", "Ahmad ibn Rashid"). Source: the Chicago Manual
#: of Style, ch. 8 (names with particles: de, van, von, ter, ...; Arabic names: al-, ibn, bin). The
#: title words above hold the ones a title may link over; a name rule uses this whole set.
NAME_PARTICLES = frozenset({"van", "von", "der", "den", "de", "du", "del", "della", "la", "le", "di", "da", "ter",
                            "ten", "bin", "ibn", "al"})
ARTICLES = frozenset({"a", "an", "the"})
#: how many lower-case linkers may follow each other inside one title ("Death on a Factory Farm": 2)
MAX_LINKERS = 2


def capitalised(tok: Token) -> bool:
    """Whether a token starts with a capital letter (a name's or a title's word)."""
    return tok.text[:1].isupper() and any(ch.isalpha() for ch in tok.text)


def _glued_clitic(parsed: ParsedText, tok: Token) -> bool:
    """A clitic written against a capitalised word ("It's", "This'll") belongs to the same title."""
    prev = parsed.tokens[tok.i - 1] if tok.i > 0 else None
    return prev is not None and prev.whitespace == "" and tok.text[:1] in ("'", "’") and capitalised(prev)


def title_runs(parsed: ParsedText) -> list[tuple[int, int]]:
    """``[start, end)`` token ranges of capitalised runs: two or more capitalised words, of which at least
    one is not sentence-initial, joined by at most :data:`MAX_LINKERS` lower-case title words, numbers
    after a capitalised word ("Volume 1") or clitics glued to one ("It's Great to Be Young").

    Titles and multi-word names of any text ("English Without Tears", "Alan B. Miller Hall") are one
    unit: a rewrite that moves, expands or swaps a piece of one changes a name, not the wording. The
    rule is English capitalisation (title case), not a list of names, so it holds on any corpus; a run
    opened by a sentence-initial function word ("It's Great to Be Young", not "In Germany") needs two
    capitalised words after it."""
    from perturbations.language.function_words import FUNCTION_WORDS

    starts, stop = sentence_starts(parsed), FUNCTION_WORDS
    tokens = parsed.tokens
    runs: list[tuple[int, int]] = []
    i = 0
    while i < len(tokens):
        if not capitalised(tokens[i]):
            i += 1
            continue
        stop_start = i in starts and tokens[i].text.lower() in stop
        end, last_cap, caps, inner_caps, linkers = i + 1, i, 1, 0 if i in starts else 1, 0
        while end < len(tokens):
            tok = tokens[end]
            if end in starts:
                break
            after_name = last_cap == end - 1
            if capitalised(tok) or _glued_clitic(parsed, tok) or (tok.text.isdigit() and after_name):
                if capitalised(tok) or tok.text.isdigit():
                    caps, inner_caps = caps + 1, inner_caps + 1
                last_cap, linkers = end, 0
            elif tok.text.lower() in TITLE_LINKERS and linkers < MAX_LINKERS and not (
                    after_name and tok.text.lower() in ARTICLES):
                linkers += 1  # "Death on a Factory Farm"; an article right after a name starts a new phrase
            elif tok.text == "." and tokens[end - 1].whitespace == "" and len(tokens[end - 1].text) == 1:
                last_cap = end  # an initial's period ("Alan B. Miller")
            else:
                break
            end += 1
        if caps >= 2 and inner_caps >= (2 if stop_start else 1):
            runs.append((i, last_cap + 1))
            i = last_cap + 1
        else:
            i += 1
    return runs


def name_spans(parsed: ParsedText) -> list[tuple[int, int]]:
    """Every multi-token unit a rewrite must keep whole: named entities of the parse that name something
    (:data:`ENTITY_LABELS` without numbers and dates), capitalised runs (:func:`title_runs`) and the
    multi-word names of the data's meaning representations (:func:`name_ranges`)."""
    named = ENTITY_LABELS - {"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"}
    spans = [(e.start, e.end) for e in parsed.entities if e.label in named and e.end - e.start > 1]
    return sorted(set(spans + title_runs(parsed) + name_ranges(parsed)))


def cuts_a_name(spans: list[tuple[int, int]], first: int, last: int) -> bool:
    """Whether the token range ``first..last`` (inclusive) holds part, but not all, of a span."""
    return any(start <= i < end for start, end in spans for i in (first, last)) and not all(
        (first <= start and end - 1 <= last) or end - 1 < first or start > last for start, end in spans)
