"""Where things live: the shared data (read), the outputs (written) and, in :mod:`rome.core.cache`, the cache.

Nothing is ever written into the installed package: outputs go under the working directory
(``./rome-out/`` or ``ROME_OUT``), the score cache under the user's cache directory.
"""

from __future__ import annotations

import os
from pathlib import Path

from rome.core.errors import ResourceMissingError

REPO_ROOT = Path(__file__).resolve().parents[2]
#: default output folder, relative to the working directory
OUTPUT_DIR = "rome-out"


def shared_dir() -> Path:
    """``ROME_SHARED``, else ``../shared`` beside a source checkout."""
    return Path(os.environ.get("ROME_SHARED", REPO_ROOT.parent / "shared")).expanduser()


def shared_path(*parts: str) -> Path:
    """A file under the shared data directory, with a clear error when it is missing."""
    path = shared_dir().joinpath(*parts)
    if not path.exists():
        raise ResourceMissingError(f"{path} not found; set ROME_SHARED to the directory holding data/ and seeds/")
    return path


def output_dir(*parts: str) -> Path:
    """``$ROME_OUT/...`` (``ROME_REPORTS_OUT`` is still read), else ``./rome-out/...`` in the working directory."""
    base = os.environ.get("ROME_OUT") or os.environ.get("ROME_REPORTS_OUT") or OUTPUT_DIR
    return Path(base).expanduser().joinpath(*parts)
