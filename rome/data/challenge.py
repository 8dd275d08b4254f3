"""Challenge sets of minimal pairs: DEMETR's JSON files, and the harness's generic JSONL format.

A :class:`ChallengeItem` is one minimal pair: a ``reference``, a ``good`` hypothesis and a
``bad`` one (the good one damaged), with its ``category`` and optional ``severity``. A metric
gets an item right when it scores ``good`` strictly above ``bad`` against the reference.

Two formats, told apart by the fields of their records (not by the file name or suffix):

* DEMETR (Karpinska et al. 2022; 26 of its files ship with the package, docs/data.md): records with ``id, eng_sent,
  mt_sent, pert_sent, pert_check, severity``. ``eng_sent`` is the reference, ``mt_sent`` the
  good and ``pert_sent`` the bad hypothesis; ``pert_check: false`` items are left out. A file
  whose perturbed text *is* the reference (``base_id35_reference``, or any file where every
  usable ``pert_sent`` equals ``eng_sent``) is reversed: its good hypothesis is ``pert_sent``.
  The category is the file name (the reliable key: the release's ``pert_id`` is wrong in places).
* generic: records with ``id, reference (string or list), good, bad, category`` and optional
  ``severity``; extra fields are ignored.

Either may be a JSON array or JSON lines. A path may be a directory: its ``*.json`` and
``*.jsonl`` files are read (not recursively), anything else is listed as ignored. The shipped DEMETR
files are read by name: ``demetr`` (all 26) or ``demetr/<file>`` (:func:`shipped_challenge`).

Bad input: an unreadable file, a file in neither format, a record missing a field or with a
field of the wrong type, a duplicate id, and a category named like a summary row (``ALL``) are
one-line :class:`InputError`\\ s. Items that cannot test anything are *skipped and counted* per
reason (:data:`SKIP_REASONS`), so a report can say what was left out: ``pert_check`` false,
``good`` equal to ``bad``, an empty text.
"""

from __future__ import annotations

import hashlib
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rome.core.contract import has_visible_text
from rome.core.errors import InputError
from rome.core.jsonl import loads, refuse_lone_surrogates
from rome.core.paths import data_path

DEMETR_FIELDS = ("id", "eng_sent", "mt_sent", "pert_sent", "pert_check", "severity")
GENERIC_FIELDS = ("id", "reference", "good", "bad", "category")
#: DEMETR files whose perturbed text must score higher than the MT (the reference itself)
DEMETR_REVERSED = frozenset({"base_id35_reference"})
#: DEMETR's severity tiers, mildest first; other severities sort after them, alphabetically
SEVERITY_ORDER = ("base", "minor", "major", "critical")
#: category names reserved for the summary rows of an accuracy table
RESERVED_CATEGORY = "ALL"
#: the severity of the summary row ``ALL`` (every item pooled); an item's severity may not be named so
ALL_SEVERITY = "all"
#: how a category's label shows its items without a severity when others have one; no item's severity may be named so
NO_SEVERITY = "(none)"
SUFFIXES = (".json", ".jsonl")
#: the name ``rome challenge`` reads the shipped DEMETR files by (``demetr``, ``demetr/<file>``)
SHIPPED_DEMETR = "demetr"

SKIP_PERT_CHECK = "pert_check false"
SKIP_SAME = "good equals bad"
SKIP_EMPTY = "empty text"
SKIP_REASONS = (SKIP_PERT_CHECK, SKIP_SAME, SKIP_EMPTY)


@dataclass(frozen=True)
class ChallengeItem:
    id: str
    category: str
    severity: str
    reference: tuple[str, ...]
    good: str
    bad: str
    source: str = ""
    #: what items of different categories share (DEMETR: the source sentence's id); sampling
    #: picks the same groups in every category, so shared (good, reference) pairs are scored once
    group: str = ""


