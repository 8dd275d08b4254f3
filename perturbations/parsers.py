"""Which parser a parse-reading recipe may use: its rules read spaCy's (ClearNLP) dependency labels."""

from __future__ import annotations

from rome.core.errors import InputError


def require_spacy_labels(parser: str | None, kind: str) -> str | None:
    """``parser`` unchanged, unless it is Stanza, whose UD labels (obj, nsubj:pass) the rules do not read."""
    if parser == "stanza":
        raise InputError(f"perturbation {kind!r} needs a spaCy parser (its rules use spaCy's dependency labels)")
    return parser
