"""Examples of the textfooler recipe, run by tests/test_perturbations_examples.py.

Each change is one a careful reader accepts; the skip rows marked "issue" restate failure shapes reported in
the issues (regression tests, not evidence). Every variant is decided by the judge at its operating point
(perturbations/judge/weights.json): a row that changes when the judge is refitted says which swap the new
judge lets through or refuses."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("The river links the lake to the sea.", "The river connects the lake to the sea."),
    changes("Apple's introduction of larger screens may have appealed to buyers who would otherwise have "
            "purchased a Galaxy.",
            "Apple's introduction of larger screens may have appealed to buyers who would otherwise have "
            "bought a Galaxy."),
    skips("She bought a large house near the river.", "'purchased' and 'big' stay under the judge's operating "
                                                      "point: its cost in coverage"),
    skips("It is a cheap restaurant.", "'inexpensive' stays under the judge's operating point; 'loud' shares "
                                       "only cheap's rare sense"),
    skips("Shakespeare has written Macbeth .", "names are kept; no synonym of 'write' accepted"),
    skips("The phone number of hotel drisco is 4153462880 .", "numbers and names are kept"),
    skips("Prisoners are going to jail for a long time.", "semi-auxiliary 'going to'; issue"),
    skips("This goes back to the work of Smith.", "verb + its own adverb 'goes back'; issue"),
    skips("Please respond to an email.", "'respond to' is a unit, and 'react' is not accepted; issue"),
)
