"""The parts a perturbation recipe is made of (TextAttack's shape: transformation, constraints, search).

* a **transformation** proposes :class:`Candidate` replacements for one token;
* **word constraints** say which tokens may change at all (names, function words, parts of fixed
  phrases may not), each returning the token indices it allows;
* **candidate constraints** refuse proposed replacements (same lemma, a word already in the text,
  a part of speech the context does not give);
* a **search** picks, with the seeded generator, which tokens change and which candidate wins.

The constraints live in :mod:`perturbations.constraints`, the judged search in :mod:`perturbations.judged`;
each kind's folder composes them. :class:`Example` is one row of a kind's examples table, run for
every kind by ``tests/test_perturbations_examples.py``.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import Any

from rome.core.parsing import ParsedText


@dataclass(frozen=True)
class Candidate:
    """``word`` in place of tokens ``index``..``last`` (a phrasal verb "looking for" is two tokens);
    ``score``: how well it fits the slot against the original, once a context constraint judged it."""

    index: int
    word: str
    synset: str = ""
    last: int = -1
    source: str = ""
    score: float | None = None

    @property
    def end(self) -> int:
        return max(self.index, self.last)


class Transformation(abc.ABC):
    """Proposes replacements for one token of a parsed text, best first."""

    @abc.abstractmethod
    def __call__(self, parsed: ParsedText, i: int) -> list[Candidate]:
        ...


class WordConstraint(abc.ABC):
    """Which tokens may change (TextAttack's pre-transformation constraint)."""

    @abc.abstractmethod
    def allowed(self, parsed: ParsedText) -> set[int]:
        ...


class CandidateConstraint(abc.ABC):
    """Which proposed replacements are acceptable (TextAttack's constraint)."""

    @abc.abstractmethod
    def keep(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        """The acceptable ``candidates`` for one token, in order (a judging constraint may reorder)."""

    def keep_all(self, parsed: ParsedText, by_word: dict[int, list[Candidate]]) -> dict[int, list[Candidate]]:
        """:meth:`keep` for several tokens of one text; constraints that run a model batch them here."""
        return {i: self.keep(parsed, found) if found else [] for i, found in by_word.items()}

    def describe(self) -> dict:
        """The constraint's settings (thresholds), recorded in a perturbation's fingerprint."""
        return {}


def allowed_tokens(parsed: ParsedText, constraints: list[WordConstraint]) -> set[int]:
    """The tokens every constraint allows."""
    allowed = set(range(len(parsed.tokens)))
    for constraint in constraints:
        allowed &= constraint.allowed(parsed)
    return allowed


def acceptable(parsed: ParsedText, candidates: list[Candidate],
               constraints: list[CandidateConstraint]) -> list[Candidate]:
    """``candidates`` that pass every constraint, in their order."""
    for constraint in constraints:
        if not candidates:
            break
        candidates = constraint.keep(parsed, candidates)
    return candidates


def acceptable_all(parsed: ParsedText, by_word: dict[int, list[Candidate]],
                   constraints: list[CandidateConstraint]) -> dict[int, list[Candidate]]:
    """:func:`acceptable` for several tokens at once: each constraint sees every token's survivors
    together (a token left without any stays in the group: a model judging the group reads it as part of
    it, so a token's score does not depend on what the other constraints refused), so a model is run once
    per constraint and group, never on what an earlier one refused."""
    for constraint in constraints:
        if not any(by_word.values()):
            break
        by_word = constraint.keep_all(parsed, by_word)
    return by_word


def describe_constraints(constraints: list) -> list:
    """Each constraint's name, with its settings when it has any (thresholds key the fingerprint)."""
    out: list = []
    for c in constraints:
        settings = c.describe() if hasattr(c, "describe") else {}
        out.append({type(c).__name__: settings} if settings else type(c).__name__)
    return out


@dataclass(frozen=True)
class Example:
    """One row of a kind's examples table: ``text`` perturbed with ``seed`` (and ``options`` for the
    kind's constructor) gives exactly ``expected`` (the variants' texts, in order); an empty
    ``expected`` means the text is skipped, with a reason."""

    text: str
    expected: tuple[str, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    seed: int = 0
    why: str = ""


def changes(text: str, *expected: str, seed: int = 0, why: str = "", **options: Any) -> Example:
    """A row whose text becomes ``expected`` (one text per variant)."""
    return Example(text, tuple(expected), options, seed, why)


def skips(text: str, why: str = "", seed: int = 0, **options: Any) -> Example:
    """A row whose text must be skipped."""
    return Example(text, (), options, seed, why)
