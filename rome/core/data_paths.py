"""Where the shared data lives: ``ROME_SHARED`` or ``../shared`` beside the repository."""

from __future__ import annotations

import os
from pathlib import Path

from rome.core.errors import ResourceMissingError

REPO_ROOT = Path(__file__).resolve().parents[2]


def shared_dir() -> Path:
    return Path(os.environ.get("ROME_SHARED", REPO_ROOT.parent / "shared")).expanduser()


def shared_path(*parts: str) -> Path:
    """A file under the shared data directory, with a clear error when it is missing."""
    path = shared_dir().joinpath(*parts)
    if not path.exists():
        raise ResourceMissingError(f"{path} not found; set ROME_SHARED to the directory holding data/ and seeds/")
    return path
