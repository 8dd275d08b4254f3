"""Typos (CheckList's ``Perturb.add_typos``): swapped neighbouring characters.

The perturbation marks typos ``decrease`` (the form is damaged), but a reader still
understands the sentence: a good metric notices (the score drops a little) without
collapsing (the drop stays small). Two checks on the same cases say both.
"""

from suites.harness import ALL, Decrease, Invariant, Novikova, Perturb, Suite

SUITE = Suite(
    name="typos",
    description="Neighbouring characters of a human paraphrase swapped (CheckList typos).",
    data=Novikova(datasets=("bagel", "sfhotel", "sfrest"), n=200, seed=0, pairing="paraphrase"),
    perturbation=Perturb("typos"),
    metrics=ALL,
    checks=[
        Decrease(name="noticed", margin=0.005, min_pass_rate=0.8),
        Invariant(name="small_drop", expectation="decrease", tolerance=0.1, min_pass_rate=0.8),
    ],
)
