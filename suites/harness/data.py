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

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from rome.core.data_paths import shared_path
from rome.core.errors import InputError
from rome.core.jsonl import read_jsonl

NOVIKOVA_DATASETS = ("bagel", "sfhotel", "sfrest")
Pairing = Literal["paraphrase", "self", "system"]


@dataclass(frozen=True)
class SourcePair:
    """One candidate for a case: the reference and the original hypothesis to perturb."""

    source_id: str
    reference: str
    original: str


def load_novikova(dataset: str) -> list[dict]:
    """The rows of one Novikova et al. (2017) file (``bagel``, ``sfhotel`` or ``sfrest``)."""
    if dataset not in NOVIKOVA_DATASETS:
        raise InputError(f"unknown dataset {dataset!r}; choose from {', '.join(NOVIKOVA_DATASETS)}")
    path = shared_path("data", "novikova2017", f"{dataset}.jsonl")
    with path.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@dataclass(frozen=True)
class Novikova:
    """Human references of the Novikova et al. (2017) data, one pair per meaning representation.

    MRs are shuffled with ``seed``; the runner walks them in that order until ``n`` cases
    exist (sentences the perturbation cannot change are skipped, so ``n`` counts cases).
    """

    datasets: tuple[str, ...] = NOVIKOVA_DATASETS
    n: int = 200
    seed: int = 0
    pairing: Pairing = "paraphrase"

    def pairs(self) -> Iterator[SourcePair]:
        rng = random.Random(self.seed)
        groups = self._groups()
        rng.shuffle(groups)
        for source_id, references, system in groups:
            pair = self._pick(source_id, references, system, rng)
            if pair is not None:
                yield pair

    def _groups(self) -> list[tuple[str, list[str], str]]:
        """(first row id, references, first system output) per distinct MR, in file order."""
        groups: dict[tuple[str, str], tuple[str, list[str], str]] = {}
        for dataset in self.datasets:
            for row in load_novikova(dataset):
                key = (dataset, row["mr"])
                if key not in groups:
                    refs = [r for r in dict.fromkeys(row["references"]) if r.strip()]
                    groups[key] = (row["id"], refs, row["hypothesis"])
        return list(groups.values())

    def _pick(self, source_id: str, refs: list[str], system: str, rng: random.Random) -> SourcePair | None:
        if self.pairing == "system":
            return SourcePair(source_id, refs[0], system) if refs else None
        if self.pairing == "self":
            return SourcePair(source_id, refs[0], refs[0]) if refs else None
        if len(refs) < 2:
            return None
        reference, original = rng.sample(refs, 2)
        return SourcePair(source_id, reference, original)

    def describe(self) -> dict:
        return {"source": "novikova2017", "datasets": list(self.datasets), "n": self.n,
                "seed": self.seed, "pairing": self.pairing}


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

    def describe(self) -> dict:
        return {"source": "jsonl", "path": str(self.path), "n": self.n, "seed": self.seed}


DataSource = Novikova | JsonlPairs
