"""British <-> American spelling (``invariant``): "colour" <-> "color", "organise" <-> "organize".

Two variants at most: every British spelling made American (``meta["direction"] == "to_american"``)
and every American spelling made British (``"to_british"``), so a variant is spelt in one variety
throughout. The pairs come from breame (``breame.data.spelling_constants``: 1,730 British words with
their American spelling), kept only where the two differ by one of the regular, sense-free
patterns of Webster's reform that style guides list (the Oxford Guide to Style's spelling
chapter):

* ``-ise``/``-yse`` -> ``-ize``/``-yze`` ("organised", "analysing"); ``-our`` -> ``-or`` ("colour");
* a doubled ``l`` before a suffix ("travelled", "counsellor") and ``-l`` -> ``-ll`` ("fulfil");
* ``-re`` -> ``-er`` ("centre", "centred", "fibreglass"); ``ae``/``oe`` -> ``e`` ("anaemia",
  "foetus"); ``-ence`` -> ``-ense`` ("defence"); ``-eing``/``-ement`` after ``g`` ("ageing").

A pair that differs in any other way ("tyre"/"tire", "programme"/"program", "draught"/"draft",
"cheque"/"check", "tonne"/"ton", "disc"/"disk", "philtre"/"filter") is not used: there the two
spellings are different words in some sense. Pairs that fit a pattern but still split by sense or
part of speech are refused by name (:data:`REFUSED`): "metre" (a gas *meter* is never a *metre*),
"licence"/"license" (British noun vs verb), the ``-yses`` plurals of ``-ysis`` nouns ("analyses"),
"fillet"/"filet", "install"/"instal".

A word is changed only where it is written in lower case, or capitalised as a sentence's first
word; never inside a name or title (:func:`perturbations.language.names.name_spans`, a named
entity, a capitalised word inside a sentence: "Labour", "World Health Organization", "Lincoln
Center"), inside double or single quotation marks (:func:`quoted`), or after ``#``/``@``; a noun
(also one the tagger calls an adjective: "the labour party") only with nothing but a determiner,
possessive or number before it (:func:`in_compound`).

A variant is spelt in one variety throughout (:func:`mixed`): where a word of the other variety
stays after the edits (one left alone in a name, a quotation or a compound, or one whose
respelling the table does not make: "jewelry", "programmes", "practising"), a reader sees a text
that mixes the two, so that direction gives no variant. A text with no variant either way is skipped.
"""

from __future__ import annotations

import functools
import itertools
import re

from perturbations.base import Edit, TwoWayRewrite
from perturbations.language.casing import match_case
from rome.core.parsing import ParsedText, Token

#: British -> American rewrites, each a sense-free spelling pattern (see the module docstring)
PATTERNS: tuple[tuple[str, str], ...] = (
    (r"([iy])s(e|ed|es|ing|ingly|er|ers|ation|ations|ational|able|ably)$", r"\1z\2"),
    (r"our", "or"),
    (r"ll", "l"),
    (r"([^l])l(s|ment|ments)?$", r"\1ll\2"),
    (r"([bcdgtv])re(s|d)?$", lambda m: f"{m[1]}er{'s' if m[2] == 's' else 'ed' if m[2] == 'd' else ''}"),
    (r"([bcdgtv])ring$", r"\1ering"),
    (r"([bcdgtv])re(?=[bcdfgkmnpstvw])", r"\1er"),
    (r"ae", "e"),
    (r"oe", "e"),
    (r"ence(s?)$", r"ense\1"),
    (r"ge(ing|ment|ments)$", r"g\1"),
)
#: pairs that fit a pattern but whose spellings part by sense or part of speech (British spelling)
REFUSED = frozenset({
    "metre", "metres",  # American "meter" is also the instrument
    "licence", "licences", "licenced",  # British noun "licence", verb "license"
    "fillet", "fillets", "filleted", "filleting",  # "filet" is a cut of meat, "fillet" also a strip
    "instal", "instals",  # "install" is the usual British spelling too
    # the American side is a rare variant that a reader takes for a misspelling
    "cancellation", "cancellations", "woolly", "woollies", "mediaeval", "primaeval",
    "aesthete", "aesthetes", "aesthetic", "aesthetically", "aesthetics",
    "archaeological", "archaeologically", "archaeologist", "archaeologists", "archaeology",
    "edoema",  # misspelt in the list ("oedema")
})
#: quotation marks that open a quoted span (titles and quotes are kept as written)
QUOTES = ('"', "“", "”")
#: single quotation marks: a quote's opening mark at a word's start, its closing one at a word's end
#: (an apostrophe inside a word, "don't", is neither; a plural possessive, "students'", looks like a
#: closing mark, so a quote runs to the last closing mark before the next opening one)
SINGLE_OPEN = re.compile(r"(?:^|(?<=[\s(\[{—–\-\"“]))['‘](?=\w)")
SINGLE_CLOSE = re.compile(r"(?<=[\w.,!?;:…])['’](?=[\s.,;:!?)\]}—–\-\"”]|$)")
DOUBLE_QUOTE = re.compile(r'"[^"]*"?|“[^”]*”?')
#: spellings that breame lists for one variety but that are standard in both (Merriam-Webster and the
#: Oxford English Dictionary give them as a main spelling, or in a sense of their own): they mark no variety
BOTH_VARIETIES = frozenset({
    "analyses", "catalyses", "paralyses", "psychoanalyses", "buses", "busing", "minibuses", "gases",
    "gauge", "gauged", "gauges", "gauging", "fillet", "fillets", "filleted", "filleting", "disc", "discs",
    "tonne", "tonnes", "axe", "likeable", "sheikh", "dialogue", "dialogues", "catalogue", "catalogues",
    "epilogue", "epilogues", "prologue", "prologues", "monologue", "monologues", "travelogue", "travelogues",
    "analogue", "analogues", "cancellation", "cancellations", "woolly", "woollies", "aesthetic", "aesthetics",
    "aesthetically", "aesthete", "aesthetes", "archaeology", "archaeological", "archaeologically",
    "archaeologist", "archaeologists", "worshipped", "worshipping", "worshipper", "tranquilly", "judgement",
    "judgements",
    "practice", "practices", "license", "licensed", "licensing", "licenses", "meter", "meters", "filter",
    "filters", "tire", "tires", "disk", "disks", "draft", "drafts", "ton", "tons", "gram", "grams", "kilogram",
    "kilograms", "milligram", "milligrams", "connection", "connections", "inflection", "inflections", "jail",
    "jails", "jailed", "jailing", "jailer", "jailers", "jailbreak", "jailbreaks", "medieval", "primeval",
    "install", "installs", "misspelled", "biased", "biasing", "bevy", "bevies", "tranquility", "groin",
    "groins", "griffin", "griffins", "wagon", "wagons", "siphon", "siphons", "siphoned", "siphoning", "yogurt",
    "yogurts", "gypsies", "almanac", "almanacs", "banister", "banisters", "balk", "balked", "balking", "balks",
})


