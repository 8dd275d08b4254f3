"""Candidate constraints that read the context: the context model's fit and general-English collocations.

WordNet lists a word under every sense it has ever had, so its synonyms over all senses are mostly
synonyms of *other* senses ("attempts" -> "attacks"), and even a synonym of the right sense can be wrong
for the register or the collocation ("respond to an email" -/-> "react to an email", "build a computer"
-/-> "construct a computer"). What decides is the sentence, so two constraints judge each candidate in
its slot, with resources independent of every metric under test:

* :class:`FitsContext`: the masked language model of :mod:`rome.context.model` (MPNet with its own
  masked-LM head; never a metric's encoder) gives log P(word | the rest of the text) for the original
  and for the candidate in the same masked slot; the candidate must fit about as well:
  ``logp(candidate) - logp(original) >= -delta``. This is the language-model constraint of TextAttack's
  recipes (``LearningToWriteLanguageModel``, ``Google1BillionWordsLanguageModel``: a largest drop in
  log-probability) with a masked model, as BERT-Attack (Li et al. 2020) and CLARE (Li et al. 2021)
  judge swaps. The few words judged together are masked together, one forward pass for all their
  candidates; an a/an before a judged word is masked with it, so neither word is scored after the
  article chosen for the other ("a large" / "an enormous"). Words the model's vocabulary does not
  hold as one piece are not judged (refused): the vocabulary holds the common words whole.
* :class:`Collocation`: Google Books bigram counts (:mod:`rome.context.collocations`) of the word with
  its left and right neighbours: where the original's bigram is attested (among the 242,342 most
  frequent), the candidate's must be attested at no less than ``min_ratio`` of its count.

Both thresholds are parameters, recorded by :meth:`describe` in the perturbation's fingerprint, with the
context model's signature, so cached cases and validity cards re-key when a threshold or the model
changes. Their values are set by ``scripts/research/context_thresholds.py`` from labels of development lines
(drawn by ``scripts/research/context_dev.py``).
"""

from __future__ import annotations

import math
from dataclasses import replace

from perturbations.recipe import Candidate, CandidateConstraint
from rome.core.parsing import ParsedText

# The thresholds below are set by ``python scripts/research/context_thresholds.py`` from the developer's labels of
# development-half lines (``scripts/research/context_labels.jsonl``): no setting of the grid keeps 90 % of the
# labelled swaps valid with at least 20 valid ones kept (10 for antonyms), so each is the setting with the
# highest share valid (on the head they were fitted with, 24,000 texts: synonyms 24 of 37 kept valid, 65 %;
# antonyms 14 of 19, 74 %). Re-run the script when the context model's head changes.

#: default largest drop in log-probability (natural log) from the original to a synonym in its slot
SYNONYM_DELTA = 1.5
#: default largest drop for an antonym: it must read as English in the slot, not mean the same
ANTONYM_DELTA = 1.5
#: default least log-probability (natural log) of a synonym itself in its slot: a word of another sense
#: can fit about as badly as an unexpected original, so the candidate must also be one the context predicts
MIN_LOGP = -7.0
#: default least share of the original's bigram count a candidate's bigram with the same neighbour keeps,
#: where the original's is attested (0: the collocation check adds no validity on the labels)
MIN_BIGRAM_RATIO = 0.0


def context_model():
    """The perturbations' context model (:func:`rome.context.model.get_context_model`)."""
    from rome.context.model import get_context_model

    return get_context_model()


def model_signature() -> str:
    """Which encoder and head judge the candidates (keys cached cases and cards)."""
    return context_model().signature()


#: default least share of the word's (smoothed) SemCor uses in the senses a synonym shares with it
#: (:class:`perturbations.constraints.SenseShare`); set like :data:`SYNONYM_DELTA`
MIN_SENSE_SHARE = 0.3
#: the share of a text's words masked together in one pass: MPNet's pre-training masked 15 % of the pieces
#: (and the head was trained at that rate, ``rome.context.train``), so a pass with as many masks is in the
#: conditions the model learned; at least one word, at most :data:`MAX_MASKED` per pass
MASK_SHARE = 0.15
MAX_MASKED = 4


