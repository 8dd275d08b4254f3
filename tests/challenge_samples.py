"""Small real slices of the shipped DEMETR files and hand-written generic JSONL, for the challenge tests."""

from __future__ import annotations

import json
from pathlib import Path

from rome.data.challenge import demetr_dir

CONTROLS = ("base_id33_empty", "base_id33_shuffle_trans", "base_id35_reference")


def demetr_records(name: str) -> list[dict]:
    return json.loads((demetr_dir() / f"{name}.json").read_text(encoding="utf-8"))


def demetr_slice(folder: Path, names: tuple[str, ...], n: int, usable_only: bool = True) -> Path:
    """The first ``n`` records (usable ones only, by default) of each named shipped file, same file names."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in names:
        rows = [r for r in demetr_records(name) if r["pert_check"] or not usable_only][:n]
        (folder / f"{name}.json").write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    return folder


def write_jsonl(path: Path, rows: list[dict]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    return path


#: a tiny generic challenge file: multi-reference, unicode, no severity on one item, an unknown severity
GENERIC = [
    {"id": "n1", "reference": "The cat sat on the mat.", "good": "The cat sat on the mat.",
     "bad": "The dog sat on the mat.", "category": "noun", "severity": "major"},
    {"id": "n2", "reference": ["Zoë bought three apples.", "Zoë purchased three apples."],
     "good": "Zoë purchased three apples.", "bad": "Zoë purchased four apples.", "category": "number",
     "severity": "critical"},
    {"id": 3, "reference": "Il pleut à Paris depuis lundi.", "good": "Il pleut à Paris depuis lundi.",
     "bad": "Il neige à Paris depuis lundi.", "category": "noun", "severity": "major"},
    {"id": "n4", "reference": "She reads every night.", "good": "She reads every night.",
     "bad": "She read every night.", "category": "tense"},
    {"id": "n5", "reference": "東京は大きい都市です。", "good": "東京は大きい都市です。", "bad": "大阪は大きい都市です。",
     "category": "entity", "severity": "severe-ish"},
]
