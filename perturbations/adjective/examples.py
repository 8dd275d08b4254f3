"""Examples of the adjective recipe (synonym variant, then antonym variant), run by tests/test_perturbations_examples.py.

Each variant is one a careful reader accepts (a synonym that keeps the statement, an antonym that reverses
it); the skip rows restate failure shapes reported in the issues (regression tests, not evidence). A synonym
the judge refuses, or an antonym beyond the fluency bound (ANTONYM_MAX_DROP, scripts/context_thresholds.py),
says so, as measured: a row that changes when either is re-set says which swap is let through or refused."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("It is a cheap restaurant.", "It is an expensive restaurant.",
            why="the article follows the word; the judge does not accept 'inexpensive' (as measured)"),
    changes("The living room is large.", "The living room is small.",
            why="the judge does not accept 'big' here (as measured): its cost"),
    skips("This is the biggest hotel in town.", "the judge does not accept 'largest' (as measured): its cost; "
                                                "no antonym fits"),
    changes("They serve good food.", "They serve bad food.",
            why="the antonym within the fluency bound (log-probability -5.5 of -6.5); no synonym accepted"),
    changes("The soup was hot.", "The soup was cold.", why="the antonym reads as well as the original"),
    skips("The Red Victorian is a hotel.", "adjectives of names are kept"),
    skips("Special forces entered the single market.", "collocation and a restrictive adjective; issue"),
    skips("He is the favourite.", "a noun in disguise; issue"),
    skips("The tower is 40 metres tall.", "after a measure phrase"),
    skips("The park covers ten square miles.", "before a unit of measurement"),
    skips("The mast is 40.5 (metres) tall.", "a measure phrase in brackets"),
    skips("Their style is easy listening.", "before an -ing nominal"),
    skips("The hotel is cheaper.", "no one-word comparative of 'inexpensive' or 'expensive'"),
)
