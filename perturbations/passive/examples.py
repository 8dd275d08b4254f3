"""Examples of the passive recipe: (input, expected output or skip), run by tests/test_perturbations_examples.py.

The skip rows marked "issue" restate failure shapes reported in the issue; they are regression tests of
the general rules, not evidence that the rules work (that is the validity cards' job)."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("The police have arrested the suspect.", "The suspect has been arrested by the police."),
    changes("The dog bit the man.", "The man was bitten by the dog."),
    changes("Elon Musk founded Tesla in 2003.", "Tesla was founded in 2003 by Elon Musk."),
    changes("Officials said the police arrested the suspect on Monday.",
            "Officials said the suspect was arrested on Monday by the police.", why="a reported clause"),
    changes("You can visit the museum today.", "The museum can be visited today.",
            why="generic 'you' is dropped"),
    skips("X is a cheap restaurant.", "copular clause"),
    skips("Did the dog bite the man?", "question"),
    skips("The hotel has wifi.", "middle verb (Quirk et al. 1985)"),
    skips("This plan includes the right to vote.", "stative (WordNet verb.stative); issue"),
    skips("The rate averages the costs of the year.", "stative (WordNet verb.stative); issue"),
    skips("He demanded the resignation of the minister.", "pronoun agent; issue"),
    skips("No one developed the vaccine.", "negative quantifier as agent; issue"),
    skips("Women hold over sixty percent of the seats.", "middle verb, quantity object; issue"),
    skips("A woman consults her cell phone.", "pronoun inside the object; issue"),
    skips("The committee, after a long debate, rejected the proposal.", "punctuation inside; issue"),
    changes("The coach won the final match at the regional tournament in Leeds last spring.",
            "The final match was won by the coach at the regional tournament in Leeds last spring.",
            why="end weight: the long adjuncts go after the agent"),
    skips("Anna Berg edited Songs Without Words in 1944.", "a title would be split"),
    skips("The studio released the film Gone Girl in October.", "a title follows the object (apposition)"),
    skips("The company builds ships. They are sold worldwide.", "a later pronoun could change its antecedent"),
    skips("You are painting the fence this week.", "'you' without a modal addresses the reader"),
    skips("The senator took office in January.", "WordNet verb+noun idiom (take_office)"),
    skips("The team scored 40 goals last season.", "a numeral would open the sentence"),
    skips("The bakery sells a new cake.", "indefinite object: new information would open the clause"),
    skips("The engine powered the boat.", "an agent that cannot act (WordNet: an artifact)"),
    skips("The museum guide does not allow photos , has a badge .", "predicates sharing one subject (a misparsed list)"),
    changes("The storm destroyed the old barn.", "The old barn was destroyed by the storm.",
            why="a natural force is an agent (WordNet noun.phenomenon)"),
)
