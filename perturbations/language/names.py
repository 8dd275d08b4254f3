"""Words a meaning-keeping or name-sensitive perturbation must not touch, from general rules only.

A metric test changes one thing at a time; a swap inside a name ("Little Nepal" -> "Small
Nepal") or a number ("1686 Market Street" -> "1686 Price Avenue") changes the facts instead of
the wording. This module marks such tokens on a spaCy parse, with rules that hold on any English
text and read no corpus:

* named entities and numeric entities (spaCy NER), tokens with digits, e-mail/URL-like tokens;
* capitalised words that are not sentence-initial (names, also when NER misses them), a
  sentence-initial proper noun, and a capital letter standing alone as a word: a letter used as a
  name ("Plan B", "vitamin C", "X is a restaurant", which is how BAGEL writes its delexicalised names);
* detached suffix tokens ("hotel -s", "moderate -ly", a tokenisation some corpora use) and the word
  they belong to: neither is a word on its own;
* modifiers that belong to a name nothing else marks (:func:`is_name_modifier`): one directly before a
  lower-cased named entity it modifies ("the outer richmond"), an adjective directly before a numeral
  ("the big 4 restaurant");
* multi-word names: the parse's named entities and capitalised runs (title case, :func:`title_runs`).

Lower-case names that neither the parser nor capitalisation marks ("hotel drisco", "little nepal" in
a lower-cased corpus) are not recognised: no list of one data set's names is read, so on such text
the perturbations rely on their other constraints (multi-word units, parts of speech, senses).
"""

from __future__ import annotations

import re

from rome.core.parsing import ParsedText, Token

#: spaCy entity labels that name something or state a quantity
ENTITY_LABELS = frozenset({
    "PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE",
    "DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL",
})
#: the entity labels that name something (not a number, a date or an amount)
NAMING_LABELS = ENTITY_LABELS - {"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"}
_DIGIT = re.compile(r"\d")
_SUFFIX = re.compile(r"^-[a-z]+$")


def is_suffix_token(text: str) -> bool:
    """A detached suffix token: "-s", "-ly", "-es" (not a word)."""
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


#: one-letter words that are words, not letter names (the article, the pronoun)
LETTER_WORDS = frozenset({"A", "I"})


def is_letter_name(text: str) -> bool:
    """A capital letter standing alone as a word: a name or label ("Plan B", "X is a restaurant"), not the
    article "A" or the pronoun "I" (inside a sentence a capital "A" is caught as a capitalised word)."""
    return len(text) == 1 and text.isupper() and text not in LETTER_WORDS


def is_name_like(tok: Token, sentence_initial: bool) -> bool:
    """Entities, numbers, capitalised words inside a sentence, a sentence-initial proper noun, a letter name."""
    if tok.ent_type in ENTITY_LABELS or _DIGIT.search(tok.text) or "@" in tok.text or "/" in tok.text:
        return True
    if is_letter_name(tok.text) or (tok.text[:1].isupper() and not sentence_initial):
        return True
    return sentence_initial and tok.pos == "PROPN"


def is_name_modifier(parsed: ParsedText, tok: Token) -> bool:
    """A modifier that belongs to a name though neither the parser's entity nor a capital marks it:

    * one directly before a lower-cased named entity that it modifies ("the outer richmond", "little italy"):
      without capitals the parser's entity boundary is a guess, and a modifier of a name is far more often
      part of it than a description (a capitalised text says which: "Outer Richmond", "historic Boston");
    * an adjective directly before a numeral of the same noun phrase ("the big 4 restaurant"): English puts
      numerals before descriptive adjectives ("four big restaurants", Quirk et al. 1985, premodifier
      order), so an adjective in front of one is part of a name or a determiner-like word ("top 10")."""
    tokens = parsed.tokens
    nxt = tokens[tok.i + 1] if tok.i + 1 < len(tokens) else None
    if nxt is None or tok.dep not in ("amod", "compound", "nmod") or tok.ent_type:
        return False
    if tok.pos == "ADJ" and nxt.tag == "CD" and tok.head in (nxt.i, nxt.head):
        return True
    entity = next((e for e in parsed.entities if e.start == nxt.i and e.label in NAMING_LABELS), None)
    return (entity is not None and entity.start <= tok.head < entity.end
            and not any(ch.isupper() for t in tokens[entity.start : entity.end] for ch in t.text))


def protected_tokens(parsed: ParsedText) -> set[int]:
    """Indices of tokens a word swap must leave alone (see the module docstring)."""
    starts = sentence_starts(parsed)
    tokens = parsed.tokens
    out = {t.i for t in tokens if is_name_like(t, t.i in starts) or is_name_modifier(parsed, t)}
    for tok in tokens:
        if is_suffix_token(tok.text):
            out.update({tok.i, tok.i - 1} - {-1})
    return out


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
    (:data:`ENTITY_LABELS` without numbers and dates) and capitalised runs (:func:`title_runs`)."""
    spans = [(e.start, e.end) for e in parsed.entities if e.label in NAMING_LABELS and e.end - e.start > 1]
    return sorted(set(spans + title_runs(parsed)))


def cuts_a_name(spans: list[tuple[int, int]], first: int, last: int) -> bool:
    """Whether the token range ``first..last`` (inclusive) holds part, but not all, of a span."""
    return any(start <= i < end for start, end in spans for i in (first, last)) and not all(
        (first <= start and end - 1 <= last) or end - 1 < first or start > last for start, end in spans)
