"""Searches: which of the allowed tokens change, with the seeded generator."""

from __future__ import annotations

import random
from collections.abc import Callable

from perturbations.recipe import Candidate

#: a proposer: the acceptable candidates, best first, of each of the given tokens (judged together)
Proposer = Callable[[list[int]], dict[int, list[Candidate]]]


class RandomOrderGreedySearch:
    """Tokens in a seeded random order (TextAttack's greedy search with ``wir_method="random"``: a metric
    test has no victim model to rank words); each token takes its best acceptable candidate (the
    proposer's first: the one the context model prefers), until ``n_words`` tokens are swapped.

    * Tokens are judged ``words_per_batch`` at a time, in the order, so the context model runs once per
      group of words instead of once per word (and masks them together: never two neighbours in one
      group, a neighbour waits for the next); a word judged but not needed is the price.
    * No two swaps touch neighbouring tokens: every swap is judged in the original's context, which is
      the variant's context only when its neighbours are unchanged.
    * ``max_words`` bounds how many tokens are judged per text (TextAttack's query budget): a long text
      where nothing fits stops there instead of judging every word.
    """

    def __init__(self, n_words: int, words_per_batch: int = 4, max_words: int | None = None) -> None:
        self.n_words = n_words
        self.words_per_batch = max(1, words_per_batch)
        self.max_words = max_words

    def describe(self) -> dict:
        return {"order": "seeded random", "pick": "best acceptable by the context model",
                "n_words": self.n_words, "max_words": self.max_words, "neighbours": "never both swapped"}

    def __call__(self, allowed: set[int], propose: Proposer, rng: random.Random,
                 words_per_batch: int | None = None) -> list[Candidate]:
        """``words_per_batch``: this text's group size (default: the search's)."""
        order = sorted(allowed)
        rng.shuffle(order)
        if self.max_words is not None:
            order = order[: self.max_words]
        size = max(1, words_per_batch or self.words_per_batch)
        chosen: list[Candidate] = []
        taken: set[int] = set()
        waiting = list(order)
        while waiting and len(chosen) < self.n_words:
            batch: list[int] = []
            for i in list(waiting):
                if len(batch) == size:
                    break
                if i in taken:
                    waiting.remove(i)
                elif all(abs(i - j) > 1 for j in batch):
                    batch.append(i)
                    waiting.remove(i)
            if not batch:
                break
            found = propose(batch)
            for i in batch:
                best = next(iter(found.get(i) or ()), None)
                if best is None or any(k in taken for k in range(best.index, best.end + 1)):
                    continue
                chosen.append(best)
                taken.update(range(best.index - 1, best.end + 2))
                if len(chosen) == self.n_words:
                    break
        return sorted(chosen, key=lambda c: c.index)
