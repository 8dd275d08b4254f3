"""In-word typos (CheckList's neighbour swap, one kind of slip): two different letters inside a word swapped ("restaurant" -> "restuarant").

The perturbation marks typos ``decrease`` (the form is damaged), but a reader still
understands the sentence: a good metric notices (the score drops a little) without
collapsing (the drop stays small). Two checks on the same cases say both. In-word and
space slips are separate suites because some metrics cannot see one kind by construction
(chrF removes spaces before counting character n-grams). Digits are never touched.
"""

from suites.harness import ALL, CorpusSource, Decrease, Invariant, Perturb, Suite

SUITE = Suite(
    name="typos_in_word",
    description='One typo in a human paraphrase: two different letters inside a word swapped ("restaurant" -> "restuarant").',
    data=CorpusSource("dialogue"),  # any shipped corpus or JSONL with --data (rome suite --list-corpora)
    n=200,
    seed=0,
    perturbation=Perturb("typos", {"slip": "in_word"}),
    metrics=ALL,
    checks=[
        Decrease(name="noticed", margin=0.01, min_pass_rate=0.8),
        Invariant(name="small_drop", expectation="decrease", tolerance=0.5, min_pass_rate=0.8),
    ],
)
