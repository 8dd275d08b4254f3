"""Writing a held-out sentence corpus: the one JSONL format the held-out cards are drawn from.

Each sentence is both ``reference`` and ``original`` (only the original is perturbed for a card). The file goes
through the project's writer (locked, atomic, and refusing a file that is not such a corpus), and a refusal
is the script's one-line usage error, not a traceback.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterable
from pathlib import Path

FIELDS = frozenset({"id", "reference", "original"})


def write_sentence_corpus(parser: argparse.ArgumentParser, out: Path, what: str,
                          rows: Iterable[tuple[str, str]]) -> None:
    """Write ``(id, sentence)`` rows to ``out`` as a corpus of ``what`` (e.g. "FLORES sentences"). A file at
    ``out`` that is not such a corpus ends the script through ``parser.error``."""
    from rome.core.errors import InputError
    from rome.core.files import OutputKind, safe_output

    kind = OutputKind(f"a corpus of {what}", FIELDS)
    try:
        with safe_output(out, kind, flag="--out") as handle:
            for row_id, sentence in rows:
                handle.write(json.dumps({"id": row_id, "reference": sentence, "original": sentence}) + "\n")
    except InputError as error:
        parser.error(str(error))
