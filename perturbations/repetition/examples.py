"""Examples of the repetition recipe (seed 0), run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("Elon founded Tesla.", "Elon founded founded founded Tesla."),
    skips("...", "no word"),
)
