"""Searches: which of the allowed tokens change, with the seeded generator."""

from __future__ import annotations

import random
from collections.abc import Callable

from perturbations.recipe import Candidate


class RandomOrderGreedySearch:
    """Tokens in a seeded random order (TextAttack's greedy search with ``wir_method="random"``: a
    metric test has no victim model to rank words); the first acceptable candidate of each token is
    kept, until ``n_words`` tokens are swapped."""

    def __init__(self, n_words: int) -> None:
        self.n_words = n_words

    def __call__(self, allowed: set[int], propose: Callable[[int], list[Candidate]],
                 rng: random.Random) -> list[Candidate]:
        order = sorted(allowed)
        rng.shuffle(order)
        chosen: list[Candidate] = []
        taken: set[int] = set()
        for i in order:
            if i in taken:
                continue
            found = propose(i)
            if found:
                chosen.append(found[0])
                taken.update(range(found[0].index, found[0].end + 1))
                if len(chosen) == self.n_words:
                    break
        return sorted(chosen, key=lambda c: c.index)
