"""Datasets with human judgments behind one loader interface.

Every loader returns a :class:`JudgedDataset` of :class:`JudgedItem` s (id, dataset, system,
meaning representation, hypothesis, references, human scores by criterion), so the
correlation report never needs to know where the data came from.

* BAGEL, SFHOTEL, SFREST (Novikova et al. 2017): the shipped JSONL files (docs/data.md); criteria
  informativeness, naturalness, quality (medians of three raters, 1-6). ``sfrest-heldout`` and
  ``sfrest-train`` are the two sides of the data layer's one SFREST split: the held-out side's
  ratings are the *development* ratings (no learned part saw its texts; BAGEL and SFHOTEL are the
  evaluation ratings), the train side's references trained RoMe's scorer.
* WebNLG+ 2020 (``webnlg2020``, :mod:`rome.data.webnlg2020`): 2,847 rated outputs (of 2,848; one
  has no scores and is left out, said in ``notes``) of 16 systems on 178 DBpedia inputs, 1-4 human references each, mean rater scores (0-100) for the five rater criteria
  and the organisers' two averages. *Development* ratings: no learned part of RoMe saw them. The
  input triples are not shipped, so only human references can be used (``--reference mr`` is an
  error).
* WebNLG 2017 human evaluation: the organisers' CSV (not shipped; pass its path). Rows of
  team ``webnlg`` are the human references of their ``mr`` and are not scored as a system;
  empty or ``null`` system texts are kept as empty hypotheses and counted in ``notes``.
* Any JSONL in the item format (see :func:`load_jsonl`).

MR-as-text (the RoMe paper's Table 1 protocol, where the MR is the reference):
:func:`rome.data.novikova.mr_as_text` for dialogue acts, :func:`triples_as_text` for WebNLG.

Ratings are validated when a file is loaded, before anything is scored: a rating must be a
finite JSON number; a number written as a string (``"4.0"``), NaN or Infinity is a one-line
error naming the file, line and field.
"""

from __future__ import annotations

import csv
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rome.core.errors import InputError
from rome.core.jsonl import read_jsonl, require_text
from rome.data.novikova import NOVIKOVA_CRITERIA, Part, load_rows, mr_as_text, novikova_path
from rome.data.webnlg2020 import CRITERIA as WEBNLG2020_CRITERIA
from rome.data.webnlg2020 import load_webnlg2020, webnlg_dir

NOVIKOVA = {"bagel": "bagel.jsonl", "sfhotel": "sfhotel.jsonl", "sfrest": "sfrest.jsonl"}
#: one side of the SFREST split as a dataset name -> the data layer's part
SFREST_SIDES: dict[str, Part] = {"sfrest-heldout": "heldout", "sfrest-train": "train"}
SIDE_NOTES = {
    "heldout": "development ratings: no learned part of RoMe saw these MRs or texts",
    "train": "these MRs' references trained RoMe's scorer: RoMe is not measured on unseen data here",
}
WEBNLG_CRITERIA = ("fluency", "grammar", "semantics")
WEBNLG_COLUMNS = ("id", "mr", "team", "text", "category", "type", "bleu", "meteor", "ter",
                  "systemtype", "triplesize", "fluency", "grammar", "semantics")
WEBNLG_REFERENCE_TEAM = "webnlg"
#: fields of the item format that are not human scores
ITEM_FIELDS = {"id", "dataset", "system", "mr", "hypothesis", "references", "reference", "human"}


@dataclass(frozen=True)
class JudgedItem:
    id: str
    dataset: str
    system: str
    mr: str
    hypothesis: str
    references: tuple[str, ...]
    human: dict[str, float]


@dataclass
class JudgedDataset:
    """Items plus where they came from; ``notes`` records anything a reader must know (counts)."""

    name: str
    source: str
    criteria: tuple[str, ...]
    items: list[JudgedItem]
    notes: dict[str, Any] = field(default_factory=dict)

    @property
    def systems(self) -> list[str]:
        return sorted({it.system for it in self.items})

    def describe(self) -> str:
        extra = "; ".join(f"{k}: {v}" for k, v in self.notes.items())
        text = f"{self.name}: {len(self.items)} items from {self.source}"
        return f"{text} ({extra})" if extra else text


