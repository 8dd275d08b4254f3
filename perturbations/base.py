"""The perturbation interface: text + seeded RNG -> variants (or a reason for none).

Following TextAttack, a perturbation is small parts composed (what to change, which
changes are allowed, how to pick), and following CheckList each variant states the
expectation it implies for a metric: ``invariant`` (meaning kept, the score should stay)
or ``decrease`` (meaning or form damaged, the score should drop).
"""

from __future__ import annotations

import abc
import random
from dataclasses import asdict, dataclass, field
from typing import Any, ClassVar, Literal

Expectation = Literal["invariant", "decrease"]


@dataclass(frozen=True)
class Edit:
    """One edited span: characters ``[start, end)`` of the original became ``new``."""

    start: int
    end: int
    old: str
    new: str


@dataclass(frozen=True)
class Variant:
    text: str
    kind: str
    expectation: Expectation
    edits: tuple[Edit, ...] = ()
    meta: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["edits"] = [asdict(e) for e in self.edits]
        return out


@dataclass(frozen=True)
class Result:
    """What a perturbation made of one text: variants, or none and the reason why."""

    original: str
    variants: tuple[Variant, ...] = ()
    skipped: str | None = None

    @classmethod
    def skip(cls, original: str, reason: str) -> Result:
        return cls(original, (), reason)


def text_rng(seed: int, text_id: str) -> random.Random:
    """The one seeding rule: each text gets its own generator from the run's seed and the text's id,
    so a text's variants do not depend on which texts came before it (suites and ``rome perturb``)."""
    return random.Random(f"{seed}:{text_id}")


class Perturbation(abc.ABC):
    """Subclasses set ``kind`` and implement :meth:`_apply`; :meth:`apply` never raises on text.

    A kind is a recipe (TextAttack's shape): a transformation proposes changes, constraints refuse
    the ones that would not do what the variant's expectation says, and a search picks among the
    rest with the seeded generator (:mod:`perturbations.recipe`).
    """

    kind: ClassVar[str]
    #: whether :meth:`apply` parses the text with the shared spaCy parser (``rome.core.parsing``); a
    #: caller walking many texts parses them in batches first, which fills the parser's cache
    parses: ClassVar[bool] = False

    @property
    def parser_name(self) -> str | None:
        """The parser :meth:`apply` uses when :attr:`parses` (``None``: the embedded spaCy model)."""
        return getattr(self, "parser", None)

    def apply(self, text: str, rng: random.Random | int | None = 0) -> Result:
        """Perturb ``text``; ``rng`` is a ``random.Random`` or a seed (same seed, same output)."""
        if not isinstance(text, str):
            return Result.skip(str(text), f"not a text ({type(text).__name__})")
        if not text.strip():
            return Result.skip(text, "empty text")
        if not isinstance(rng, random.Random):
            rng = random.Random(rng)
        return self._apply(text, rng)

    @abc.abstractmethod
    def _apply(self, text: str, rng: random.Random) -> Result:
        """Perturb a non-empty text."""

    def describe(self) -> dict[str, Any]:
        """Settings that change the output (pinned into suite outputs, like a metric signature)."""
        return {"kind": self.kind}

    def card_name(self) -> str:
        """The validity card judging this perturbation (``perturbations/cards/<name>.jsonl``); a kind
        with sub-kinds of different validity (typo slips) names one card per sub-kind."""
        return self.kind


class TwoWayRewrite(Perturbation):
    """A meaning-kept rewrite that runs both ways ("does not" <-> "doesn't", "said that" <-> "said",
    "colour" <-> "color"): at most one variant per direction, each applying every edit of that direction
    found on the parse, so the variant is a function of the text alone (the seed picks nothing).

    Subclasses name their ``directions``, give :meth:`edits` for each and the reason for a text with none.
    """

    parses = True
    expectation: ClassVar[Expectation] = "invariant"
    #: how the edits are found (in ``describe()`` and each variant's ``meta``)
    backend: ClassVar[str] = "spacy-rules"
    directions: ClassVar[tuple[str, str]]
    #: why a text with no edit in either direction is skipped
    nothing_to_do: ClassVar[str]

    def describe(self) -> dict[str, Any]:
        return {"kind": self.kind, "backend": self.backend}

    @abc.abstractmethod
    def edits(self, parsed: Any, direction: str) -> list[Edit]:
        """Every edit of ``direction`` on the parsed text (non-overlapping)."""

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser(self.parser_name).parse_one(text)
        variants = []
        for direction in self.directions:
            edits = sorted(self.edits(parsed, direction), key=lambda e: e.start)
            if edits:
                variants.append(Variant(apply_edits(text, edits), self.kind, self.expectation, tuple(edits),
                                        {"backend": self.backend, "direction": direction}))
        if not variants:
            return Result.skip(text, self.nothing_to_do)
        return Result(text, tuple(variants))


def apply_edits(text: str, edits: list[Edit]) -> str:
    """Apply non-overlapping character edits to ``text``."""
    out, last = [], 0
    for edit in sorted(edits, key=lambda e: e.start):
        if edit.start < last:
            raise ValueError("overlapping edits")
        out.append(text[last : edit.start])
        out.append(edit.new)
        last = edit.end
    out.append(text[last:])
    return "".join(out)