@dataclass
class SourceFile:
    """What was read from one file: its format, record count, usable items and skips by reason."""

    path: Path
    format: str
    records: int
    items: int = 0
    skipped: Counter = field(default_factory=Counter)
    reversed: bool = False

    def describe(self) -> dict[str, Any]:
        return {"path": str(self.path), "format": self.format, "records": self.records, "items": self.items,
                "skipped": dict(self.skipped), **({"reversed": True} if self.reversed else {})}


@dataclass
class ChallengeData:
    """The usable items of every file read, and what was left out of them (and why)."""

    items: list[ChallengeItem]
    files: list[SourceFile]
    #: files found in a directory but not read, with the reason
    ignored: list[tuple[str, str]] = field(default_factory=list)

    @property
    def skipped(self) -> Counter:
        total: Counter = Counter()
        for f in self.files:
            total.update(f.skipped)
        return total


#: the control hypothesis of every item: a lone "." (DEMETR's ``base_id33_empty``), scored against the
#: item's references so a report can say how far each metric's "bad" falls towards knowing nothing
CONTROL_TEXT = "."


def item_pairs(items: Iterable[ChallengeItem]) -> list[tuple[str, tuple[str, ...]]]:
    """Every (hypothesis, references) pair the items need: good, bad and the "." control. The pairs of
    every usable item read are the corpus idf-like metrics are fitted on, in ``rome challenge`` and in a
    challenge suite alike, so a pair gets one score whichever ran it."""
    out = []
    for item in items:
        out += [(item.good, item.reference), (item.bad, item.reference), (CONTROL_TEXT, item.reference)]
    return out


def severity_rank(severity: str) -> tuple[int, str]:
    """Sort key: DEMETR's tiers first (base, minor, major, critical), then others by name, empty last."""
    if severity in SEVERITY_ORDER:
        return SEVERITY_ORDER.index(severity), ""
    return (len(SEVERITY_ORDER) + (1 if not severity else 0)), severity


def category_severity(items: Iterable[ChallengeItem]) -> str:
    """A category's severity: the one its items share, ``a+b`` when they differ, ``""`` when none is given.

    Items without one count as :data:`NO_SEVERITY` beside items with one (``major+(none)``): a category of
    one "major" item and one without must not be labelled "major".
    """
    given = [i.severity for i in items]
    found = sorted({s for s in given if s}, key=severity_rank)
    if found and not all(given):
        found.append(NO_SEVERITY)
    return "+".join(found)


# -- files ----------------------------------------------------------------------------------
def demetr_dir() -> Path:
    return data_path("demetr")


def demetr_files(directory: str | Path | None = None) -> list[Path]:
    """The DEMETR JSON files of a directory (default: the shipped ones), sorted by name."""
    folder = Path(directory) if directory is not None else demetr_dir()
    return sorted(folder.glob("*.json"))


def shipped_challenge(given: str | Path) -> Path | None:
    """The shipped DEMETR files by name: ``demetr`` is their folder, ``demetr/<file>`` one of them (with or
    without ``.json``); ``None`` for any other name. A path that exists is always read as a path first."""
    parts = Path(given).parts
    if not parts or parts[0] != SHIPPED_DEMETR or len(parts) > 2:
        return None
    if len(parts) == 1:
        return demetr_dir()
    name = parts[1] if parts[1].endswith(".json") else parts[1] + ".json"
    path = demetr_dir() / name
    if not path.is_file():
        raise InputError(f"{given}: no such shipped DEMETR file; the shipped ones are "
                         f"{', '.join(p.stem for p in demetr_files())}")
    return path


