"""Judging a validity card by hand: the unlabelled (todo) card, the judgements' storage, the labelled card.

``rome validity --draw`` writes an unlabelled card (``label: ""``); ``rome annotate --validity`` shows
it one line at a time and stores each judgement here (SQLite, in the same file as the ratings if
wanted: its own ``judgements`` table). When every line is judged, the labelled card is written: the
todo card's lines, in their order and with all their fields, ``label`` and ``note`` filled in, in the
format :func:`reports.validity.load_card` reads. The rubric is in ``docs/validity.md``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from reports.annotate.store import SqliteStore, utc_timestamp
from reports.validity import CARD_OUTPUT, LABELS, check_draw, load_card
from rome.core.errors import InputError
from rome.core.files import safe_output
from rome.core.jsonl import read_jsonl, require_text
from rome.core.paths import writable_default

#: the rubric of docs/validity.md, one line per label, in the rubric's order (the first that applies wins)
DEFINITIONS = {
    "valid": "states the same facts and requests as the original, in English a writer could have produced",
    "meaning_changed": "a fact, a name, a number, a request, the speaker or the polarity differs, "
                       "or a word takes a sense the original did not have",
    "ungrammatical": "the meaning is recoverable but the variant adds a grammatical error "
                     "(agreement, missing preposition, wrong form)",
    "awkward": "meaning kept and grammatical, but no writer would say it so",
    "intended": "the damage the kind promises happened",
    "not_changed": "the variant means and reads the same as the original "
                   "(an 'antonym' that is a synonym, a replacement by an equivalent)",
    "broken": "damaged in a way the kind does not promise: a suffix or placeholder replaced or repeated, "
              "a name part swapped, an entity of the wrong type, a fact changed by a 'typo', nonsense",
}
#: what each decrease card promises (the rubric's ``intended`` row, per kind)
PROMISES = {
    "adjective": "the property is reversed (antonym)",
    "entity": "a different entity of a sensible type",
    "random_word": "content words became AAA",
    "repetition": "a word or phrase of the sentence is repeated",
    "typos_in_word": "a visible misspelling: two letters of a word swapped",
    "typos_space": "a visible misspelling: a letter and a space swapped",
}
MAX_NOTE = 500
_REQUIRED = ("card", "suite", "source_id", "text", "variant", "expectation", "seed", "n")
SCHEMA_VERSION = "1"


def label_definition(label: str, card: str) -> str:
    """The label's one-line rubric definition; ``intended`` names what this card's kind promises."""
    if label == "intended" and card in PROMISES:
        return f"{DEFINITIONS[label]}: {PROMISES[card]}"
    return DEFINITIONS[label]


@dataclass(frozen=True)
class CardLine:
    """One line of a todo card; ``raw`` is the line as read (every field kept for the labelled card)."""

    key: str
    raw: Mapping[str, Any]

    @property
    def card(self) -> str:
        return self.raw["card"]

    @property
    def expectation(self) -> str:
        return self.raw["expectation"]

    @property
    def text(self) -> str:
        return self.raw["text"]

    @property
    def variant(self) -> str:
        return self.raw["variant"]

    @property
    def public_id(self) -> str:
        """Opaque id the page shows and posts back (the browser never names a line by its fields)."""
        return hashlib.sha256(self.key.encode("utf-8")).hexdigest()[:12]

    @property
    def text_hash(self) -> str:
        """Fingerprint of what was judged, so a judgement is not carried over to changed texts."""
        payload = json.dumps([self.expectation, self.text, self.variant], ensure_ascii=False)
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]

    def labels(self) -> tuple[str, ...]:
        return LABELS[self.expectation]


def _checked_line(obj: dict[str, Any], where: str) -> dict[str, Any]:
    for key in _REQUIRED:
        if key not in obj:
            raise InputError(f"{where}: missing field {key!r} (not a card drawn by `rome validity --draw`?)")
    for key in ("card", "text", "variant"):
        if not str(require_text(obj, key, where)).strip():
            raise InputError(f"{where}: field {key!r} is empty")
    check_draw(obj, where)  # the card's own rule: refused here, before any labelling, not at export
    if not isinstance(obj["source_id"], (str, int)) or isinstance(obj["source_id"], bool):
        raise InputError(f"{where}: field 'source_id' must be a string or an integer")
    if obj["expectation"] not in LABELS:
        raise InputError(f"{where}: expectation must be one of {', '.join(LABELS)}, got {obj['expectation']!r}")
    for key in ("label", "note"):
        if key in obj and not isinstance(obj[key], str):
            raise InputError(f"{where}: field {key!r} must be a string")
    if "edits" in obj and not isinstance(obj["edits"], list):
        raise InputError(f"{where}: field 'edits' must be a list")
    return obj


def load_todo_card(path: str | Path) -> list[CardLine]:
    """The lines of an (unlabelled) card, in file order; one card of one corpus, else an input error.

    Any ``label`` / ``note`` already in the file is ignored (never shown), so a judged card can be
    judged again blind by a second reader.
    """
    lines: list[CardLine] = []
    occurrences: dict[tuple, int] = {}
    first: tuple[str, str] | None = None
    for number, obj in read_jsonl(path):
        where = f"{path}:{number}"
        raw = _checked_line(obj, where)
        card = (raw["card"], str(raw.get("corpus", "")))
        if first is None:
            first = card
        elif card != first:
            raise InputError(f"{where}: card {card[0]!r} on corpus {card[1]!r}, but the file's first line is "
                             f"card {first[0]!r} on {first[1]!r}; one card per file")
        identity = (*card, str(raw["source_id"]), raw["expectation"])
        k = occurrences.get(identity, 0)
        occurrences[identity] = k + 1
        lines.append(CardLine("/".join(identity) + f"#{k}", raw))
    if not lines:
        raise InputError(f"{path}: no card lines")
    return lines


def highlighted(text: str, variant: str, edits: object) -> tuple[list[list], list[list]]:
    """``(original, variant)`` as ``[[segment, is_edited], ...]``, from the line's character edits.

    Edits are ``{start, end, old, new}`` over the original (``perturbations.base.Edit``). If they do
    not rebuild the variant exactly (a hand-made card), nothing is highlighted rather than the
    wrong span.
    """
    plain = [[text, False]], [[variant, False]]
    if not isinstance(edits, list) or not edits:
        return plain
    spans = []
    for edit in edits:
        if not (isinstance(edit, dict) and all(isinstance(edit.get(k), int) and not isinstance(edit.get(k), bool)
                                               for k in ("start", "end"))
                and all(isinstance(edit.get(k), str) for k in ("old", "new"))):
            return plain
        spans.append((edit["start"], edit["end"], edit["new"]))
    spans.sort()
    original, changed, last = [], [], 0
    for start, end, new in spans:
        if not last <= start <= end <= len(text):
            return plain
        original += [[text[last:start], False], [text[start:end], True]]
        changed += [[text[last:start], False], [new, True]]
        last = end
    original.append([text[last:], False])
    changed.append([text[last:], False])
    if "".join(s for s, _ in changed) != variant:
        return plain
    return [s for s in original if s[0]], [s for s in changed if s[0]]


@dataclass(frozen=True)
class SavedLabel:
    """One reader's label of one card line, as the store keeps it (``text_hash``: the line it was given to)."""

    line_key: str
    annotator: str
    label: str
    note: str
    text_hash: str
    updated_at: str