def words_per_pass(parsed: ParsedText) -> int:
    """How many words of this text one pass of the context model judges (:data:`MASK_SHARE` of its words)."""
    words = sum(1 for t in parsed.tokens if any(ch.isalnum() for ch in t.text))
    return max(1, min(MAX_MASKED, int(MASK_SHARE * words)))


def pass_groups(order: list[int], size: int) -> list[list[int]]:
    """``order`` cut into groups of at most ``size`` tokens judged in one pass, never two neighbours in one
    group (a neighbour waits for the next group), in order."""
    waiting, groups = list(order), []
    while waiting:
        group: list[int] = []
        for i in list(waiting):
            if len(group) < size and all(abs(i - j) > 1 for j in group):
                group.append(i)
                waiting.remove(i)
        groups.append(group)
    return groups


#: the article whose form depends on the word after it: masked with a judged word, so neither the
#: original nor a candidate is scored after an article chosen for the other ("a large" / "an enormous")
ARTICLES = frozenset({"a", "an"})


def slot_scores(parsed: ParsedText, by_word: dict[int, list[Candidate]]) -> dict[int, tuple[float | None, list[float | None]]]:
    """``(logp(original), [logp(candidate), ...])`` in each token's slot, every given token masked at once
    (one mask piece each, and an a/an before one masked with it; a token without candidates is masked
    too, as one of the group): one forward pass of the context model per call. ``None`` where the
    original or the candidate is not one piece of the model's vocabulary (it holds the common words
    whole; a split word would need a pass per piece). No pass when no token has a candidate."""
    tokens, text = parsed.tokens, parsed.text
    if not any(by_word.values()):
        return {i: (None, []) for i in by_word}
    order = list(by_word)
    slots, masked = [], []
    for i in order:
        found = by_word[i]
        last = tokens[found[0].end] if found else tokens[i]
        start, end = tokens[i].idx, last.idx + len(last.text)
        slots.append((start, end, [text[start:end], *[c.word for c in found]]))
        before = tokens[i - 1] if i > 0 else None
        if before is not None and before.text.lower() in ARTICLES and before.i not in by_word:
            masked.append((before.idx, before.idx + len(before.text)))
    scored = context_model().masked_log_probs(text, slots, masked)
    return {i: (original, candidates) for i, (original, *candidates) in zip(order, scored)}


def fit_scores(parsed: ParsedText, by_word: dict[int, list[Candidate]],
               min_logp: float = -math.inf) -> dict[int, list[float | None]]:
    """For each token's candidates, ``logp(candidate) - logp(original)`` (:func:`slot_scores`); ``None``
    also where the candidate's own log-probability is below ``min_logp``."""
    return {i: [None if original is None or c is None or c < min_logp else c - original for c in candidates]
            for i, (original, candidates) in slot_scores(parsed, by_word).items()}


