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
  context); a synonym must also share a sense the word often has (``SenseShare``, a cheap filter);
* **the synonym's judge** (:mod:`perturbations.judge`, kind ``"adjective"``): each adjective's
  :data:`~perturbations.context_fit.JUDGED_PER_WORD` most promising synonyms (largest sense share, then
  most frequent: :func:`~perturbations.context_fit.prerank`) are judged in one batch; a synonym is kept only where the judge accepts it, and the
  best one is taken (``variant.meta["p_valid"]``);
* **the antonym's bound** (:class:`~perturbations.context_fit.FluentAntonym`): an antonym reverses the
  meaning on purpose, so the judge of meaning-kept variants cannot decide it; the language model's
  log-probability of the text may drop by at most ``antonym_max_drop``, so the antonym still reads as
  English ("live action" -/-> "dead action"); the most probable antonym is taken;
* **search**: every adjective of the text is judged; the seed picks one among those with an acceptable
  synonym and antonym (else among the rest); ``top_k``: the seed picks among the k best candidates.

Which sense the adjective has here is read by the judge from the whole text; WordNet's sense counts are
only the cheap prior. The judge is no metric's model; its description is in :meth:`AdjectiveSwap.describe`.
"""

from __future__ import annotations

import random

from perturbations.base import Edit, Perturbation, Result, Variant, apply_edits
from perturbations.constraints import (
    RESTRICTIVE_ADJECTIVES,
    AdjectivePosition,
    ClearUse,
    MultiWordUnits,
    NotRestrictive,
    NotSameLemma,
    NoWordExchange,
    PartOfSpeechInContext,
    PlainAdjectives,
    ProtectedWords,
    SenseShare,
)
from perturbations.context_fit import (
    ANTONYM_MAX_DROP,
    JUDGED_PER_WORD,
    MIN_SENSE_SHARE,
    ContentCandidates,
    FluentAntonym,
    accepts,
    get_kind_judge,
    p_valid,
    prerank,
    variant_text,
)
from perturbations.language.articles import with_article_fixes
from perturbations.language.casing import match_case
from perturbations.language.inflection import inflect
from perturbations.language.senses import wordnet_antonyms, wordnet_synonyms
from perturbations.parsers import require_spacy_labels
from perturbations.recipe import Candidate, acceptable, acceptable_all, allowed_tokens, describe_constraints
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
                 antonym_max_drop: float = ANTONYM_MAX_DROP, min_sense_share: float = MIN_SENSE_SHARE,
                 judged_per_word: int = JUDGED_PER_WORD) -> None:
        """``top_k``: the seed picks among this many of the best candidates (1 = always the best);
        ``require_both``: only adjectives with a synonym *and* an antonym; ``antonym_max_drop``: the largest
        drop of the text's log-probability from the original to the antonym's variant; ``min_sense_share``:
        the synonym's sense prior (as TextFooler's); ``judged_per_word``: synonyms per adjective the judge
        reads, the most probable first."""
        if judged_per_word < 1:
            raise ValueError("judged_per_word must be at least 1")
        self.parser = require_spacy_labels(parser, self.kind)
        self.top_k = max(1, int(top_k))
        self.require_both = require_both
        self.judged_per_word = judged_per_word
        self.word_constraints = [ProtectedWords(), ClearUse(), MultiWordUnits(), NotRestrictive(), PlainAdjectives()]
        self.structure = [NoWordExchange(), NotSameLemma(), ContentCandidates(), AdjectivePosition(),
                          PartOfSpeechInContext()]
        self.synonym_checks = [SenseShare(min_sense_share)]
        self.antonym_fit = FluentAntonym(antonym_max_drop)

    def describe(self) -> dict:
        return {"kind": self.kind, "parser": self.parser or "spacy", "top_k": self.top_k, "lexicon": LEXICON,
                "senses": "all, judged in context", "require_both": self.require_both,
                "judge": get_kind_judge(self.kind).describe(),
                "synonym": [*describe_constraints(self.synonym_checks), {"judged_per_word": self.judged_per_word}],
                "antonym": describe_constraints([self.antonym_fit]),
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
            out[i] = [*synonyms, *(c for c in cs if c.source == ANTONYM)]
        return out

    def judged(self, parsed: ParsedText, found: dict[int, list[Candidate]]) -> dict[int, tuple[list, list]]:
        """Each adjective's acceptable synonyms as ``(candidate, p_valid)``, highest first (the judge, one batch
        for the text), and its fluent antonyms, the most probable first (:class:`FluentAntonym`)."""
        synonyms = prerank(parsed, {i: [c for c in cs if c.source == SYNONYM] for i, cs in found.items()},
                           self.judged_per_word)
        antonyms = self.antonym_fit.keep_all(parsed, {i: [c for c in cs if c.source == ANTONYM]
                                                      for i, cs in found.items()})
        owners = [c for cs in synonyms.values() for c in cs]
        ps = p_valid(self.kind, [(parsed.text, variant_text(parsed, [c])) for c in owners])
        judged: dict[int, list] = {i: [] for i in found}
        for c, p in zip(owners, ps):
            if accepts(self.kind, p):
                judged[c.index].append((c, p))
        return {i: (sorted(judged[i], key=lambda cp: -cp[1]), antonyms.get(i, [])) for i in found}

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser(self.parser).parse_one(text)
        scored = self.judged(parsed, self.candidates(parsed, self.adjectives(parsed)))
        options = []
        for i, (synonyms, antonyms) in scored.items():
            syn = self._pick(synonyms, rng)
            ant = self._pick([(c, None) for c in antonyms], rng)
            if syn or ant:
                options.append((parsed.tokens[i], syn, ant))
        if self.require_both:
            options = [o for o in options if o[1] and o[2]]
        if not options:
            return Result.skip(text, "no descriptive adjective with a WordNet synonym the judge accepts"
                               + (" and " if self.require_both else " or ") + "a fluent antonym")
        both = [o for o in options if o[1] and o[2]]
        tok, syn, ant = rng.choice(both or options)
        variants = []
        for relation, picked, expectation in ((SYNONYM, syn, "invariant"), (ANTONYM, ant, "decrease")):
            if picked:
                c, p = picked
                edits = replacement_edits(parsed, tok, c.word)
                meta = {"relation": relation, "word": tok.text, "replacement": c.word, "lexicon": LEXICON,
                        "synset": c.synset}
                if p is None:
                    meta["logprob_change"] = round(c.score, 3)
                else:
                    meta["p_valid"] = round(p, 4)
                variants.append(Variant(apply_edits(text, edits), self.kind, expectation, tuple(edits), meta))
        return Result(text, tuple(variants))

    def _pick(self, ranked: list[tuple[Candidate, float | None]], rng: random.Random):
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
