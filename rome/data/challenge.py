"""Challenge sets of minimal pairs: DEMETR's JSON files, and the harness's generic JSONL format.

A :class:`ChallengeItem` is one minimal pair: a ``reference``, a ``good`` hypothesis and a
``bad`` one (the good one damaged), with its ``category`` and optional ``severity``. A metric
gets an item right when it scores ``good`` strictly above ``bad`` against the reference.

* DEMETR (Karpinska et al. 2022; ``../shared/data/demetr/``): one JSON array per perturbation
  file; ``eng_sent`` is the reference, ``mt_sent`` the good and ``pert_sent`` the bad
  hypothesis; ``pert_check: false`` items are left out; ``base_id35_reference`` is reversed
  (its perturbed text is the reference itself, so it must score *higher*: the good
  hypothesis becomes ``pert_sent``). The category is the file name (the reliable key).

This module is the data layer's reader; the ``rome challenge`` command builds on it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from rome.core.errors import InputError
from rome.core.paths import shared_path

DEMETR_FIELDS = ("id", "eng_sent", "mt_sent", "pert_sent", "pert_check", "severity")
#: DEMETR files whose perturbed text must score higher than the MT (the reference itself)
DEMETR_REVERSED = frozenset({"base_id35_reference"})


@dataclass(frozen=True)
class ChallengeItem:
    id: str
    category: str
    severity: str
    reference: tuple[str, ...]
    good: str
    bad: str
    source: str = ""


def demetr_dir() -> Path:
    return shared_path("data", "demetr")


def demetr_files(directory: str | Path | None = None) -> list[Path]:
    """The DEMETR JSON files of a directory (default: the shipped ones), sorted by name."""
    folder = Path(directory) if directory is not None else demetr_dir()
    return sorted(folder.glob("*.json"))


def is_demetr(rows: object) -> bool:
    """A JSON array of objects carrying DEMETR's fields."""
    return isinstance(rows, list) and bool(rows) and all(
        isinstance(r, dict) and all(f in r for f in DEMETR_FIELDS) for r in rows[:5])


def read_demetr(path: str | Path) -> Iterator[ChallengeItem]:
    """Usable items of one DEMETR file (``pert_check`` true), reversed for ``base_id35_reference``."""
    path = Path(path)
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise InputError(f"{path}: not a readable JSON file ({exc})") from None
    if not is_demetr(rows):
        raise InputError(f"{path}: not a DEMETR file (a JSON array of objects with {', '.join(DEMETR_FIELDS)})")
    category = path.stem
    reversed_ = category in DEMETR_REVERSED
    for row in rows:
        if row.get("pert_check") is not True:
            continue
        good, bad = (row["pert_sent"], row["mt_sent"]) if reversed_ else (row["mt_sent"], row["pert_sent"])
        yield ChallengeItem(id=f"{category}:{row['id']}", category=category, severity=str(row["severity"]),
                            reference=(row["eng_sent"],), good=good, bad=bad, source=str(path))
