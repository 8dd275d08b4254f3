"""Fingerprints of code and data, so that anything which can change a number changes a signature.

One function, :func:`code_fingerprint`, serves metrics (the ``code:<hash>`` of a signature) and
perturbations (``perturbation_fingerprint``, which keys cached suite cases; validity cards are judged
text and name no code):
a digest of the modules given, **every project module they import, transitively** (lazy imports
inside functions included, across the ``rome``, ``perturbations`` and ``baselines`` packages and
the root's own package), and the weight and data files named, by content. A module that reads
data files names them in a top-level ``fingerprint_files()`` function (``rome.data.novikova``
does), so a perturbation that reads the Novikova slot values re-keys when those files change.

A Python module is hashed by its behaviour, not its bytes (:func:`source_digest`): its syntax tree
without docstrings, comments or formatting, so a documentation edit keeps every signature and cached
score, while any change to a constant, an expression, a name, an import or a
default gives a new fingerprint and caches miss instead of serving stale numbers. Data and weight
files are hashed by their bytes (:func:`file_digest`). Digests are memoised per (path, inode, size,
mtime, ctime), so a warm run pays one ``stat`` per file; a file changed in the last two seconds is
always hashed again.
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import inspect
import sys
import sysconfig
import time
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path

_STDLIB = Path(sysconfig.get_paths()["stdlib"]).resolve()
_memo: dict[tuple[str, int, int, int, int], str] = {}
_source_memo: dict[tuple[str, int, int, int, int], str] = {}
#: top-level packages of the project whose modules a fingerprint follows imports into
PROJECT_PACKAGES = ("rome", "perturbations", "baselines")
#: name of the module-level function that lists the data files a module reads
DATA_HOOK = "fingerprint_files"
#: a file changed this recently is re-hashed on every call (its stat cannot yet tell edits apart)
RACY_S = 2.0


def harness_version() -> str:
    """The installed rome-harness version (``0+unknown`` when run from an uninstalled checkout)."""
    try:
        return metadata.version("rome-harness")
    except metadata.PackageNotFoundError:
        return "0+unknown"


def file_digest(path: str | Path) -> str:
    """sha256 of a file's bytes (hex), memoised on its identity, size and change times."""
    return _memoised(_memo, Path(path), _bytes_digest)


def source_digest(path: str | Path) -> str:
    """sha256 (hex) of a Python module's normalised syntax tree: docstrings, comments and layout left out.

    Two sources that differ only in documentation or formatting get one digest; a change of a
    constant, an operator, a name, an import or a default gives another. A file that does not parse
    is hashed by its bytes (it cannot run either, and its edits must still re-key).
    """
    return _memoised(_source_memo, Path(path), _tree_digest)


def content_digest(path: str | Path) -> str:
    """:func:`source_digest` for a ``.py`` file, :func:`file_digest` for any other (data, weights)."""
    return source_digest(path) if Path(path).suffix == ".py" else file_digest(path)


def files_digest(paths: Iterable[str | Path], length: int = 12) -> str:
    """One digest over several files (names and contents, Python sources by their syntax), order-free."""
    digest = hashlib.sha256()
    for name, content in sorted((path.name, content_digest(path)) for path in {Path(p).resolve() for p in paths}):
        digest.update(name.encode() + b"\0" + content.encode() + b"\0")
    return digest.hexdigest()[:length]


def _memoised(memo: dict[tuple[str, int, int, int, int], str], path: Path, compute: Callable[[Path], str]) -> str:
    """``compute(path)``, memoised on the file's identity, size and change times.

    Time stamps are coarse (a few ms on Linux, seconds elsewhere) and ``mtime`` can be set back,
    so two same-size edits can share a stat; as git does with "racily clean" files, a file
    changed in the last :data:`RACY_S` seconds is hashed every time, never served from the memo.
    """
    stat = path.stat()
    key = (str(path.resolve()), stat.st_ino, stat.st_size, stat.st_mtime_ns, stat.st_ctime_ns)
    if key in memo:
        return memo[key]
    value = compute(path)
    if time.time_ns() - max(stat.st_mtime_ns, stat.st_ctime_ns) > RACY_S * 1e9:
        memo[key] = value
    return value


