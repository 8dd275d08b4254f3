"""Word swaps decided by the perturbations' judge, at a cost that grows with the texts, not the candidates.

WordNet lists a word under every sense it has ever had, so its synonyms over all senses are mostly synonyms
of *other* senses ("attempts" -> "attacks"), and even a synonym of the right sense can be wrong for the
register or the collocation ("respond to an email" -/-> "react to an email"). What decides is the sentence,
read whole: the judge (:mod:`perturbations.judge`, Gemma 3 270M and a calibrated model over its evidence)
gives ``p_valid``, the probability that a careful reader finds the variant valid. A variant is kept only
where the judge accepts it at its kind's operating point (precision first: a text with no confident variant
is skipped, and the skip is counted in the suite's coverage).

The order of work keeps the cost per text bounded:

1. every allowed word's candidates, after the cheap constraints (no model), are ranked from *one*
   distribution per word (:func:`perturbations.judge.substitutes.lexsub_logprobs`) by the judge's own
   lexical weights on the evidence known before a sentence pass (:func:`ranked`);
2. the best candidate of each of the :data:`JUDGED_WORDS` best words (above :data:`PRESCORE_GATE`) gets the
   full judgement (one batch on the original's cached pass, :meth:`perturbations.judge.Judge.p_valid`);
3. the accepted swaps, best first and never two neighbours, are combined up to the requested number of
   words; a variant of several swaps is judged again as a whole and kept only if the judge accepts it too.

An antonym changes the meaning on purpose, so the judge of meaning-kept variants cannot decide it;
:func:`fluent_antonyms` asks the judge's language model only whether it still reads as English.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from perturbations.base import Edit, apply_edits
from perturbations.language.articles import with_article_fixes
from perturbations.recipe import Candidate
from rome.core.parsing import ParsedText

#: words whose best candidate gets the judge's full (sentence) judgement: the judge's most confident tenth
#: to quarter is where its precision is (docs/perturbations.md#judge), so a few of the best-ranked words
#: suffice, and the cost per text stays bounded
JUDGED_WORDS = 3
#: the judge's pre-score (:func:`~perturbations.judge.substitutes.prescore`) below which a word's best candidate
#: is not judged in full: on the judge's committed fit rows no candidate below it was accepted (lowest
#: accepted pre-score: 0.74 for TextFooler, 1.68 for adjectives; ``python scripts/research/judge_gate.py``),
#: so the gate saves the sentence pass where it could only refuse; 0.0 leaves a margin
PRESCORE_GATE = 0.0
#: the largest drop in the judge language model's summed log-probability of the whole text (natural log) from
#: the original to an antonym's variant: a bound on fluency, not a judgement of meaning. Set by
#: ``python scripts/research/context_thresholds.py`` on the developer's 45 antonym labels: no bound keeps 90 %
#: as intended (the score's AUC there is 0.66), so it is the one with the highest share (15 of 20 kept, 75 %)
ANTONYM_MAX_DROP = 6.5


def get_kind_judge(kind: str):
    """The judge of ``kind`` (process-wide, loaded once)."""
    from perturbations.judge import get_judge

    return get_judge(kind)


def judge_description(kind: str, judged_words: int = JUDGED_WORDS) -> dict:
    """What keys cached cases and cards: the judge's model, calibration, threshold and how it is asked."""
    return {**get_kind_judge(kind).describe(), "judged_words": judged_words,
            "ranking": "lexsub from one distribution per word, the judge's lexical weights",
        "prescore_gate": PRESCORE_GATE}


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
    return apply_edits(parsed.text, candidate_edits(parsed, chosen))


def span_of(parsed: ParsedText, c: Candidate) -> tuple[int, int]:
    """The characters of the tokens a candidate replaces."""
    start, last = parsed.tokens[c.index], parsed.tokens[c.end]
    return start.idx, last.idx + len(last.text)