def expand_paths(paths: Iterable[str | Path]) -> tuple[list[Path], list[tuple[str, str]]]:
    """Files to read (directories expanded to their ``.json``/``.jsonl`` files) and the ignored ones;
    a name of the shipped files (:func:`shipped_challenge`) that is not a path here reads those."""
    files: list[Path] = []
    ignored: list[tuple[str, str]] = []
    for given in paths:
        path = Path(given).expanduser()
        if not path.exists():
            path = shipped_challenge(given) or path
        if path.is_dir():
            found = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in SUFFIXES
                           and not p.name.startswith("."))
            ignored += [(str(p), "not a .json or .jsonl file" if p.is_file() else "a directory (not searched)")
                        for p in sorted(path.iterdir()) if p not in found and not p.name.startswith(".")]
            if not found:
                raise InputError(f"{path}: no .json or .jsonl files in this directory")
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise InputError(f"{path}: no such file or directory")
    unique = list(dict.fromkeys(p.resolve() for p in files))
    return unique, ignored


def _records(path: Path) -> list[dict[str, Any]]:
    """The file's records (a JSON array, or JSON lines), each with ``_where`` for messages."""
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    if not text.strip():
        raise InputError(f"{path}: the file is empty")
    if text.lstrip().startswith("["):
        rows = loads(text, str(path), lines=True, surrogates=True, noun="JSON array")
        if not isinstance(rows, list):
            raise InputError(f"{path}: expected a JSON array of records, got {type(rows).__name__}")
        for i, row in enumerate(rows, start=1):
            if not isinstance(row, dict):
                raise InputError(f"{path}: record {i} is a {type(row).__name__}, not a JSON object")
            refuse_lone_surrogates(row, f"{path}: record {i}")
        return [{**row, "_where": f"{path}: record {i}"} for i, row in enumerate(rows, start=1)]
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        if line.lstrip().startswith(("{", "[")):
            obj = loads(line, f"{path}:{number}", surrogates=True)
        else:
            raise InputError(f"{path}:{number}: not a JSON array, and line {number} is not a JSON object; "
                             "expected a DEMETR JSON file or a JSONL challenge file")
        if not isinstance(obj, dict):
            raise InputError(f"{path}:{number}: expected a JSON object, got {type(obj).__name__}")
        refuse_lone_surrogates(obj, f"{path}:{number}")
        rows.append({**obj, "_where": f"{path}:{number}"})
    return rows


def detect_format(first: dict[str, Any], path: Path) -> str:
    """``demetr`` or ``generic`` from the fields of the first record; else a one-line error naming what is missing."""
    keys = set(first) - {"_where"}
    if all(f in keys for f in DEMETR_FIELDS):
        return "demetr"
    if all(f in keys for f in GENERIC_FIELDS):
        return "generic"
    closest, fields = max((("DEMETR", DEMETR_FIELDS), ("generic challenge", GENERIC_FIELDS)),
                          key=lambda kv: sum(f in keys for f in kv[1]))
    missing = ", ".join(f for f in fields if f not in keys)
    raise InputError(f"{first['_where']}: neither a DEMETR file nor the generic challenge format: closest is "
                     f"{closest}, which also needs {missing} (has {', '.join(sorted(keys)) or 'no fields'})")


def read_file(path: str | Path) -> tuple[SourceFile, list[ChallengeItem]]:
    """One file's usable items, and what was read and skipped."""
    path = Path(path)
    rows = _records(path)
    if not rows:
        raise InputError(f"{path}: no records")
    fmt = detect_format(rows[0], path)
    info = SourceFile(path, fmt, len(rows))
    reader = _demetr_items if fmt == "demetr" else _generic_items
    items = list(reader(rows, path, info))
    info.items = len(items)
    return info, items


def _check_id(row: dict[str, Any], seen: dict[str, str]) -> str:
    raw = row["id"]
    if isinstance(raw, bool) or not isinstance(raw, str | int) or (isinstance(raw, str) and not raw.strip()):
        raise InputError(f"{row['_where']}: field 'id' must be a non-empty string or an integer (got {raw!r})")
    key = str(raw).strip()
    if key in seen:
        raise InputError(f"{row['_where']}: duplicate id {raw!r} (first at {seen[key]})")
    seen[key] = row["_where"]
    return key


