"""Examples of the contractions recipe, run by tests/test_perturbations_examples.py.

The rows marked "issue" restate failure shapes reported in the issue (regression tests, not evidence)."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("It isn't cheap.", "It is not cheap."),
    changes("I am not sure that it is open.", "I'm not sure that it's open."),
    changes("It's never been easy.", "It has never been easy.", why="'s before 'been' is has; issue"),
    changes("She can't come, and he won't either.", "She cannot come, and he will not either."),
    changes("Do not touch that.", "Don't touch that."),
    skips("The hotel is near the river.", "nothing to expand or contract"),
    skips("Why can't it work?", "inverted negation; issue"),
    skips("Didn't anyone tell you?", "inverted negation; issue"),
    skips("The dog held a ball in it's mouth.", "'it's' is no subject + verb here; issue"),
    skips("I know where it is.", "a stranded 'is' does not contract"),
    skips("He's gone home.", "has or is: unclear"),
    skips("She starred in the comedy It's Never Too Late.", "a title keeps its contraction"),
    skips("It's Only Rock and Roll was released in 1974.", "a title opened by a stop word keeps its contraction"),
    changes("It will not rain today.", "It won't rain today.", why="the negation contracts, never 'it'll not'"),
)
