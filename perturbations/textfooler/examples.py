"""Examples of the textfooler recipe, run by tests/test_perturbations_examples.py.

Each change is one a careful reader accepts; the skip rows marked "issue" restate failure shapes reported in
the issues (regression tests, not evidence). The context model's thresholds are set by
scripts/research/context_thresholds.py: a row that changes when they are re-set says which swap the new thresholds
let through or refuse."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("She bought a large house near the river.", "She purchased a big house near the river."),
    skips("It is a cheap restaurant.", "'inexpensive' is less probable in the slot than MIN_LOGP; 'loud' "
                                       "shares only cheap's rare sense"),
    changes("The river links the lake to the sea.", "The river connects the lake to the sea."),
    changes("He is the writer of the song.", "He is the author of the song."),
    skips("Shakespeare has written Macbeth .", "names are kept; no synonym of 'write' fits"),
    skips("The phone number of hotel drisco is 4153462880 .", "numbers and names are kept"),
    skips("Prisoners are going to jail for a long time.", "semi-auxiliary 'going to'; issue"),
    skips("This goes back to the work of Smith.", "verb + its own adverb 'goes back'; issue"),
    skips("Please respond to an email.", "'respond to' is a unit, and 'react' does not fit; issue"),
)
