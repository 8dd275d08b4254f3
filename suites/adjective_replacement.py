"""Case 2 of the RoMe paper (section 4.6): an adjective replaced by a synonym and by an antonym.

Two variants per sentence ("cheap" -> "inexpensive" / "expensive"): the synonym keeps meaning
(invariant), the antonym reverses it (the score should drop). Only adjectives that have both are
used (``require_both``), so the synonym and antonym rows have the same number of cases.
"""

from suites.harness import ALL, Corpus, Decrease, Invariant, Perturb, Suite

SUITE = Suite(
    name="adjective_replacement",
    description="Adjectives of a human paraphrase replaced by a WordNet synonym and by an antonym.",
    data=Corpus("dialogue"),  # any shipped corpus or JSONL with --data (rome suite --list-corpora)
    n=200,
    seed=0,
    perturbation=Perturb("adjective", {"require_both": True}),
    variants_per_text=2,
    metrics=ALL,
    checks=[
        Invariant(tolerance=0.1, min_pass_rate=0.8),
        Decrease(margin=0.05, min_pass_rate=0.8),
    ],
)
