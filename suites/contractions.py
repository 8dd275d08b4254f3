"""Contractions (CheckList's ``Perturb.contractions``): "is not" <-> "isn't".

Meaning and register are kept, so the score should stay.
"""

from suites.harness import ALL, Invariant, Novikova, Perturb, Suite

SUITE = Suite(
    name="contractions",
    description="A human paraphrase contracted or expanded (CheckList contractions).",
    data=Novikova(datasets=("bagel", "sfhotel", "sfrest"), n=200, seed=0, pairing="paraphrase"),
    perturbation=Perturb("contractions"),
    metrics=ALL,
    checks=[Invariant(tolerance=0.1, min_pass_rate=0.8)],
)
