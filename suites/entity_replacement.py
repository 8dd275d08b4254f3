"""Case 1 of the RoMe paper (section 4.6): named entities replaced by other entities of the data.

"The population of Germany" -> "The population of England": the facts change, so the
perturbation marks its variants ``decrease`` and a metric should score them lower. (For an
invariance test instead, declare ``Perturb("entity", {"expectation": "invariant"})`` and an
``Invariant`` check.)
"""

from suites.harness import ALL, CorpusSource, Decrease, Perturb, Suite

SUITE = Suite(
    name="entity_replacement",
    description="Entities of a human paraphrase replaced by other entities from the same dataset.",
    data=CorpusSource("dialogue"),  # any shipped corpus or JSONL with --data (rome suite --list-corpora)
    n=200,
    seed=2026,
    perturbation=Perturb("entity"),
    metrics=ALL,
    checks=[Decrease(margin=0.05, min_pass_rate=0.8)],
)
