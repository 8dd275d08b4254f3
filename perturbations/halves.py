"""The development / test halves of the shipped corpora, the one rule every fitted threshold follows.

A text of corpus C with source id S is in the *development* half iff ``int(sha256("C:S"), 16)`` is even.
The judge-decided perturbations' thresholds and the judge's weights were set on development-half texts
only; the validity cards report the test half apart (``scripts/validity_halves.py``), so a figure that was
not fitted can be read. One definition, so a research script and the report cannot disagree on a text.
"""

from __future__ import annotations

import hashlib


def development_half(corpus: str, source_id: str) -> bool:
    """Whether ``source_id`` of ``corpus`` is in the development half (else the test half)."""
    return int(hashlib.sha256(f"{corpus}:{source_id}".encode()).hexdigest(), 16) % 2 == 0
