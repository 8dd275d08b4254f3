"""The optional "that" of a complement clause ("said that the hotel was" <-> "said the hotel was").

Dropped only where it is optional and no garden path follows, inserted only where a clause may take
it; meaning and register are kept, so the score should stay.
"""

from suites.harness import ALL, CorpusSource, Invariant, Perturb, Suite

SUITE = Suite(
    name="optional_that",
    description='A human paraphrase with the optional "that" of a complement clause dropped or inserted.',
    data=CorpusSource("dialogue"),  # any shipped corpus or JSONL with --data (rome suite --list-corpora)
    n=200,
    seed=2026,
    perturbation=Perturb("optional_that"),
    metrics=ALL,
    checks=[Invariant(tolerance=0.1, min_pass_rate=0.8)],
)
