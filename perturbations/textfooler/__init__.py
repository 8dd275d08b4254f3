"""Text transformation (RoMe §4.6 case 4): TextFooler's recipe, every variant decided by the judge.

TextFooler (Jin et al., 2020; TextAttack's ``textfooler`` recipe) is a transformation (word swap),
constraints (which words may change, which candidates are acceptable) and a search (which words, in
which order). Its parts serve an *attack*: embedding neighbours (hotel -> motel), a victim model to rank
words, a sentence encoder to filter. A metric test needs a rewrite a careful reader accepts as the same
statement, so each part is replaced, keeping the shape:

* **transformation** :class:`WordSwapWordNet`: WordNet 3.0 synonyms of the word's lemma for its part of
  speech, over *every* sense (:func:`perturbations.language.senses.wordnet_synonyms`: single words,
  never a direct antonym), inflected to the word's Penn tag by lemminflect and cased like it; the
  :data:`MAX_CANDIDATES` most frequent in general English (wordfreq) are tried;
* **constraints on which words may change** (:mod:`perturbations.constraints`): ``ProtectedWords``
  (names, numbers), ``FunctionWords`` (the closed classes), ``ContentWords`` (nouns, verbs, adjectives),
  ``ClearUse`` (a word used as its part of speech normally is: no noun as a modifier, no possessor),
  ``MultiWordUnits`` (compounds, WordNet collocations, verb + particle/preposition, semi-auxiliaries,
  hyphenated words), ``NotRestrictive`` (determiner-like adjectives), ``PlainAdjectives`` (an
  adjective of a measurement: "185 cm tall");
* **cheap constraints on candidates** (no model): ``NoWordExchange``, ``NotSameLemma``,
  ``ContentCandidates`` (no function word: "make" -/-> "do"), ``AdjectivePosition`` (WordNet's
  predicative/attributive markers), ``PartOfSpeechInContext`` (spaCy re-tags the swapped word in its
  context), ``SenseShare`` (the senses the synonym shares carry a fair share of the word's uses);
* **pre-ranking** (no model, :func:`perturbations.context_fit.prerank`): each word's
  :data:`~perturbations.context_fit.JUDGED_PER_WORD` candidates of the largest sense share, then the most
  frequent; a pass of the language model is the cost, so the judge reads only these;
* **the judge** (:mod:`perturbations.judge`, kind ``"textfooler"``): ``p_valid`` of every pre-ranked
  variant in one batch; a candidate is an option only where the judge accepts it;
* **search** :class:`~perturbations.search.BestJudgedSearch`: the options the judge likes best, never two
  neighbouring words, up to ``n_words``; a variant of several words is judged again as a whole.

A text with no variant the judge accepts is skipped (precision first). Nothing here reads a metric's model
or a corpus; the judge's description (model, calibration, threshold) is in :meth:`TextFoolerSwap.describe`.
``variant.meta["swaps"]`` names each swap's synset, ``variant.meta["p_valid"]`` the judge's probability for the
variant. Expectation: ``invariant``.
"""

from __future__ import annotations

import random

from perturbations.base import Perturbation, Result, Variant, apply_edits
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
    JUDGED_PER_WORD,
    MIN_SENSE_SHARE,
    ContentCandidates,
    accepts,
    candidate_edits,
    get_kind_judge,
    p_valid,
    prerank,
    variant_text,
)
from perturbations.language import senses
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
from perturbations.search import BestJudgedSearch
from rome.core.parsing import ParsedText