class FitsContext(CandidateConstraint):
    """A candidate must fit its slot about as well as the original (see the module docstring):
    ``logp(candidate) - logp(original) >= -delta`` and ``logp(candidate) >= min_logp``. Kept candidates carry that difference as their
    ``score`` and come best first, so a search takes the one the context prefers. The tokens judged
    together are masked together (:func:`fit_scores`): a search gives a few non-neighbouring words at a
    time, about as many as MPNet's pre-training masked (15 %)."""

    def __init__(self, delta: float = SYNONYM_DELTA, min_logp: float = -math.inf) -> None:
        if not delta >= 0:
            raise ValueError("delta must be >= 0 (a largest drop in log-probability)")
        if not min_logp <= 0:
            raise ValueError("min_logp must be <= 0 (a log-probability)")
        self.delta, self.min_logp = float(delta), float(min_logp)

    def describe(self) -> dict:
        out = {"delta": self.delta, "model": model_signature()}
        if self.min_logp > -math.inf:
            out["min_logp"] = self.min_logp
        return out

    def keep(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        return self.keep_all(parsed, {candidates[0].index: candidates})[candidates[0].index] if candidates else []

    def keep_all(self, parsed: ParsedText, by_word: dict[int, list[Candidate]]) -> dict[int, list[Candidate]]:
        scores = fit_scores(parsed, by_word, self.min_logp)
        out = {}
        for i, found in by_word.items():
            judged = [replace(c, score=score) for c, score in zip(found, scores[i]) if score is not None]
            out[i] = sorted([c for c in judged if c.score >= -self.delta], key=lambda c: -c.score)
        return out


#: neighbours that form no collocation: an article's bigram counts only how common the word is, and a/an
#: is itself fixed to the candidate ("a cheap" / "an inexpensive")
NOT_COLLOCATES = frozenset({"a", "an", "the"})


def neighbours(parsed: ParsedText, c: Candidate) -> tuple[str | None, str | None]:
    """The alphabetic words right before and right after the swapped span (``None`` at a punctuation
    mark, a number, an article (:data:`NOT_COLLOCATES`) or the text's edge: a bigram across them says
    nothing about a collocation)."""
    tokens = parsed.tokens
    left = tokens[c.index - 1].text if c.index > 0 else None
    right = tokens[c.end + 1].text if c.end + 1 < len(tokens) else None

    def word(text: str | None) -> str | None:
        return text if text and text.isalpha() and text.lower() not in NOT_COLLOCATES else None

    return word(left), word(right)


def bigram_features(parsed: ParsedText, c: Candidate) -> dict:
    """Google Books counts of the original and the candidate with each neighbour (0: not listed)."""
    from rome.context.collocations import bigram_count

    left, right = neighbours(parsed, c)
    old = parsed.text[parsed.tokens[c.index].idx : parsed.tokens[c.end].idx + len(parsed.tokens[c.end].text)]
    return {"left": left, "right": right,
            "left_original": bigram_count(left, old) if left else None,
            "left_candidate": bigram_count(left, c.word) if left else None,
            "right_original": bigram_count(old, right) if right else None,
            "right_candidate": bigram_count(c.word, right) if right else None}


def collocation_kept(features: dict, min_ratio: float) -> bool:
    """Whether a candidate keeps each attested bigram of the original at ``min_ratio`` of its count."""
    for side in ("left", "right"):
        original, candidate = features[f"{side}_original"], features[f"{side}_candidate"]
        if original and candidate < min_ratio * original:
            return False
    return True


class Collocation(CandidateConstraint):
    """Where the original forms a bigram with a neighbour that general English uses often (Google Books),
    the candidate must form one used at least ``min_ratio`` as often (Sinclair 1991: collocations are
    conventions, which a synonym of the right sense can break: "build a" / "construct a"). ``min_ratio``
    0 turns it off."""

    def __init__(self, min_ratio: float = MIN_BIGRAM_RATIO) -> None:
        if not 0 <= min_ratio <= 1:
            raise ValueError("min_ratio must be between 0 and 1")
        self.min_ratio = float(min_ratio)

    def describe(self) -> dict:
        return {"min_ratio": self.min_ratio, "bigrams": "google-books (symspellpy 243,342)"}

    def keep(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        if self.min_ratio == 0:
            return candidates
        return [c for c in candidates if collocation_kept(bigram_features(parsed, c), self.min_ratio)]


class ContentCandidates(CandidateConstraint):
    """A content word is replaced by a content word: a candidate in the function-word list ("make" ->
    "do", "have", "get" is "make"'s WordNet synonym in some sense) changes the sentence's structure,
    the reason the word itself would be kept (TextAttack's ``StopwordModification``, applied to both
    sides)."""

    def keep(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        from perturbations.language.function_words import FUNCTION_WORDS

        return [c for c in candidates if c.word.lower() not in FUNCTION_WORDS]
