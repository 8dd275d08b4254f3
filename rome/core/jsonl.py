"""JSON Lines in and out, with errors that name the file and line."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rome.core.errors import InputError

#: a ``\uD800``-``\uDFFF`` escape: the only way a surrogate gets into text decoded from UTF-8
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)``; blank lines are skipped, anything else must be an object.

    A string holding a lone surrogate (``"\\ud800"``: valid JSON, invalid Unicode, so it could
    never be written back out) is refused here, naming the line and field, before any work starts.
    """
    path = Path(path)
    if path.is_dir():
        raise InputError(f"{path}: is a directory, not a JSONL file")
    if not path.is_file():
        raise InputError(f"{path}: no such file")
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError:
                raise InputError(f"{path}:{number}: not UTF-8 text") from None
            if not line.strip():
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                raise InputError(f"{path}:{number}: malformed JSON ({exc.msg})") from None
            if not isinstance(obj, dict):
                raise InputError(f"{path}:{number}: expected a JSON object, got {type(obj).__name__}")
            if _SURROGATE_ESCAPE.search(line):
                refuse_lone_surrogates(obj, f"{path}:{number}")
            yield number, obj


def has_lone_surrogate(text: str) -> bool:
    """True for text that cannot be encoded as UTF-8 (e.g. argv bytes that were not UTF-8)."""
    return bool(_LONE_SURROGATE.search(text))


def refuse_lone_surrogates(obj: Any, where: str) -> None:
    """One-line InputError naming the field of ``obj`` that holds a lone surrogate (``"\\ud800"``):
    valid JSON but not valid Unicode, so it could never be hashed, encoded or written back out."""
    field = _surrogate_field(obj)
    if field is not None:
        raise InputError(f"{where}: field {field!r} holds a lone surrogate "
                         "(a \\ud800-\\udfff escape without its pair), which is not valid Unicode")


def _surrogate_field(value: Any, where: str = "") -> str | None:
    """Dotted path of the first key or string holding a lone surrogate, else ``None``."""
    if isinstance(value, str):
        return (where or "value") if _LONE_SURROGATE.search(value) else None
    if isinstance(value, dict):
        for key, item in value.items():
            path = f"{where}.{key}" if where else str(key)
            found = path if _LONE_SURROGATE.search(key) else _surrogate_field(item, path)
            if found:
                return found
    if isinstance(value, list):
        for i, item in enumerate(value):
            found = _surrogate_field(item, f"{where}[{i}]")
            if found:
                return found
    return None


def require_text(obj: dict[str, Any], key: str, where: str, allow_list: bool = False) -> str | list[str]:
    """``obj[key]`` as a string (or non-empty list of strings), else a one-line InputError."""
    value = obj.get(key)
    if isinstance(value, str):
        return value
    if allow_list and isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        return value
    kind = "a string or a non-empty list of strings" if allow_list else "a string"
    shown = "missing" if key not in obj else f"got {type(value).__name__}"
    raise InputError(f"{where}: field {key!r} must be {kind} ({shown})")


def unique_id(obj: dict[str, Any], number: int, seen: dict[str, tuple[int, bool]], where: str) -> str:
    """The line's id as a key (its line number when it has no ``id``), refused when an earlier line has it.

    The message says when either line had no ``id``: a line numbered 1 and a later ``"id": 1`` clash,
    which "duplicate id 1" alone would leave a puzzle.
    """
    explicit = "id" in obj
    key = str(obj["id"] if explicit else number)
    if key in seen:
        first, first_explicit = seen[key]
        why = "" if first_explicit else f", which has no 'id' and so is id {first} (its line number)"
        mine = "" if explicit else " (this line has no 'id': its line number is its id)"
        raise InputError(f"{where}: duplicate id {obj['id'] if explicit else number!r}{mine}: "
                         f"line {first} has it too{why}")
    seen[key] = (number, explicit)
    return key


def dump_line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False) + "\n"


def repair_incomplete_tail(path: str | Path) -> str | None:
    """Drop a last line cut off mid-write (a kill inside a write); returns a notice, or ``None``.

    Only the bytes after the last newline are looked at: if they form a JSON object the line
    was complete and just gets its newline (so an append cannot glue onto it); otherwise they
    are truncated away. Damage before the last newline is left for :func:`read_jsonl` to report.
    """
    path = Path(path)
    size = path.stat().st_size
    with path.open("rb+") as handle:
        start = _last_line_start(handle, size)
        handle.seek(start)
        tail = handle.read()
        if not tail or tail.endswith(b"\n"):
            return None
        if _is_json_object(tail, first_line=start == 0):
            handle.write(b"\n")
            return None
        handle.truncate(start)
    return f"dropped an incomplete last line ({len(tail)} bytes, cut off mid-write) from {path}"


def _last_line_start(handle, size: int, block: int = 1 << 16) -> int:
    """Offset just after the last newline before ``size`` (0 when there is none)."""
    end = size - 1  # a newline as the very last byte ends the last line: look before it
    while end > 0:
        begin = max(0, end - block)
        handle.seek(begin)
        found = handle.read(end - begin).rfind(b"\n")
        if found >= 0:
            return begin + found + 1
        end = begin
    return 0


def _is_json_object(raw: bytes, first_line: bool) -> bool:
    try:
        return isinstance(json.loads(raw.decode("utf-8-sig" if first_line else "utf-8")), dict)
    except (UnicodeDecodeError, json.JSONDecodeError):
        return False