def ranked(parsed: ParsedText, by_word: dict[int, list[Candidate]]) -> dict[int, list[Candidate]]:
    """Each word's candidates with ``score`` = the judge's pre-score (:func:`~perturbations.judge.substitutes.prescore`),
    best first; one small pass of the language model per word with candidates, none without."""
    from perturbations.judge.substitutes import Slot, lexsub_logprobs, prescore

    words = [i for i, found in by_word.items() if found]
    slots = [Slot(*span_of(parsed, by_word[i][0]), tuple(c.word for c in by_word[i])) for i in words]
    scores = lexsub_logprobs(parsed.text, slots) if slots else []
    out: dict[int, list[Candidate]] = {i: [] for i in by_word}
    for i, slot, lps in zip(words, slots, scores):
        old = parsed.text[slot.start : slot.end]
        out[i] = sorted((replace(c, score=prescore(lp, old, c.word)) for c, lp in zip(by_word[i], lps)),
                        key=lambda c: -(c.score or 0.0))
    return out


@dataclass(frozen=True)
class Choice:
    """The swaps the judge accepted together, the variant text and the judge's ``p_valid`` of it."""

    candidates: tuple[Candidate, ...]
    text: str
    p_valid: float


def apart(chosen: Sequence[Candidate], c: Candidate) -> bool:
    """Whether ``c`` touches none of ``chosen``'s tokens or their neighbours (each swap was judged in the
    original's context, which is the variant's only while its neighbours are unchanged)."""
    return all(c.index > d.end + 1 or c.end < d.index - 1 for d in chosen)


def judged_singles(kind: str, parsed: ParsedText, by_word: dict[int, list[Candidate]],
                   judged_words: int = JUDGED_WORDS, gate: float = PRESCORE_GATE) -> list[tuple[float, Candidate, str]]:
    """``(p_valid, candidate, variant text)`` of the best candidate of each of the ``judged_words`` best-ranked
    words whose pre-score reaches ``gate``, judged in full in one batch, the highest ``p_valid`` first."""
    best = [found[0] for found in ranked(parsed, by_word).values() if found and found[0].score >= gate]
    best = sorted(best, key=lambda c: -(c.score or 0.0))[:judged_words]
    if not best:
        return []
    texts = [variant_text(parsed, [c]) for c in best]
    p_valid = get_kind_judge(kind).p_valid([(parsed.text, t) for t in texts])
    return sorted(zip(p_valid, best, texts), key=lambda x: -x[0])


def choose(kind: str, parsed: ParsedText, by_word: dict[int, list[Candidate]], n_words: int = 1,
           judged_words: int = JUDGED_WORDS) -> Choice | None:
    """The variant of up to ``n_words`` swaps the judge of ``kind`` accepts and likes best, or None when it
    accepts none (see the module docstring for the order of work)."""
    judge = get_kind_judge(kind)
    accepted = [(p, c, t) for p, c, t in judged_singles(kind, parsed, by_word, judged_words) if judge.accepts(p)]
    if not accepted:
        return None
    p, c, t = accepted[0]
    first = Choice((c,), t, float(p))
    together = [c]
    for _, other, _ in accepted[1:]:
        if len(together) < n_words and apart(together, other):
            together.append(other)
    if len(together) == 1:
        return first
    combined = variant_text(parsed, together)
    (q,) = judge.p_valid([(parsed.text, combined)])
    if judge.accepts(q):
        return Choice(tuple(sorted(together, key=lambda c: c.index)), combined, float(q))
    return first


def fluent_antonyms(parsed: ParsedText, candidates: Sequence[Candidate],
                    max_drop: float = ANTONYM_MAX_DROP) -> list[Candidate]:
    """The antonyms whose variant's whole-text log-probability (the judge's language model) drops by at most
    ``max_drop`` from the original's, with that change as their ``score``, best first."""
    from perturbations.judge.lm import language_model

    if not candidates:
        return []
    original, *scores = language_model().sentence_logprobs(
        [parsed.text, *(variant_text(parsed, [c]) for c in candidates)])
    kept = [replace(c, score=lp - original) for c, lp in zip(candidates, scores) if lp - original >= -max_drop]
    return sorted(kept, key=lambda c: -(c.score or 0.0))
