"""Examples of the textfooler recipe, run by tests/test_perturbations_examples.py.

Each change is one a careful reader accepts and the judge accepts at its operating point; the skip rows
marked "issue" restate failure shapes reported in the issues (regression tests, not evidence). A row the
judge refuses says so, as measured: when the judge is re-calibrated, a row that changes says which swap the
new judge lets through or refuses."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    skips("She bought a large house near the river.", "the judge accepts neither 'purchased' nor 'big' here "
                                                      "(below its operating point, as measured): its cost"),
    skips("It is a cheap restaurant.", "the judge does not accept 'inexpensive'; 'loud' shares only cheap's rare "
                                       "sense"),
    changes("The river links the lake to the sea.", "The river connects the lake to the sea."),
    skips("He is the writer of the song.", "the judge does not accept 'author' here (as measured): its cost"),
    skips("Shakespeare has written Macbeth .", "names are kept; the judge accepts no synonym of 'write'"),
    skips("The phone number of hotel drisco is 4153462880 .", "numbers and names are kept"),
    skips("Prisoners are going to jail for a long time.", "semi-auxiliary 'going to'; issue"),
    skips("This goes back to the work of Smith.", "verb + its own adverb 'goes back'; issue"),
    skips("Please respond to an email.", "'respond to' is a unit, and the judge accepts no synonym; issue"),
)
