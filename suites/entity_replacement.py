"""Case 1 of the RoMe paper (section 4.6): named entities replaced by other entities of the data.

"The population of Germany" -> "The population of England": the facts change, so the
perturbation marks such variants ``decrease`` and a metric should score them lower.
Variants the perturbation marks ``invariant`` (same-type swaps that keep meaning) are held
to the invariance check.
"""

from suites.harness import ALL, Decrease, Invariant, Novikova, Perturb, Suite

SUITE = Suite(
    name="entity_replacement",
    description="Entities of a human paraphrase replaced by other entities from the same dataset.",
    data=Novikova(datasets=("bagel", "sfhotel", "sfrest"), n=200, seed=0, pairing="paraphrase"),
    perturbation=Perturb("entity"),
    metrics=ALL,
    checks=[
        Decrease(margin=0.02, min_pass_rate=0.8),
        Invariant(tolerance=0.05, min_pass_rate=0.8),
    ],
)
