"""Which code produced an output: a source checkout's commit, or the installed package's version.

Every output that carries a number records it (suite summaries, tables, the results page), so a figure can
be traced to the code that made it. Lives in ``rome.core`` so every layer (suites as well as reports) can
stamp its outputs the same way.
"""

from __future__ import annotations

import subprocess
from importlib import metadata
from pathlib import Path


def _git(root: Path, *args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""


def source_commit(root: Path | None = None) -> str | None:
    """``<hash>[+dirty]`` when the project's code runs from a git checkout of it (``root``, default: the folder
    holding the ``rome`` package, is the checkout's top), else ``None``: an installed package sits in
    site-packages, which may lie inside some other repository whose commit says nothing about this code."""
    root = (root or Path(__file__).resolve().parents[2]).resolve()
    top = _git(root, "rev-parse", "--show-toplevel")
    if not top or Path(top).resolve() != root:
        return None
    commit = _git(root, "rev-parse", "--short", "HEAD")
    if not commit:
        return None
    dirty = _git(root, "status", "--porcelain", "--untracked-files=no")
    return commit + ("+dirty" if dirty else "")


def code_version() -> str:
    """``commit <hash>[+dirty]`` in a source checkout, else ``rome-harness <installed version>``."""
    commit = source_commit()
    if commit:
        return f"commit {commit}"
    try:
        return f"rome-harness {metadata.version('rome-harness')}"
    except metadata.PackageNotFoundError:
        return "rome-harness (version unknown)"
