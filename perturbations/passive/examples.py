"""Examples of the passive recipe: (input, expected output or skip), run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("The police have arrested the suspect.", "The suspect has been arrested by the police."),
    changes("The dog bit the man.", "The man was bitten by the dog."),
    changes("Elon Musk founded Tesla in 2003.", "Tesla was founded in 2003 by Elon Musk."),
    skips("X is a cheap restaurant.", "copular clause"),
    skips("Did the dog bite the man?", "question"),
    skips("The hotel has wifi.", "'have' does not passivize"),
)
