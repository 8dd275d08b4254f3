"""Examples of the adjective recipe (synonym variant, then antonym variant), run by tests/test_perturbations_examples.py.

Each variant is one a careful reader accepts (a synonym that keeps the statement, an antonym that reverses
it); the skip rows restate failure shapes reported in the issues (regression tests, not evidence). The
synonym is decided by the judge at its operating point (perturbations/judge/weights.json), the antonym by
the fluency bound (scripts/research/context_thresholds.py): a row that changes when either is re-set says
which swap the new setting lets through or refuses."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("It is a cheap restaurant.", "It is an expensive restaurant.",
            why="the article follows the word; no synonym the judge accepts ('inexpensive' stays under its point)"),
    changes("The living room is large.", "The living room is small.",
            why="'big' under the judge's operating point (its cost in coverage)"),
    changes("They serve good food.", "They serve bad food.", why="the antonym within the fluency bound"),
    changes("The soup was hot.", "The soup was cold.", why="the antonym within the fluency bound"),
    skips("This is the biggest hotel in town.", "no synonym the judge accepts and no antonym"),
    skips("The Red Victorian is a hotel.", "adjectives of names are kept"),
    skips("Special forces entered the single market.", "collocation and a restrictive adjective; issue"),
    skips("He is the favourite.", "a noun in disguise; issue"),
    skips("The tower is 40 metres tall.", "after a measure phrase"),
    skips("The park covers ten square miles.", "before a unit of measurement"),
    skips("The mast is 40.5 (metres) tall.", "a measure phrase in brackets"),
    skips("Their style is easy listening.", "before an -ing nominal"),
    skips("The hotel is cheaper.", "no one-word comparative of 'inexpensive' or 'expensive'"),
    changes("There is a cheap hotel in inner richmond.", "There is an expensive hotel in inner richmond.",
            why="'inner' is part of a lower-cased place name: only 'cheap' may change"),
    skips("It has a moderate price range.", "'immoderate' is far rarer than 'moderate': no antonym in common use"),
)
