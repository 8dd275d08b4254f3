"""Text transformation (RoMe §4.6 case 4): TextFooler's recipe with constraints that keep meaning.

TextFooler (Jin et al., 2020; TextAttack's ``textfooler`` recipe) is a transformation (word swap),
constraints (which words may change, which candidates are acceptable) and a search (which words,
in which order). Its parts serve an *attack*: embedding neighbours (hotel -> motel), a victim
model to rank words, a sentence encoder to filter. A metric test needs the opposite, a rewrite a
careful reader accepts as the same statement, so each part is replaced, keeping the shape:

* **transformation** :class:`WordSwapSenseSynonym`: WordNet synonyms *of the word's sense* and part
  of speech (:mod:`perturbations.language.senses`: verb frames pick the verb's sense, the sense must be the
  candidate's main sense too, rare words are refused), inflected to the word's tag by lemminflect;
* **constraints before the swap** (which words may change): :class:`~perturbations.constraints.ProtectedWords`
  (named entities, numbers, addresses, capitalised names, the placeholder ``X``, split suffixes,
  MR slot values and the domain's slot vocabulary: hotel, restaurant, price, area, food, ...; see
  :mod:`perturbations.language.names`), :class:`~perturbations.constraints.StopWords`, :class:`~perturbations.constraints.ContentWords`
  (nouns, verbs, adjectives, adverbs outside compounds and phrasal verbs);
* **constraints on candidates**: :class:`~perturbations.constraints.NoWordExchange` (a candidate never repeats a word of the
  text, so words are never moved or swapped with each other), :class:`~perturbations.constraints.PartOfSpeechInContext`
  (spaCy re-tags the swapped word in its context and must give the same Penn tag);
* **search** :class:`~perturbations.search.RandomOrderGreedySearch`: TextAttack's greedy word-importance search with
  ``wir_method="random"``: words in a seeded random order, the most used acceptable synonym, until
  ``n_words`` are swapped.

Nothing here reads a metric's model: no encoder ranks the words or filters the candidates, so an
encoder-based metric is not made invariant by construction. TextAttack's own classes are not
used because its WordNet swap ignores sense and part of speech, its semantic constraints need
downloads (counter-fitted vectors, USE) and its search needs a victim model. Cost: one parse of
the text and a bounded window re-tagged per tried word, so it grows linearly with the text.
``variant.meta["swaps"]`` names the source of each swap (WordNet synset). Expectation: ``invariant``.
"""

from __future__ import annotations

import random

from perturbations.base import Edit, Perturbation, Result, Variant, apply_edits
from perturbations.constraints import (
    ContentWords,
    NotSameLemma,
    NoWordExchange,
    PartOfSpeechInContext,
    ProtectedWords,
    StopWords,
)
from perturbations.language import senses
from perturbations.language.articles import with_article_fixes
from perturbations.language.casing import match_case
from perturbations.language.inflection import inflect
from perturbations.language.phrases import phrasal_verb, verb_usage
from perturbations.recipe import Candidate, Transformation, acceptable, allowed_tokens
from perturbations.search import RandomOrderGreedySearch
from perturbations.textfooler.domain_senses import DOMAIN_SENSES, VERB_USAGES
from rome.core.parsing import ParsedText

WORD_SOURCE = "wordnet-3.0"
#: how the sense of a swapped word was chosen (recorded per swap in ``variant.meta``)
DOMAIN_SOURCE = "wordnet-3.0, reviewed domain sense"
RULE_SOURCE = "wordnet-3.0, most used sense (frames, frequency)"
#: parts of speech that may be swapped; adverbs are left out: in this data they are degree words
#: ("moderately", "pretty", "totally") or fixed phrases ("of course"), where WordNet's synonyms
#: ("pretty priced", "entirely 4 restaurants") change or break the statement
SWAPPABLE_POS = frozenset({"NOUN", "VERB", "ADJ"})