def _bytes_digest(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_source(path: Path) -> bytes:
    """The bytes of a Python source, as every fingerprint reads them (one place to read them)."""
    return path.read_bytes()


def _tree_digest(path: Path) -> str:
    source = read_source(path)
    try:
        tree = ast.parse(source, filename=str(path))
    except (SyntaxError, ValueError):
        return hashlib.sha256(source).hexdigest()
    return hashlib.sha256(normalised_dump(tree).encode("utf-8")).hexdigest()


def normalised_dump(tree: ast.AST) -> str:
    """The tree as text without what does not run: docstrings and other bare string statements dropped,
    no line or column numbers, and fields left empty (``None``, ``[]``) omitted, so the text is the same
    under the Python versions that add empty fields (``type_params`` in 3.12)."""
    if isinstance(tree, ast.AST):
        fields = []
        for name in tree._fields:
            value = getattr(tree, name, None)
            if isinstance(value, list):
                value = [item for item in value if not _bare_string(item)]
            if value is None or value == []:
                continue
            fields.append(f"{name}={normalised_dump(value)}")
        return f"{type(tree).__name__}({','.join(fields)})"
    if isinstance(tree, list):
        return "[" + ",".join(normalised_dump(item) for item in tree) + "]"
    return repr(tree)


def _bare_string(node: object) -> bool:
    """A statement that is a string literal alone (a docstring, or one documenting an attribute): it does nothing."""
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


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


def code_fingerprint(*roots: object, files: Iterable[str | Path] = (), length: int = 12) -> str:
    """Digest of the roots' modules, every project module they import transitively, and ``files``.

    ``roots`` are modules, classes or functions (a class's whole MRO is given by the caller when
    its bases count); each module's file, the files of the project modules it imports (directly,
    lazily inside functions, or through each other, parent packages' ``__init__`` included) and
    the data files those modules name through a top-level ``fingerprint_files()`` are hashed by
    content with ``files`` (weights). A named file that does not exist is hashed as missing, so
    the fingerprint still differs from the one with the file.
    """
    modules: dict[str, Path] = {}
    for root in roots:
        name, path = _module_of(root)
        if name is None or path is None:
            continue
        allowed = {*PROJECT_PACKAGES, name.split(".")[0]}
        _walk(name, path, allowed, modules)
    data: list[Path] = [Path(f) for f in files]
    for name, path in modules.items():
        if _parsed(name, path)[1]:
            module = importlib.import_module(name) if name not in sys.modules else sys.modules[name]
            data += [Path(f) for f in getattr(module, DATA_HOOK)()]
    # ordered by the name as hashed, never by the absolute path: a checkout beside or below the shared data
    # folder (a CI clone, a git worktree) must give the same fingerprint
    entries = sorted((str(_display(path)), content_digest(path) if path.is_file() else "missing")
                     for path in {p.resolve() for p in [*modules.values(), *data]})
    digest = hashlib.sha256()
    for shown, content in entries:
        digest.update(shown.encode() + b"\0" + content.encode() + b"\0")
    return digest.hexdigest()[:length]


def module_closure(*roots: object) -> dict[str, Path]:
    """Module name -> file of the roots' modules and every project module they import, transitively."""
    modules: dict[str, Path] = {}
    for root in roots:
        name, path = _module_of(root)
        if name is not None and path is not None:
            _walk(name, path, {*PROJECT_PACKAGES, name.split(".")[0]}, modules)
    return modules


def _display(path: Path) -> Path:
    """A file's name as hashed: relative to its top package's parent, so the checkout's place does not count."""
    for parent in path.parents:
        if parent.name in PROJECT_PACKAGES and not (parent.parent / "__init__.py").is_file():
            return path.relative_to(parent.parent)
    return Path(path.name)


def _module_of(root: object) -> tuple[str | None, Path | None]:
    module = root if inspect.ismodule(root) else sys.modules.get(getattr(root, "__module__", "") or "")
    if module is None:
        return None, None
    return module.__name__, module_file(module)


def _walk(name: str, path: Path, allowed: set[str], found: dict[str, Path]) -> None:
    todo = [(name, path)]
    parts = name.split(".")
    for k in range(1, len(parts)):  # importing a.b.c runs a/__init__.py and a/b/__init__.py first
        parent = ".".join(parts[:k])
        parent_path = _resolve(parent)
        if parent_path is not None:
            todo.append((parent, parent_path))
    while todo:
        current, current_path = todo.pop()
        if current in found:
            continue
        found[current] = current_path
        for imported in _parsed(current, current_path)[0]:
            if imported.split(".")[0] in allowed and imported not in found:
                target = _resolve(imported)
                if target is not None:
                    todo.append((imported, target))
                    pieces = imported.split(".")
                    todo += [(".".join(pieces[:k]), p) for k in range(1, len(pieces))
                             if (p := _resolve(".".join(pieces[:k]))) is not None]


_parse_memo: dict[tuple[str, str, str], tuple[tuple[str, ...], bool]] = {}


def _parsed(name: str, path: Path) -> tuple[tuple[str, ...], bool]:
    """(absolute names of the modules ``name`` imports, whether it defines ``fingerprint_files()``),
    memoised on the file's syntax tree."""
    key = (name, str(path), source_digest(path))
    if key in _parse_memo:
        return _parse_memo[key]
    tree = ast.parse(read_source(path), filename=str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".") if package else []
                base_parts = base_parts[: len(base_parts) - (node.level - 1)] if node.level > 1 else base_parts
                base = ".".join([*base_parts, *([node.module] if node.module else [])])
            else:
                base = node.module or ""
            if base:
                names.append(base)
            names += [f"{base}.{alias.name}" if base else alias.name for alias in node.names if alias.name != "*"]
    hook = any(isinstance(node, ast.FunctionDef) and node.name == DATA_HOOK for node in tree.body)
    _parse_memo[key] = (tuple(dict.fromkeys(names)), hook)
    return _parse_memo[key]


_root_memo: dict[str, list[Path]] = {}


def _resolve(name: str) -> Path | None:
    """The source file of module ``name`` (``None``: not a module of a folder found, e.g. a class name)."""
    top, *rest = name.split(".")
    if top not in _root_memo:
        _root_memo[top] = _top_locations(top)
    for location in _root_memo[top]:
        candidate = location.joinpath(*rest) if rest else location
        if candidate.is_dir():
            init = candidate / "__init__.py"
            if init.is_file():
                return init.resolve()
            continue  # a namespace package: no file of its own
        if candidate.with_suffix(".py").is_file():
            return candidate.with_suffix(".py").resolve()
    return None


def _top_locations(top: str) -> list[Path]:
    """Folders a top-level package's submodules live in (or a top-level module's own path, as a stem)."""
    module = sys.modules.get(top)
    if module is not None and hasattr(module, "__path__"):
        return [Path(p).resolve() for p in module.__path__]
    if module is None:
        try:
            spec = importlib.util.find_spec(top)
        except (ImportError, ValueError):
            return []
        if spec is not None and spec.submodule_search_locations:
            return [Path(p).resolve() for p in spec.submodule_search_locations]
        if spec is not None and spec.origin and spec.origin.endswith(".py"):
            return [Path(spec.origin).resolve().with_suffix("")]
        return []
    path = module_file(module)
    return [path.with_suffix("")] if path is not None else []
