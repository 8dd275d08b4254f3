"""Examples of the textfooler recipe, run by tests/test_perturbations_examples.py.

The skip rows marked "issue" restate failure shapes reported in the issue (regression tests, not evidence)."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("The committee rejected the proposal after a long debate.",
            "The commission rejected the proposal after a long debate."),
    changes("She bought a large house near the river.", "She purchased a big house near the river."),
    skips("Shakespeare has written Macbeth .", "names are kept; 'write' has no dominant sense"),
    skips("The phone number of hotel drisco is 4153462880 .", "numbers and names are kept"),
    skips("Prisoners are going to jail for a long time.", "semi-auxiliary 'going to'; issue"),
    skips("The central banks raised interest rates.", "WordNet collocation 'central bank', compound; issue"),
    skips("This goes back to the work of Smith.", "verb + its own adverb 'goes back'; issue"),
    skips("We need a new innovation policy.", "compound 'innovation policy'; issue"),
    skips("Ellen said something.", "'tell' is not 'say' in its dominant sense"),
    skips("The mill employs four hundred people.", "'employ': use 75 %, hire 25 %: no sense of four in five"),
    skips("The minister recalled that the law had passed.", "a verb with a clause complement"),
    skips("The river links the lake to the sea.", "a verb with a preposition it may govern"),
    skips("He is the writer of the song.", "a relational noun with an 'of' complement"),
    skips("The factory stores a large amount of grain.", "a size adjective on an abstract noun"),
)
