"""Examples of the typos recipe (seed 0), run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("The hotel is cheap.", "The hotel si cheap."),
    changes("The hotel is cheap.", "The hoteli s cheap.", slip="space"),
    skips("12 34", "digits are left alone"),
    skips("UN NATO", "no slip inside an acronym ('UN' -> 'NU' reads as another name)"),
    skips("X UN", "no letter glued onto the placeholder or an acronym", slip="space"),
)
