"""JSON and JSON Lines in and out, with limits, and errors that name the file and line.

Every command reads its JSON input through :func:`loads` (one JSON value) or :func:`read_jsonl` (one
object per line): nesting deeper than :data:`MAX_DEPTH`, a number longer than :data:`MAX_NUMBER_CHARS`
characters, ``NaN``/``Infinity`` (not JSON, though Python's parser takes them) and a number too large
for a float (``1e999``, which Python reads as infinity) are one-line :class:`InputError` naming the
file and line, never a ``RecursionError``, ``ValueError`` or a NaN copied into an output.
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rome.core.errors import InputError

#: a ``\uD800``-``\uDFFF`` escape: the only way a surrogate gets into text decoded from UTF-8
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
#: deepest nesting of arrays and objects accepted (the formats read here need 4 or 5 levels)
MAX_DEPTH = 64
#: longest number accepted, in characters (an id or a score needs far fewer; a 5,000-digit integer is an attack)
MAX_NUMBER_CHARS = 100
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


class _Refused(ValueError):
    """A number or constant the limits refuse (raised inside ``json.loads``' hooks)."""

    def __init__(self, token: str, why: str) -> None:
        super().__init__(why)
        self.token = token


def _int(token: str) -> int:
    if len(token) > MAX_NUMBER_CHARS:
        raise _Refused(token, f"a number of {len(token)} characters (at most {MAX_NUMBER_CHARS})")
    return int(token)


def _float(token: str) -> float:
    if len(token) > MAX_NUMBER_CHARS:
        raise _Refused(token, f"a number of {len(token)} characters (at most {MAX_NUMBER_CHARS})")
    value = float(token)
    if not math.isfinite(value):
        raise _Refused(token, f"the number {token} is too large for a float")
    return value


def _constant(token: str) -> None:
    raise _Refused(token, f"{token} is not a JSON number (use null, or leave the field out)")


def _line_of(text: str, position: int) -> int:
    return text.count("\n", 0, position) + 1


def _check_depth(text: str) -> tuple[int, int] | None:
    """``(depth, line)`` of the first bracket nested deeper than :data:`MAX_DEPTH`, else ``None``.

    Counting brackets is cheap; only text with more than :data:`MAX_DEPTH` of them is scanned, with its
    strings blanked out (JSON strings hold no raw newline, so line numbers are kept).
    """
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return None
    bare = _STRING.sub('""', text)
    depth = 0
    for match in _BRACKET.finditer(bare):
        depth += 1 if match.group() in "[{" else -1
        if depth > MAX_DEPTH:
            return depth, _line_of(bare, match.start())
    return None


def loads(text: str, where: str, lines: bool = False, surrogates: bool = False, noun: str = "JSON") -> Any:
    """``json.loads(text)`` within the limits of this module; any problem is one InputError naming ``where``.

    ``where`` is ``file:line`` for one line of a JSONL file; for a whole document (``lines=True``) the
    line of the problem is added to it. A lone surrogate (``"\\ud800"``: valid JSON, invalid Unicode)
    is refused too unless ``surrogates`` (the caller then refuses it itself, naming the field). ``noun``
    names the document in the message ("malformed JSON array").
    """
    def at(line: int) -> str:
        return f"{where}:{line}" if lines else where

    deep = _check_depth(text)
    if deep is not None:
        raise InputError(f"{at(deep[1])}: JSON nested more than {MAX_DEPTH} levels deep")
    try:
        value = json.loads(text, parse_int=_int, parse_float=_float, parse_constant=_constant)
    except json.JSONDecodeError as exc:
        raise InputError(f"{at(exc.lineno)}: malformed {noun} ({exc.msg})") from None
    except _Refused as exc:
        bare = _STRING.sub('""', text)
        found = bare.find(exc.token)
        raise InputError(f"{at(_line_of(bare, max(found, 0)))}: {exc}") from None
    except RecursionError:  # below MAX_DEPTH only with a tiny recursion limit; kept as a one-line error anyway
        raise InputError(f"{where}: JSON nested too deeply") from None
    if not surrogates and _SURROGATE_ESCAPE.search(text):
        refuse_lone_surrogates(value, where)
    return value


def load_json_file(path: str | Path) -> Any:
    """One JSON document from a file (a summary, a JSON array of records), with this module's limits."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InputError(f"{path}: not UTF-8 text") from None
    return loads(text, str(path), lines=True)


def check_readable(path: Path) -> None:
    """One-line InputError unless ``path`` can be read as a text stream: a missing path is "no such file",
    a directory is named so; a regular file, a named pipe or a device (``/dev/stdin``, ``/dev/null``) is read."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(mode):
        raise InputError(f"{path}: is a directory, not a JSONL file")
    if stat.S_ISSOCK(mode):
        raise InputError(f"{path}: is a socket, not a JSONL file")


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)``; blank lines are skipped, anything else must be an object.

    Each line goes through :func:`loads` (depth, number and NaN limits). A string holding a lone
    surrogate (``"\\ud800"``: valid JSON, invalid Unicode, so it could never be written back out) is
    refused here, naming the line and field, before any work starts. A named pipe or a device is read
    like a file (``--input <(...)``, ``/dev/null`` is an empty input).
    """
    path = Path(path)
    check_readable(path)
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8-sig" if number == 1 else "utf-8")
            except UnicodeDecodeError:
                raise InputError(f"{path}:{number}: not UTF-8 text") from None
            if not line.strip():
                continue
            obj = loads(line, f"{path}:{number}", surrogates=True)
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
        return isinstance(loads(raw.decode("utf-8-sig" if first_line else "utf-8"), "tail", surrogates=True), dict)
    except (UnicodeDecodeError, InputError):
        return False
