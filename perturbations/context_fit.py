"""Candidate variants judged in their context by the perturbations' judge (:mod:`perturbations.judge`).

WordNet lists a word under every sense it has ever had, so its synonyms over all senses are mostly
synonyms of *other* senses ("attempts" -> "attacks"), and even a synonym of the right sense can be wrong
for the register or the collocation ("respond to an email" -/-> "react to an email"). A passive the
grammar allows can still be one no writer would produce ("Normal use must be withstood by an office
chair"). What decides is the sentence, read whole, so every meaning-kept variant is put to the judge:
a pre-trained causal language model (Gemma 3 270M, never a metric's encoder) and a calibrated model over
its signals, which gives ``p_valid``, the probability that a careful reader finds the variant valid. A
variant is kept only where the judge accepts it at its kind's operating point (precision first); among
several acceptable ones the perturbation takes the one the judge likes best.

Here: building a candidate's variant text (:func:`candidate_edits`), asking the judge in one batch
(:func:`p_valid`), the antonym's fluency bound (:class:`FluentAntonym`: an antonym changes the meaning
on purpose, so the judge of meaning-kept variants cannot decide it; the language model's sentence
log-probability says whether it still reads as English), and :class:`ContentCandidates`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

from perturbations.base import Edit
from perturbations.language.articles import with_article_fixes
from perturbations.recipe import Candidate, CandidateConstraint
from rome.core.parsing import ParsedText

#: the largest drop in the language model's summed log-probability of the whole text (natural log) from the
#: original to an antonym's variant. Set by ``python scripts/context_thresholds.py`` from the developer's
#: labels of development-half antonym lines (``scripts/context_labels.jsonl``): the largest bound of its
#: grid that keeps at least 90 % of the kept antonyms as intended, with at least 10 intended kept; no bound
#: reaches 90 % on the 45 lines (the score's AUC there is 0.66: lower-cased place names such as "inner
#: sunset" read as fluently either way), so it is the bound with the highest share intended (15 of 20, 75 %)
ANTONYM_MAX_DROP = 6.5
#: least share of the word's (smoothed) SemCor uses in the senses a synonym shares with it
#: (:class:`perturbations.constraints.SenseShare`): a cheap prior that keeps synonyms of a word's rare senses
#: from the judge (they are seldom valid, and each judged candidate costs a pass of the language model)
MIN_SENSE_SHARE = 0.3
#: candidates of one word put to the judge, the most promising first (:func:`prerank`, no model): a bound on
#: the judge's cost per word
JUDGED_PER_WORD = 3


@functools.cache
def _judges() -> dict:
    """Every kind's judge, built before the language model's module is imported: ``perturbations.judge``
    reads its weights through ``importlib.resources.files``, a name its submodule ``files`` replaces once
    imported."""
    from perturbations.judge import KINDS, get_judge

    return {kind: get_judge(kind) for kind in KINDS}


def get_kind_judge(kind: str):
    """The perturbations' judge of ``kind`` (process-wide, loaded once)."""
    from perturbations.judge import get_judge

    _judges()
    return get_judge(kind)


def language_model():
    """The judge's causal language model (sentence log-probabilities for the antonym's bound)."""
    from perturbations.judge import language_model as lm

    _judges()
    return lm()


def judge_description(kind: str) -> dict:
    """What keys cached cases and cards: the judge's model, calibration and threshold for ``kind``."""
    return get_kind_judge(kind).describe()


def p_valid(kind: str, pairs: Sequence[tuple[str, str]]) -> list[float]:
    """The judge's ``p_valid`` of each ``(original, variant)``, in one batch (none asked for no pair)."""
    return list(get_kind_judge(kind).p_valid(list(pairs))) if pairs else []


def accepts(kind: str, p: float) -> bool:
    """Whether the judge of ``kind`` is confident enough to keep a variant with ``p``."""
    return bool(get_kind_judge(kind).accepts(p))


def candidate_edits(parsed: ParsedText, chosen: Sequence[Candidate]) -> list[Edit]:
    """The edits that put each candidate in place of its tokens, with the article before each fixed ("a
    cheap" -> "an expensive")."""
    text, edits = parsed.text, []
    for c in sorted(chosen, key=lambda c: c.index):
        start, last = parsed.tokens[c.index], parsed.tokens[c.end]
        end = last.idx + len(last.text)
        edits.append(Edit(start.idx, end, text[start.idx : end], c.word))
    return with_article_fixes(text, edits)