def triples_as_text(mr: str) -> str:
    """WebNLG ``s | p | o<br>s | p | o`` -> ``s p o . s p o``.

    Underscores become spaces and camel-case predicates are split (``cityServed`` -> ``city
    served``), so the words can match a verbalisation.
    """
    sentences = []
    for triple in re.split(r"<br\s*/?>", mr):
        parts = [p.strip().strip('"').replace("_", " ") for p in triple.split("|")]
        if len(parts) == 3:
            parts[1] = _split_camel(parts[1])
        text = " ".join(p for p in parts if p)
        if text:
            sentences.append(text)
    return " . ".join(sentences)


def _split_camel(word: str) -> str:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", word)
    return spaced.lower() if spaced != word else word


def item_mr_as_text(item: JudgedItem) -> str:
    """The MR of ``item`` as a reference sentence (triples for WebNLG, dialogue acts otherwise)."""
    return triples_as_text(item.mr) if "|" in item.mr else mr_as_text(item.mr)


# -- loaders ------------------------------------------------------------------------------
def _references(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise InputError(f"{where}: 'references' must be a string or a list of strings")


def _as_rating(value: Any) -> float | None:
    """A rating value as a float, or ``None`` when it is not a finite number."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        return None
    return float(value)


def _looks_numeric(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        float(value)
    except ValueError:
        return False
    return True


def _human_scores(obj: dict[str, Any], where: str) -> dict[str, float]:
    """Ratings of one line: ``human: {criterion: x}``, or every top-level field that holds a number.

    In the flat form a numeric-looking string (``"4.0"``, ``"NaN"``) or a non-finite number is an
    error rather than a field silently left out (which would drop the whole criterion).
    """
    raw = obj.get("human")
    if raw is None:
        raw = {k: v for k, v in obj.items()
               if k not in ITEM_FIELDS and (isinstance(v, int | float) and not isinstance(v, bool) or _looks_numeric(v))}
    if not isinstance(raw, dict) or not raw:
        unrated = [k for k, v in obj.items() if k not in ITEM_FIELDS and (v is None or isinstance(v, bool))]
        if unrated and obj.get("human") is None:  # "quality": null or true: a rating that is no number
            raise InputError(f"{where}: {_lacking_rating(obj, unrated[0])}")
        raise InputError(f"{where}: no human scores (give 'human': {{criterion: number}} or numeric fields)")
    scores = {}
    for key, value in raw.items():
        rating = _as_rating(value)
        if rating is None:
            kind = "a string" if isinstance(value, str) else "not finite" if isinstance(value, float) else type(value).__name__
            raise InputError(f"{where}: rating {key!r} must be a finite number, got {value!r} ({kind})")
        scores[str(key)] = rating
    return scores


def _lacking_rating(obj: dict[str, Any], criterion: str) -> str:
    """Why a line has no rating for a criterion other lines rate: a value that is no number, or none."""
    human = obj.get("human")
    holder = human if isinstance(human, dict) else obj
    if criterion not in holder:
        return f"rating {criterion!r} is missing (other items have it); every item needs every criterion"
    value = holder[criterion]
    shown = ("null" if value is None else "true (a boolean)" if value is True else "false (a boolean)"
             if value is False else f"{value!r} ({type(value).__name__})")
    return f"rating {criterion!r} must be a finite number, got {shown}"


def load_jsonl(path: str | Path, name: str | None = None) -> JudgedDataset:
    """Items in the item format: ``id``, ``hypothesis``, ``references`` (str or list), optional
    ``dataset``, ``system``, ``mr``, and the human scores either as ``human: {criterion: x}``
    or as top-level numeric fields (the shipped Novikova files use the latter)."""
    path = Path(path)
    return _judged(read_jsonl(path), str(path), name or path.stem)


def _judged(numbered: Iterable[tuple[int, dict[str, Any]]], source: str, name: str) -> JudgedDataset:
    items: list[JudgedItem] = []
    lines: list[tuple[int, dict[str, Any]]] = []
    seen: set[str] = set()
    for number, obj in numbered:
        where = f"{source}:{number}"
        hypothesis = require_text(obj, "hypothesis", where)
        refs = _references(obj.get("references", obj.get("reference")), where)
        item_id = str(obj.get("id", number))
        if item_id in seen:
            raise InputError(f"{where}: duplicate id {item_id!r}")
        seen.add(item_id)
        items.append(JudgedItem(item_id, str(obj.get("dataset", name)), str(obj.get("system", "-")),
                                str(obj.get("mr", "")), hypothesis, refs, _human_scores(obj, where)))
        lines.append((number, obj))
    if not items:
        raise InputError(f"{source}: no items")
    criteria = tuple(dict.fromkeys(k for it in items for k in it.human))
    for criterion in criteria:
        lacking = next(((n, obj) for it, (n, obj) in zip(items, lines) if criterion not in it.human), None)
        if lacking is not None:
            raise InputError(f"{source}:{lacking[0]}: {_lacking_rating(lacking[1], criterion)}")
    empty = sum(not it.hypothesis.strip() for it in items)
    notes = {"empty hypotheses (scored as empty)": empty} if empty else {}
    return JudgedDataset(name, source, criteria, items, notes)


def load_novikova(name: str, part: Part | None = None) -> JudgedDataset:
    """BAGEL, SFHOTEL or SFREST from the shipped data (Novikova et al. 2017), through the data layer.

    ``part`` picks one side of the SFREST split (``train`` or ``heldout``); the dataset is then
    named ``sfrest-<part>`` and its notes say what that side was used for.
    """
    if name not in NOVIKOVA:
        raise InputError(f"unknown dataset {name!r}; choose from {', '.join(NOVIKOVA)}")
    label = name if part is None else f"{name}-{part}"
    data = _judged(enumerate(load_rows(name, part), start=1), novikova_path(name), label)
    data.source = f"novikova2017/{NOVIKOVA[name]} (shipped, Novikova et al. 2017)" + ("" if part is None else f" ({part} side)")
    data.criteria = NOVIKOVA_CRITERIA
    if part is not None:
        data.notes["split"] = SIDE_NOTES[part]
    elif name == "sfrest":
        data.notes["split"] = "both sides; the train side's references trained RoMe's scorer (use sfrest-heldout)"
    return data


def _mr_key(mr: str) -> str:
    """Reference rows and system rows match on the MR up to whitespace."""
    return " ".join(mr.split())


def _is_empty_text(text: str | None) -> bool:
    return text is None or not text.strip() or text.strip().lower() == "null"


def _webnlg_rows(path: Path) -> list[dict[str, str]]:
    if not path.is_file():
        raise InputError(f"{path}: no such file (the WebNLG 2017 human-evaluation CSV)")
    with path.open(encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        absent = [c for c in ("mr", "team", "text", *WEBNLG_CRITERIA) if c not in (reader.fieldnames or [])]
        if absent:
            raise InputError(f"{path}: not a WebNLG 2017 human-evaluation CSV (missing column {absent[0]!r})")
        return list(reader)


def _rating(row: dict[str, str], criterion: str, where: str) -> float:
    try:
        value = float(row[criterion])
    except (TypeError, ValueError):
        raise InputError(f"{where}: {criterion} must be a number, got {row[criterion]!r}") from None
    if not math.isfinite(value):
        raise InputError(f"{where}: {criterion} must be a finite number, got {row[criterion]!r}")
    return value


def load_webnlg2017(path: str | Path) -> JudgedDataset:
    """The WebNLG 2017 human-evaluation CSV (header in :data:`WEBNLG_COLUMNS`, ratings 1-3)."""
    path = Path(path)
    rows = _webnlg_rows(path)
    references: dict[str, list[str]] = {}
    for row in rows:
        if row["team"].strip().lower() == WEBNLG_REFERENCE_TEAM and not _is_empty_text(row["text"]):
            references.setdefault(_mr_key(row["mr"]), []).append(row["text"].strip())
    items, empty = [], 0
    for number, row in enumerate(rows, start=2):
        if row["team"].strip().lower() == WEBNLG_REFERENCE_TEAM:
            continue
        where = f"{path}:{number}"
        text = "" if _is_empty_text(row["text"]) else row["text"].strip()
        empty += not text
        human = {c: _rating(row, c, where) for c in WEBNLG_CRITERIA}
        items.append(JudgedItem(str(row.get("id") or number), "webnlg2017", row["team"].strip(), row["mr"], text,
                                tuple(references.get(_mr_key(row["mr"]), ())), human))
    if not items:
        raise InputError(f"{path}: no system rows (only team {WEBNLG_REFERENCE_TEAM!r} references?)")
    notes: dict[str, Any] = {"reference rows (team webnlg)": sum(len(v) for v in references.values())}
    notes["empty or null system texts (scored as empty)"] = empty
    return JudgedDataset("webnlg2017", str(path), WEBNLG_CRITERIA, items, notes)


def load_webnlg2020_judged(directory: str | Path | None = None) -> JudgedDataset:
    """WebNLG+ 2020's rated outputs (development ratings) with their human references.

    The MR field is empty (the shipped files hold no input triples), so the MR protocol refuses it.
    """
    rows = load_webnlg2020(Path(directory) if directory is not None else None)
    rated = [row for row in rows if row.human]
    criteria = tuple(c for c in WEBNLG2020_CRITERIA if rated and all(c in row.human for row in rated))
    if not criteria:
        raise InputError(f"{directory or webnlg_dir()}: no criterion is rated on every rated output")
    items = [JudgedItem(row.id, "webnlg2020", row.system, "", row.hypothesis, row.references,
                        {c: row.human[c] for c in criteria}) for row in rated]
    data = JudgedDataset("webnlg2020", str(directory) if directory is not None else
                         "webnlg2020 (shipped, Castro Ferreira et al. 2020)", criteria, items)
    data.notes["split"] = "development ratings: no learned part of RoMe saw these inputs or texts"
    if len(rated) < len(rows):
        data.notes["outputs without human scores (left out)"] = len(rows) - len(rated)
    empty = sum(not it.hypothesis.strip() for it in items)
    if empty:
        data.notes["empty hypotheses (scored as empty)"] = empty
    return data


def load_dataset(name_or_path: str, path: str | Path | None = None) -> JudgedDataset:
    """``bagel|sfhotel|sfrest|sfrest-heldout|sfrest-train``, ``webnlg2020`` (``path``: another copy
    of its folder), ``webnlg2017`` (needs ``path``), or a JSONL (or WebNLG-format CSV) path."""
    key = name_or_path.lower()
    if key in NOVIKOVA:
        return load_novikova(key)
    if key in SFREST_SIDES:
        return load_novikova("sfrest", SFREST_SIDES[key])
    if key == "webnlg2020":
        return load_webnlg2020_judged(path)
    if key == "webnlg2017":
        if path is None:
            raise InputError("webnlg2017 is not shipped: give the human-evaluation CSV with --path FILE")
        return load_webnlg2017(path)
    file = Path(name_or_path)  # ``path`` belongs to webnlg2017; a file dataset is named by its own path
    if file.suffix.lower() == ".csv":
        return load_webnlg2017(file)
    if not file.is_file():
        known = ", ".join([*NOVIKOVA, *SFREST_SIDES, "webnlg2020", "webnlg2017"])
        raise InputError(f"unknown dataset {name_or_path!r}: use one of {known} or a JSONL file path")
    return load_jsonl(file)


def with_references(items: Sequence[JudgedItem], mode: str) -> tuple[list[JudgedItem], list[list[str]], int]:
    """Items that can be scored under reference ``mode`` (``human`` or ``mr``), their references,
    and how many items were left out because they have no human reference."""
    if mode == "mr":
        no_mr = next((it for it in items if not it.mr.strip()), None)
        if no_mr is not None:
            raise InputError(f"{no_mr.dataset}: item {no_mr.id!r} has no meaning representation; "
                             "use --reference human")
        return list(items), [[item_mr_as_text(it)] for it in items], 0
    if mode != "human":
        raise InputError(f"unknown reference mode {mode!r}; use human or mr")
    kept = [it for it in items if it.references]
    return kept, [list(it.references) for it in kept], len(items) - len(kept)
