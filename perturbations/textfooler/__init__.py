"""Text transformation (RoMe §4.6 case 4): TextFooler's recipe, every swap judged in its context.

TextFooler (Jin et al., 2020; TextAttack's ``textfooler`` recipe) is a transformation (word swap),
constraints (which words may change, which candidates are acceptable) and a search (which words, in
which order). Its parts serve an *attack*: embedding neighbours (hotel -> motel), a victim model to rank
words, a sentence encoder to filter. A metric test needs a rewrite a careful reader accepts as the same
statement, so each part is replaced, keeping the shape:

* **transformation** :class:`WordSwapWordNet`: WordNet 3.0 synonyms of the word's lemma for its part of
  speech, over *every* sense (:func:`perturbations.language.senses.wordnet_synonyms`: single words,
  never a direct antonym), inflected to the word's Penn tag by lemminflect and cased like it; the
  :data:`MAX_CANDIDATES` most frequent in general English (wordfreq) are tried (a bound on cost:
  TextFooler's own is 50 neighbours);
* **constraints on which words may change** (:mod:`perturbations.constraints`): ``ProtectedWords``
  (names, numbers), ``FunctionWords`` (the closed classes, :mod:`perturbations.language.function_words`), ``ContentWords`` (nouns, verbs, adjectives),
  ``ClearUse`` (a word used as its part of speech normally is: no noun as a modifier, no possessor),
  ``MultiWordUnits`` (compounds, WordNet collocations, verb + particle/preposition, semi-auxiliaries,
  hyphenated words), ``NotRestrictive`` (determiner-like adjectives), ``PlainAdjectives`` (an
  adjective of a measurement: "185 cm tall");
* **constraints on candidates**, cheapest first: ``NoWordExchange``, ``NotSameLemma``,
  ``ContentCandidates`` (no function word: "make" -/-> "do"), ``AdjectivePosition`` (WordNet's
  predicative/attributive markers), ``PartOfSpeechInContext`` (spaCy re-tags the swapped word in its
  context), ``SenseShare`` (the senses the synonym shares carry a fair share of the word's uses: the
  prior of sense disambiguation), then the context's judges (:mod:`perturbations.context_fit`):
  ``Collocation`` (Google Books bigrams with the neighbours) and ``FitsContext`` (the context model's
  log-probability of the candidate in the slot against the original's, at most ``delta`` lower);
* **search** :class:`~perturbations.search.RandomOrderGreedySearch`: words in a seeded random order,
  each taking the candidate the context model prefers among the acceptable ones, until ``n_words`` are
  swapped; never two neighbouring words (each swap is judged in the original's context).

Which sense a word has here is read from the context: WordNet's sense counts (SemCor) say which sense a
word *usually* has, not which it has here ("phone" for a mobile, "respond" to an email), so they are
only a prior (``SenseShare``), no longer the gate of a dominant sense. Nothing here reads a metric's model or a corpus: the context model is MPNet with its own
masked-LM head (:mod:`rome.context.model`), whose signature is in :meth:`TextFoolerSwap.describe`.
``variant.meta["swaps"]`` names each swap's synset and its fit score. Expectation: ``invariant``.
"""

from __future__ import annotations

import random

from perturbations.base import Edit, Perturbation, Result, Variant, apply_edits
from perturbations.constraints import (
    AdjectivePosition,
    ClearUse,
    ContentWords,
    FunctionWords,
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
    MIN_BIGRAM_RATIO,
    MIN_LOGP,
    MIN_SENSE_SHARE,
    SYNONYM_DELTA,
    Collocation,
    ContentCandidates,
    FitsContext,
    model_signature,
    words_per_pass,
)
from perturbations.language import senses
from perturbations.language.articles import with_article_fixes
from perturbations.language.casing import match_case
from perturbations.language.inflection import inflect
from perturbations.recipe import (
    Candidate,
    CandidateConstraint,
    Transformation,
    acceptable_all,
    allowed_tokens,
    describe_constraints,
)
from perturbations.search import RandomOrderGreedySearch
from rome.core.parsing import ParsedText

WORD_SOURCE = "wordnet-3.0"
#: how a swap's candidate was found (recorded per swap in ``variant.meta``)
RULE_SOURCE = "wordnet-3.0, every sense, judged in context"
#: parts of speech that may be swapped; adverbs are left out: most are degree words or parts of fixed
#: phrases ("pretty", "totally", "of course"), where WordNet's synonyms change or break the statement
SWAPPABLE_POS = frozenset({"NOUN", "VERB", "ADJ"})
#: candidates tried per word, the most frequent first (wordfreq): a bound on the context model's cost;
#: a word's rarer WordNet synonyms ("make" has 47) are archaic or technical and seldom fit
MAX_CANDIDATES = 20
#: words judged per text at most (TextAttack's query budget): bounds the cost of a long text where
#: nothing fits
MAX_WORDS = 12


