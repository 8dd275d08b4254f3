"""Searches: which of the allowed tokens change, with the seeded generator and the judge's scores."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from perturbations.recipe import Candidate

#: a proposer: the acceptable candidates of each of the given tokens, best first (pre-ranked, few per token)
Proposer = Callable[[list[int]], dict[int, list[Candidate]]]
#: a scorer: the judge's ``p_valid`` of each variant, a variant being the candidates put in place together
Scorer = Callable[[Sequence[tuple[Candidate, ...]]], list[float]]


@dataclass(frozen=True)
class Choice:
    """The candidates a search put in place together and the judge's ``p_valid`` of that variant."""

    candidates: tuple[Candidate, ...]
    p_valid: float


class BestJudgedSearch:
    """The variant the judge likes best (TextAttack's search shape; a metric test has no victim model to rank
    words, the judge ranks the candidates instead):

    * the allowed tokens in a seeded random order, the first ``max_words`` of them (TextAttack's query
      budget: a long text costs no more than a short one);
    * every proposed candidate of those tokens judged alone, in one batch; each token's best one that the
      judge accepts is its option;
    * the options with the highest ``p_valid`` taken greedily, never two neighbouring tokens, up to
      ``n_words``; a variant of several words is judged as a whole, and when the judge does not accept
      it the weakest word is dropped until it does (one word alone is accepted already).

    The seed decides only which words are judged when a text has more than ``max_words``, and ties.
    """

    def __init__(self, n_words: int, max_words: int | None = None) -> None:
        self.n_words = n_words
        self.max_words = max_words

    def describe(self) -> dict:
        return {"order": "seeded random", "pick": "highest p_valid the judge accepts",
                "n_words": self.n_words, "max_words": self.max_words, "neighbours": "never both swapped",
                "several words": "judged together"}

    def order(self, allowed: set[int], rng: random.Random) -> list[int]:
        """The tokens judged: ``allowed`` in the seeded order, at most ``max_words``."""
        order = sorted(allowed)
        rng.shuffle(order)
        return order if self.max_words is None else order[: self.max_words]

    def __call__(self, allowed: set[int], propose: Proposer, score: Scorer, accepts: Callable[[float], bool],
                 rng: random.Random) -> Choice | None:
        order = self.order(allowed, rng)
        if not order:
            return None
        found = propose(order)
        singles = [(c,) for i in order for c in found.get(i, ())]
        if not singles:
            return None
        rank = {i: k for k, i in enumerate(order)}  # ties go to the seed's order
        options: dict[int, Choice] = {}
        for variant, p in zip(singles, score(singles)):
            i = variant[0].index
            if accepts(p) and (i not in options or p > options[i].p_valid):
                options[i] = Choice(variant, p)
        ranked = sorted(options.values(), key=lambda o: (-o.p_valid, rank[o.candidates[0].index]))
        picked: list[Choice] = []
        for option in ranked:
            c = option.candidates[0]
            if all(c.index > o.candidates[0].end + 1 or c.end < o.candidates[0].index - 1 for o in picked):
                picked.append(option)
            if len(picked) == self.n_words:
                break
        if not picked:
            return None
        while len(picked) > 1:
            together = tuple(sorted((o.candidates[0] for o in picked), key=lambda c: c.index))
            (p,) = score([together])
            if accepts(p):
                return Choice(together, p)
            picked.pop()  # the weakest word goes
        return picked[0]
