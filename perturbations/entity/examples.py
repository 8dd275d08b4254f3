"""Examples of the entity recipe (a fixed pool), run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

POOL = {"GPE": ["Paris", "London"], "PERSON": ["Ada Lovelace", "Michael Moore"]}

EXAMPLES = (
    changes("She flew from Paris to Rome.", "She flew from London to Rome.", pool=POOL, use_checklist=False),
    changes("Barack Obama lives in London.", "Michael Moore lives in Paris.", pool=POOL, use_checklist=False),
    changes("George W. Bush's war ended.", "Michael Moore's war ended.", pool=POOL, use_checklist=False,
            why="the possessive keeps its 's; issue"),
    skips("The hotel is near the river.", "no named entity", pool=POOL, use_checklist=False),
)
