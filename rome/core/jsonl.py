"""JSON Lines in and out, with errors that name the file and line."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from rome.core.errors import InputError


def read_jsonl(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Yield ``(line_number, object)``; blank lines are skipped, anything else must be an object."""
    path = Path(path)
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
            yield number, obj


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


def dump_line(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False) + "\n"
