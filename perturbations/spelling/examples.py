"""Examples of the British <-> American spelling kind, run by tests/test_perturbations_examples.py."""

from perturbations.recipe import changes, skips

EXAMPLES = (
    changes("The centre of town has a theatre.", "The center of town has a theater."),
    skips("It has a lovely theatre in the centre.",
          "a noun after a modifier may end a lower-cased name (\"civic center\"): left British, it would mix "
          "the varieties with the respelt \"center\""),
    changes("The colour and the colors.", "The color and the colors.", "The colour and the colours."),
    changes("Jewellers organised the show.", "Jewelers organized the show.", why="a capital at a sentence's start"),
    changes("Jewellers organised the jewelry show.", "Jewelers organized the jewelry show.",
            why="\"jewelry\" has no British respelling in the table: a British variant would mix the varieties"),
    skips("We realise they are practising.", "\"practising\" stays British: an American variant would mix"),
    skips("He said 'the colour is nice' and left.", "a single-quoted quotation keeps its spelling"),
    skips("He said ‘the colour is nice’ and left.", "a curly single-quoted quotation keeps its spelling"),
    changes("I don't like the colour of the students' flags.", "I don't like the color of the students' flags.",
            why="apostrophes of a contraction and a plural possessive are no quotation marks"),
    skips("Members of the labour party organised a rally.",
          "\"labour\" tagged an adjective is a noun before a noun (a lower-cased name's word): "
          "left British, \"organized\" would mix the varieties"),
    changes("Members of the Labour Party organized a rally.", "Members of the Labour Party organised a rally.",
            why="the name is British already: the British variant is one variety throughout"),
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
