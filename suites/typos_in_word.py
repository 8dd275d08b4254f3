"""In-word typos (CheckList's neighbour swap, one kind of slip): two different letters inside a word swapped ("restaurant" -> "restuarant").

The perturbation marks typos ``decrease`` (the form is damaged), but a reader still
understands the sentence: a good metric notices (the score drops a little) without
collapsing (the drop stays small). Two checks on the same cases say both. In-word and
space slips are separate suites because some metrics cannot see one kind by construction
(chrF removes spaces before counting character n-grams). Digits are never touched.
:func:`typo_suite` defines both (``suites/typos_space.py`` is the space slip's).
"""

from suites.harness import ALL, CorpusSource, Decrease, Invariant, Perturb, Suite

#: what each slip does, as the suite's description says it
SLIP_EXAMPLES = {"in_word": 'two different letters inside a word swapped ("restaurant" -> "restuarant")',
                 "space": 'a letter swapped with the space next to it ("the hotel" -> "th ehotel")'}


def typo_suite(slip: str) -> Suite:
    """The typo suite of one kind of slip (``typos_<slip>``): the two differ only in the slip."""
    return Suite(
        name=f"typos_{slip}",
        description=f"One typo in a human paraphrase: {SLIP_EXAMPLES[slip]}.",
        data=CorpusSource("dialogue"),  # any shipped corpus or JSONL with --data (rome suite --list-corpora)
        n=200,
        seed=2026,
        perturbation=Perturb("typos", {"slip": slip}),
        metrics=ALL,
        checks=[
            Decrease(name="noticed", margin=0.01, min_pass_rate=0.8),
            Invariant(name="small_drop", expectation="decrease", tolerance=0.5, min_pass_rate=0.8),
        ],
    )


SUITE = typo_suite("in_word")
