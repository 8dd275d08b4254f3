"""Adjective replacement (RoMe §4.6, case 2): one adjective swapped for a WordNet synonym and an antonym.

Two variants per input ("a cheap hotel" -> "an expensive hotel", "a large house" -> "a big house"):
the synonym keeps the meaning (``invariant``), the antonym reverses it (``decrease``). The recipe:

* **which adjectives** (word constraints, :mod:`perturbations.constraints`): ``ProtectedWords``
  (names, numbers, adjectives inside names), ``ClearUse`` (before the noun it modifies, or a
  predicate after a linking verb; "is the favourite" is a noun), ``MultiWordUnits`` (compounds and
  WordNet collocations: "living room", "central bank", "little league"; hyphenated words),
  ``DescriptiveAdjectives`` (gradable adjectives only: "single market", "criminal order" classify),
  ``PlainAdjectives`` (not after a measure phrase, "185 cm tall"; not before a unit, "square kilometre",
  or an *-ing* nominal, "easy listening"),
  and :data:`NOT_DESCRIPTIVE` (determiner-like adjectives and quantifiers: "other", "many", "same");
* **synonyms only on concrete nouns** (:func:`~perturbations.constraints.concrete_head`: "a large amount"
  -/-> "a big amount"; antonyms reverse the property whatever the noun);
* **transformation**: synonyms and *direct* antonyms of the adjective's dominant sense
  (:mod:`perturbations.language.senses`: SemCor counts, at least 5 uses and four in five of them),
  inflected like the word by lemminflect (a comparative without a one-word form is refused), the
  article fixed by inflect;
* **candidate constraints**: ``NoWordExchange``, ``NotSameLemma``, ``PartOfSpeechInContext`` (spaCy
  must tag the replacement as the same adjective tag in context: "overseas" -> "abroad" reads as an
  adverb);
* **search**: the seed picks one adjective among those with a candidate (preferring ones with both).

Precision first: a text whose adjectives are unclear is skipped. No rule here was written by reading a
corpus: each comes from WordNet, its counts, lemminflect, spaCy or a grammar reference.
"""

from __future__ import annotations

import random

from perturbations.base import Edit, Perturbation, Result, Variant, apply_edits
from perturbations.constraints import (
    RESTRICTIVE_ADJECTIVES,
    ClearUse,
    DescriptiveAdjectives,
    MultiWordUnits,
    NotSameLemma,
    NoWordExchange,
    PartOfSpeechInContext,
    PlainAdjectives,
    ProtectedWords,
    concrete_head,
)
from perturbations.language.articles import with_article_fixes
from perturbations.language.casing import match_case
from perturbations.language.inflection import inflect
from perturbations.language.senses import sense_antonyms, sense_synonyms
from perturbations.parsers import require_spacy_labels
from perturbations.recipe import Candidate, acceptable, allowed_tokens
from rome.core.parsing import ParsedText, Token

ADJECTIVE_TAGS = ("JJ", "JJR", "JJS")
#: restrictive, determiner-like and preposition-like adjectives (see the constraint's docstring)
NOT_DESCRIPTIVE = RESTRICTIVE_ADJECTIVES


