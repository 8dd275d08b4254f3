"""Examples of the British <-> American spelling kind, run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("The centre of town has a theatre.", "The center of town has a theater."),
    changes("It has a lovely theatre in the centre.", "It has a lovely theatre in the center.",
            why="a noun after a modifier may end a lower-cased name (\"civic center\")"),
    skips("Sorry , there is no hotel -s in civic center near soma .", "a lower-cased name"),
    skips("we are near the harbor court hotel .", "a noun before a noun may begin a lower-cased name"),
    changes("He realized that the color was wrong.", "He realised that the colour was wrong."),
    changes("Organise your travel with us.", "Organize your travel with us.", why="a sentence's first word keeps its capital"),
    changes("We apologise, but the colors are fine.", "We apologize, but the colors are fine.",
            "We apologise, but the colours are fine.", why="a mixed text: one variant per variety"),
    changes("The World Health Organization criticised the plan.",
            "The World Health Organization criticized the plan.", why="the name keeps its spelling"),
    changes("Travelling there is easy.", "Traveling there is easy.", why="doubled l"),
    skips("The Labour Party is in the City Centre.", "capitalised names keep their spelling"),
    skips("i am looking for the cambridge arts theatre .", "a compound noun may be a lower-cased name"),
    skips("She bought new tyres and a programme.", "tyre/tire and programme/program part by sense"),
    skips("The metre is a unit; the analyses were published.", "metre/meter and analyses (a plural noun)"),
    skips('He wrote "The Colour of Magic".', "a quoted title keeps its spelling"),
    skips("The hotel is near the river.", "no word with two spellings"),
)
