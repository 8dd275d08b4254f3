"""Case 4 of the RoMe paper (section 4.6, its "text transformation"): TextFooler replaces two words by similar words.

Meaning and grammar are meant to be kept, so the score should stay.
"""

from suites.harness import ALL, CorpusSource, Invariant, Perturb, Suite

SUITE = Suite(
    name="textfooler",
    description="Two words of a human paraphrase replaced by similar words (TextFooler).",
    data=CorpusSource("dialogue"),  # any shipped corpus or JSONL with --data (rome suite --list-corpora)
    n=200,
    max_texts=600,  # the judge keeps few variants and reads every text: a bound on the run's time
    seed=2027,
    perturbation=Perturb("textfooler"),
    metrics=ALL,
    checks=[Invariant(tolerance=0.1, min_pass_rate=0.8)],
)
