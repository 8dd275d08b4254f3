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
* **search and the judge** (:func:`perturbations.judged.choose`): every candidate of up to
  :data:`MAX_WORDS` words (seeded order) ranked from one language-model distribution per word, the best
  candidate of the few best words judged in full, the accepted ones combined up to ``n_words`` (never two
  neighbours) and the combination judged again.

A text with no variant the judge accepts is skipped (precision first). Nothing here reads a metric's model
or a corpus; the judge's description (model, calibration, threshold) is in :meth:`TextFoolerSwap.describe`.
``variant.meta["swaps"]`` names each swap's synset, ``variant.meta["p_valid"]`` is the judge's probability for
the variant. Expectation: ``invariant``.
"""

from __future__ import annotations

import random

from perturbations.base import Perturbation, Result, Variant, apply_edits
from perturbations.constraints import (
    MIN_SENSE_SHARE,
    AdjectivePosition,
    ClearUse,
    ContentCandidates,
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
from perturbations.judged import JUDGED_WORDS, candidate_edits, choose, judge_description
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
from rome.core.parsing import ParsedText

WORD_SOURCE = "wordnet-3.0"
#: how a swap's candidate was found (recorded per swap in ``variant.meta``)
RULE_SOURCE = "wordnet-3.0, every sense, judged in context"
#: parts of speech that may be swapped; adverbs are left out: most are degree words or parts of fixed
#: phrases ("pretty", "totally", "of course"), where WordNet's synonyms change or break the statement
SWAPPABLE_POS = frozenset({"NOUN", "VERB", "ADJ"})
#: candidates tried per word, the most frequent first (wordfreq): a word's rarer WordNet synonyms ("make"
#: has 47) are archaic or technical and seldom fit
MAX_CANDIDATES = 20
#: words ranked per text at most, in the seeded order (TextAttack's query budget): bounds the cost of a
#: long text (one row per word in the batched pass of the judge's language model)
MAX_WORDS = 12


class WordSwapWordNet(Transformation):
    """WordNet synonyms of the word's lemma over every sense (:func:`senses.wordnet_synonyms`),
    inflected like the word and cased, the ``max_candidates`` most frequent first."""

    source = WORD_SOURCE

    def __init__(self, max_candidates: int = MAX_CANDIDATES) -> None:
        self.max_candidates = max_candidates

    def __call__(self, parsed: ParsedText, i: int) -> list[Candidate]:
        from perturbations.judge.features import zipf

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
    """Swap up to ``n_words`` content words for the WordNet synonyms the judge accepts and likes best
    (``invariant``). ``min_sense_share``: the least share of the word's uses in the senses a synonym shares
    (:class:`~perturbations.constraints.SenseShare`, a cheap filter before the judge); ``judged_words``: how
    many of the best-ranked words' best candidates the judge reads in full (a probe of coverage; each is one
    sentence pass)."""

    kind = "textfooler"
    parses = True

    def __init__(self, n_words: int = 2, min_sense_share: float = MIN_SENSE_SHARE,
                 max_candidates: int = MAX_CANDIDATES, max_words: int | None = MAX_WORDS,
                 judged_words: int = JUDGED_WORDS) -> None:
        if n_words < 1:
            raise ValueError("n_words must be at least 1")
        if judged_words < 1:
            raise ValueError("judged_words must be at least 1")
        self.n_words = n_words
        self.judged_words = judged_words
        self.max_words = max_words
        self.transformation = WordSwapWordNet(max_candidates)
        self.word_constraints = [ProtectedWords(), FunctionWords(), ContentWords(SWAPPABLE_POS), ClearUse(),
                                 MultiWordUnits(), NotRestrictive(), PlainAdjectives()]
        self.constraints = [*structure_constraints(), SenseShare(min_sense_share)]

    def describe(self) -> dict:
        return {"kind": self.kind, "n_words": self.n_words, "word_source": WORD_SOURCE,
                "candidates": {"senses": "all", "max": self.transformation.max_candidates, "order": "wordfreq"},
                "search": {"order": "seeded random", "max_words": self.max_words, "pick": "best judged",
                           "neighbours": "never both swapped"},
                "judge": judge_description(self.kind, self.judged_words),
                "constraints": describe_constraints(self.word_constraints + self.constraints)}

    def allowed(self, parsed: ParsedText) -> set[int]:
        """The tokens every word constraint lets change."""
        return allowed_tokens(parsed, self.word_constraints)

    def proposals(self, parsed: ParsedText, indices: list[int],
                  constraints: list[CandidateConstraint] | None = None) -> dict[int, list[Candidate]]:
        """The candidates of each token that pass the cheap constraints (``constraints``: the recipe's by
        default), not yet judged."""
        found = {i: self.transformation(parsed, i) for i in indices}
        return acceptable_all(parsed, found, self.constraints if constraints is None else constraints)

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser().parse_one(text)
        order = sorted(self.allowed(parsed))
        rng.shuffle(order)
        if self.max_words is not None:
            order = order[: self.max_words]
        choice = choose(self.kind, parsed, self.proposals(parsed, sorted(order)), self.n_words, self.judged_words)
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
