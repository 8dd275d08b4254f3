"""Examples of the entity recipe (a fixed pool), run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

POOL = {"GPE": ["Paris", "London"], "PERSON": ["Ada Lovelace", "Michael Moore"]}

EXAMPLES = (
    changes("She flew from Paris to Rome.", "She flew from London to Rome.", pool=POOL, use_checklist=False),
    changes("Barack Obama lives in London.", "Michael Moore lives in Paris.", pool=POOL, use_checklist=False),
    changes("George W. Bush's war ended.", "Michael Moore's war ended.", pool=POOL, use_checklist=False,
            why="the possessive keeps its 's; issue"),
    skips("The hotel is near the river.", "no named entity", pool=POOL, use_checklist=False),
    changes("She bought 1 book.", "She bought 3 books.", pool={"CARDINAL": ["3"]}, use_checklist=False,
            why="the counted noun agrees with the new number (lemminflect)"),
    skips("She studied in Dijon.", "a city tagged PERSON (WordNet: a place) is no person",
          pool={"PERSON": ["Ada Lovelace"]}, use_checklist=False),
    skips("The talk was held in Alan B Miller Hall.", "a building tagged PERSON (its head noun is a structure)",
          pool={"PERSON": ["Ada Lovelace"]}, use_checklist=False),
    skips("He derived the Carter constant.", "an eponym is part of a term", pool={"PERSON": ["Ada Lovelace"]},
          use_checklist=False),
    skips("Volume 1: The Quiet Years is out.", "a number after a capitalised word is part of a title",
          pool={"CARDINAL": ["2"]}, use_checklist=False),
    skips("Exports from the Philippines grew.", "a name that takes 'the' is not replaced",
          pool={"GPE": ["London"]}, use_checklist=False),
    changes("He lives in Belgium.", "He lives in London.", pool={"GPE": ["Philippines", "United States", "London"]},
            use_checklist=False, why="names that take 'the' are not used bare"),
    changes("South Africa's economy grew.", "London's economy grew.",
            pool={"GPE": ["United States", "Wales", "London"]}, use_checklist=False,
            why="no name ending in s before a possessive 's"),
    changes("The old Roman wall fell.", "The old French wall fell.", pool={"NORP": ["Isaiah", "French"]},
            use_checklist=False, why="a NORP entity only by a nationality or group (WordNet), not a person"),
    changes("Police said Franco A. illegally stored weapons.", "Police said Ada Lovelace illegally stored weapons.",
            pool={"PERSON": ["Ada Lovelace"]}, use_checklist=False, why="an adverb is never part of a name"),
    skips("She studied at the College of William and Mary.", "a person-name part of an organisation's name",
          pool={"PERSON": ["Ada Lovelace"], "ORG": ["Microsoft"]}, use_checklist=False),
    changes("It weighs about 1 ton.", "It weighs about 2 tons.", pool={"QUANTITY": ["about 2 tons"]},
            use_checklist=False, why="a pool entry with its own plural noun is kept whole (no 'tonss')"),
)