def validate_judgement(line: CardLine, label: object, note: object) -> tuple[str, str]:
    """The label (one of the line's expectation) and the note (a string, trimmed); InputError otherwise."""
    if not isinstance(label, str):
        raise InputError("label must be a string")
    if label not in line.labels():
        other = [e for e, labels in LABELS.items() if label in labels]
        why = f" (a label of {other[0]} variants)" if other else ""
        raise InputError(f"label {label!r} is not one of {', '.join(line.labels())}{why}")
    if note is None:
        note = ""
    if not isinstance(note, str):
        raise InputError("note must be a string")
    note = " ".join(note.split())
    if len(note) > MAX_NOTE:
        raise InputError(f"note must be at most {MAX_NOTE} characters")
    return label, note


def _label_check() -> str:
    return " OR ".join(f"(expectation = '{e}' AND label IN ({', '.join(repr(x) for x in labels)}))"
                       for e, labels in LABELS.items())


_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS judgements (
    line_key TEXT NOT NULL,
    annotator TEXT NOT NULL,
    expectation TEXT NOT NULL,
    label TEXT NOT NULL,
    note TEXT NOT NULL,
    text_hash TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (line_key, annotator),
    CHECK ({_label_check()})
);
"""


class JudgementStore(SqliteStore):
    """Judgements in one SQLite file (may be the ratings' file); each save its own committed transaction.

    SQLite for the same reason as the ratings (``store.py``): a save that returned is on disk, so a
    killed server loses at most the judgement being made, and a restarted one resumes where it was.
    """

    noun = "judgement store"
    a_noun = "a judgement store"

    def _setup(self, create: bool) -> None:
        if not create and "judgements" not in self._tables():
            raise InputError(f"{self.path}: no validity judgements in this store")
        if self._stored_version(create, _SCHEMA, "judgements_schema", SCHEMA_VERSION) != SCHEMA_VERSION:
            raise InputError(f"{self.path}: this version reads judgement store schema {SCHEMA_VERSION}")

    def save(self, line: CardLine, annotator: str, label: object, note: object) -> SavedLabel:
        """Insert or replace this annotator's judgement of the line, committed before returning."""
        label, note = validate_judgement(line, label, note)
        row = SavedLabel(line.key, annotator, label, note, line.text_hash, utc_timestamp())
        self._write("INSERT INTO judgements VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (line_key, annotator) DO UPDATE "
                    "SET expectation=excluded.expectation, label=excluded.label, note=excluded.note, "
                    "text_hash=excluded.text_hash, updated_at=excluded.updated_at",
                    (line.key, annotator, line.expectation, label, note, row.text_hash, row.updated_at))
        return row

    def judgements(self, annotator: str) -> dict[str, SavedLabel]:
        """This annotator's judgements by line key (whatever their texts were)."""
        with self._lock:
            rows = self._conn.execute("SELECT line_key, annotator, label, note, text_hash, updated_at "
                                      "FROM judgements WHERE annotator = ?", (annotator,)).fetchall()
        return {r[0]: SavedLabel(*r) for r in rows}

    def current(self, lines: list[CardLine], annotator: str) -> dict[str, SavedLabel]:
        """The judgements of ``lines`` whose texts are unchanged since they were judged."""
        rows = self.judgements(annotator)
        return {x.key: rows[x.key] for x in lines if x.key in rows and rows[x.key].text_hash == x.text_hash}


def labelled_card(lines: list[CardLine], judgements: Mapping[str, SavedLabel]) -> list[dict[str, Any]]:
    """The todo card's lines, same order and fields, each with its label and note; every line must be judged."""
    missing = [i + 1 for i, x in enumerate(lines) if x.key not in judgements]
    if missing:
        shown = ", ".join(map(str, missing[:5])) + (", ..." if len(missing) > 5 else "")
        raise InputError(f"{len(missing)} of {len(lines)} lines are not judged yet (lines {shown})")
    return [{**x.raw, "label": judgements[x.key].label, "note": judgements[x.key].note} for x in lines]


def write_labelled_card(lines: list[CardLine], judgements: Mapping[str, SavedLabel], out: str | Path,
                        inputs: Sequence[tuple[str, Path | None]] = ()) -> Path:
    """Write the labelled card to ``out`` with the one safe writer (lock, beside then rename), checked to load
    as a card before it replaces anything; never over one of ``inputs`` (the todo card, the store) nor over
    a file that is not a card."""
    out = Path(out)
    card = labelled_card(lines, judgements)
    with safe_output(out, CARD_OUTPUT, inputs=inputs, flag="--out", check=load_card) as handle:
        handle.writelines(json.dumps(line, ensure_ascii=False) + "\n" for line in card)
    return out


def default_card_out(todo: Path) -> Path:
    """``<card>.todo.jsonl`` -> ``<card>.jsonl`` beside it (under ``ROME_OUT/cards/<corpus>/`` when the todo card
    lies inside the installed package, which is never written to); any other name needs an explicit ``--out``."""
    if not todo.name.endswith(".todo.jsonl"):
        raise InputError(f"{todo}: not a <card>.todo.jsonl file; say where the labelled card goes with --out")
    name = todo.name[: -len(".todo.jsonl")] + ".jsonl"
    return writable_default(todo.with_name(name), "cards", todo.parent.name, name)
