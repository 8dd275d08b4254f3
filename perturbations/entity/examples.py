"""Examples of the entity recipe (a fixed pool), run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

POOL = {"GPE": ["Paris", "London"], "PERSON": ["Ada Lovelace"]}

EXAMPLES = (
    changes("She flew from Paris to Rome.", "She flew from London to Rome.", pool=POOL, use_checklist=False),
    changes("Barack Obama lives in London.", "Ada Lovelace lives in Paris.", pool=POOL, use_checklist=False),
    skips("The hotel is near the river.", "no named entity", pool=POOL, use_checklist=False),
)
