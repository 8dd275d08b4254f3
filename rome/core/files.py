"""Output files that never destroy work: one safe writer for every command that writes a file.

An output is written only

- when it is not one of the command's inputs (a corpus, a todo card, a ratings store): checked as a *file*
  (``os.path.samefile``: symlinks, hard links, ``..`` spellings), not as a spelling;
- when it is new, or a regular file that is already an output of the same kind (:class:`OutputKind`,
  recognised by the fields of its first JSON value; an empty file counts, it holds nothing): a device, a
  named pipe, a directory, a SQLite store or a user's own file is never replaced, ``--force`` or not;
- under an exclusive lock (:func:`output_lock`, ``fcntl.flock`` on ``.<name>.lock`` beside it), so a second
  run on the same output is refused while the first holds it, instead of both writing and one run's rows
  vanishing;
- atomically when it is replaced (:func:`replaced_when_complete`: written beside it, renamed over it), so
  the old file stays whole until the new one is.

``rome score`` appends to a new output chunk by chunk instead (that is what makes ``--resume`` lose at
most one chunk); it takes the same lock and the same checks.

A command that writes a *folder* (a suite, a challenge, a report) uses :func:`output_folder`: the folder
is locked for the whole run (a second run into it is refused at once), its files are written into a
temporary sibling and swapped into place when the run ends, and a file already in the folder is replaced
only when the folder's record of what rome wrote there (``.rome-output.json``) lists it.

No output, after its symlinks are resolved, lies inside the installed package (a shipped card, a shipped
model): rome writes only outside it.
"""

from __future__ import annotations

import ctypes
import errno
import fcntl
import json
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from rome.core.errors import InputError
from rome.core.paths import inside_package

PARTIAL_SUFFIX = ".partial"
LOCK_SUFFIX = ".lock"
#: most bytes read to recognise an output by its first line (a line of a real output is far shorter)
_FIRST_LINE_LIMIT = 1 << 22


