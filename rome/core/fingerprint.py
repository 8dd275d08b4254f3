"""Fingerprints of code and weights, so that anything which can change a number changes a signature.

A metric's signature ends in ``code:<hash>``: a digest of the source files of every class in its
MRO that is not from the standard library (the metric's own module, its base classes, the
contract) plus the files it names in ``fingerprint_files()`` (the shared encoder, the parser
wrapper, RoMe's steps and weights). Editing any of them, or swapping a weights file, gives a
new signature, so the score cache misses instead of serving stale numbers. Digests are
memoised per (path, inode, size, mtime, ctime), so a warm run pays one ``stat`` per file;
a file changed in the last two seconds is always re-hashed.
"""

from __future__ import annotations

import hashlib
import inspect
import sys
import sysconfig
import time
from collections.abc import Iterable
from importlib import metadata
from pathlib import Path

_STDLIB = Path(sysconfig.get_paths()["stdlib"]).resolve()
_memo: dict[tuple[str, int, int, int, int], str] = {}
#: a file changed this recently is re-hashed on every call (its stat cannot yet tell edits apart)
RACY_S = 2.0


def harness_version() -> str:
    """The installed rome-harness version (``0+unknown`` when run from an uninstalled checkout)."""
    try:
        return metadata.version("rome-harness")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def file_digest(path: str | Path) -> str:
    """sha256 of a file's bytes (hex), memoised on its identity, size and change times.

    Time stamps are coarse (a few ms on Linux, seconds elsewhere) and ``mtime`` can be set back,
    so two same-size edits can share a stat; as git does with "racily clean" files, a file
    changed in the last :data:`RACY_S` seconds is hashed every time, never served from the memo.
    """
    path = Path(path)
    stat = path.stat()
    key = (str(path.resolve()), stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
    if key in _memo:
        return _memo[key]
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    if time.time_ns() - max(stat.st_mtime_ns, stat.st_ctime_ns) > RACY_S * 1e9:
        _memo[key] = digest.hexdigest()
    return digest.hexdigest()


def files_digest(paths: Iterable[str | Path], length: int = 12) -> str:
    """One digest over several files (names and contents), order-free."""
    digest = hashlib.sha256()
    for path in sorted({Path(p).resolve() for p in paths}):
        digest.update(path.name.encode() + b"\0" + file_digest(path).encode() + b"\0")
    return digest.hexdigest()[:length]


def module_file(obj: object) -> Path | None:
    """The source file of a module, class or function, or ``None`` (builtins, the standard library)."""
    module = obj if inspect.ismodule(obj) else sys.modules.get(getattr(obj, "__module__", "") or "")
    name = getattr(module, "__file__", None)
    if not name:
        return None
    path = Path(name).resolve()
    if path.suffix != ".py" or _STDLIB in path.parents and "site-packages" not in path.parts:
        return None
    return path


def class_files(cls: type) -> list[Path]:
    """Source files of ``cls`` and of its base classes outside the standard library."""
    return [p for p in dict.fromkeys(module_file(c) for c in cls.__mro__) if p is not None]