def _text(row: dict[str, Any], key: str) -> str:
    value = row.get(key)
    if not isinstance(value, str):
        shown = "missing" if key not in row else f"got {type(value).__name__}"
        raise InputError(f"{row['_where']}: field {key!r} must be a string ({shown})")
    return value


def _severity(row: dict[str, Any]) -> str:
    """The severity as text; ``null`` or absent is none (``""``)."""
    value = row.get("severity")
    if value is None:
        return ""
    if not isinstance(value, str):  # 3 is not "3": a number here is a mistake, not a tier's name
        raise InputError(f"{row['_where']}: field 'severity' must be a string (got {value!r})")
    name = _printable(value.strip(), "severity", row["_where"])
    if name.lower() == ALL_SEVERITY:
        raise InputError(f"{row['_where']}: severity {name!r} is reserved for the summary row ALL; rename it")
    if name == NO_SEVERITY:
        raise InputError(f"{row['_where']}: severity {name!r} is reserved for items without one; leave it out")
    return name


def _printable(name: str, field: str, where: str) -> str:
    """``name`` unless it holds a control or invisible character (a newline would break the tables' rows)."""
    if not name.isprintable():
        raise InputError(f"{where}: field {field!r} holds a control or invisible character ({name!r})")
    return name


def _pert_check(row: dict[str, Any]) -> bool:
    value = row["pert_check"]
    if isinstance(value, bool):
        return value
    if value in (0, 1):
        return bool(value)
    if isinstance(value, str) and value.strip().lower() in ("true", "false"):
        return value.strip().lower() == "true"
    raise InputError(f"{row['_where']}: field 'pert_check' must be true or false (got {value!r})")


def _skip_reason(reference: tuple[str, ...], good: str, bad: str) -> str | None:
    if not reference or not has_visible_text(good) or not has_visible_text(bad):
        return SKIP_EMPTY
    if good.strip() == bad.strip():
        return SKIP_SAME
    return None


def _demetr_items(rows: list[dict[str, Any]], path: Path, info: SourceFile) -> Iterator[ChallengeItem]:
    for row in rows:
        missing = [f for f in DEMETR_FIELDS if f not in row]
        if missing:
            raise InputError(f"{row['_where']}: missing DEMETR field(s) {', '.join(missing)}")
    category = _category(path.stem, rows[0]["_where"])
    usable = [row for row in rows if _pert_check(row)]
    if len(usable) < len(rows):
        info.skipped[SKIP_PERT_CHECK] += len(rows) - len(usable)
    info.reversed = category in DEMETR_REVERSED or (
        bool(usable) and all(_text(r, "pert_sent").strip() == _text(r, "eng_sent").strip() for r in usable))
    seen: dict[str, str] = {}
    for row in rows:
        key = _check_id(row, seen)
        if not _pert_check(row):
            continue
        reference, mt, pert = _text(row, "eng_sent"), _text(row, "mt_sent"), _text(row, "pert_sent")
        good, bad = (pert, mt) if info.reversed else (mt, pert)
        refs = (reference,) if has_visible_text(reference) else ()
        if reason := _skip_reason(refs, good, bad):
            info.skipped[reason] += 1
            continue
        yield ChallengeItem(id=f"{category}:{key}", category=category, severity=_severity(row),
                            reference=refs, good=good, bad=bad, source=str(path), group=key)


def _references(row: dict[str, Any]) -> tuple[str, ...]:
    value = row.get("reference")
    if isinstance(value, str):
        values = [value]
    elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        values = value
    else:
        raise InputError(f"{row['_where']}: field 'reference' must be a string or a non-empty list of strings "
                         f"(got {type(value).__name__})")
    return tuple(v for v in values if has_visible_text(v))


