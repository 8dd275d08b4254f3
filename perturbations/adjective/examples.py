"""Examples of the adjective recipe (synonym variant, then antonym variant), run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("It is a cheap restaurant.", "It is an inexpensive restaurant.", "It is an expensive restaurant."),
    changes("They serve good food.", "They serve bad food.", why="no synonym of good's main sense: antonym only"),
    skips("The Red Victorian is a hotel.", "adjectives of names are kept"),
)
