"""CoLA (Warstadt et al. 2018): the grammar classifier's training and development data.

``train`` (in-domain train) may train RoMe's grammar classifier; the two dev sets are for
reporting only (the test labels are not public). Columns: source, label (1 acceptable),
original mark, sentence.
"""

from __future__ import annotations

import csv

import numpy as np

from rome.core.errors import InputError
from rome.core.paths import data_path

COLA_SPLITS = {"train": "in_domain_train.tsv", "in_domain_dev": "in_domain_dev.tsv",
               "out_of_domain_dev": "out_of_domain_dev.tsv"}


def read_cola(split: str) -> tuple[list[str], np.ndarray]:
    """CoLA sentences and labels (1 = acceptable) of ``train``, ``in_domain_dev`` or ``out_of_domain_dev``."""
    if split not in COLA_SPLITS:
        raise InputError(f"unknown CoLA split {split!r}; choose from {', '.join(COLA_SPLITS)}")
    path = data_path("cola", COLA_SPLITS[split])
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t", quoting=csv.QUOTE_NONE))
    return [r[3] for r in rows], np.array([int(r[1]) for r in rows], dtype=np.int64)