WORD_SOURCE = "wordnet-3.0"
#: how a swap's candidate was found (recorded per swap in ``variant.meta``)
RULE_SOURCE = "wordnet-3.0, every sense, judged in context"
#: parts of speech that may be swapped; adverbs are left out: most are degree words or parts of fixed
#: phrases ("pretty", "totally", "of course"), where WordNet's synonyms change or break the statement
SWAPPABLE_POS = frozenset({"NOUN", "VERB", "ADJ"})
#: candidates tried per word, the most frequent first (wordfreq): a bound on the cheap constraints' cost;
#: a word's rarer WordNet synonyms ("make" has 47) are archaic or technical and seldom fit
MAX_CANDIDATES = 20
#: words judged per text at most (TextAttack's query budget): bounds the judge's cost on a long text
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
    """Swap up to ``n_words`` content words for the WordNet synonyms the judge likes best (``invariant``).

    ``min_sense_share``: the least share of the word's uses in the senses a synonym shares
    (:class:`~perturbations.constraints.SenseShare`, a cheap filter before the judge); ``judged_per_word``:
    how many of a word's candidates, the most probable first, the judge reads."""

    kind = "textfooler"
    parses = True

    def __init__(self, n_words: int = 2, min_sense_share: float = MIN_SENSE_SHARE,
                 max_candidates: int = MAX_CANDIDATES, max_words: int | None = MAX_WORDS,
                 judged_per_word: int = JUDGED_PER_WORD) -> None:
        if n_words < 1:
            raise ValueError("n_words must be at least 1")
        if judged_per_word < 1:
            raise ValueError("judged_per_word must be at least 1")
        self.n_words = n_words
        self.judged_per_word = judged_per_word
        self.transformation = WordSwapWordNet(max_candidates)
        self.word_constraints = [ProtectedWords(), FunctionWords(), ContentWords(SWAPPABLE_POS), ClearUse(),
                                 MultiWordUnits(), NotRestrictive(), PlainAdjectives()]
        self.constraints = [*structure_constraints(), SenseShare(min_sense_share)]
        self.search = BestJudgedSearch(n_words, max_words=max_words)

    def describe(self) -> dict:
        return {"kind": self.kind, "n_words": self.n_words, "word_source": WORD_SOURCE,
                "candidates": {"senses": "all", "max": self.transformation.max_candidates, "order": "wordfreq",
                               "judged_per_word": self.judged_per_word, "preranked_by": "sense share, then wordfreq"},
                "search": self.search.describe(), "judge": get_kind_judge(self.kind).describe(),
                "constraints": describe_constraints(self.word_constraints + self.constraints)}

    def allowed(self, parsed: ParsedText) -> set[int]:
        """The tokens every word constraint lets change."""
        return allowed_tokens(parsed, self.word_constraints)

    def proposals(self, parsed: ParsedText, indices: list[int]) -> dict[int, list[Candidate]]:
        """The candidates of each token that pass the cheap constraints, the ``judged_per_word`` most
        promising first (:func:`~perturbations.context_fit.prerank`)."""
        found = acceptable_all(parsed, {i: self.transformation(parsed, i) for i in indices}, self.constraints)
        return prerank(parsed, found, self.judged_per_word)

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser().parse_one(text)

        def score(variants):
            return p_valid(self.kind, [(text, variant_text(parsed, v)) for v in variants])

        choice = self.search(self.allowed(parsed), lambda batch: self.proposals(parsed, batch), score,
                             lambda p: accepts(self.kind, p), rng)
        if choice is None:
            return Result.skip(text, "no content word with a WordNet synonym the judge accepts in its context "
                                     "(names, numbers and multi-word units kept)")
        chosen = choice.candidates
        edits = candidate_edits(parsed, chosen)
        meta = {"word_source": WORD_SOURCE, "p_valid": round(choice.p_valid, 4),
                "swaps": [{"old": span_text(parsed, c), "new": c.word, "source": c.source, "synset": c.synset}
                          for c in chosen]}
        if len(chosen) < self.n_words:
            meta["note"] = f"only {len(chosen)} word(s) could be swapped, {self.n_words} requested"
        return Result(text, (Variant(apply_edits(text, edits), self.kind, "invariant", tuple(edits), meta),))


def span_text(parsed: ParsedText, c: Candidate) -> str:
    """The text of the tokens a candidate replaces."""
    start, last = parsed.tokens[c.index], parsed.tokens[c.end]
    return parsed.text[start.idx : last.idx + len(last.text)]