def _category(value: object, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{where}: field 'category' must be a non-empty string (got {value!r})")
    name = _printable(value.strip(), "category", where)
    if name == RESERVED_CATEGORY or name.startswith(RESERVED_CATEGORY + ":"):
        raise InputError(f"{where}: category {name!r} is reserved for the summary rows; rename it")
    return name


def _generic_items(rows: list[dict[str, Any]], path: Path, info: SourceFile) -> Iterator[ChallengeItem]:
    seen: dict[str, str] = {}
    for row in rows:
        missing = [f for f in GENERIC_FIELDS if f not in row]
        if missing:
            raise InputError(f"{row['_where']}: missing field(s) {', '.join(missing)} of the generic challenge format")
        key = _check_id(row, seen)
        refs, good, bad = _references(row), _text(row, "good"), _text(row, "bad")
        category = _category(row["category"], row["_where"])
        severity = _severity(row)
        if reason := _skip_reason(refs, good, bad):
            info.skipped[reason] += 1
            continue
        yield ChallengeItem(id=f"{path.stem}:{key}", category=category, severity=severity, reference=refs,
                            good=good, bad=bad, source=str(path), group=key)


def read_demetr(path: str | Path) -> Iterator[ChallengeItem]:
    """Usable items of one DEMETR file (``pert_check`` true), reversed for the reference control."""
    info, items = read_file(path)
    if info.format != "demetr":
        raise InputError(f"{path}: not a DEMETR file (records need {', '.join(DEMETR_FIELDS)})")
    yield from items


def load_challenge(paths: Iterable[str | Path]) -> ChallengeData:
    """Every usable item of the given files and directories; a one-line error when none is usable."""
    files, ignored = expand_paths(paths)
    if not files:
        raise InputError("give at least one challenge file or directory")
    infos: list[SourceFile] = []
    items: list[ChallengeItem] = []
    owner: dict[str, Path] = {}
    for path in files:
        info, found = read_file(path)
        for item in found:
            if item.id in owner:
                raise InputError(f"{path}: item id {item.id!r} is also in {owner[item.id]} "
                                 "(two files with the same name?)")
            owner[item.id] = path
        infos.append(info)
        items += found
    if not items:
        reasons = sum((f.skipped for f in infos), Counter())
        said = ", ".join(f"{n} {why}" for why, n in reasons.most_common()) or "no records"
        raise InputError(f"no usable items in {len(files)} file(s): all skipped ({said})")
    return ChallengeData(items, infos, ignored)


def _rank(seed: int):
    def rank(item: ChallengeItem) -> tuple[str, str]:
        return hashlib.sha256(f"{seed}\x1f{item.group}".encode()).hexdigest(), item.id

    return rank


def _ranked_by_category(items: list[ChallengeItem], seed: int) -> dict[str, list[ChallengeItem]]:
    by_category: dict[str, list[ChallengeItem]] = {}
    for item in items:
        by_category.setdefault(item.category, []).append(item)
    return {c: sorted(group, key=_rank(seed)) for c, group in by_category.items()}


def sample_per_category(items: list[ChallengeItem], k: int | None, seed: int = 0) -> list[ChallengeItem]:
    """At most ``k`` items per category, chosen by a seeded hash of their group (then id).

    The same groups are picked in every category (DEMETR: the same source sentences), so the
    pairs categories share are scored once; the choice does not depend on the input order.
    Items keep their input order.
    """
    if k is None:
        return list(items)
    if k < 1:
        raise InputError("--n-per-category must be at least 1")
    keep = {i.id for group in _ranked_by_category(items, seed).values() for i in group[:k]}
    return [i for i in items if i.id in keep]


def sample_total(items: list[ChallengeItem], n: int | None, seed: int = 0) -> list[ChallengeItem]:
    """At most ``n`` items in all, spread evenly over the categories (round robin in the seeded order)."""
    if n is None or n >= len(items):
        return list(items)
    ranked = list(_ranked_by_category(items, seed).values())
    keep: set[str] = set()
    depth = 0
    while len(keep) < n:
        for group in ranked:
            if depth < len(group) and len(keep) < n:
                keep.add(group[depth].id)
        depth += 1
    return [i for i in items if i.id in keep]
