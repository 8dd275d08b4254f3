"""Adjective replacement (RoMe §4.6, case 2): one adjective swapped for a WordNet synonym and an antonym.

Two variants per input ("a cheap hotel" -> "an expensive hotel", "a large house" -> "a big house"):
the synonym keeps the meaning (``invariant``), the antonym reverses it (``decrease``). The recipe:

* **which adjectives** (word constraints, :mod:`perturbations.constraints`): ``ProtectedWords``
  (names, numbers, adjectives inside names), ``ClearUse`` (before the noun it modifies, or a
  predicate after a linking verb; "is the favourite" is a noun), ``MultiWordUnits`` (compounds and
  WordNet collocations: "living room", "central bank", "little league"; hyphenated words),
  ``NotRestrictive`` (determiner-like adjectives and quantifiers: "other", "many", "same"),
  ``PlainAdjectives`` (not after a measure phrase, "185 cm tall"; not before a unit, "square
  kilometre", or an *-ing* nominal, "easy listening");
* **transformation**: WordNet synonyms of the adjective over every sense
  (:func:`~perturbations.language.senses.wordnet_synonyms`) and its *direct* antonyms in any sense
  (:func:`~perturbations.language.senses.wordnet_antonyms`), inflected like the word by lemminflect (a
  comparative without a one-word form is refused), the article fixed by inflect;
* **candidate constraints**: ``NoWordExchange``, ``NotSameLemma``, ``ContentCandidates``,
  ``AdjectivePosition`` (WordNet's predicative-only and attributive-only markers: never "an alive
  mouse"), ``PartOfSpeechInContext`` (spaCy must tag the replacement as the same adjective tag in
  context), then the judges TextFooler uses: a synonym must share a sense the word often has
  (``SenseShare``), keep the neighbours' collocations (``Collocation``) and fit its slot about as well as the original
  (``FitsContext``, ``synonym_delta``); an antonym must fit its slot well enough to be English
  (``antonym_delta``, its own threshold: an antonym says something else, so it may be less expected);
* **search**: every adjective with a candidate is judged (one pass of the context model for a few at a
  time); the seed picks one among those with an acceptable synonym and antonym (else among the rest),
  and each variant takes the candidate the context model prefers (``top_k``: the seed picks among the
  k best).

Which sense the adjective has here is read from the context (WordNet's sense counts are a prior, no longer
the gate of a dominant sense),
and the context model is not a metric's (:mod:`rome.context.model`; its signature is in
:meth:`AdjectiveSwap.describe`).
"""

from __future__ import annotations

import random
from dataclasses import replace

from perturbations.base import Edit, Perturbation, Result, Variant, apply_edits
from perturbations.constraints import (
    RESTRICTIVE_ADJECTIVES,
    ClearUse,
    MultiWordUnits,
    NotRestrictive,
    PlainAdjectives,
    ProtectedWords,
    SenseShare,
)
from perturbations.context_fit import (
    ANTONYM_DELTA,
    MIN_BIGRAM_RATIO,
    MIN_LOGP,
    MIN_SENSE_SHARE,
    SYNONYM_DELTA,
    Collocation,
    FitsContext,
    model_signature,
    pass_groups,
    slot_scores,
    words_per_pass,
)
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


