"""Examples of the optional-"that" kind, run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("He said that the hotel was near the centre.", "He said the hotel was near the centre."),
    changes("I know that it is late.", "I know it is late.", why="a pronoun subject: no garden path"),
    changes("I think you will like the theatre.", "I think that you will like the theatre."),
    changes("Do you think he will come?", "Do you think that he will come?"),
    skips("I know that the manager is away.", "'I know the manager' would be read first (garden path)"),
    skips("What do you think is best?", "the subject is moved out: 'that' would be ungrammatical"),
    skips("I don't know what you mean.", "a question clause takes no 'that'"),
    skips("The hotel that you booked is full.", "a relative clause"),
    skips("It was said that the hotel was closed.", "a passive verb keeps its 'that'"),
    skips("She said in May that the firm would close.", "an adverbial between verb and clause"),
    skips("He said that the room was small and that the price was high.", "coordinated 'that' clauses"),
    skips("I'm sure that it is open.", "an adjective's complement"),
    skips("He left so that she could rest.", "'so that' is no complement clause"),
    skips("It is, I think, fine.", "a parenthetical verb"),
    skips("I think that hotel is nice.", "'that' may be the determiner of a bare noun"),
    skips("You may find the museum on the main square.", "a noun object, not a clause"),
    skips("I don't see them closing the road.", "a non-finite clause takes no 'that'"),
    skips("Like I said there are no rooms left.", "a comment clause takes no 'that'"),
)