class AdjectiveSwap(Perturbation):
    """Replace one adjective (chosen by the seed) with a synonym and, separately, with an antonym."""

    kind = "adjective"
    parses = True

    def __init__(self, parser: str | None = None, top_k: int = 1, require_both: bool = False) -> None:
        """``top_k``: the seed picks among this many of the most frequent candidates (1 = always the top one);
        ``require_both``: only adjectives with a synonym *and* an antonym, so a suite gets as many
        invariant (synonym) as decrease (antonym) cases."""
        self.parser = require_spacy_labels(parser, self.kind)
        self.top_k = max(1, int(top_k))
        self.require_both = require_both
        self.word_constraints = [ProtectedWords(), ClearUse(), MultiWordUnits(), DescriptiveAdjectives(),
                                 PlainAdjectives()]
        self.constraints = [NoWordExchange(), NotSameLemma(), PartOfSpeechInContext()]

    def describe(self) -> dict:
        return {"kind": self.kind, "parser": self.parser or "spacy", "top_k": self.top_k,
                "lexicon": "wordnet-3.0", "sense": "dominant both ways (count >= 10, share >= 4/5)",
                "require_both": self.require_both,
                "constraints": [type(c).__name__ for c in self.word_constraints + self.constraints]}

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser(self.parser).parse_one(text)
        allowed = allowed_tokens(parsed, self.word_constraints)
        options = []
        for tok in parsed.tokens:
            if tok.i not in allowed or not is_candidate(tok):
                continue
            lemma = tok.lemma.lower()
            syn = self._pick(parsed, tok, fitting(tok, sense_synonyms(lemma, "a")), rng) if concrete_head(
                parsed, tok.i) else None
            ant = self._pick(parsed, tok, fitting(tok, sense_antonyms(lemma, "a")), rng)
            if syn or ant:
                options.append((tok, syn, ant))
        if self.require_both:
            options = [o for o in options if o[1] and o[2]]
        if not options:
            return Result.skip(text, "no descriptive adjective with a clear sense and a WordNet synonym"
                               + (" and " if self.require_both else " or ") + "antonym")
        both = [o for o in options if o[1] and o[2]]
        tok, syn, ant = rng.choice(both or options)
        variants = []
        for relation, word, expectation in (("synonym", syn, "invariant"), ("antonym", ant, "decrease")):
            if word:
                edits = replacement_edits(parsed, tok, word)
                meta = {"relation": relation, "word": tok.text, "replacement": word, "lexicon": "wordnet-3.0"}
                variants.append(Variant(apply_edits(text, edits), self.kind, expectation, tuple(edits), meta))
        return Result(text, tuple(variants))

    def _pick(self, parsed: ParsedText, tok: Token, lemmas: list[str], rng: random.Random) -> str | None:
        forms = [w for w in (inflect_like(lemma, tok) for lemma in lemmas) if w]
        usable = [c.word for c in acceptable(parsed, [Candidate(tok.i, w) for w in forms], self.constraints)]
        return rng.choice(usable[: self.top_k]) if usable else None


def fitting(tok: Token, candidates: tuple[tuple[str, str], ...]) -> list[str]:
    """The candidates that may stand where ``tok`` stands: WordNet marks adjectives used only as
    predicates ``(p)`` ("alive", "afraid": never "an alive mouse") or only before a noun ``(a)``, and
    determiner-like words (:data:`NOT_DESCRIPTIVE`: "same" needs "the") change the structure."""
    from perturbations.language.senses import wordnet

    attributive = tok.dep == "amod"
    out = []
    for name, synset in candidates:
        if name in NOT_DESCRIPTIVE:
            continue
        marker = next((x.syntactic_marker() for x in wordnet().synset(synset).lemmas() if x.name().lower() == name), None)
        if (attributive and marker in ("(p)", "(ip)")) or (not attributive and marker == "(a)"):
            continue
        out.append(name)
    return out


def is_candidate(tok: Token) -> bool:
    """An alphabetic adjective (JJ/JJR/JJS) that is not determiner-like (:data:`NOT_DESCRIPTIVE`) and
    not inside a named entity."""
    if tok.pos != "ADJ" or tok.tag not in ADJECTIVE_TAGS or not tok.text.isalpha() or tok.ent_type:
        return False
    return not ({tok.lemma.lower(), tok.text.lower()} & NOT_DESCRIPTIVE)


def inflect_like(lemma: str, tok: Token) -> str | None:
    """``lemma`` in ``tok``'s degree (JJ/JJR/JJS) and letter case; None if no one-word form exists."""
    form = inflect(lemma, tok.tag)  # "more expensive" would add a token: no one-word form, refused
    if form is None or form.lower() in (tok.text.lower(), tok.lemma.lower()):
        return None
    return match_case(form, tok.text)


def replacement_edits(parsed: ParsedText, tok: Token, word: str) -> list[Edit]:
    """The swap of ``tok`` for ``word``, with the article before it fixed ("a cheap" -> "an expensive")."""
    return with_article_fixes(parsed.text, [Edit(tok.idx, tok.idx + len(tok.text), tok.text, word)])
