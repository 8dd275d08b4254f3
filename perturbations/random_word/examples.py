"""Examples of the random-word recipe (seed 0), run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("The hotel is cheap.", "The AAA is AAA."),
    skips("It is not there.", "only function words"),
    changes("It has 5,375 rooms.", "It has 5,375 AAA.", why="a number with a thousands separator is one token"),
    changes("J.R.R. Tolkien wrote it.", "J.R.R. AAA AAA it.", why="initials with inner periods are one token"),
    skips("It is 2.7%.", "a percentage is one token, never a piece of it replaced"),
)
