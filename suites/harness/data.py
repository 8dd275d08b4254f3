"""Where a suite's texts come from: a corpus of (reference, original) pairs, or a challenge set.

The paper's robustness setup compares score(reference, perturbed hypothesis) with
score(reference, original hypothesis). A **corpus** (:mod:`rome.data.corpora`: ``dialogue``,
``news``, ``webnlg`` or the user's JSONL) gives the (reference, original) pairs a perturbation
turns into cases; a **challenge set** gives finished minimal pairs (reference, good, bad) and needs
no perturbation. These are the two kinds of case source. A source only says *which* texts: the
suite owns the sample (``Suite.n``, ``Suite.seed``, ``Suite.n_per_category``), so ``--data``
swaps the texts of any suite without touching its sample or checks.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rome.core.errors import InputError
from rome.data.corpora import (
    CORPORA,
    TextPair,
    corpus,
    dialogue_pairs,
    jsonl_pairs,
)
from rome.data.novikova import NOVIKOVA_DATASETS, novikova_path

#: one (reference, original) candidate; the data layer's :class:`~rome.data.corpora.TextPair`
SourcePair = TextPair


@dataclass(frozen=True)
class CorpusSource:
    """A case source: the (reference, original) pairs of a shipped corpus by name (:class:`rome.data.corpora.Corpus`,
    ``rome suite --list-corpora``)."""

    name: str

    def __post_init__(self) -> None:
        corpus(self.name)  # unknown names fail when the suite is declared

    @property
    def corpus_name(self) -> str:
        return self.name

    def pairs(self, seed: int) -> list[TextPair]:
        return corpus(self.name).pairs(seed)

    def files(self) -> list[Path]:
        """The data files read (their hash keys the cached cases: :func:`suites.harness.spec.data_fingerprint`)."""
        return corpus(self.name).files()

    def describe(self) -> dict[str, Any]:
        return {"source": "corpus", "corpus": self.name, "domain": corpus(self.name).domain}


@dataclass(frozen=True)
class Novikova:
    """The dialogue corpus with a chosen subset and pairing (``paraphrase``: a human reference against
    another of the same MR; ``self``: against itself, the paper's Figure 3; ``system``: a system output
    against a reference; several pool their candidates). SFREST contributes only its held-out side."""

    datasets: tuple[str, ...] = NOVIKOVA_DATASETS
    pairing: str | tuple[str, ...] = "paraphrase"

    def __post_init__(self) -> None:
        object.__setattr__(self, "datasets", tuple(self.datasets))
        for pairing in self.pairings:
            if pairing not in ("paraphrase", "self", "system"):
                raise InputError(f"unknown pairing {pairing!r}; choose paraphrase, self or system")

    @property
    def pairings(self) -> tuple[str, ...]:
        return (self.pairing,) if isinstance(self.pairing, str) else tuple(self.pairing)

    @property
    def corpus_name(self) -> str:
        return "dialogue"

    def pairs(self, seed: int) -> list[TextPair]:
        return dialogue_pairs(seed, self.datasets, self.pairings)

    def files(self) -> list[Path]:
        return [Path(novikova_path(d)) for d in self.datasets]

    def describe(self) -> dict[str, Any]:
        return {"source": "novikova2017", "corpus": "dialogue", "datasets": list(self.datasets),
                "pairing": "+".join(self.pairings), **({"sfrest": "heldout MRs"} if "sfrest" in self.datasets else {})}


@dataclass(frozen=True)
class JsonlPairs:
    """A user's JSONL file, one ``{"id"?, "reference", "original"}`` object per line (ids unique)."""

    path: str

    @property
    def corpus_name(self) -> str:
        return Path(self.path).stem

    def pairs(self, seed: int) -> list[TextPair]:
        return jsonl_pairs(self.path, seed)

    def files(self) -> list[Path]:
        path = Path(self.path)
        if not path.is_file():
            raise InputError(f"{self.path}: no such file" + (" (a directory)" if path.is_dir() else ""))
        return [path]

    def describe(self) -> dict[str, Any]:
        return {"source": "jsonl", "corpus": self.corpus_name, "path": str(Path(self.path).resolve())}


@dataclass(frozen=True)
class ChallengeSet:
    """Minimal pairs from challenge files (DEMETR JSON or the generic JSONL; :mod:`rome.data.challenge`).

    Its cases come straight from the data: the original is the good hypothesis, the variant the bad
    one, the kind the item's category, the expectation ``decrease``. ``paths`` are files or folders
    (default: the shipped DEMETR files); ``categories`` keeps only those.
    """

    paths: tuple[str, ...] | str = ()
    categories: tuple[str, ...] | None = None
    #: a suite over this source needs no perturbation (the runner takes the cases from :meth:`load`)
    direct_cases = True

    def __post_init__(self) -> None:
        object.__setattr__(self, "paths", (self.paths,) if isinstance(self.paths, str) else tuple(self.paths))
        if self.categories is not None:
            object.__setattr__(self, "categories", tuple(self.categories))

    @property
    def corpus_name(self) -> str:
        return "demetr" if not self.paths else Path(self.paths[0]).stem

    def load(self, seed: int = 0, n_per_category: int | None = None):
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
        return data, sample_per_category(items, n_per_category, seed)

    def files(self) -> list[Path]:
        from rome.data.challenge import demetr_dir, expand_paths

        return expand_paths(self.paths or (demetr_dir(),))[0]

    def corpus(self):
        """The engine corpus idf-like metrics are fitted on: every pair of every usable item read (with the
        "." control), before any sampling; ``rome challenge`` and a challenge suite share it."""
        from rome.core.engine import FitCorpus
        from rome.data.challenge import demetr_dir, item_pairs, load_challenge

        data = load_challenge(self.paths or (demetr_dir(),))
        return FitCorpus.of(f"rome challenge: every usable item of {len(data.files)} file(s) read, with the '.' control",
                         item_pairs(data.items))

    def pairs(self, seed: int) -> list[TextPair]:
        """(reference, good) pairs, for code that walks any source; suites use :meth:`load`."""
        return [TextPair(item.id, item.reference[0], item.good) for item in self.load(seed)[1]]

    def describe(self) -> dict[str, Any]:
        return {"source": "challenge", "corpus": self.corpus_name, "paths": list(self.paths) or ["<shipped DEMETR>"],
                **({"categories": list(self.categories)} if self.categories is not None else {})}


DataSource = CorpusSource | Novikova | JsonlPairs | ChallengeSet


def resolve_data(spec: str | DataSource, challenge: bool = False) -> DataSource:
    """``--data``: a shipped corpus name, or a file (a corpus JSONL; challenge files for a challenge suite)."""
    if not isinstance(spec, str):
        return spec
    if spec in CORPORA and not challenge:
        return CorpusSource(spec)
    if spec in CORPORA:
        raise InputError(f"--data {spec!r}: a challenge suite brings its own minimal pairs; give challenge files "
                         "(DEMETR JSON or JSONL of reference/good/bad), not a corpus")
    path = Path(spec)
    if not path.exists():
        shipped = ", ".join(CORPORA)
        raise InputError(f"--data {spec!r}: neither a shipped corpus ({shipped}) nor an existing file")
    if challenge:
        return ChallengeSet(str(path))
    if path.is_dir():
        raise InputError(f"--data {spec}: a directory; give a JSONL file of {{\"reference\", \"original\"}} lines")
    return JsonlPairs(str(path))