def variant_text(parsed: ParsedText, chosen: Sequence[Candidate]) -> str:
    """The text with every candidate of ``chosen`` in place (:func:`candidate_edits`)."""
    from perturbations.base import apply_edits

    return apply_edits(parsed.text, candidate_edits(parsed, chosen))


#: texts whose log-probability is kept in memory (an original is scored for its synonyms and its antonyms,
#: a suite meets the same text again); the oldest is dropped first
CACHE_SIZE = 20_000
_logprobs: dict[str, float] = {}


def sentence_logprobs(texts: Sequence[str]) -> list[float]:
    """The language model's summed log-probability of each text (each distinct text scored once)."""
    new = [t for t in dict.fromkeys(texts) if t not in _logprobs]
    if new:
        for text, lp in zip(new, language_model().sentence_logprobs(new)):
            if len(_logprobs) >= CACHE_SIZE:
                _logprobs.pop(next(iter(_logprobs)))
            _logprobs[text] = float(lp)
    return [_logprobs[t] for t in texts]


def prerank(parsed: ParsedText, by_word: dict[int, list[Candidate]],
            keep: int = JUDGED_PER_WORD) -> dict[int, list[Candidate]]:
    """Each word's ``keep`` most promising candidates, without a model: the largest share of the word's
    SemCor uses in the senses the candidate shares with it first (the prior of its sense), then the more
    frequent word in general English (wordfreq: a rare synonym is usually marked in register). Each pass of
    the language model costs about as much as its output layer over the vocabulary (262k words) for every
    token, so the judge reads only these."""
    from perturbations.constraints import candidate_lemma
    from perturbations.language.senses import WORDNET_POS, shared_sense_share
    from rome.context.collocations import zipf

    def promise(c: Candidate) -> tuple[float, float]:
        tok = parsed.tokens[c.index]
        pos = WORDNET_POS.get(tok.pos)
        share = shared_sense_share(tok.lemma.lower(), candidate_lemma(c), pos) if pos and c.synset else 0.0
        return -round(share, 2), -zipf(c.word.lower())

    return {i: sorted(found, key=promise)[:keep] for i, found in by_word.items()}


def logprob_changes(parsed: ParsedText, by_word: dict[int, list[Candidate]]) -> dict[int, list[Candidate]]:
    """Each candidate with its ``score``: the language model's log-probability change of the whole text from
    the original to its variant; one batch for every word."""
    owners = [(i, c) for i, found in by_word.items() for c in found]
    out: dict[int, list[Candidate]] = {i: [] for i in by_word}
    if not owners:
        return out
    original, *scores = sentence_logprobs([parsed.text, *(variant_text(parsed, [c]) for _, c in owners)])
    for (i, c), lp in zip(owners, scores):
        out[i].append(Candidate(c.index, c.word, c.synset, c.last, c.source, lp - original))
    return out


class FluentAntonym(CandidateConstraint):
    """An antonym must still read as English in the text: the language model's log-probability of the whole
    text may drop by at most ``max_drop`` (natural log) from the original to the variant. Kept candidates
    carry that change as their ``score``, best first. The antonym says something else, so the judge of
    meaning-kept variants does not apply; fluency does ("live action" -> "dead action", "offensive odor"
    -> "defensive odor" read as no writer writes)."""

    def __init__(self, max_drop: float = ANTONYM_MAX_DROP) -> None:
        if not max_drop >= 0:
            raise ValueError("max_drop must be >= 0 (a largest drop in log-probability)")
        self.max_drop = float(max_drop)

    def describe(self) -> dict:
        return {"max_drop": self.max_drop, "score": "sentence log-probability, variant minus original"}

    def keep(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        return self.keep_all(parsed, {candidates[0].index: candidates})[candidates[0].index] if candidates else []

    def keep_all(self, parsed: ParsedText, by_word: dict[int, list[Candidate]]) -> dict[int, list[Candidate]]:
        scored = logprob_changes(parsed, by_word)
        return {i: sorted((c for c in found if c.score is not None and c.score >= -self.max_drop),
                          key=lambda c: -(c.score or 0.0)) for i, found in scored.items()}


class ContentCandidates(CandidateConstraint):
    """A content word is replaced by a content word: a candidate in the function-word list ("make" ->
    "do", "have", "get" is "make"'s WordNet synonym in some sense) changes the sentence's structure,
    the reason the word itself would be kept (TextAttack's ``StopwordModification``, applied to both
    sides)."""

    def keep(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        from perturbations.language.function_words import FUNCTION_WORDS

        return [c for c in candidates if c.word.lower() not in FUNCTION_WORDS]
