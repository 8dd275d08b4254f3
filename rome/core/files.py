"""Output files that never destroy work: never the input itself, replaced only once complete.

``rome score --force`` once opened its output for writing before scoring: with the input as
the output a kill left 0 bytes. Now an output is checked against the input as a *file*
(``os.path.samefile``: symlinks, hard links, ``..`` spellings), and a replacement is written
to a temporary file beside the target and renamed over it at the end (``os.replace``, atomic
on one file system), so the old file stays whole until the new one is.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TextIO

from rome.core.errors import InputError

PARTIAL_SUFFIX = ".partial"


def same_file(a: str | Path, b: str | Path) -> bool:
    """True when both paths name one existing file (whatever the spelling or link)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def refuse_same_file(source: Path, output: Path) -> None:
    """One-line error when ``output`` is ``source``: writing it would destroy the input."""
    if same_file(source, output):
        raise InputError(f"--output {output} is the input file {source}; write the output to another file")


@contextmanager
def replaced_when_complete(path: Path) -> Iterator[TextIO]:
    """A text handle on a temporary file that replaces ``path`` only when the block ends normally.

    On any exception (an interrupt included) the temporary file is removed and ``path`` is
    untouched; only a hard kill can leave a ``.<name>.*.partial`` file behind. A symlink is
    followed, so the file it points to is replaced and the link kept. The new file keeps the
    old one's permissions (or the umask's for a new file).
    """
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=PARTIAL_SUFFIX)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        _copy_mode(target, tmp)
        os.replace(tmp, target)
    except BaseException:
        with suppress(OSError):
            tmp.unlink()
        raise


def _copy_mode(target: Path, tmp: Path) -> None:
    if target.exists():
        shutil.copymode(target, tmp)
        return
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(tmp, 0o666 & ~mask)
