"""Text transformation (RoMe §4.6 case 4): TextFooler's recipe with constraints that keep meaning.

TextFooler (Jin et al., 2020; TextAttack's ``textfooler`` recipe) is a transformation (word swap),
constraints (which words may change, which candidates are acceptable) and a search (which words,
in which order). Its parts serve an *attack*: embedding neighbours (hotel -> motel), a victim
model to rank words, a sentence encoder to filter. A metric test needs the opposite, a rewrite a
careful reader accepts as the same statement, so each part is replaced, keeping the shape:

* **transformation** :class:`WordSwapSenseSynonym`: WordNet synonyms of the word's *dominant* sense
  (:mod:`perturbations.language.senses`: SemCor tag counts, at least 10 uses and four in five of them, both ways;
  for verbs among the senses whose frames fit the parse), which must be the candidate's own main
  sense too; rare words are refused; inflected to the word's tag by lemminflect;
* **constraints before the swap** (which words may change, :mod:`perturbations.constraints`):
  ``ProtectedWords`` (named entities, numbers, capitalised names, letters used as names, detached
  suffixes), ``FunctionWords``, ``ContentWords``
  (nouns, verbs, adjectives), ``ClearUse`` (a noun as a head, an adjective before its noun or as a
  predicate), ``MultiWordUnits`` (compounds, WordNet collocations, verb + particle/preposition,
  semi-auxiliaries, hyphenated words), ``DescriptiveAdjectives`` (gradable adjectives only),
  ``FreeComplements`` (no verb with a clause complement or a governed preposition, no noun with an
  "of" complement), ``PlainAdjectives`` (no adjective of a measurement or an activity name),
  ``SynonymousAdjectives`` (an adjective's synonym only on a concrete noun: "a large amount");
* **constraints on candidates**: ``NoWordExchange`` (a candidate never repeats a word of the text),
  ``NotSameLemma``, ``PartOfSpeechInContext`` (spaCy re-tags the swapped word in its context and
  must give the same Penn tag);
* **search** :class:`~perturbations.search.RandomOrderGreedySearch`: TextAttack's greedy search with
  ``wir_method="random"``: words in a seeded random order, the most used acceptable synonym, until
  ``n_words`` are swapped.

Precision first: a text is skipped rather than given a doubtful synonym. No rule or table here was
written by reading a corpus; each comes from WordNet, its sense counts, lemminflect, spaCy's parse or
a grammar reference (named in the constraint's docstring).

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
    ClearUse,
    ContentWords,
    DescriptiveAdjectives,
    FreeComplements,
    FunctionWords,
    MultiWordUnits,
    NotSameLemma,
    NoWordExchange,
    PartOfSpeechInContext,
    PlainAdjectives,
    ProtectedWords,
    SynonymousAdjectives,
)
from perturbations.language import senses
from perturbations.language.articles import with_article_fixes
from perturbations.language.casing import match_case
from perturbations.language.inflection import inflect
from perturbations.language.phrases import verb_usage
from perturbations.recipe import Candidate, Transformation, acceptable, allowed_tokens
from perturbations.search import RandomOrderGreedySearch
from rome.core.parsing import ParsedText

WORD_SOURCE = "wordnet-3.0"
#: how the sense of a swapped word was chosen (recorded per swap in ``variant.meta``)
RULE_SOURCE = "wordnet-3.0, dominant sense (tag counts, verb frames)"
#: parts of speech that may be swapped; adverbs are left out: most are degree words or parts of fixed
#: phrases ("pretty", "totally", "of course"), where WordNet's synonyms change or break the statement
SWAPPABLE_POS = frozenset({"NOUN", "VERB", "ADJ"})


class WordSwapSenseSynonym(Transformation):
    """Synonyms of the word's dominant sense (:func:`perturbations.language.senses.sense_synonyms`; for a
    verb, among the senses whose frames fit its use in the parse), inflected like the word and cased."""

    source = WORD_SOURCE

    def __call__(self, parsed: ParsedText, i: int) -> list[Candidate]:
        tok = parsed.tokens[i]
        pos = senses.WORDNET_POS.get(tok.pos)
        if pos is None:
            return []
        usage = verb_usage(tok, parsed.children(i)) if pos == "v" else None
        out = []
        for synonym, synset in senses.sense_synonyms(tok.lemma.lower(), pos, usage):
            form = inflect(synonym, tok.tag)
            if form:
                out.append(Candidate(i, match_case(form, tok.text), synset, i, RULE_SOURCE))
        return out


class TextFoolerSwap(Perturbation):
    """Swap ``n_words`` content words for synonyms of their sense (meaning kept: ``invariant``)."""

    kind = "textfooler"
    parses = True

    def __init__(self, n_words: int = 2) -> None:
        if n_words < 1:
            raise ValueError("n_words must be at least 1")
        self.n_words = n_words
        self.transformation = WordSwapSenseSynonym()
        self.word_constraints = [ProtectedWords(), FunctionWords(), ContentWords(SWAPPABLE_POS),
                                 ClearUse(), MultiWordUnits(), DescriptiveAdjectives(), FreeComplements(),
                                 PlainAdjectives(), SynonymousAdjectives()]
        self.constraints = [NoWordExchange(), NotSameLemma(), PartOfSpeechInContext()]
        self.search = RandomOrderGreedySearch(n_words)

    def describe(self) -> dict:
        return {"kind": self.kind, "n_words": self.n_words,
                "word_source": WORD_SOURCE, "search": "random order, most used synonym",
                "sense": "dominant both ways (count >= 10, share >= 4/5)",
                "constraints": [type(c).__name__ for c in self.word_constraints + self.constraints]}

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser().parse_one(text)
        allowed = allowed_tokens(parsed, self.word_constraints)
        chosen = self.search(allowed, lambda i: acceptable(parsed, self.transformation(parsed, i), self.constraints),
                             rng)
        if not chosen:
            return Result.skip(text, "no content word with a clear sense and a synonym of it (names, numbers and multi-word units kept)")
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
