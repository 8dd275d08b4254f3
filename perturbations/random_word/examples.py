"""Examples of the random-word recipe (seed 0), run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("The hotel is cheap.", "The AAA is AAA."),
    skips("It is the one.", "only stop words"),
)
