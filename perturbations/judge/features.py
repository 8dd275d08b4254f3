"""The evidence the judge combines, for a text and its variant (the changed words found by diffing them).

Each feature is one signal a careful reader's verdict correlates with (measured on development data,
docs/perturbations.md#judge):

* ``d_sent``: the language model's whole-sentence log-probability, variant minus original; the words after
  the change count ("place the order" → "set the order" is improbable once "order" follows);
* ``d_mean``: the same per token (a passive is longer than its active);
* ``d_word`` / ``d_right``: ``d_sent`` split into the changed words themselves and what follows them;
* ``lexsub`` / ``lexsub_pmi``: the target-informed substitute probability of LexSubGen (Arefyev et al.,
  2020, "A comparative study of lexical substitution approaches based on neural language models"):
  log P(new | left context + old word + " (or even"), and that minus the new word's probability in the
  plain slot. Context probability alone picks fluent words of another meaning; naming the old word first
  asks the model for words that *go with it*;
* ``wn_old`` / ``wn_new``: WordNet sense evidence, the add-one share of the old (new) word's SemCor uses in
  the senses the two words share (0 when they share none): a swap in a word's minor sense is the commonest
  wrong-sense error ("need" → "want");
* ``zipf_gap`` / ``zipf_new``: wordfreq frequency of the new word minus the old's, and the new word's own
  (a much rarer word is usually marked in register: "snake" → "serpent");
* ``agent_by`` / ``has_agent`` (the passive): log P("by" | the variant up to its new "by"-agent), and whether
  there is one (0 and 0 without). Most passives have no agent (Biber et al. 1999, ch. 6); where the passive
  reads as complete without one ("Dogs are not allowed", "Shade is provided from the sun"), an agent added
  after it reads forced however likely the whole sentence is. On the passive judge's held-out lines this
  alone ranks better than the sentence difference (AUC 0.90 against 0.65, docs/perturbations.md).

The lexical features are taken over every changed region (the worst region counts); the passive uses
:data:`SENTENCE`.
"""

from __future__ import annotations

import difflib
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

LEXICAL = ("d_sent", "d_mean", "d_word", "d_right", "lexsub", "lexsub_pmi", "wn_old", "wn_new",
           "zipf_gap", "zipf_new")
SENTENCE = ("d_sent", "agent_by", "has_agent")
#: a swap's sentence difference is read up to this many tokens past the changed words (the model's view of
#: the right context fades with distance; reading the whole rest of a long sentence costs time for little)
WINDOW = 8
#: the LexSubGen pattern's words after the original word
PATTERN = " (or even"
_WORD = re.compile(r"\w+(?:[-'’]\w+)*|[^\w\s]")


@dataclass(frozen=True)
class Region:
    """One changed stretch: ``text[old_start:old_end]`` became ``variant[new_start:new_end]``."""

    old_start: int
    old_end: int
    new_start: int
    new_end: int
    old: str
    new: str


def regions(text: str, variant: str) -> list[Region]:
    """The changed stretches, found on words (difflib on the two word sequences)."""
    a = [(m.start(), m.end()) for m in _WORD.finditer(text)]
    b = [(m.start(), m.end()) for m in _WORD.finditer(variant)]
    wa = [text[s:e] for s, e in a]
    wb = [variant[s:e] for s, e in b]
    found = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, wa, wb, autojunk=False).get_opcodes():
        if op == "equal":
            continue
        os_ = a[i1][0] if i1 < len(a) else len(text)
        oe = a[i2 - 1][1] if i2 > i1 else os_
        ns = b[j1][0] if j1 < len(b) else len(variant)
        ne = b[j2 - 1][1] if j2 > j1 else ns
        found.append(Region(os_, oe, ns, ne, text[os_:oe], variant[ns:ne]))
    return found


# -- WordNet and frequency ------------------------------------------------------------------------------
def _lemmas(word: str, pos: str) -> set[str]:
    from perturbations.language.senses import wordnet

    wn = wordnet()
    word = word.lower().replace(" ", "_")
    found = {word}
    base = wn.morphy(word, pos)
    if base:
        found.add(base)
    return found


def sense_evidence(old: str, new: str) -> tuple[float, float]:
    """The add-one share of the old and the new word's SemCor uses in the senses they share (best part of
    speech), 0.0 each when WordNet gives them no common sense."""
    from perturbations.language.senses import _synsets, count

    best = (0.0, 0.0)
    for pos in ("n", "v", "a", "r"):
        for lo in _lemmas(old, pos):
            old_senses = _synsets(lo, pos)
            if not old_senses:
                continue
            for ln in _lemmas(new, pos):
                new_senses = _synsets(ln, pos)
                shared = [s for s in old_senses if s in new_senses]
                if not shared:
                    continue
                so = (sum(count(s, lo) for s in shared) + 1) / (sum(count(s, lo) for s in old_senses) + len(old_senses))
                sn = (sum(count(s, ln) for s in shared) + 1) / (sum(count(s, ln) for s in new_senses) + len(new_senses))
                if so + sn > sum(best):
                    best = (so, sn)
    return best


