"""British <-> American spelling ("colour" <-> "color"): a text respelt in the other variety.

Only pairs that differ by a regular pattern (-ise/-ize, -our/-or, -re/-er, doubled l, ae/oe) and
mean the same in every sense; meaning and register are kept, so the score should stay.
"""

from suites.harness import ALL, CorpusSource, Invariant, Perturb, Suite

SUITE = Suite(
    name="spelling",
    description="A human paraphrase respelt in the other variety of English (British <-> American).",
    data=CorpusSource("dialogue"),  # any shipped corpus or JSONL with --data (rome suite --list-corpora)
    n=200,
    seed=2026,
    perturbation=Perturb("spelling"),
    metrics=ALL,
    checks=[Invariant(tolerance=0.1, min_pass_rate=0.8)],
)
