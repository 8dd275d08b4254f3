"""Adjective replacement (RoMe §4.6, case 2): one adjective swapped for a WordNet synonym and an antonym.

Two variants per input ("a cheap hotel" -> "an expensive hotel", "a large house" -> "a big house"):
the synonym keeps the meaning (``invariant``), the antonym reverses it (``decrease``). The recipe:

* **which adjectives** (word constraints, :mod:`perturbations.constraints`): ``ProtectedWords``
  (names, numbers, adjectives inside names), ``ClearUse`` (before the noun it modifies, or a
  predicate after a linking verb; "is the favourite" is a noun), ``MultiWordUnits`` (compounds and
  WordNet collocations: "living room", "central bank", "little league"; hyphenated words),
  ``NotRestrictive`` (determiner-like adjectives and quantifiers: "other", "many", "same"),
  ``PlainAdjectives`` (not after a measure phrase, "185 cm tall"; not before a unit, "square
  kilometre", or an *-ing* nominal, "easy listening"), ``BeforeCommonNoun`` (not before a name, also a
  lower-cased one: "inner richmond");
* **transformation**: WordNet synonyms of the adjective over every sense
  (:func:`~perturbations.language.senses.wordnet_synonyms`) and its *direct* antonyms in any sense
  (:func:`~perturbations.language.senses.wordnet_antonyms`), inflected like the word by lemminflect (a
  comparative without a one-word form is refused), the article fixed by inflect;
* **candidate constraints**: ``NoWordExchange``, ``NotSameLemma``, ``ContentCandidates``,
  ``AdjectivePosition`` (WordNet's predicative-only and attributive-only markers: never "an alive
  mouse"), ``PartOfSpeechInContext`` (spaCy must tag the replacement as the same adjective tag in
  context); a synonym must also share a sense the word often has (``SenseShare``);
* **the synonym is decided by the judge** (:func:`perturbations.judged.choose`, kind ``"adjective"``):
  every adjective's synonyms ranked from one language-model distribution per word, the best of the few best
  adjectives judged in full; the one the judge accepts and likes best is kept (``variant.meta["p_valid"]``);
* **the antonym** changes the meaning on purpose, so the judge of meaning-kept variants cannot decide it:
  the antonyms of the same adjective (or, where no synonym was accepted, of one the seed picks) must still
  read as English to the judge's language model (:func:`perturbations.judged.fluent_antonyms`) and be a word
  in common use (at most :data:`ANTONYM_MAX_RARER` Zipf units rarer than the adjective: not "immoderate");
  the most fluent is kept.

A text whose synonyms the judge accepts none of gives no ``invariant`` variant (precision first). Nothing
here reads a metric's model; the judge's description is in :meth:`AdjectiveSwap.describe`.
"""

from __future__ import annotations

import random

from perturbations.base import Edit, Perturbation, Result, Variant, apply_edits
from perturbations.constraints import (
    MIN_SENSE_SHARE,
    RESTRICTIVE_ADJECTIVES,
    BeforeCommonNoun,
    ClearUse,
    MultiWordUnits,
    NotRestrictive,
    PlainAdjectives,
    ProtectedWords,
    SenseShare,
)
from perturbations.judged import ANTONYM_MAX_DROP, choose, fluent_antonyms, judge_description
from perturbations.language.articles import with_article_fixes
from perturbations.language.casing import match_case
from perturbations.language.inflection import inflect
from perturbations.language.senses import wordnet_antonyms, wordnet_synonyms
from perturbations.parsers import require_spacy_labels
from perturbations.recipe import Candidate, acceptable, acceptable_all, allowed_tokens, describe_constraints
from perturbations.textfooler import structure_constraints
from rome.core.parsing import ParsedText, Token

ADJECTIVE_TAGS = ("JJ", "JJR", "JJS")
#: restrictive, determiner-like and preposition-like adjectives (see the constraint's docstring)
NOT_DESCRIPTIVE = RESTRICTIVE_ADJECTIVES
LEXICON = "wordnet-3.0"
SYNONYM, ANTONYM = "synonym", "antonym"
#: how much rarer (wordfreq Zipf units, a factor of ten each) an antonym may be than the adjective it replaces:
#: WordNet's direct antonyms include words few writers use ("moderate" -> "immoderate", 4.3 -> 1.8), which a
#: reader takes for a broken text rather than the opposite statement. Set on the development halves of the
#: adjective cards: the antonyms read as broken there were 2.5 and 2.6 rarer, the rarest one read as intended
#: ("inadvisable") 1.1; 2.0 lies between. The language model's fluency bound does not catch these: a rare
#: word costs few nats in a short text.
ANTONYM_MAX_RARER = 2.0


