"""Which entity spans a same-type replacement may touch, and which replacements fit, on any English text.

Each rule comes from a general resource, named in its docstring (English grammar, spaCy's parse,
WordNet 3.0, lemminflect), never from a table of words seen in a corpus. Precision first: an entity a
rule cannot vouch for is left alone rather than replaced by something of another type.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from perturbations.language.names import NAME_PARTICLES, capitalised

#: labels of names (not quantities); the article, trimming and adjacency rules apply to these
NAME_LABELS = frozenset({"PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART",
                         "LAW", "LANGUAGE"})
#: labels of places and bodies whose names may take "the" ("the Netherlands", "the United Nations")
ARTICLE_LABELS = frozenset({"GPE", "LOC", "FAC", "ORG"})
#: labels whose value is a number
NUMERIC_LABELS = frozenset({"CARDINAL", "QUANTITY", "MONEY", "PERCENT"})
#: Universal POS tags that are never part of a proper name's edge: an adverb, verb, preposition,
#: conjunction, particle, pronoun or punctuation mark at a span's edge is a tagger error ("Franco A.
#: illegally"). Source: names are noun phrases headed by proper nouns (Quirk et al. 1985 §5.60-5.66).
NON_NAME_POS = frozenset({"ADV", "VERB", "AUX", "ADP", "CCONJ", "SCONJ", "PART", "PRON", "PUNCT", "SYM"})
#: WordNet noun synsets whose hyponyms are buildings and ways (hall, tower, bridge, street): a name ending in
#: one is a building even when the word is also a surname ("Alan B Miller Hall")
BUILDING_ROOTS = frozenset({"structure.n.01", "facility.n.01", "way.n.06"})
#: WordNet noun synsets whose hyponyms are places and bodies (field, park, lee, union): a name ending in one
#: is a place unless WordNet also knows the word as a person's name ("Lee", "Park")
PLACE_ROOTS = frozenset({"location.n.01", "organization.n.01", "geological_formation.n.01",
                         "body_of_water.n.01"})
#: the words a multi-word name's parts are joined by ("College of William and Mary", "Marks & Spencer")
NAME_JOINERS = frozenset({"and", "&", "of", "for", "de"})
#: prepositions of place: their proper-noun object is a place ("in Dijon"), never a person (Quirk et al.
#: 1985 §9.15-9.17: at/in/on of position)
LOCATIVE_PREPOSITIONS = frozenset({"in", "at", "near", "inside", "outside", "throughout"})
#: the words a firm's name ends in after "&" or "and" ("John Pemberton & Sons", "Ashby & Co."): English
#: company names join a proprietor's name to these (Chicago Manual of Style, ch. 10: Co., Bros. in company names)
COMPANY_WORDS = frozenset({"sons", "son", "co", "co.", "company", "partners", "associates", "brothers", "bros",
                           "bros."})
#: how many tokens an author list may take between a name and its citation's year or "et al."
#: ("Adams, Baker, Clark, and Dunn, 2001": 8)
CITATION_WINDOW = 12
#: a year as author-date citations write it, with an optional letter for one author's several works ("2011a")
_YEAR = re.compile(r"^(?:1[5-9]|20)\d\d[a-z]?$")
_ONE = re.compile(r"^(?:1(?:\.0+)?|one|a|an)$", re.IGNORECASE)
_NUMBER = re.compile(r"\d[\d,.]*|\b(?:one|two|three|four|five|six|seven|eight|nine|ten)\b", re.IGNORECASE)


def _wn():
    from perturbations.language.senses import wordnet

    return wordnet()


def _ancestors(synset) -> set[str]:
    """Names of every hypernym (and instance hypernym) of ``synset``, itself included."""
    roots = [synset, *synset.instance_hypernyms()]
    return {s.name() for root in roots for path in root.hypernym_paths() for s in path}


def trim_to_name(tokens: Sequence, start: int, end: int, label: str) -> tuple[int, int]:
    """``[start, end)`` without edge tokens that cannot belong to a name (:data:`NON_NAME_POS`): the tagger's
    "Franco A. illegally" is the name "Franco A.". A capitalised edge word is kept whatever its tag (names are
capitalised, and the tagger's part of speech for an unknown name is unreliable). Number spans are kept
whole ("about 1 ton")."""
    if label not in NAME_LABELS:
        return start, end

    def foreign(tok) -> bool:  # a capitalised word stays: the small tagger calls "Barack" a preposition
        return tok.pos in NON_NAME_POS and not tok.text[:1].isupper()

    while start < end and foreign(tokens[start]):
        start += 1
    while end > start and foreign(tokens[end - 1]):
        end -= 1
    return start, end


@functools.lru_cache(maxsize=20_000)
def needs_article(name: str) -> bool:
    """Whether the name is used with "the" in English, so it cannot stand where a bare name stood ("in
    Belgium" -> "in Philippines") nor be replaced by one. From English grammar (Quirk et al. 1985 §5.64-5.66:
    plural names and names headed by a common noun take the definite article: the United States, the Czech
    Republic, the Netherlands, the Philippines) read through WordNet 3.0:

    * the name starts with "the", or it has two or more words and its last word's most used WordNet noun
      sense is a common noun, not an instance (republic, kingdom, states, islands, union; "Mexico City" is
      refused too, a precision cost; a one-word name is never a bare common noun: "Buffalo", "Mesa");
    * one of WordNet's names for it has the article ("The_Netherlands", "Republic_of_the_Philippines") or
      calls it islands ("Maldive_Islands");
    * it ends in "s" and WordNet does not know it (a plural cannot be told from "Athens" without it)."""
    words = name.split()
    if not words:
        return False
    if words[0].lower() == "the":
        return True
    last = words[-1]
    wn = _wn()
    lemma = wn.morphy(last.lower(), "n")
    senses = wn.synsets(lemma, "n") if lemma else []
    if len(words) > 1 and senses and not senses[0].instance_hypernyms():
        return True
    instances = [s for s in wn.synsets("_".join(words), "n") if s.instance_hypernyms()]
    key = "_".join(words).lower()
    for synset in instances:
        for lemma_name in synset.lemma_names():
            low = lemma_name.lower()
            if low == "the_" + key or low.endswith("_the_" + key) or low.startswith("the_"):
                return True
            if last.lower().endswith("s") and low.endswith("_islands"):
                return True
    return last.lower().endswith("s") and not last.lower().endswith(("ss", "us", "is")) and not instances


def preceded_by_article(tokens: Sequence, start: int) -> bool:
    """Whether the token before the span is "the": the replacement would inherit it ("the France")."""
    return start > 0 and tokens[start - 1].text.lower() == "the"


@functools.lru_cache(maxsize=20_000)
def is_place_or_body(name: str) -> bool:
    """Whether a name the tagger calls PERSON names a place, building or organisation, by WordNet 3.0:

    * its last word is a common noun whose most used sense is a building or way (:data:`BUILDING_ROOTS`:
      "Alan B Miller Hall", "Jefferson Memorial"; a surname like "Hall" is refused too, a precision cost), or
      a place or body (:data:`PLACE_ROOTS`) and not also a person's name in WordNet ("Ann Lee" stays);
    * or the whole name is a WordNet instance of a place and of no person ("Dijon", a city)."""
    words = name.split()
    if not words:
        return False
    wn = _wn()
    last = words[-1].lower()
    lemma = wn.morphy(last, "n")
    senses = wn.synsets(lemma, "n") if lemma else []
    common = [s for s in senses if not s.instance_hypernyms()]
    surname = any("person.n.01" in _ancestors(s) for s in senses if s.instance_hypernyms())
    if common and "person.n.01" not in _ancestors(common[0]):
        top = _ancestors(common[0])
        if top & BUILDING_ROOTS or (top & PLACE_ROOTS and not surname):
            return True
    instances = [s for s in wn.synsets("_".join(words), "n") if s.instance_hypernyms()]
    ancestors = set().union(*(_ancestors(s) for s in instances)) if instances else set()
    return bool(ancestors & (BUILDING_ROOTS | PLACE_ROOTS)) and "person.n.01" not in ancestors


def is_locative_object(tokens: Sequence, start: int, end: int) -> bool:
    """Whether the span is the object of a preposition of place ("in Dijon"): a person does not go there."""
    head = next((t for t in tokens[start:end] if not start <= t.head < end), None)
    if head is None or head.dep != "pobj":
        return False
    return tokens[head.head].text.lower() in LOCATIVE_PREPOSITIONS


def is_eponym(tokens: Sequence, start: int, end: int) -> bool:
    """A person's name that modifies a following noun ("the Carter constant", "the Nobel prize") is part of a
    term, not a reference to the person: replacing it names a thing that does not exist. spaCy marks it as a
    ``compound`` whose head comes after the span."""
    last = tokens[end - 1]
    return last.dep == "compound" and last.head >= end and tokens[last.head].pos in ("NOUN", "PROPN")


def joined_to_other_name(tokens: Sequence, entities: Sequence, start: int, end: int, label: str) -> bool:
    """Whether the span is glued to an entity of another label by a name joiner ("the College of William" +
    "and" + "Mary"; "University of" + "John Smith"): the tagger split one name, whose parts are not
    replaced. Also a PERSON after "of" and a capitalised noun ("Church of Saint Mary")."""
    for other in entities:
        if other.label == label:
            continue
        between = tokens[other.end:start] if other.end <= start else tokens[end:other.start]
        if len(between) == 1 and between[0].text.lower() in NAME_JOINERS:
            return True
    if label == "PERSON" and start >= 2 and tokens[start - 1].text.lower() == "of":
        before = tokens[start - 2]
        return before.text[:1].isupper() and before.pos in ("PROPN", "NOUN")
    return False


def is_number_in_title(tokens: Sequence, start: int, end: int, label: str, sentence_start: bool) -> bool:
    """A number right after a capitalised word is part of a name or title ("Volume 1", "Apollo 11",
    "Chapter 3"): a changed number names another thing, not a changed quantity. A capitalised function
    word at the start of a sentence ("About 1 ton", "In 2004") is not a name."""
    if label not in NUMERIC_LABELS or start == 0:
        return False
    before = tokens[start - 1]
    if not before.text[:1].isupper() or not before.text.isalpha() or before.whitespace == "":
        return False
    return not sentence_start or before.pos in ("PROPN", "NOUN")


@functools.lru_cache(maxsize=20_000)
def is_group_name(name: str) -> bool:
    """Whether a NORP entity names a nationality, religion or political group (WordNet: an adjective, or a
    non-instance noun under person or group: "Roman", "Americans", "Christian", "Democrats"), not a
    particular person the tagger mislabelled ("Isaiah", a WordNet instance)."""
    words = name.split()
    if not words:
        return False
    wn = _wn()
    last = words[-1].lower()
    if wn.synsets(last, "a"):
        return True
    lemma = wn.morphy(last, "n")
    senses = wn.synsets(lemma, "n") if lemma else []
    return any(not s.instance_hypernyms() and _ancestors(s) & {"person.n.01", "group.n.01"} for s in senses)


def is_plural_group(name: str) -> bool:
    """"Americans", "Democrats" (a plural noun) as against "American", "Roman" (an adjective or a singular)."""
    last = name.split()[-1].lower() if name.split() else ""
    lemma = _wn().morphy(last, "n")
    return bool(lemma) and lemma != last


def number_word(text: str) -> str | None:
    """The first number of ``text`` ("about 1 ton" -> "1"), or ``None``."""
    match = _NUMBER.search(text)
    return match.group() if match else None


def is_one(number: str | None) -> bool:
    """Whether ``number`` is the number one ("1", "1.0", "one"), which takes a singular noun."""
    return bool(number) and bool(_ONE.match(number))


def counted_noun(tokens: Sequence, start: int, end: int):
    """The noun a number of the span counts ("1" -> "ton" in "about 1 ton"): the head of a ``nummod`` inside the
    span, if it is a common noun after it; ``None`` otherwise."""
    for tok in tokens[start:end]:
        if tok.dep == "nummod" and tok.head > tok.i and tokens[tok.head].tag in ("NN", "NNS"):
            return tokens[tok.head]
    return None


def agreeing_noun(noun_text: str, noun_tag: str, plural: bool) -> str | None:
    """``noun_text`` in the number the new count needs (lemminflect): "ton" -> "tons" after 2, "tons" ->
    "ton" after 1; the same text when it already agrees; ``None`` when lemminflect has no form."""
    from perturbations.language.inflection import inflect

    if (noun_tag == "NNS") == plural:
        return noun_text
    from lemminflect import getLemma

    lemmas = getLemma(noun_text.lower(), upos="NOUN")
    if not lemmas:
        return None
    form = inflect(lemmas[0], "NNS" if plural else "NN")
    if not form:
        return None
    return form[:1].upper() + form[1:] if noun_text[:1].isupper() else form


def is_acronym(name: str) -> bool:
    """Whether a name is written in capitals ("JAMES", "BLEU"): an acronym or a product's name, not a person's.
    Personal names are written in title case in running text (Chicago Manual of Style, ch. 8, personal
    names; ch. 10, acronyms in capitals); the tagger calls a capitalised measure or program PERSON. A word of two or more
    letters counts; initials ("J. R. R. Tolkien", one letter and a period) do not make a name an acronym."""
    words = [w for w in name.split() if sum(ch.isalpha() for ch in w) >= 2]
    return bool(words) and all(w.isupper() for w in words)


def is_lower_case_name(name: str, sentence_start: bool) -> bool:
    """Whether a name is written without the capitals of a person's name ("castro", "martin luther king square",
    "Martin luther king square" at a sentence's start): personal names are written in title case in running
    text (Chicago Manual of Style, ch. 8), so on lower-cased text the tagger's PERSON is a guess, often a place
    or a venue. A one-word name at a sentence's start shows no evidence either way and is not counted."""
    words = [w for w in name.split() if any(ch.isalpha() for ch in w)]
    if sentence_start:
        if len(words) < 2:
            return False
        words = words[1:]
    return bool(words) and not any(ch.isupper() for w in words for ch in w)


def _is_particle(tok) -> bool:
    return tok.text.lower() in NAME_PARTICLES and tok.pos != "NUM"  # "ten Americans" is a number


def splits_particle_name(tokens: Sequence, start: int, end: int) -> bool:
    """Whether the span is cut from a name with surname particles ("Hugo" | "ter Horst", "van der" | "Lee"):
    a particle belongs to the surname it precedes (:data:`perturbations.language.names.NAME_PARTICLES`,
    Chicago Manual of Style, ch. 8, names with particles), so a replacement of one side leaves "Hugo ter Ada Lovelace". A span
    holding the whole name ("Anna van der Berg") is replaced whole; a cut one is left alone."""
    before = start - 1
    while before >= 0 and _is_particle(tokens[before]):
        before -= 1
    if before < start - 1:
        return True  # "van der" + the span: the span is the rest of a surname
    if _is_particle(tokens[start]) and start > 0 and capitalised(tokens[start - 1]):
        return True  # a given name outside + "van Dijk"
    after = end
    while after < len(tokens) and _is_particle(tokens[after]):
        after += 1
    if after > end and after < len(tokens) and capitalised(tokens[after]):
        return True  # the span + "ter Horst"
    return _is_particle(tokens[end - 1]) and end < len(tokens) and capitalised(tokens[end])


def _in_author_list(tok) -> bool:
    """A token an author list of a citation may hold: names, particles, "and", "&", commas, a possessive."""
    return tok.tag == "POS" or tok.text in (",", "and", "&") or capitalised(tok) or _is_particle(tok)


def _inside_parentheses(tokens: Sequence, start: int) -> bool:
    """Whether an opening parenthesis comes before ``start`` (within the window) with no closing one between."""
    for tok in reversed(tokens[max(0, start - 2 * CITATION_WINDOW) : start]):
        if tok.text == ")":
            return False
        if tok.text == "(":
            return True
    return False


def is_citation_author(tokens: Sequence, start: int, end: int) -> bool:
    """Whether the span is an author in an author-date citation: followed (after the rest of an author list)
    by "et al.", by a parenthesised year ("Whitfield (1987)", "Moreau and Whitfield (2012, p. 4)"), or by a
    year inside the same parentheses ("(Moreau and Whitfield, 2012)"). Author-date style cites surnames only
    (APA 7th ed. 8.10-8.17; Chicago Manual of Style, ch. 15): a full or given name there ("Ada Lovelace
    et al. (2010)") is broken. A person's life dates ("(1950-2010)") are no citation: the year must end the
    parentheses or be followed by a comma, semicolon or colon."""
    after = end
    while after < len(tokens) and after - end < CITATION_WINDOW and _in_author_list(tokens[after]):
        after += 1
    rest = [t.text for t in tokens[after : after + 3]]
    if len(rest) >= 2 and rest[0].lower() == "et" and rest[1].lower().startswith("al"):
        return True
    if len(rest) >= 2 and rest[0] == "(" and _YEAR.match(rest[1]):
        return len(rest) == 2 or rest[2] in (")", ",", ";", ":")
    return bool(rest) and bool(_YEAR.match(rest[0])) and _inside_parentheses(tokens, start)


def is_firm_name(tokens: Sequence, start: int, end: int, label: str) -> bool:
    """Whether the span is (part of) a firm's name: followed by "&"/"and" and a capitalised company word
    ("John Pemberton" + "& Sons", :data:`COMPANY_WORDS`), or a PERSON span that holds them ("John Pemberton &
    Sons" tagged PERSON). A firm named after its proprietors is an organisation, not the person (Chicago
    Manual of Style ch. 10, company names); a person's name for it, or a part of it, is broken."""
    def firm_at(i: int) -> bool:
        return (i + 1 < len(tokens) and tokens[i].text.lower() in ("&", "and") and capitalised(tokens[i + 1])
                and tokens[i + 1].text.lower() in COMPANY_WORDS)

    return firm_at(end) or (label == "PERSON" and any(firm_at(i) for i in range(start, end - 1)))