class AdjectiveSwap(Perturbation):
    """Replace one adjective (chosen by the seed) with a synonym and, separately, with an antonym."""

    kind = "adjective"
    parses = True

    def __init__(self, parser: str | None = None, top_k: int = 1, require_both: bool = False,
                 synonym_delta: float = SYNONYM_DELTA, antonym_delta: float = ANTONYM_DELTA,
                 min_bigram_ratio: float = MIN_BIGRAM_RATIO, min_sense_share: float = MIN_SENSE_SHARE,
                 synonym_min_logp: float = MIN_LOGP) -> None:
        """``top_k``: the seed picks among this many of the best-fitting candidates (1 = always the best);
        ``require_both``: only adjectives with a synonym *and* an antonym; ``synonym_delta`` /
        ``antonym_delta``: the largest drop in the context model's log-probability from the original to
        a synonym / an antonym in its slot; ``min_bigram_ratio`` and ``min_sense_share``: the synonym's
        collocation and sense checks (as TextFooler's); ``synonym_min_logp``: the least log-probability of
        a synonym itself in its slot (TextFooler's ``min_logp``)."""
        self.parser = require_spacy_labels(parser, self.kind)
        self.top_k = max(1, int(top_k))
        self.require_both = require_both
        self.word_constraints = [ProtectedWords(), ClearUse(), MultiWordUnits(), NotRestrictive(), PlainAdjectives()]
        self.structure = structure_constraints()  # TextFooler's: the same swap keeps the same structure
        self.synonym_checks = [SenseShare(min_sense_share), Collocation(min_bigram_ratio)]
        self.synonym_fit = FitsContext(synonym_delta, synonym_min_logp)
        self.antonym_fit = FitsContext(antonym_delta)

    def describe(self) -> dict:
        return {"kind": self.kind, "parser": self.parser or "spacy", "top_k": self.top_k, "lexicon": LEXICON,
                "senses": "all, judged in context", "require_both": self.require_both,
                "context_model": model_signature(),
                "synonym": describe_constraints([*self.synonym_checks, self.synonym_fit]),
                "antonym": describe_constraints([self.antonym_fit]),
                "constraints": describe_constraints(self.word_constraints + self.structure)}

    def adjectives(self, parsed: ParsedText) -> list[Token]:
        """The adjectives that may change (word constraints and :func:`is_candidate`)."""
        allowed = allowed_tokens(parsed, self.word_constraints)
        return [t for t in parsed.tokens if t.i in allowed and is_candidate(t)]

    def candidates(self, parsed: ParsedText, tokens: list[Token]) -> dict[int, list[Candidate]]:
        """Each adjective's synonyms and antonyms (``Candidate.source`` says which) that keep the structure
        and, for synonyms, a common sense of the word and the collocations; not yet judged by the context
        model."""
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
            out[i] = [*synonyms, *(c for c in cs if c.source == ANTONYM)]
        return out

    def judged(self, parsed: ParsedText, found: dict[int, list[Candidate]]) -> dict[int, list[Candidate]]:
        """``found`` scored by the context model (every candidate, best first), a few non-neighbouring
        adjectives masked together per pass (:func:`~perturbations.context_fit.words_per_pass`; a synonym
        below the synonym check's ``min_logp`` is dropped here; every
        adjective of the text, with or without candidates, so a score does not depend on what the other
        constraints refused)."""
        out: dict[int, list[Candidate]] = {}
        floor = self.synonym_fit.min_logp
        for group in pass_groups(list(found), words_per_pass(parsed)):
            scored = slot_scores(parsed, {i: found[i] for i in group})
            for i in group:
                original, logps = scored[i]
                judged = [replace(c, score=lp - original) for c, lp in zip(found[i], logps)
                          if original is not None and lp is not None and (c.source == ANTONYM or lp >= floor)]
                out[i] = sorted(judged, key=lambda c: -c.score)
        return out

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser(self.parser).parse_one(text)
        scored = self.judged(parsed, self.candidates(parsed, self.adjectives(parsed)))
        options = []
        for i, cs in scored.items():
            syn = self._pick([c for c in cs if c.source == SYNONYM and c.score >= -self.synonym_fit.delta], rng)
            ant = self._pick([c for c in cs if c.source == ANTONYM and c.score >= -self.antonym_fit.delta], rng)
            if syn or ant:
                options.append((parsed.tokens[i], syn, ant))
        if self.require_both:
            options = [o for o in options if o[1] and o[2]]
        if not options:
            return Result.skip(text, "no descriptive adjective with a WordNet synonym"
                               + (" and " if self.require_both else " or ") + "antonym that fits its context")
        both = [o for o in options if o[1] and o[2]]
        tok, syn, ant = rng.choice(both or options)
        variants = []
        for relation, c, expectation in ((SYNONYM, syn, "invariant"), (ANTONYM, ant, "decrease")):
            if c:
                edits = replacement_edits(parsed, tok, c.word)
                meta = {"relation": relation, "word": tok.text, "replacement": c.word, "lexicon": LEXICON,
                        "synset": c.synset, "fit": round(c.score, 3)}
                variants.append(Variant(apply_edits(text, edits), self.kind, expectation, tuple(edits), meta))
        return Result(text, tuple(variants))

    def _pick(self, ranked: list[Candidate], rng: random.Random) -> Candidate | None:
        return rng.choice(ranked[: self.top_k]) if ranked else None


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
