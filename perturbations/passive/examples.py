"""Examples of the passive recipe: (input, expected output or skip), run by tests/test_perturbations_examples.py.

Each row runs the grammar alone (``judged=False``: no language model, so the table is fast and
exact); the judge's choice is tested in tests/test_perturbations_passive.py. One row per shape
of the grammar (:mod:`perturbations.passive.clause`) and per reason to leave a clause alone; each expected
output was written by applying the grammar, and a wrong auxiliary, case, participle, particle or word
order fails the row. The gold set (tests/fixtures/passive_gold.jsonl) holds many more.
"""

from perturbations.recipe import changes, skips

GRAMMAR = {"judged": False}

EXAMPLES = (
    # the textbook sentences, skipped by the rules this grammar replaced
    changes("Elon Musk founded Tesla Motors.", "Tesla Motors was founded by Elon Musk.",
            why="a company's plural-looking name is singular", **GRAMMAR),
    changes("The band released a new album.", "A new album was released by the band.",
            why="an indefinite object becomes the subject", **GRAMMAR),
    changes("Beethoven composed nine symphonies.", "Nine symphonies were composed by Beethoven.",
            why="plural agreement; a spelled-out number may open the sentence", **GRAMMAR),
    changes("The hotel offers free internet.", "Free internet is offered by the hotel.",
            why="an inanimate agent", **GRAMMAR),
    # tense, aspect and modality carried over
    changes("By next year, the company will have built the factory.",
            "By next year, the factory will have been built by the company.", why="modal perfect", **GRAMMAR),
    changes("The workers are building a new bridge.", "A new bridge is being built by the workers.",
            why="progressive; number follows the new subject", **GRAMMAR),
    changes("The mayor didn't approve the plan.", "The plan wasn't approved by the mayor.",
            why="do-support and a contracted negation", **GRAMMAR),
    changes("The court cannot change the law.", "The law cannot be changed by the court.",
            why="'cannot' stays one word", **GRAMMAR),
    changes("The airline cancelled all flights.", "All flights were cancelled by the airline.",
            why="a regular participle keeps the text's spelling", **GRAMMAR),
    changes("The noise woke up the baby.", "The baby was woken up by the noise.",
            why="the more frequent participle (woken, not waked); the particle stays with the verb", **GRAMMAR),
    # pronoun case, also inside a coordination
    changes("My wife and I bought the house.", "The house was bought by my wife and me.", **GRAMMAR),
    changes("The committee chose her and me.", "She and I were chosen by the committee.", **GRAMMAR),
    changes("You can reach the hotel by phone.", "The hotel can be reached by phone.",
            why="generic 'you' with a modal: no agent", **GRAMMAR),
    changes("You can visit the museum today.", "The museum can be visited today by you.",
            why="pronoun_agent='keep' writes the agent", judged=False, pronoun_agent="keep"),
    skips("You can reach the hotel by phone.", "with the agent kept, two 'by' phrases", judged=False,
          pronoun_agent="keep"),
    # phrasal verbs, ditransitives, complements
    changes("The janitor turned the lights off.", "The lights were turned off by the janitor.", **GRAMMAR),
    changes("The bank sent the customers a letter.", "The customers were sent a letter by the bank.",
            why="the indirect object becomes the subject", **GRAMMAR),
    changes("The boss gave the key to Anna.", "The key was given to Anna by the boss.",
            why="the recipient complement stays next to the verb", **GRAMMAR),
    changes("The members elected Graham chairman.", "Graham was elected chairman by the members.",
            why="object predicative read apart from the object", **GRAMMAR),
    changes("The committee asked the minister to resign.", "The minister was asked by the committee to resign.",
            why="object + to-infinitive", **GRAMMAR),
    changes("Microsoft acquired LinkedIn in 2016.", "LinkedIn was acquired in 2016 by Microsoft.",
            why="a short adverbial goes before the agent (end focus)", **GRAMMAR),
    # subordinate and coordinated clauses
    changes("Although critics disliked the film, audiences loved it.",
            "Although the film was disliked by critics, it was loved by audiences.", **GRAMMAR),
    changes("Officials said the police arrested the suspect.", "Officials said the suspect was arrested by the police.",
            **GRAMMAR),
    # left alone, each for its own reason
    skips("She wrote the letter.", "a personal pronoun agent", **GRAMMAR),
    skips("The hotel has a pool.", "middle verb", **GRAMMAR),
    skips("The jug holds three litres.", "'hold' with a quantity means 'contain'", **GRAMMAR),
    skips("The meeting took place in Paris.", "verb-noun idiom", **GRAMMAR),
    skips("Every student read two books.", "two quantifiers", **GRAMMAR),
    skips("Only the manager signed the contract.", "focusing adverb", **GRAMMAR),
    skips("The company sold its shares.", "a pronoun would precede its antecedent", **GRAMMAR),
    skips("The company has been selling the product for years.", "perfect progressive", **GRAMMAR),
    skips("The minister said that the economy was growing.", "clausal object", **GRAMMAR),
    skips("Did the dog bite the man?", "question", **GRAMMAR),
    skips("Inside the old town lies the market.", "no sense of 'lie' takes an object (misparse)", **GRAMMAR),
)
