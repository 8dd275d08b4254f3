"""WebNLG+ 2020 (Castro Ferreira et al. 2020), English RDF-to-text: the shipped human judgments.

The shipped ``webnlg2020`` folder (docs/data.md) holds two JSON-lines files with the same 2,848 rows in the same order
(178 DBpedia inputs x 16 systems): the system outputs with 1-4 human references each
(``webnlg2020.en.generated.jsonl``) and each output's human scores (``webnlg2020.en.metrics.jsonl``,
rater lists on 0-100 per criterion plus the averages ``overall_adequacy`` / ``overall_fluency``).
This module reads and joins them once, checking that the two files agree row by row, so the
correlation report (ratings) and the corpora (references written by different people for one
input) read the same rows.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from rome.core.errors import InputError
from rome.core.jsonl import read_jsonl
from rome.core.paths import data_path

GENERATED = "webnlg2020.en.generated.jsonl"
METRICS = "webnlg2020.en.metrics.jsonl"
#: per-rater criteria (lists of 0-100 scores) and the organisers' two averages
RATER_CRITERIA = ("correctness", "data_coverage", "fluency", "relevance", "text_structure")
AVERAGES = ("overall_adequacy", "overall_fluency")
CRITERIA = RATER_CRITERIA + AVERAGES


@dataclass(frozen=True)
class WebNLGRow:
    """One system output: its input id, system, text, the input's human references, mean scores."""

    instance_id: str
    system: str
    hypothesis: str
    references: tuple[str, ...]
    #: criterion -> mean over raters (0-100)
    human: dict[str, float]

    @property
    def id(self) -> str:
        return f"webnlg2020-{self.instance_id}-{self.system}"


def webnlg_dir() -> Path:
    return data_path("webnlg2020")


def _mean_score(values: object, where: str, criterion: str) -> float:
    values = values if isinstance(values, list) else [values]
    if not values or not all(isinstance(v, int | float) and not isinstance(v, bool) and math.isfinite(v)
                             for v in values):
        raise InputError(f"{where}: human score {criterion!r} must be finite numbers, got {values!r}")
    return float(sum(values) / len(values))


@lru_cache(maxsize=4)
def load_webnlg2020(directory: Path | None = None) -> tuple[WebNLGRow, ...]:
    """Every output with its references and mean human scores, in file order."""
    folder = Path(directory) if directory is not None else webnlg_dir()
    generated = list(read_jsonl(folder / GENERATED))
    metrics = list(read_jsonl(folder / METRICS))
    if len(generated) != len(metrics):
        raise InputError(f"{folder}: {GENERATED} has {len(generated)} rows, {METRICS} {len(metrics)}")
    rows = []
    for (line, gen), (_, met) in zip(generated, metrics):
        where = f"{folder / GENERATED}:{line}"
        key = (str(gen.get("instance_id")), str(gen.get("summarizer_id")))
        if key != (str(met.get("instance_id")), str(met.get("summarizer_id"))):
            raise InputError(f"{where}: row differs from {METRICS} line {line} ({key})")
        text = (gen.get("summary") or {}).get("text")
        refs = tuple(r.get("text") for r in gen.get("references") or [] if isinstance(r, dict))
        if not isinstance(text, str) or not refs or not all(isinstance(r, str) and r.strip() for r in refs):
            raise InputError(f"{where}: needs summary.text and non-empty references[].text")
        human = (met.get("metrics") or {}).get("human") or {}
        scores = {c: _mean_score(human[c], f"{folder / METRICS}:{line}", c) for c in CRITERIA if c in human}
        rows.append(WebNLGRow(key[0], key[1], text, refs, scores))
    return tuple(rows)

