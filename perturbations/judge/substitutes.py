"""Every candidate of a word ranked from one distribution: the judge's lexical evidence before a sentence pass.

A word swap's cost must grow with the texts, not with the candidates: WordNet gives a verb such as "make"
dozens of synonyms, and a pass of the language model per candidate is seconds per text. LexSubGen
(Arefyev et al., 2020) reads a word's substitutes from *one* distribution: the model's next-token
probabilities after the left context, the original word and a pattern that asks for a word that goes with it
(``"... old (or even"``, :data:`perturbations.judge.features.PATTERN`). Here that is one small pass per word
from the original's cached prefix, all words in one batched pass
(:meth:`~perturbations.judge.lm.LanguageModel.extend_at`), which scores all of a word's candidates at once; a candidate of several pieces is read by its first piece (the full
judgement that follows reads every piece).

The pre-score of a candidate is the judge's own lexical model restricted to what is known before a sentence
pass (``lexsub`` and the WordNet / frequency evidence, :func:`prescore`): the same weights, the sentence
terms left for the full judgement of the few best.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from perturbations.judge.features import PATTERN, sense_evidence, zipf

#: the judge's lexical features known before a sentence pass (their weights are the judge's)
PRE_FEATURES = ("lexsub", "wn_old", "wn_new", "zipf_gap", "zipf_new")


@dataclass(frozen=True)
class Slot:
    """One word of the original that may change: its characters and its candidate replacements."""

    start: int
    end: int
    candidates: tuple[str, ...]


def lexsub_logprobs(text: str, slots: Sequence[Slot], lm=None) -> list[list[float]]:
    """For each slot, log P(first piece of " " + candidate | text up to the word + :data:`PATTERN`) of each
    candidate: one pass over the original (its prefix up to the last slot) and one batched pass for the slots."""
    from perturbations.judge.lm import language_model

    lm = lm or language_model()
    live = [s for s in slots if s.candidates]
    if not live:
        return [[] for _ in slots]
    ids = lm.encode(text)
    prefixes = {s.end: lm.encode(text[: s.end]) for s in live}
    aligned = [len(p) for p in prefixes.values() if ids[: len(p)] == p]  # the word ends on a token boundary
    # the whole original, as the judgement that follows primes it (one pass serves both)
    primed = lm.prime(ids) if aligned else None
    pattern = lm.pieces(PATTERN)
    out: list[list[float]] = [[] for _ in slots]
    batched, items, wanted = [], [], []
    for k, slot in enumerate(slots):
        if not slot.candidates:
            continue
        firsts = [(lm.pieces(" " + c) or [lm.bos])[0] for c in slot.candidates]
        prefix = prefixes[slot.end]
        if primed is not None and len(prefix) <= len(primed.ids) and primed.ids[: len(prefix)] == prefix:
            batched.append(k)
            items.append((len(prefix), pattern))
            wanted.append(firsts)
        else:  # the word ends inside a token of the original: prime the pattern's own prefix (rare)
            own = lm.prime(lm.encode(text[: slot.end] + PATTERN))
            out[k] = [float(x) for x in lm.next_logprobs(own, len(own.ids), [], firsts)]
    if items:
        for k, scores in zip(batched, lm.extend_at(primed, items, targets=wanted)):
            out[k] = [float(x) for x in scores]
    return out

@functools.cache
def lexical_model() -> dict:
    """The judge's lexical model (weights, feature means and scales) from the committed weights."""
    from perturbations.judge import load_weights

    return load_weights()["models"]["lexical"]


def prescore(lexsub: float, old: str, new: str, model: dict | None = None) -> float:
    """The judge's lexical logit over :data:`PRE_FEATURES` (standardised as the judge does; the features not
    yet known contribute nothing): a ranking score, not a probability."""
    wn_old, wn_new = sense_evidence(old, new)
    zo, zn = zipf(old), zipf(new)
    return prescore_of({"lexsub": lexsub, "wn_old": math.log(wn_old) if wn_old else -8.0,
                        "wn_new": math.log(wn_new) if wn_new else -8.0, "zipf_gap": zn - zo, "zipf_new": zn},
                       model or lexical_model())


def prescore_of(values: dict[str, float], model: dict) -> float:
    """:func:`prescore` from the feature values themselves."""
    names = list(model["features"])
    z = 0.0
    for name in PRE_FEATURES:
        k = names.index(name)
        z += model["coef"][k] * (values[name] - model["mean"][k]) / model["scale"][k]
    return z