class AdjectiveSwap(Perturbation):
    """Replace one adjective (chosen by the seed) with a synonym and, separately, with an antonym."""

    kind = "adjective"
    parses = True

    def __init__(self, parser: str | None = None, require_both: bool = False,
                 min_sense_share: float = MIN_SENSE_SHARE, antonym_max_drop: float = ANTONYM_MAX_DROP) -> None:
        """``require_both``: only adjectives with an accepted synonym *and* a fluent antonym;
        ``min_sense_share``: the synonym's sense check (as TextFooler's); ``antonym_max_drop``: the largest
        drop of the text's log-probability (nats) an antonym's variant may have."""
        if not antonym_max_drop >= 0:
            raise ValueError("antonym_max_drop must be >= 0 (a largest drop in log-probability)")
        self.parser = require_spacy_labels(parser, self.kind)
        self.require_both = require_both
        self.antonym_max_drop = float(antonym_max_drop)
        self.word_constraints = [ProtectedWords(), ClearUse(), MultiWordUnits(), NotRestrictive(), PlainAdjectives(),
                                 BeforeCommonNoun()]
        self.structure = structure_constraints()  # TextFooler's: the same swap keeps the same structure
        self.synonym_checks = [SenseShare(min_sense_share)]

    def describe(self) -> dict:
        return {"kind": self.kind, "parser": self.parser or "spacy", "lexicon": LEXICON,
                "senses": "all, judged in context", "require_both": self.require_both,
                "synonym": {"judge": judge_description(self.kind),
                            "constraints": describe_constraints(self.synonym_checks)},
                "antonym": {"max_drop": self.antonym_max_drop, "score": "judge's language model, whole text",
                            "max_rarer_zipf": ANTONYM_MAX_RARER},
                "constraints": describe_constraints(self.word_constraints + self.structure)}

    def adjectives(self, parsed: ParsedText) -> list[Token]:
        """The adjectives that may change (word constraints and :func:`is_candidate`)."""
        allowed = allowed_tokens(parsed, self.word_constraints)
        return [t for t in parsed.tokens if t.i in allowed and is_candidate(t)]

    def candidates(self, parsed: ParsedText, tokens: list[Token]) -> dict[int, list[Candidate]]:
        """Each adjective's synonyms and antonyms (``Candidate.source`` says which) that keep the structure
        and, for synonyms, a common sense of the word; not yet judged."""
        found: dict[int, list[Candidate]] = {}
        for tok in tokens:
            lemma = tok.lemma.lower()
            found[tok.i] = [Candidate(tok.i, form, synset, tok.i, relation)
                            for relation, pairs in ((SYNONYM, wordnet_synonyms(lemma, "a")),
                                                    (ANTONYM, wordnet_antonyms(lemma, "a")))
                            for name, synset in pairs if name not in NOT_DESCRIPTIVE
                            for form in [inflect_like(name, tok)] if form]
        found = acceptable_all(parsed, found, self.structure)
        out = {}
        for i, cs in found.items():
            synonyms = acceptable(parsed, [c for c in cs if c.source == SYNONYM], self.synonym_checks)
            out[i] = [*synonyms, *(c for c in cs if c.source == ANTONYM and in_common_use(c.word, parsed.tokens[i].text))]
        return out

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser(self.parser).parse_one(text)
        found = self.candidates(parsed, self.adjectives(parsed))
        synonyms = {i: [c for c in cs if c.source == SYNONYM] for i, cs in found.items()}
        antonyms = {i: [c for c in cs if c.source == ANTONYM] for i, cs in found.items() if any(
            c.source == ANTONYM for c in cs)}
        choice = choose(self.kind, parsed, synonyms) if any(synonyms.values()) else None
        if choice is not None:
            where = choice.candidates[0].index
        elif antonyms and not self.require_both:
            where = rng.choice(sorted(antonyms))
        else:
            where = None
        antonym = next(iter(fluent_antonyms(parsed, antonyms.get(where, []), self.antonym_max_drop)), None) \
            if where is not None else None
        if where is None or (self.require_both and (choice is None or antonym is None)) or (
                choice is None and antonym is None):
            return Result.skip(text, "no descriptive adjective with a WordNet synonym the judge accepts"
                               + (" and " if self.require_both else " or ") + "a fluent antonym")
        tok = parsed.tokens[where]
        variants = []
        if choice is not None:
            c = choice.candidates[0]
            meta = {"relation": SYNONYM, "word": tok.text, "replacement": c.word, "lexicon": LEXICON,
                    "synset": c.synset, "p_valid": round(choice.p_valid, 4)}
            edits = replacement_edits(parsed, tok, c.word)
            variants.append(Variant(apply_edits(text, edits), self.kind, "invariant", tuple(edits), meta))
        if antonym is not None:
            meta = {"relation": ANTONYM, "word": tok.text, "replacement": antonym.word, "lexicon": LEXICON,
                    "synset": antonym.synset, "logprob_change": round(antonym.score or 0.0, 3)}
            edits = replacement_edits(parsed, tok, antonym.word)
            variants.append(Variant(apply_edits(text, edits), self.kind, "decrease", tuple(edits), meta))
        return Result(text, tuple(variants))


def in_common_use(antonym: str, word: str) -> bool:
    """Whether ``antonym`` is at most :data:`ANTONYM_MAX_RARER` Zipf units rarer than ``word`` (wordfreq)."""
    from perturbations.judge.features import zipf

    return zipf(antonym.lower()) >= zipf(word.lower()) - ANTONYM_MAX_RARER


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
