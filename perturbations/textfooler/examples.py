"""Examples of the textfooler recipe, run by tests/test_perturbations_examples.py.

Each change is one a careful reader accepts and the judge accepts at its operating point; the skip rows
marked "issue" restate failure shapes reported in the issues (regression tests, not evidence). A row the
judge refuses says so, as measured: when the judge is re-calibrated, a row that changes says which swap the
new judge lets through or refuses."""

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
