"""Numbers as every table and summary prints them: one place, so a value that rounds to zero reads the same
("0.00", never "-0.00") in a suite's summary and in the reports built from it."""

from __future__ import annotations

import math


def fmt(value: float | None, digits: int = 2) -> str:
    """A number for a table cell; undefined values (NaN, None) are an en dash, and a value that rounds to zero
    is "0.00", never "-0.00" (a mean of a metric's tiny negative drops is no drop in the shown digits; Python
    3.11's ``z`` format option would say it, but the package supports 3.10)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    text = f"{value:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def signed(value: float, digits: int = 2) -> str:
    """A change with its sign ("+0.08", "-0.03"); one that rounds to zero is "0.00": a sign there would tell a
    direction the shown digits do not."""
    text = f"{value:+.{digits}f}"
    return text[1:] if float(text) == 0 else text
