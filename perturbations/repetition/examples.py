"""Examples of the repetition recipe (seed 0), run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("Elon founded Tesla.", "Elon founded founded founded Tesla."),
    skips("...", "no word"),
    changes("It rose 2.7%.", "It rose 2.7% 2.7% 2.7%.", why="a percentage is repeated whole"),
    changes("The area is 19,500.", "The area is 19,500 19,500 19,500.", why="not '19,500 500 500'"),
)
