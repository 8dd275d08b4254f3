"""Letter case of a replacement: a swapped word is written the way the word it replaces was."""

from __future__ import annotations


def match_case(word: str, model: str) -> str:
    """``word`` in ``model``'s case: UPPER for an upper-case word of two letters or more, Capitalised
    for a capitalised one, else as given ("CHEAP" -> "EXPENSIVE", "Cheap" -> "Expensive")."""
    if len(model) > 1 and model.isupper():
        return word.upper()
    if model[:1].isupper():
        return word[:1].upper() + word[1:]
    return word