def _patterned(british: str, american: str) -> bool:
    """Whether ``british`` becomes ``american`` by some subset of :data:`PATTERNS`."""
    for n in range(1, 4):
        for combo in itertools.combinations(PATTERNS, n):
            word = british
            for pattern, repl in combo:
                word = re.sub(pattern, repl, word)
            if word == american:
                return True
    return False


@functools.lru_cache(maxsize=1)
def spelling_pairs() -> tuple[dict[str, str], dict[str, str]]:
    """(British -> American, American -> British) for the pairs kept (see the module docstring)."""
    from breame.data.spelling_constants import BRITISH_ENGLISH_SPELLINGS

    to_american = {}
    for british, american in BRITISH_ENGLISH_SPELLINGS.items():
        if british in REFUSED or british.endswith("yses") or not (british.isalpha() and american.isalpha()):
            continue
        if _patterned(british, american):
            to_american[british] = american
    to_british: dict[str, str] = {}
    for british, american in to_american.items():
        to_british.setdefault(american, british)
    # an American spelling shared by two British ones ("tranquillise", "tranquillize") takes neither
    shared = {a for a in to_british if sum(1 for b in to_american.values() if b == a) > 1}
    return to_american, {a: b for a, b in to_british.items() if a not in shared and a not in to_american}


@functools.lru_cache(maxsize=1)
def variety_words() -> tuple[frozenset[str], frozenset[str]]:
    """(British, American): every spelling breame gives for one variety only, whether or not the table
    respells it ("tyre", "programmes", "jewelry"), less :data:`BOTH_VARIETIES`: a variant with one of the
    other variety left in it mixes the two."""
    from breame.data.spelling_constants import BRITISH_ENGLISH_SPELLINGS

    british = {b for b, a in BRITISH_ENGLISH_SPELLINGS.items() if b != a}
    american = {a for b, a in BRITISH_ENGLISH_SPELLINGS.items() if b != a}
    to_american, to_british = spelling_pairs()
    british |= set(to_american)
    american |= set(to_british) | set(to_american.values())
    return frozenset(british - american - BOTH_VARIETIES), frozenset(american - british - BOTH_VARIETIES)


def _sentence_starts(parsed: ParsedText) -> list[bool]:
    """Per token: whether the last token before it, quotes and opening brackets aside, ends a sentence (or
    there is none). One pass over the text: a long text has as many tokens to ask about as to look back on."""
    starts, last = [], None
    for tok in parsed.tokens:
        starts.append(last is None or last in (".", "!", "?", ":", "…"))
        if tok.text not in QUOTES and tok.text not in ("(", "[", "'", "‘"):
            last = tok.text
    return starts


