"""Examples of the contractions recipe, run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("It isn't cheap.", "It is not cheap."),
    changes("I am not sure that it is open.", "I'm not sure that it's open."),
    skips("The hotel is near the river.", "nothing to expand or contract"),
)
