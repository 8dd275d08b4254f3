"""Where a suite's texts come from: (reference, original) pairs, sampled with a seed.

The paper's robustness setup compares score(reference, perturbed hypothesis) with
score(reference, original hypothesis). Here the *original* is by default another human
reference of the same meaning representation (a paraphrase written by a different person),
so the original is a fluent, correct output that does not trivially match the reference
(no 100-BLEU ceiling) and the perturbation is the only thing that changes between the two
scores. ``pairing="self"`` uses the reference itself as the original (the paper's Figure 3
set-up, score(ref, passive(ref))) and ``pairing="system"`` uses the rated system output.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from rome.core.errors import InputError
from rome.core.jsonl import read_jsonl
from rome.data.novikova import NOVIKOVA_DATASETS, load_rows, novikova_path

Pairing = Literal["paraphrase", "self", "system"]


@dataclass(frozen=True)
class SourcePair:
    """One candidate for a case: the reference and the original hypothesis to perturb."""

    source_id: str
    reference: str
    original: str


@dataclass(frozen=True)
class Novikova:
    """Human references of the Novikova et al. (2017) data as (reference, original) pairs.

    With ``pairing="paraphrase"`` every human reference of an MR with at least two is a
    candidate original, paired with another reference of the same MR picked with ``seed``;
    candidates are shuffled with ``seed`` and the runner walks them until ``n`` cases exist
    (texts the perturbation cannot change are skipped, so ``n`` counts cases). Using every
    reference, not one per MR, matters for selective perturbations: the passive applies to
    about one reference in twenty. SFREST contributes only the MRs of the data layer's
    ``heldout`` side (:func:`rome.data.novikova.sfrest_part`): the other side trains RoMe's scorer.
    """

    datasets: tuple[str, ...] = NOVIKOVA_DATASETS
    n: int = 200
    seed: int = 0
    #: one pairing, or several whose candidates are pooled (e.g. ``("paraphrase", "system")``)
    pairing: Pairing | tuple[Pairing, ...] = "paraphrase"

    def __post_init__(self) -> None:
        for pairing in self.pairings:
            if pairing not in ("paraphrase", "self", "system"):
                raise InputError(f"unknown pairing {pairing!r}; choose paraphrase, self or system")

    @property
    def pairings(self) -> tuple[str, ...]:
        return (self.pairing,) if isinstance(self.pairing, str) else tuple(self.pairing)

    def pairs(self) -> Iterator[SourcePair]:
        rng = random.Random(self.seed)
        groups = self._groups()
        candidates: list[SourcePair] = []
        for pairing in self.pairings:
            for group in groups:
                candidates += self._candidates(pairing, *group, rng)
        rng.shuffle(candidates)
        yield from candidates

    def _groups(self) -> list[tuple[str, list[str], list[tuple[str, str]]]]:
        """(first row id, references, [(row id, system output)]) per distinct MR, in file order."""
        groups: dict[tuple[str, str], tuple[str, list[str], list[tuple[str, str]]]] = {}
        for dataset in self.datasets:
            # SFREST: only the held-out side of the data layer's split; the other side trains RoMe's scorer
            for row in load_rows(dataset, part="heldout" if dataset == "sfrest" else None):
                key = (dataset, row["mr"])
                if key not in groups:
                    refs = [r for r in dict.fromkeys(row["references"]) if r.strip()]
                    groups[key] = (row["id"], refs, [])
                groups[key][2].append((row["id"], row["hypothesis"]))
        return list(groups.values())

    @staticmethod
    def _candidates(
        pairing: str, source_id: str, refs: list[str], outputs: list[tuple[str, str]], rng: random.Random
    ) -> list[SourcePair]:
        if not refs:
            return []
        if pairing == "system":
            return [SourcePair(row_id, rng.choice(refs), text) for row_id, text in outputs if text.strip()]
        if pairing == "self":
            return [SourcePair(f"{source_id}-r{j}", ref, ref) for j, ref in enumerate(refs)]
        if len(refs) < 2:
            return []
        return [SourcePair(f"{source_id}-r{j}", rng.choice(refs[:j] + refs[j + 1 :]), original)
                for j, original in enumerate(refs)]

    def files(self) -> list[Path]:
        """The data files read (their hash keys the cached cases)."""
        return [Path(novikova_path(name)) for name in self.datasets]

    def describe(self) -> dict:
        return {"source": "novikova2017", "datasets": list(self.datasets), "n": self.n,
                "seed": self.seed, "pairing": "+".join(self.pairings),
                **({"sfrest": "heldout MRs"} if "sfrest" in self.datasets else {})}


@dataclass(frozen=True)
class JsonlPairs:
    """A user's JSONL file: one ``{"id"?, "reference", "original"}`` object per line.

    ``n`` and ``seed`` sample the lines the same way as :class:`Novikova` (``n=None``: all).
    """

    path: str
    n: int | None = None
    seed: int = 0

    def pairs(self) -> Iterator[SourcePair]:
        rows = []
        for number, obj in read_jsonl(Path(self.path)):
            where = f"{self.path}:{number}"
            for key in ("reference", "original"):
                if not isinstance(obj.get(key), str) or not obj[key].strip():
                    raise InputError(f"{where}: {key!r} must be a non-empty string")
            rows.append(SourcePair(str(obj.get("id", number)), obj["reference"], obj["original"]))
        random.Random(self.seed).shuffle(rows)
        yield from rows

    def files(self) -> list[Path]:
        return [Path(self.path)]

    def describe(self) -> dict:
        return {"source": "jsonl", "path": str(self.path), "n": self.n, "seed": self.seed}


@dataclass(frozen=True)
class ChallengeSet:
    """Minimal pairs from challenge files (DEMETR JSON or the generic JSONL; see :mod:`rome.data.challenge`).

    Its cases come straight from the data, with no perturbation: the original is the good
    hypothesis, the variant the bad one, the kind the item's category, the expectation
    ``decrease``. ``paths`` are files or directories (default: the shipped DEMETR files);
    ``n_per_category`` keeps that many items per category, picked with ``seed``
    (:func:`rome.data.challenge.sample_per_category`); ``categories`` keeps only those;
    ``n`` caps the total (``None``: all).
    """

    paths: tuple[str, ...] | str = ()
    n_per_category: int | None = None
    n: int | None = None
    seed: int = 0
    categories: tuple[str, ...] | None = None
    #: a suite over this source needs no perturbation (the runner takes the cases from :meth:`load`)
    direct_cases = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "paths", (self.paths,) if isinstance(self.paths, str) else tuple(self.paths))
        if self.categories is not None:
            object.__setattr__(self, "categories", tuple(self.categories))
        if self.n_per_category is not None and self.n_per_category < 1:
            raise InputError("ChallengeSet: n_per_category must be at least 1")

    def load(self):
        """(the :class:`~rome.data.challenge.ChallengeData` read, its items after the selection)."""
        from rome.data.challenge import demetr_dir, load_challenge, sample_per_category

        data = load_challenge(self.paths or (demetr_dir(),))
        items = data.items
        if self.categories is not None:
            unknown = sorted(set(self.categories) - {i.category for i in items})
            if unknown:
                raise InputError(f"ChallengeSet: no items of categor{'y' if len(unknown) == 1 else 'ies'} "
                                 f"{', '.join(unknown)}")
            items = [i for i in items if i.category in self.categories]
        return data, sample_per_category(items, self.n_per_category, self.seed)

    def pairs(self) -> Iterator[SourcePair]:
        """(reference, good) pairs, for code that walks any data source; suites use :meth:`load`."""
        for item in self.load()[1]:
            yield SourcePair(item.id, item.reference[0], item.good)

    def files(self) -> list[Path]:
        from rome.data.challenge import demetr_dir, expand_paths

        return expand_paths(self.paths or (demetr_dir(),))[0]

    def describe(self) -> dict:
        return {"source": "challenge", "paths": list(self.paths) or ["<shipped DEMETR>"],
                "n_per_category": self.n_per_category, "n": self.n, "seed": self.seed,
                **({"categories": list(self.categories)} if self.categories is not None else {})}


DataSource = Novikova | JsonlPairs | ChallengeSet