class WordSwapWordNet(Transformation):
    """WordNet synonyms of the word's lemma over every sense (:func:`senses.wordnet_synonyms`),
    inflected like the word and cased, the ``max_candidates`` most frequent first."""

    source = WORD_SOURCE

    def __init__(self, max_candidates: int = MAX_CANDIDATES) -> None:
        self.max_candidates = max_candidates

    def __call__(self, parsed: ParsedText, i: int) -> list[Candidate]:
        from rome.context.collocations import zipf

        tok = parsed.tokens[i]
        pos = senses.WORDNET_POS.get(tok.pos)
        if pos is None:
            return []
        out = []
        for synonym, synset in senses.wordnet_synonyms(tok.lemma.lower(), pos):
            form = inflect(synonym, tok.tag)
            if form and form.lower() != tok.text.lower():
                out.append(Candidate(i, match_case(form, tok.text), synset, i, RULE_SOURCE))
        out.sort(key=lambda c: -zipf(c.word.lower()))
        return out[: self.max_candidates]


def structure_constraints() -> list[CandidateConstraint]:
    """The candidate constraints that keep the sentence's structure (no threshold, no model)."""
    return [NoWordExchange(), NotSameLemma(), ContentCandidates(), AdjectivePosition(), PartOfSpeechInContext()]


class TextFoolerSwap(Perturbation):
    """Swap ``n_words`` content words for WordNet synonyms that fit their context (``invariant``).

    ``delta``: the largest drop in the context model's log-probability from the original to the
    synonym in its slot and ``min_logp`` the least log-probability of the synonym itself there
    (:class:`~perturbations.context_fit.FitsContext`); ``min_bigram_ratio``: the
    least share of an attested bigram's count the synonym keeps with each neighbour
    (:class:`~perturbations.context_fit.Collocation`, 0: off); ``min_sense_share``: the least share of
    the word's uses in the senses the synonym shares (:class:`~perturbations.constraints.SenseShare`)."""

    kind = "textfooler"
    parses = True

    def __init__(self, n_words: int = 2, delta: float = SYNONYM_DELTA, min_bigram_ratio: float = MIN_BIGRAM_RATIO,
                 min_sense_share: float = MIN_SENSE_SHARE, min_logp: float = MIN_LOGP,
                 max_candidates: int = MAX_CANDIDATES,
                 max_words: int | None = MAX_WORDS) -> None:
        if n_words < 1:
            raise ValueError("n_words must be at least 1")
        self.n_words = n_words
        self.transformation = WordSwapWordNet(max_candidates)
        self.word_constraints = [ProtectedWords(), FunctionWords(), ContentWords(SWAPPABLE_POS), ClearUse(),
                                 MultiWordUnits(), NotRestrictive(), PlainAdjectives()]
        self.constraints = [*structure_constraints(), SenseShare(min_sense_share), Collocation(min_bigram_ratio),
                            FitsContext(delta, min_logp)]
        self.search = RandomOrderGreedySearch(n_words, max_words=max_words)

    def describe(self) -> dict:
        return {"kind": self.kind, "n_words": self.n_words, "word_source": WORD_SOURCE,
                "candidates": {"senses": "all", "max": self.transformation.max_candidates, "order": "wordfreq"},
                "search": self.search.describe(), "context_model": model_signature(),
                "constraints": describe_constraints(self.word_constraints + self.constraints)}

    def allowed(self, parsed: ParsedText) -> set[int]:
        """The tokens every word constraint lets change."""
        return allowed_tokens(parsed, self.word_constraints)

    def proposals(self, parsed: ParsedText, indices: list[int],
                  constraints: list[CandidateConstraint] | None = None) -> dict[int, list[Candidate]]:
        """The acceptable candidates of each token, best first (``constraints``: the recipe's by default)."""
        found = {i: self.transformation(parsed, i) for i in indices}
        return acceptable_all(parsed, found, self.constraints if constraints is None else constraints)

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser().parse_one(text)
        chosen = self.search(self.allowed(parsed), lambda batch: self.proposals(parsed, batch), rng,
                             words_per_pass(parsed))
        if not chosen:
            return Result.skip(text, "no content word with a WordNet synonym that fits its context "
                                     "(names, numbers and multi-word units kept)")
        edits = []
        for c in chosen:
            start, last = parsed.tokens[c.index], parsed.tokens[c.end]
            end = last.idx + len(last.text)
            edits.append(Edit(start.idx, end, text[start.idx : end], c.word))
        edits = with_article_fixes(text, edits)
        meta = {"word_source": WORD_SOURCE,
                "swaps": [{"old": span_text(parsed, c), "new": c.word, "source": c.source, "synset": c.synset,
                           "fit": round(c.score, 3) if c.score is not None else None} for c in chosen]}
        if len(chosen) < self.n_words:
            meta["note"] = f"only {len(chosen)} word(s) could be swapped, {self.n_words} requested"
        return Result(text, (Variant(apply_edits(text, edits), self.kind, "invariant", tuple(edits), meta),))


def span_text(parsed: ParsedText, c: Candidate) -> str:
    """The text of the tokens a candidate replaces."""
    start, last = parsed.tokens[c.index], parsed.tokens[c.end]
    return parsed.text[start.idx : last.idx + len(last.text)]