def zipf(word: str) -> float:
    from wordfreq import zipf_frequency

    return float(zipf_frequency(word, "en"))


# -- the features --------------------------------------------------------------------------------------
def _count_tokens(lm, text: str) -> int:
    return len(lm.encode(text)) - 1


_BY = re.compile(r"\bby\b")


def agent_reading(lm, variant: str, changed: Sequence[Region], lp: np.ndarray) -> float | None:
    """log P(" by" | the variant before it) at the last "by" the change wrote (None: it wrote none), read off
    the variant's own token log-probabilities ``lp`` where the tokens line up, else from a pass of its own."""
    at = [region.new_start + m.start() for region in changed for m in _BY.finditer(region.new)]
    if not at:
        return None
    prefix = variant[: at[-1]].rstrip()
    base, ids = lm.encode(prefix), lm.encode(prefix + " by")
    if ids[: len(base)] != base or len(ids) == len(base):
        return None
    extra = len(ids) - len(base)
    if lm.encode(variant)[: len(ids)] == ids and len(lp) >= len(ids) - 1:
        return float(lp[len(base) - 1 : len(ids) - 1].sum())
    return float(lm.token_logprobs([ids])[0][-extra:].sum())


def compute(pairs: Sequence[tuple[str, str]], lm, lexical: bool = True, window: int | None = WINDOW) -> np.ndarray:
    """One row of features per (original, variant) pair: :data:`LEXICAL` or :data:`SENTENCE` columns.

    Variants of the same original are scored together on the original's cached prefix; the LexSubGen
    patterns of the same original word share theirs."""
    names = LEXICAL if lexical else SENTENCE
    out = np.zeros((len(pairs), len(names)))
    by_original: dict[str, list[int]] = {}
    for i, (text, _) in enumerate(pairs):
        by_original.setdefault(text, []).append(i)
    found = [regions(t, v) for t, v in pairs]
    lexsub: dict[tuple[int, int], float] = {}
    slot_lp: dict[tuple[int, int], float] = {}
    pattern = lm.pieces(PATTERN)
    for text, members in by_original.items():
        primed = lm.prime(lm.encode(text))  # the whole original: the pass a perturbation's ranking made
        items, owners = [], []  # the LexSubGen patterns, scored in the variants' pass
        for i in members if lexical else ():
            for r, region in enumerate(found[i]):
                news = lm.pieces(" " + region.new)
                keep = _count_tokens(lm, text[:region.old_end]) + 1
                if primed.ids[:keep] == lm.encode(text[:region.old_end]):
                    items.append((keep, pattern + news))
                    owners.append((i, r, news))
                    continue
                # the old word ends inside a token: prime the pattern's own prefix (rare)
                own = lm.prime(lm.encode(text[:region.old_end] + PATTERN))
                tail = lm.extend(own, len(own.ids), [news])[0]
                lexsub[(i, r)] = float(tail[-len(news):].sum()) if len(news) else 0.0
        original_lp, variant_lps, spans, pattern_lps = lm.pair_logprobs(
            text, [pairs[i][1] for i in members], window=window if lexical else None, primed=primed, extra=items)
        for (i, r, news), tail in zip(owners, pattern_lps):
            lexsub[(i, r)] = float(tail[-len(news):].sum()) if len(news) else 0.0
        for i, lp, (split, end) in zip(members, variant_lps, spans):
            d_sent = float(lp[split:].sum() - original_lp[split:end].sum())
            d_mean = float(lp.mean() - original_lp[:end].mean()) if len(lp) and end > 0 else 0.0
            if not lexical:
                reading = agent_reading(lm, pairs[i][1], found[i], lp)
                out[i] = [d_sent, 0.0 if reading is None else reading, float(reading is not None)]
                continue
            variant = pairs[i][1]
            if found[i]:
                first = found[i][0]
                end_new = _count_tokens(lm, variant[:first.new_end])
                end_old = _count_tokens(lm, text[:first.old_end])
                d_word = float(lp[split:end_new].sum() - original_lp[split:end_old].sum())
            else:
                d_word = 0.0
            out[i, :4] = [d_sent, d_mean, d_word, d_sent - d_word]
            for r, region in enumerate(found[i]):
                start_new = _count_tokens(lm, variant[:region.new_start].rstrip())
                end_new = _count_tokens(lm, variant[:region.new_end])
                slot_lp[(i, r)] = float(lp[start_new:end_new].sum()) if end_new > start_new else 0.0
    if not lexical:
        return out
    for i in range(len(pairs)):
        if not found[i]:
            out[i, 4:] = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0]  # nothing changed
            continue
        worst = None
        for r, region in enumerate(found[i]):
            wn_old, wn_new = sense_evidence(region.old, region.new)
            zo, zn = zipf(region.old), zipf(region.new)
            row = [lexsub[(i, r)], lexsub[(i, r)] - slot_lp[(i, r)], math.log(wn_old) if wn_old else -8.0,
                   math.log(wn_new) if wn_new else -8.0, zn - zo, zn]
            if worst is None or row[0] + row[2] < worst[0] + worst[2]:
                worst = row
        out[i, 4:] = worst
    return out