def same_file(a: str | Path, b: str | Path) -> bool:
    """True when both paths name one existing file (whatever the spelling or link)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


@dataclass(frozen=True)
class OutputKind:
    """What a command writes, so that a file already there can be told to be one of its outputs.

    ``fields``: keys every record of such an output has; the first JSON value of the file is looked at
    (its first line for JSON Lines, the whole document otherwise).
    """

    description: str
    fields: frozenset[str]
    jsonl: bool = True

    def recognises(self, path: Path) -> bool:
        """True for an empty file or one whose first record has :attr:`fields`."""
        from rome.core.jsonl import loads

        try:
            with open(path, "rb") as handle:
                raw = handle.readline(_FIRST_LINE_LIMIT) if self.jsonl else handle.read()
            text = raw.decode("utf-8-sig")
        except (OSError, UnicodeDecodeError):
            return False
        if not text.strip():
            return os.path.getsize(path) == len(raw)  # empty, or blank up to the end
        try:
            first = loads(text, str(path), surrogates=True)
        except InputError:
            return False
        if isinstance(first, list) and not self.jsonl:
            first = first[0] if first else {}
        return isinstance(first, dict) and self.fields <= first.keys()


def _file_type(mode: int) -> str:
    for test, name in ((stat.S_ISCHR, "character device"), (stat.S_ISBLK, "block device"),
                       (stat.S_ISFIFO, "named pipe"), (stat.S_ISSOCK, "socket")):
        if test(mode):
            return name
    return "special file"


def check_output(path: Path, kind: OutputKind, *, inputs: Iterable[tuple[str, Path | None]] = (),
                 flag: str = "--output", replace: bool = True, exists_hint: str = "pass --force to overwrite it") -> None:
    """Refuse (one-line :class:`InputError`) to write ``path`` unless it is new or an output of ``kind``.

    ``inputs``: ``(what, path)`` of each file the command reads or keeps (``("the input file", corpus)``,
    ``("the annotation store", store)``), none of which may be the output. ``replace=False``: an existing
    output is refused too, with ``exists_hint`` (commands that replace only with ``--force``).
    """
    target = Path(os.path.realpath(path))  # what the writer writes: ``sub/../f`` is ``f`` even without ``sub``
    refuse_package(path, flag)
    for what, source in inputs:
        if source is not None and (same_file(source, target) or same_file(source, path)):
            raise InputError(f"{flag} {path} is {what} {source}; write the output to another file")
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        raise InputError(f"{flag} {path} is a directory; give a file")
    if not stat.S_ISREG(mode):
        raise InputError(f"{flag} {path} is a {_file_type(mode)}, not a regular file; rome writes only regular "
                         "files and never replaces anything else, --force or not")
    if not replace:
        raise InputError(f"{path} exists; {exists_hint}")
    if not kind.recognises(target):
        lacks = "its first line lacks" if kind.jsonl else "it lacks"
        raise InputError(f"{flag} {path} is not {kind.description} ({lacks} {', '.join(sorted(kind.fields))}); "
                         f"rome replaces only its own outputs: move the file away or give another {flag}")


def refuse_package(path: str | Path, flag: str = "--out") -> None:
    """One-line error when ``path`` (its symlinks resolved) lies inside the installed package: a shipped
    card, model or data file is never replaced by a run, ``--force`` or not."""
    if inside_package(os.path.realpath(path)):
        where = os.path.realpath(path)
        shown = f"{path} (that is {where})" if str(where) != str(path) else str(path)
        raise InputError(f"{flag} {shown} lies inside the installed rome-harness package; rome never writes "
                         f"there: give a path outside it")


def refuse_inputs_in_folder(folder: Path, inputs: Iterable[tuple[str, Path | None]], flag: str = "--out") -> None:
    """One-line error when an input is the output folder or lies directly in it.

    Commands with an output folder (suite, challenge, report) write files of fixed names there
    (``cases.jsonl``, ``items.jsonl``, ``scores.jsonl`` ...); an input beside them could be one of them.
    """
    target = Path(os.path.realpath(folder))
    for what, source in inputs:
        if source is None:
            continue
        real = Path(os.path.realpath(source))
        if real == target or real.parent == target:
            raise InputError(f"{flag} {folder} holds {what} {source}: the command writes its files there and could "
                             f"replace it; give another {flag}")


@contextmanager
def output_lock(path: Path, flag: str = "--output") -> Iterator[None]:
    """Hold an exclusive lock on ``path`` for the block, or refuse at once (one line) when another run holds it.

    The lock is ``fcntl.flock`` on ``.<name>.lock`` beside the file a symlink points to (the output itself
    is replaced by a rename, so a lock on it would not survive); the kernel releases it when the process
    dies, so a killed run never leaves a lock behind. The lock file is removed on release; a run that
    opened it just before that notices (its inode is gone) and tries again on the new one. Once the lock is
    taken, the temporary files a killed run left beside the output are removed (no other run can be writing
    them), so they do not pile up.
    """
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    lock = target.with_name(f".{target.name}{LOCK_SUFFIX}")
    while True:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise InputError(f"{flag} {path} is being written by another run (it holds {lock}); wait until it "
                             "ends, or give another output") from None
        try:
            current = os.stat(lock).st_ino
        except FileNotFoundError:
            current = None
        if current == os.fstat(fd).st_ino:
            break
        os.close(fd)  # the holder removed the file after we opened it: lock the new one
    try:
        _remove_stale_partials(target)
        yield
    finally:
        with suppress(OSError):
            os.unlink(lock)
        os.close(fd)


def _remove_stale_partials(target: Path) -> None:
    """Remove the temporary files a killed run left beside ``target``: under its lock no run is writing
    them. Only :func:`replaced_when_complete`'s own names (``.<name>.`` + ``mkstemp``'s 8 characters +
    ``.partial``) and only regular files; a killed folder run's staging folder is :func:`_remove_stale`'s."""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.[a-z0-9_]{{8}}{re.escape(PARTIAL_SUFFIX)}")
    with suppress(OSError):
        for entry in os.scandir(target.parent):
            if pattern.fullmatch(entry.name) and entry.is_file(follow_symlinks=False):
                with suppress(OSError):
                    os.unlink(entry.path)


@contextmanager
def replaced_when_complete(path: Path, check: Callable[[Path], Any] | None = None) -> Iterator[TextIO]:
    """A text handle on a temporary file that replaces ``path`` only when the block ends normally.

    On any exception (an interrupt included) the temporary file is removed and ``path`` is
    untouched; only a hard kill can leave a ``.<name>.*.partial`` file behind (the next
    :func:`output_lock` on ``path`` removes it). A symlink is
    followed, so the file it points to is replaced and the link kept. The new file keeps the
    old one's permissions (or the umask's for a new file). ``check`` is called on the complete
    temporary file before it replaces anything (raise to keep the old file).
    """
    with replaced_path_when_complete(path, check) as tmp, tmp.open("w", encoding="utf-8") as handle:
        yield handle
        handle.flush()
        os.fsync(handle.fileno())


@contextmanager
def replaced_path_when_complete(path: Path, check: Callable[[Path], Any] | None = None) -> Iterator[Path]:
    """A temporary path beside ``path`` that replaces it only when the block ends normally (as
    :func:`replaced_when_complete`, whose text handle writes through it), for a library that writes by file
    name (safetensors, torch)."""
    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, name = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=PARTIAL_SUFFIX)
    os.close(fd)
    tmp = Path(name)
    try:
        yield tmp
        if check is not None:
            check(tmp)
        _copy_mode(target, tmp)
        os.replace(tmp, target)
    except BaseException:
        with suppress(OSError):
            tmp.unlink()
        raise


def write_text_whole(path: Path, text: str) -> None:
    """``path`` holds ``text`` or, if writing fails, what it held before: never half of it (a trainer's output)."""
    with replaced_when_complete(path) as handle:
        handle.write(text)


@contextmanager
def safe_output(path: Path, kind: OutputKind, *, inputs: Iterable[tuple[str, Path | None]] = (),
                flag: str = "--output", replace: bool = True, exists_hint: str = "pass --force to overwrite it",
                check: Callable[[Path], Any] | None = None) -> Iterator[TextIO]:
    """The writer of every whole-file output: lock, :func:`check_output`, then :func:`replaced_when_complete`."""
    with output_lock(path, flag):
        check_output(path, kind, inputs=inputs, flag=flag, replace=replace, exists_hint=exists_hint)
        with replaced_when_complete(path, check) as handle:
            yield handle


def _copy_mode(target: Path, tmp: Path) -> None:
    if target.exists():
        shutil.copymode(target, tmp)
        return
    mask = os.umask(0)
    os.umask(mask)
    os.chmod(tmp, 0o666 & ~mask)


#: the record, inside an output folder, of the files rome wrote there (what a later run may replace)
MANIFEST = ".rome-output.json"


def refuse_unusable_folder(path: str | Path, flag: str = "--out") -> Path:
    """The resolved ``path``, or a one-line error when it cannot be a folder: it (or a folder above it) is a
    file. Cheap: call it before any work."""
    target = Path(os.path.realpath(path))
    for folder in (target, *target.parents):
        if os.path.lexists(folder):
            if not folder.is_dir():
                what = "is a file" if folder == target else f"lies under {folder}, which is a file"
                raise InputError(f"{flag} {path} {what}, not a folder; give a folder")
            break
    return target


def refuse_working_folder(target: Path, path: str | Path, flag: str = "--out") -> None:
    """One-line error when the resolved ``target`` is the working folder or a folder above it: an output
    folder is replaced by a sibling when the run ends, which would leave the shell (and every relative
    path of the run) in a deleted folder."""
    try:
        here = Path(os.getcwd())
    except FileNotFoundError:
        return
    if target == here or target in here.parents:
        what = "is the working folder" if target == here else f"holds the working folder {here}"
        raise InputError(f"{flag} {path} {what}; rome replaces an output folder as a whole when the run ends: "
                         f"give a folder of its own, such as {Path(path) / 'rome-out'}")


def _recorded(target: Path) -> set[str]:
    """The files a run of rome wrote in ``target`` (its manifest), empty when it has none."""
    try:
        with open(target / MANIFEST, encoding="utf-8") as handle:
            files = json.load(handle).get("files", [])
    except (OSError, ValueError, AttributeError):
        return set()
    return {name for name in files if isinstance(name, str)}


def _refuse_foreign(target: Path, names: Iterable[str], owned: set[str], path: Path, flag: str) -> None:
    for name in names:
        parts = Path(name).parts
        for depth in range(1, len(parts) + 1):
            here = target.joinpath(*parts[:depth])
            last = depth == len(parts)
            if not os.path.lexists(here):
                break
            if last and (here.is_symlink() or not here.is_file() or name not in owned):
                older = "" if (target / MANIFEST).exists() else f" (no {MANIFEST} there lists rome's files)"
                raise InputError(f"{flag} {path} holds {name}, which rome did not write there{older}; rome "
                                 f"replaces only its own outputs: move it away or give another {flag}")
            if not last and (here.is_symlink() or not here.is_dir()):
                raise InputError(f"{flag} {path} holds {Path(*parts[:depth])}, not a folder of rome's; move it "
                                 f"away or give another {flag}")


def _files_under(folder: Path) -> set[str]:
    found = set()
    for root, dirs, files in os.walk(folder):
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            found.add(os.path.relpath(os.path.join(root, name), folder))
    return found


def _folders_of_others(folder: Path, owned: set[str]) -> set[str]:
    """Folders under ``folder`` that hold none of rome's files (a user's, empty or not): a folder holding
    one is never swapped out whole, or they would go with it."""
    ours = {str(parent) for name in owned for parent in Path(name).parents}
    found = set()
    for root, dirs, _ in os.walk(folder):
        for name in dirs:
            relative = os.path.relpath(os.path.join(root, name), folder)
            if relative not in ours:
                found.add(relative)
    return found


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one step (Linux ``renameat2(RENAME_EXCHANGE)``); False where it is not offered."""
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(a))


def _commit(target: Path, staging: Path, owned: set[str], path: Path, flag: str) -> None:
    staged = _files_under(staging)
    _refuse_foreign(target, sorted(staged), owned, path, flag)
    with open(staging / MANIFEST, "w", encoding="utf-8") as handle:
        json.dump({"written_by": "rome-harness", "files": sorted(staged)}, handle, indent=1)
        handle.write("\n")
    if not target.exists():
        os.rename(staging, target)
        return
    present = _files_under(target) - {MANIFEST}
    if present <= owned and not _folders_of_others(target, owned):  # rome's alone (or empty): swapped out whole
        shutil.copymode(target, staging)
        if not _exchange(staging, target):
            old = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=".old"))
            os.rename(target, old / "x")
            os.rename(staging, target)
            staging = old
        shutil.rmtree(staging, ignore_errors=True)
        return
    # the user keeps files of other names here: ours are replaced one by one, each atomically
    for name in sorted(staged):
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        os.replace(staging / name, target / name)
    for name in owned - staged:  # an earlier run's file this run does not write (a --compare table)
        with suppress(OSError):
            (target / name).unlink()
    os.replace(staging / MANIFEST, target / MANIFEST)
    shutil.rmtree(staging, ignore_errors=True)


def _remove_stale(target: Path) -> None:
    """Remove what a killed run of this folder left beside it (its lock is ours now, so none is running)."""
    pattern = re.compile(rf"\.{re.escape(target.name)}\.[A-Za-z0-9_]{{8}}(\{PARTIAL_SUFFIX}|\.old)")
    for path in target.parent.iterdir():
        if pattern.fullmatch(path.name) and path.is_dir() and not path.is_symlink():
            shutil.rmtree(path, ignore_errors=True)


@contextmanager
def output_folder(path: str | Path, *, names: Iterable[str] = (), inputs: Iterable[tuple[str, Path | None]] = (),
                  flag: str = "--out") -> Iterator[Path]:
    """The writer of every output folder: yields a folder to write the run's files into (a temporary sibling
    of ``path``) and puts them in place when the block ends normally; on an exception nothing changes.

    Refused at once, with one line: ``path`` is a file or inside the package; it is the working folder or
    a folder above it (:func:`refuse_working_folder`); an input is (in) the folder;
    another run holds the folder (``fcntl.flock`` on ``.<name>.lock`` beside it, held for the block, so enter
    it before the work); the folder holds one of ``names`` (the files the command will write) that no earlier
    run recorded writing. Every file written is checked that way again at the end. A folder that holds only
    rome's files is swapped whole (a reader sees the old run or the new one); files of other names and folders
    holding none of rome's files (empty ones too) are kept.

    A writer called inside the block is handed the yielded folder (:func:`writing`'s ``into``); a second
    ``output_folder`` on the same folder meets the lock, like another run.
    """
    refuse_package(path, flag)
    target = refuse_unusable_folder(path, flag)
    refuse_working_folder(target, path, flag)
    refuse_inputs_in_folder(path, inputs, flag)
    beside = next(folder for folder in target.parents if folder.exists())
    if not os.access(beside, os.W_OK | os.X_OK):
        raise InputError(f"{flag} {path}: rome writes a run beside its folder (in {target.parent}) and swaps it in, "
                         f"and {beside} is not writable; give a folder inside a writable one")
    with output_lock(target, flag):
        _remove_stale(target)
        owned = _recorded(target)
        _refuse_foreign(target, names, owned, Path(path), flag)
        staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.", suffix=PARTIAL_SUFFIX))
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(staging, 0o777 & ~mask)
        try:
            yield staging
            _commit(target, staging, owned, Path(path), flag)
        except BaseException:
            shutil.rmtree(staging, ignore_errors=True)
            raise


@contextmanager
def writing(out: str | Path, names: Iterable[str], into: Path | None = None) -> Iterator[Path]:
    """The folder a writer of ``out``'s files writes into: ``into`` when its caller already holds ``out``
    through :func:`output_folder` (the yielded folder, or a subfolder of it, passed explicitly; the caller's
    block puts it in place and checks every file), else an :func:`output_folder` of its own."""
    if into is not None:
        into.mkdir(parents=True, exist_ok=True)
        yield into
        return
    with output_folder(out, names=names) as folder:
        yield folder
