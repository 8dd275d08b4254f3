"""Contractions (CheckList's ``Perturb.contractions``): "is not" <-> "isn't".

Meaning and register are kept, so the score should stay.
"""

from suites.harness import ALL, CorpusSource, Invariant, Perturb, Suite

SUITE = Suite(
    name="contractions",
    description="A human paraphrase contracted or expanded (CheckList contractions).",
    data=CorpusSource("dialogue"),  # any shipped corpus or JSONL with --data (rome suite --list-corpora)
    n=200,
    seed=2027,
    perturbation=Perturb("contractions"),
    metrics=ALL,
    checks=[Invariant(tolerance=0.1, min_pass_rate=0.8)],
)
