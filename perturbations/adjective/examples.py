"""Examples of the adjective recipe (synonym variant, then antonym variant), run by tests/test_perturbations_examples.py.

The skip rows marked "issue" restate failure shapes reported in the issue (regression tests, not evidence)."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("It is a cheap restaurant.", "It is an expensive restaurant.",
            why="'inexpensive' is too rare (SemCor) to be a plain synonym: antonym only"),
    changes("The living room is large.", "The living room is big.", "The living room is small."),
    changes("They serve good food.", "They serve bad food."),
    skips("The Red Victorian is a hotel.", "adjectives of names are kept"),
    skips("Special forces entered the single market.", "collocation and a classifying adjective; issue"),
    skips("It had little impact.", "'little' has no dominant sense (size 63 %, quantity 28 %); issue"),
    skips("It is tempting.", "no counted sense, no direct antonym; issue"),
    skips("He is the favourite.", "a noun in disguise; issue"),
    skips("The cat carried a dead mouse.", "'alive' is predicative only (WordNet marker p)"),
    skips("The tower is 40 metres tall.", "after a measure phrase"),
    skips("The park covers ten square miles.", "before a unit of measurement"),
    skips("The mast is 40.5 (metres) tall.", "a measure phrase in brackets"),
    skips("Their style is easy listening.", "before an -ing nominal"),
    changes("The firm spent a large amount of money.", "The firm spent a small amount of money.",
            why="a synonym only on a concrete noun ('a big amount'); the antonym reverses anyway"),
)
