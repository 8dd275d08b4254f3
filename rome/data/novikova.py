"""Novikova et al. (2017): BAGEL, SFHOTEL and SFREST, with one MR-to-text rule and one SFREST split.

Every reader of these files goes through here (suites, reports, RoMe's training, benchmarks),
so an MR becomes the same reference text everywhere and SFREST is split once:

* :func:`mr_as_text`: ``inform(name='hotel drisco',pricerange=pricey)`` ->
  ``inform name hotel drisco pricerange pricey``: the dialogue act, then each slot name and
  value, in order, quotes, brackets, ``=``, commas, ``?`` and underscores dropped. The act is
  kept because it carries meaning (``inform_no_match``, ``reject``, ``?confirm``).
* :func:`sfrest_part`: SFREST's MRs are split about 50/50 by a hash (stable whatever the file
  order): ``"train"`` MRs may train learned components (RoMe's scorer), ``"heldout"`` MRs are
  for evaluation (the suites). MRs that share a text (a reference or an output written for both)
  are kept on one side, so no MR and no text is on both sides. BAGEL and SFHOTEL carry the human
  ratings the correlation tables evaluate with; nothing may train on them.
"""

from __future__ import annotations

import functools
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from rome.core.errors import InputError
from rome.core.jsonl import read_jsonl
from rome.core.paths import data_dir, data_path

NOVIKOVA_DATASETS = ("bagel", "sfhotel", "sfrest")
NOVIKOVA_CRITERIA = ("informativeness", "naturalness", "quality")
Part = Literal["train", "heldout"]
PARTS = ("train", "heldout")

_ACT = re.compile(r"^\s*\??\s*(\w+)\s*\((.*)\)\s*$", re.S)
_SLOT = re.compile(r"\s*(\w+)\s*(?:=\s*('[^']*'|\"[^\"]*\"|[^,]*))?\s*(?:,|$)")


@dataclass(frozen=True)
class DialogueAct:
    """A parsed MR: the act (``inform``) and its ``(slot, value)`` pairs in order (value may be "")."""

    act: str
    slots: tuple[tuple[str, str], ...]


def parse_mr(mr: str) -> DialogueAct | None:
    """``inform(name='x',food=thai)`` -> ``DialogueAct("inform", (("name", "x"), ("food", "thai")))``.

    ``None`` when the text is not a dialogue act.
    """
    match = _ACT.match(mr)
    if not match:
        return None
    act, inner = match.groups()
    slots = []
    for slot in _SLOT.finditer(inner):
        name, value = slot.group(1), (slot.group(2) or "").strip().strip("'\"").strip()
        if name:
            slots.append((name, value))
    return DialogueAct(act, tuple(slots))


def mr_as_text(mr: str) -> str:
    """The MR as words, so that word-based metrics can read it as a reference (RoMe Table 1)."""
    parsed = parse_mr(mr)
    if parsed is None:
        return " ".join(mr.split())
    words = [parsed.act]
    for name, value in parsed.slots:
        words += [name, value]
    return " ".join(w.replace("_", " ") for w in words if w).strip()


def sfrest_part(mr: str) -> Part:
    """Which side of the one SFREST split an MR is on (unknown MRs: by their own hash)."""
    key = _sfrest_groups().get(" ".join(mr.split()), " ".join(mr.split()))
    digest = hashlib.sha256(key.encode("utf-8")).digest()
    return "train" if digest[0] % 2 == 0 else "heldout"


@functools.lru_cache(maxsize=1)
def _sfrest_groups() -> dict[str, str]:
    """Each SFREST MR -> the smallest MR of its group (MRs linked by any text they share)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        while parent.setdefault(x, x) != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    owner: dict[str, str] = {}
    for row in _rows("sfrest"):
        mr = " ".join(row["mr"].split())
        find(mr)
        for text in [*row["references"], row["hypothesis"]]:
            key = " ".join(text.lower().split())
            if not key:
                continue
            if key in owner:
                a, b = find(owner[key]), find(mr)
                parent[max(a, b)] = min(a, b)
            else:
                owner[key] = mr
    return {mr: find(mr) for mr in parent}


@functools.lru_cache(maxsize=8)
def _rows(dataset: str) -> tuple[dict, ...]:
    if dataset not in NOVIKOVA_DATASETS:
        raise InputError(f"unknown dataset {dataset!r}; choose from {', '.join(NOVIKOVA_DATASETS)}")
    path = data_path("novikova2017", f"{dataset}.jsonl")
    return tuple(obj for _, obj in read_jsonl(path))


def novikova_path(dataset: str) -> str:
    return str(data_path("novikova2017", f"{dataset}.jsonl"))


def fingerprint_files() -> list[Path]:
    """The files this module reads: code that imports it (RoMe's scorer training) re-keys its caches
    when they change (:func:`rome.core.fingerprint.code_fingerprint`)."""
    return [data_dir() / "novikova2017" / f"{name}.jsonl" for name in NOVIKOVA_DATASETS]


def load_rows(dataset: str, part: Part | None = None) -> list[dict]:
    """Rows of one file (fields in docs/data.md), optionally one side of the SFREST split.

    ``part`` is only meaningful for ``sfrest``; the rows are fresh copies, safe to change.
    """
    if part is not None:
        if part not in PARTS:
            raise InputError(f"unknown part {part!r}; choose train or heldout")
        if dataset != "sfrest":
            raise InputError(f"only sfrest is split into train/heldout, not {dataset!r}")
    rows = _rows(dataset)
    return [dict(r) for r in rows if part is None or sfrest_part(r["mr"]) == part]


def references_by_mr(dataset: str, part: Part | None = None) -> dict[str, list[str]]:
    """Distinct non-empty human references of each MR, in file order."""
    grouped: dict[str, dict[str, None]] = {}
    for row in load_rows(dataset, part):
        refs = grouped.setdefault(row["mr"], {})
        for ref in row["references"]:
            if ref.strip():
                refs[ref.strip()] = None
    return {mr: list(refs) for mr, refs in grouped.items()}
