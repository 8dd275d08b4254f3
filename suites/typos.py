"""Typos (CheckList's ``Perturb.add_typos``): swapped neighbouring characters.

A reader still understands the sentence, so a robust metric should move little.
"""

from suites.harness import ALL, Invariant, Novikova, Perturb, Suite

SUITE = Suite(
    name="typos",
    description="Neighbouring characters of a human paraphrase swapped (CheckList typos).",
    data=Novikova(datasets=("bagel", "sfhotel", "sfrest"), n=200, seed=0, pairing="paraphrase"),
    perturbation=Perturb("typos"),
    metrics=ALL,
    checks=[Invariant(tolerance=0.05, min_pass_rate=0.8)],
)
