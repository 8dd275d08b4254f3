"""Options more than one sub-command takes, declared and checked once."""

from __future__ import annotations

import argparse

from rome.core.errors import InputError


def add_compare_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--compare A B`` (repeatable) and ``--alpha``: paired tests of two metrics on the same ``what``."""
    parser.add_argument("--compare", nargs=2, action="append", metavar=("A", "B"), default=None,
                        help=f"paired comparison of metrics A and B on the same {what} (exact McNemar per row, "
                             "Holm over rows; a difference without p < --alpha is a tie); repeatable")
    parser.add_argument("--alpha", type=float, default=0.05, help="significance level of --compare (default 0.05)")


def check_alpha(alpha: float) -> None:
    if not 0 < alpha < 1:
        raise InputError("--alpha must be between 0 and 1")
