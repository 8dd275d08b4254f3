"""Where RoMe's time goes: each step of the full metric timed on cold caches.

Used by ``rome bench`` (``reports/bench.py``: its per-step split of RoMe's time). The steps are run one after the other exactly as
:meth:`rome.metric.RoMe.features` runs them, but with a clock around each.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np


def _clock(times: dict[str, float], step: str, fn: Callable[[], Any]) -> Any:
    start = time.perf_counter()
    value = fn()
    times[step] = time.perf_counter() - start
    return value


def rome_step_times(hypotheses: list[str], references: list[str], with_grammar: bool = True) -> dict[str, float]:
    """Seconds per step (encode, parse, pool_words, semantic_emd, ted_se, grammar, scorer).

    Caches are emptied first and models loaded outside the clock, so the numbers are what a
    cold run pays on top of start-up. ``with_grammar=False`` times ``rome/ted``: no grammar
    step, the two-feature scorer (missing grammar weights raise, as RoMe itself does).
    """
    from rome.core.encoder import get_encoder
    from rome.core.parsing import get_parser
    from rome.metric import load_grammar
    from rome.metric.grammar import shared_layers
    from rome.metric.metric import VARIANTS
    from rome.metric.scorer import load_scorer
    from rome.metric.semantic import IdfTable, semantic_similarity
    from rome.metric.tree_edit import ted_similarity
    from rome.metric.words import build_words

    hyps = [h.strip() for h in hypotheses]
    refs = [r.strip() for r in references]
    texts = list(dict.fromkeys([*refs, *hyps]))
    encoder, parser = get_encoder(), get_parser(None, entities=False)  # as RoMe parses
    grammar = load_grammar() if with_grammar else None
    encoder.encode(["warm up"]), parser.parse(["warm up"])
    if grammar is not None:
        grammar.prob_acceptable(["warm up"])
    encoder.clear_cache()
    parser.clear_cache()
    times: dict[str, float] = {}
    also = shared_layers(grammar, encoder)  # as RoMe.features
    embs = dict(zip(texts, _clock(times, "encode", lambda: encoder.encode(texts, also=also))))
    parses = dict(zip(texts, _clock(times, "parse", lambda: parser.parse(texts))))
    words = _clock(times, "pool_words", lambda: {t: build_words(parses[t], embs[t]) for t in texts})
    pairs = list(zip(refs, hyps))
    mode, idf = VARIANTS["grammar" if with_grammar else "ted"][0], IdfTable.general()  # as RoMe() scores
    sem = _clock(times, "semantic_emd",
                 lambda: [semantic_similarity(words[r], words[h], mode, idf=idf).f_sem for r, h in pairs])
    ted = _clock(times, "ted_se", lambda: [ted_similarity(words[r], words[h]) for r, h in pairs])
    columns = [sem, ted]
    if grammar is not None:
        unique = list(dict.fromkeys(hyps))
        probs = dict(zip(unique, _clock(times, "grammar", lambda: grammar.prob_acceptable(unique))))
        columns.append([probs[h] for h in hyps])
    scorer = load_scorer("full" if grammar is not None else "ted")
    _clock(times, "scorer", lambda: scorer(np.column_stack(columns)))
    encoder.clear_cache()
    return times
