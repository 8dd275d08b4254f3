"""Examples of the typos recipe (seed 0), run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("The hotel is cheap.", "The hotel si cheap."),
    changes("The hotel is cheap.", "The hoteli s cheap.", slip="space"),
    skips("12 34", "digits are left alone"),
)
