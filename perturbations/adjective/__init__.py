"""Adjective replacement (RoMe §4.6, case 2): one adjective swapped for a WordNet synonym and an antonym.

Two variants per input ("a cheap hotel" -> "an inexpensive hotel" / "an expensive hotel"):
the synonym keeps the meaning (``invariant``), the antonym reverses it (``decrease``).
Synonyms come only from the adjective's most used sense (WordNet sense counts), must be
attested in it and have it as their own main sense, so "good food" never becomes "full food"
and "open" never "exposed"; among them the most frequent lemma wins. Antonyms may come from
any sense used at least ``min_sense_share`` as often as the top one. Inflection (biggest -> largest; cheaper -> "more expensive" is refused) comes from
``lemminflect``, and the indefinite article from ``inflect``. Multi-word and hyphenated
lemmas are never used, so the token count stays the same.
"""

from __future__ import annotations

import functools
import random

from perturbations.base import Edit, Perturbation, Result, Variant, apply_edits
from perturbations.language.articles import with_article_fixes
from perturbations.language.casing import match_case
from perturbations.language.inflection import inflect
from perturbations.language.names import protected_tokens
from perturbations.language.senses import INDIRECT_ANTONYM_BLOCKLIST, antonyms, dominant_senses, synonyms
from perturbations.parsers import require_spacy_labels
from rome.core.parsing import ParsedText, Token

ADJECTIVE_TAGS = ("JJ", "JJR", "JJS")
#: determiner-like adjectives and quantifiers: swapping them changes structure, not description
NOT_DESCRIPTIVE = frozenset({
    "other", "such", "own", "many", "much", "few", "several", "more", "most", "less", "least", "only",
    "various", "certain", "else", "enough", "next", "last", "first", "second", "third", "whole", "same",
    "very", "sorry", "able", "due", "further", "former", "latter", "main", "particular", "specific",
    "total",  # "182 total hotels" is a count, not a description (-> "entire", "fractional")
})
#: positional and preposition-like adjectives: in the shipped data they mostly belong to place names
#: ("outer richmond", "lower haight", "alamo square") or head a preposition ("near X", "close to X"),
#: where a swap breaks the sentence ("far the river"); intensifiers in names ("ultra high end", "super 8")
POSITIONAL = frozenset({
    "outer", "inner", "upper", "lower", "north", "south", "east", "west", "northern", "southern", "eastern",
    "western", "central", "near", "close", "far", "square", "ultra", "super", "twin",
})


class AdjectiveSwap(Perturbation):
    """Replace one adjective (chosen by the seed) with a synonym and, separately, with an antonym."""

    kind = "adjective"
    parses = True

    def __init__(self, parser: str | None = None, min_sense_share: float = 0.25, top_k: int = 1,
                 require_both: bool = False) -> None:
        """``min_sense_share``: a sense is used only if its count is at least this share of the top sense's;
        ``top_k``: the seed picks among this many of the most frequent candidates (1 = always the top one);
        ``require_both``: only adjectives with a synonym *and* an antonym, so a suite gets as many
        invariant (synonym) as decrease (antonym) cases."""
        self.parser = require_spacy_labels(parser, self.kind)
        self.min_sense_share = min_sense_share
        self.top_k = max(1, int(top_k))
        self.require_both = require_both

    def describe(self) -> dict:
        return {"kind": self.kind, "parser": self.parser or "spacy", "min_sense_share": self.min_sense_share,
                "top_k": self.top_k, "lexicon": "wordnet-3.0", "require_both": self.require_both}

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser(self.parser).parse_one(text)
        names = protected_tokens(parsed, domain=False)
        options = []
        for tok in parsed.tokens:
            if tok.i in names or not is_candidate(parsed, tok):
                continue
            syn = self._pick(synonyms(tok.lemma.lower(), self.min_sense_share), tok, rng)
            ant = self._pick(antonyms(tok.lemma.lower(), self.min_sense_share), tok, rng)
            if syn or ant:
                options.append((tok, syn, ant))
        if self.require_both:
            options = [o for o in options if o[1] and o[2]]
        if not options:
            return Result.skip(text, "no adjective with a WordNet synonym" + (" and " if self.require_both else " or ")
                               + "antonym (names kept)")
        both = [o for o in options if o[1] and o[2]]
        tok, syn, ant = rng.choice(both or options)
        variants = []
        for relation, word, expectation in (("synonym", syn, "invariant"), ("antonym", ant, "decrease")):
            if word:
                edits = replacement_edits(parsed, tok, word)
                meta = {"relation": relation, "word": tok.text, "replacement": word, "lexicon": "wordnet-3.0"}
                variants.append(Variant(apply_edits(text, edits), self.kind, expectation, tuple(edits), meta))
        return Result(text, tuple(variants))

    def _pick(self, lemmas: tuple[str, ...], tok: Token, rng: random.Random) -> str | None:
        usable = [w for w in (inflect_like(lemma, tok) for lemma in lemmas) if w]
        return rng.choice(usable[: self.top_k]) if usable else None


def is_candidate(parsed: ParsedText, tok: Token) -> bool:
    """A descriptive adjective outside names ("the Red Victorian" is a hotel, not a colour)."""
    if tok.pos != "ADJ" or tok.tag not in ADJECTIVE_TAGS or not tok.text.isalpha():
        return False
    words = {tok.lemma.lower(), tok.text.lower()}
    if tok.ent_type or words & (NOT_DESCRIPTIVE | POSITIONAL):
        return False
    head = parsed.tokens[tok.head]
    modifies_noun = tok.dep == "amod" and head.pos in ("NOUN", "PROPN")
    predicate = tok.dep in ("acomp", "attr", "oprd") or (tok.dep == "conj" and head.pos == "ADJ")
    if not (modifies_noun or predicate):  # "a little pricey": "little" is adverbial there
        return False
    if head.pos == "PROPN":  # "Great Britain", and in the lower-cased data "little italy"
        return False
    return is_descriptive(tok.lemma.lower())


@functools.lru_cache(maxsize=4096)
def is_descriptive(word: str) -> bool:
    """Not relational ("financial", "chinese": WordNet's adj.pert) and not a colour ("red" -> "crimson")."""
    senses = dominant_senses(word, 0.25)
    if not senses or senses[0].lexname() == "adj.pert":
        return False
    return not any(h.name() in INDIRECT_ANTONYM_BLOCKLIST for s in senses[:1] for h in s.similar_tos())


def inflect_like(lemma: str, tok: Token) -> str | None:
    """``lemma`` in ``tok``'s degree (JJ/JJR/JJS) and letter case; None if no one-word form exists."""
    form = inflect(lemma, tok.tag)  # "more expensive" would add a token: no one-word form, refused
    if form is None:
        return None
    if form.lower() in (tok.text.lower(), tok.lemma.lower()):
        return None
    return match_case(form, tok.text)


def replacement_edits(parsed: ParsedText, tok: Token, word: str) -> list[Edit]:
    """The swap of ``tok`` for ``word``, with the article before it fixed ("a cheap" -> "an expensive")."""
    return with_article_fixes(parsed.text, [Edit(tok.idx, tok.idx + len(tok.text), tok.text, word)])
