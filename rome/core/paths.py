"""Where things live: the shipped data (read), the outputs (written) and, in :mod:`rome.core.cache`, the cache.

The data sets every command reads ship inside the package (``rome/data/datasets/``, see docs/data.md)
and are only ever read. Nothing is written into the installed package: outputs go under the working
directory (``./rome-out/`` or ``ROME_OUT``), the score cache and what a trainer writes by default under the
user's cache directory (:func:`cache_dir`, :func:`trained_dir`), and a default that would land inside the
package (a store beside a shipped file) goes to the output folder instead (:func:`writable_default`).
Shipping newly trained weights into the package is a maintainer's explicit step (a trainer's ``--out``
naming the file in a checkout).
"""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

from rome.core.errors import ResourceMissingError

#: default output folder, relative to the working directory
OUTPUT_DIR = "rome-out"
#: the project's top-level packages (what an install puts into site-packages)
PACKAGES = ("rome", "perturbations", "baselines", "suites", "reports")


def data_dir() -> Path:
    """The folder of the shipped data sets (package data of ``rome``, read-only)."""
    root = resources.files("rome")
    if not isinstance(root, Path):  # a zipped install: the readers need real files
        raise ResourceMissingError("rome-harness must be installed as files, not zipped, to read its data sets")
    return root / "data" / "datasets"


def data_path(*parts: str) -> Path:
    """A shipped data file or folder (``data_path("novikova2017", "bagel.jsonl")``), with a clear error
    when the install lacks it."""
    path = data_dir().joinpath(*parts)
    if not path.exists():
        raise ResourceMissingError(f"{path} not found: the install lacks its data sets (reinstall rome-harness)")
    return path


def output_dir(*parts: str) -> Path:
    """``$ROME_OUT/...`` (``ROME_REPORTS_OUT`` is still read), else ``./rome-out/...`` in the working directory."""
    base = os.environ.get("ROME_OUT") or os.environ.get("ROME_REPORTS_OUT") or OUTPUT_DIR
    return Path(base).expanduser().joinpath(*parts)


def cache_dir() -> Path:
    """``ROME_CACHE_DIR``, else ``$XDG_CACHE_HOME/rome-harness``, else ``~/.cache/rome-harness``."""
    if os.environ.get("ROME_CACHE_DIR"):
        return Path(os.environ["ROME_CACHE_DIR"]).expanduser()
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache").expanduser()
    return base / "rome-harness"


def models_dir() -> Path:
    """``ROME_MODEL_DIR``, else ``$XDG_CACHE_HOME/rome-harness/models``, else ``~/.cache/rome-harness/models``.

    Kept apart from the score cache (``ROME_CACHE_DIR``): a test or a user may start from an empty
    score cache, but unpacking 438 MB of weights again each time would be waste."""
    if os.environ.get("ROME_MODEL_DIR"):
        return Path(os.environ["ROME_MODEL_DIR"]).expanduser()
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache").expanduser()
    return base / "rome-harness" / "models"


def trained_dir(*parts: str) -> Path:
    """Where a trainer writes unless given ``--out``: ``<cache_dir>/trained/...``, never the package (the
    shipped weights are read from the package; replacing them is a maintainer's explicit ``--out``)."""
    return cache_dir().joinpath("trained", *parts)


def package_dirs() -> list[Path]:
    """The folders of the project's packages where they are installed (or checked out)."""
    root = Path(__file__).resolve().parents[2]
    return [root / name for name in PACKAGES]


def inside_package(path: str | Path) -> bool:
    """Whether ``path`` lies inside one of the project's package folders (what a default must not write to)."""
    resolved = Path(path).expanduser().resolve()
    return any(resolved == top or top in resolved.parents for top in package_dirs())


def writable_default(beside: Path, *under_output: str) -> Path:
    """A default path for something written next to an input: ``beside`` itself, unless it lies inside the
    package (a shipped card), then ``output_dir(*under_output)``."""
    return output_dir(*under_output) if inside_package(beside) else beside