def quoted(text: str) -> list[tuple[int, int]]:
    """Character spans inside quotation marks, double ('"', curly) or single ("'", curly). A single
    quotation opens at a word's start and runs to the last closing mark before the next opening one,
    or to the text's end: an apostrophe that only looks like an opening mark ("'90s") keeps more of
    the text as written, never less."""
    spans = [(m.start(), m.end()) for m in DOUBLE_QUOTE.finditer(text)]
    opens = [m.start() for m in SINGLE_OPEN.finditer(text)]
    closes = [m.start() for m in SINGLE_CLOSE.finditer(text)]
    for k, start in enumerate(opens):
        limit = opens[k + 1] if k + 1 < len(opens) else len(text)
        ends = [c for c in closes if start < c < limit]
        spans.append((start, ends[-1] + 1 if ends else len(text)))
    return spans


def _quoted(parsed: ParsedText) -> set[int]:
    """Tokens inside a quotation (:func:`quoted`)."""
    spans = quoted(parsed.text)
    return {t.i for t in parsed.tokens if any(a < t.idx < b for a, b in spans)}


def mixed(parsed: ParsedText, edits: list[Edit], direction: str) -> bool:
    """Whether a word of the variety ``direction`` leaves stays in the text after ``edits``."""
    british, american = variety_words()
    other = british if direction == "to_american" else american
    edited = {e.start for e in edits}
    return any(t.text.lower() in other for t in parsed.tokens if t.idx not in edited)


def changeable(parsed: ParsedText) -> list[int]:
    """Tokens whose spelling may change: plain words outside names, entities, quotes and tags."""
    from perturbations.language.names import name_spans

    named = {i for start, end in name_spans(parsed) for i in range(start, end)} | _quoted(parsed)
    starts = _sentence_starts(parsed)
    out = []
    for tok in parsed.tokens:
        word = tok.text
        if not word.isalpha() or tok.i in named or tok.ent_type or word.isupper() and len(word) > 1:
            continue
        if word[0].isupper() and (word[1:] != word[1:].lower() or not starts[tok.i]):
            continue  # a capitalised word inside a sentence names something ("Labour", "Center Parcs")
        if tok.i > 0 and parsed.tokens[tok.i - 1].text in ("#", "@") and not parsed.tokens[tok.i - 1].whitespace:
            continue
        if in_compound(parsed, tok.i):
            continue
        out.append(tok.i)
    return out


def in_compound(parsed: ParsedText, i: int) -> bool:
    """Whether noun ``i`` may be part of a name: a proper noun, a compound's part ("arts theatre",
    "city centre", "theatre tickets"), a noun before another noun ("the harbor court hotel"), or a
    noun with a modifier before it ("civic center"). In
    lower-cased text (the dialogue corpus writes "the cambridge arts theatre", "civic center") a
    name's last word looks like any noun, so a noun changes only with nothing but a determiner, a
    possessive or a number before it ("the centre of town", "295 centers", "travellers to ...")."""
    tok = parsed.tokens[i]
    if tok.pos not in ("NOUN", "PROPN", "X") and not _noun_as_adjective(tok):
        return False  # a verb or adjective is no part of a name here ("the WHO criticised")
    if tok.pos in ("PROPN", "X") or tok.dep == "compound":
        return True
    if tok.dep in ("amod", "nmod") and tok.head > i:
        return True  # a noun modifying a later noun ("Labour anti-Semitism whistleblowers")
    if i > 0 and parsed.tokens[i - 1].pos in ("PROPN", "X", "NOUN", "ADJ"):
        return True
    if i + 1 < len(parsed.tokens) and parsed.tokens[i + 1].pos in ("PROPN", "NOUN"):
        return True  # a noun before a noun may be a name's first word ("the harbor court hotel")
    return any(c.i < i and c.dep not in ("det", "poss", "predet", "nummod", "case") for c in parsed.children(i))


def _noun_as_adjective(tok: Token) -> bool:
    """Whether the tagger calls ``tok`` an adjective though the lexicon knows it only as a noun (or verb):
    a noun modifying a noun ("the labour party", "defence spending") is a compound, and may be a name's word."""
    from lemminflect import getAllLemmas

    if tok.pos != "ADJ":
        return False
    lemmas = getAllLemmas(tok.text.lower())
    return "NOUN" in lemmas and "ADJ" not in lemmas


class Spelling(TwoWayRewrite):
    """Respell every British word American, or every American word British (``invariant``)."""

    kind = "spelling"
    backend = "breame-patterns"
    directions = ("to_american", "to_british")
    nothing_to_do = ("no word with a British and an American spelling of the same sense, or a variant would "
                     "mix the two varieties")

    def __init__(self) -> None:
        spelling_pairs()  # a missing breame is an error when built, not on the first text

    def edits(self, parsed: ParsedText, direction: str) -> list[Edit]:
        to_american, to_british = spelling_pairs()
        table = to_american if direction == "to_american" else to_british
        edits = []
        for i in changeable(parsed):
            tok = parsed.tokens[i]
            new = table.get(tok.text.lower())
            if new is not None:
                edits.append(Edit(tok.idx, tok.idx + len(tok.text), tok.text, match_case(new, tok.text)))
        return [] if mixed(parsed, edits, direction) else edits