class WordSwapSenseSynonym(Transformation):
    """Synonyms of the word's sense (:func:`perturbations.language.senses.sense_synonyms`), inflected and cased."""

    source = WORD_SOURCE

    def __call__(self, parsed: ParsedText, i: int) -> list[Candidate]:
        tok = parsed.tokens[i]
        pos = senses.WORDNET_POS.get(tok.pos)
        if pos is None:
            return []
        usage = verb_usage(tok, parsed.children(i)) if pos == "v" else None
        lemma, last = tok.lemma.lower(), i
        phrasal = phrasal_verb(parsed, i) if pos == "v" else None
        if phrasal:  # "looking for" -> "seeking": the sense of the WordNet lemma look_for
            lemma, last, usage = phrasal, i + 1, "object"
        out = []
        for synonym, synset, source in self.synonyms(lemma, pos, usage):
            form = inflect(synonym, tok.tag)
            if form:
                out.append(Candidate(i, match_case(form, tok.text), synset, last, source))
        return out

    @staticmethod
    def synonyms(lemma: str, pos: str, usage: str | None) -> list[tuple[str, str, str]]:
        """(synonym, synset, source): the reviewed domain sense if the table has the word, else the rules."""
        if (lemma, pos) in DOMAIN_SENSES:
            entry = DOMAIN_SENSES[lemma, pos]
            usages = entry[2] if entry and len(entry) > 2 else VERB_USAGES
            if entry is None or (usage is not None and usage not in usages):
                return []
            return [(w, entry[0], DOMAIN_SOURCE) for w in entry[1]]
        return [(w, synset, RULE_SOURCE) for w, synset in senses.sense_synonyms(lemma, pos, usage)]


class TextFoolerSwap(Perturbation):
    """Swap ``n_words`` content words for synonyms of their sense (meaning kept: ``invariant``)."""

    kind = "textfooler"
    parses = True

    def __init__(self, n_words: int = 2, protect_domain: bool = True) -> None:
        """``protect_domain``: also keep the Novikova slot values and slot vocabulary (hotel, price, ...)."""
        if n_words < 1:
            raise ValueError("n_words must be at least 1")
        self.n_words = n_words
        self.protect_domain = protect_domain
        self.transformation = WordSwapSenseSynonym()
        self.word_constraints = [ProtectedWords(protect_domain), StopWords(), ContentWords(SWAPPABLE_POS)]
        self.constraints = [NoWordExchange(), NotSameLemma(), PartOfSpeechInContext()]
        self.search = RandomOrderGreedySearch(n_words)

    def describe(self) -> dict:
        return {"kind": self.kind, "n_words": self.n_words, "protect_domain": self.protect_domain,
                "word_source": WORD_SOURCE, "search": "random order, most used synonym"}

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser().parse_one(text)
        allowed = allowed_tokens(parsed, self.word_constraints)
        chosen = self.search(allowed, lambda i: acceptable(parsed, self.transformation(parsed, i), self.constraints),
                             rng)
        if not chosen:
            return Result.skip(text, "no content word with a synonym of its sense (names, numbers and domain words kept)")
        edits = []
        for c in chosen:
            start, last = parsed.tokens[c.index], parsed.tokens[c.end]
            end = last.idx + len(last.text)
            edits.append(Edit(start.idx, end, text[start.idx : end], c.word))
        edits = with_article_fixes(text, edits)
        meta = {"word_source": WORD_SOURCE,
                "swaps": [{"old": _span_text(parsed, c), "new": c.word, "source": c.source,
                           "synset": c.synset} for c in chosen]}
        if len(chosen) < self.n_words:
            meta["note"] = f"only {len(chosen)} word(s) could be swapped, {self.n_words} requested"
        return Result(text, (Variant(apply_edits(text, edits), self.kind, "invariant", tuple(edits), meta),))


def _span_text(parsed: ParsedText, c: Candidate) -> str:
    start, last = parsed.tokens[c.index], parsed.tokens[c.end]
    return parsed.text[start.idx : last.idx + len(last.text)]
