"""Case 5 of the RoMe paper (section 4.6): the hypothesis turned into the passive voice.

Meaning is kept, so a robust metric's score should barely move. Word-overlap metrics
(BLEU) are expected to fail: the passive reorders and adds words.
"""

from suites.harness import ALL, CorpusSource, Invariant, MinimumFunctionality, Perturb, Suite

SUITE = Suite(
    name="passive_form",
    description="Active -> passive voice of a human paraphrase or a system output; score against a human reference.",
    # the passive applies to few texts (no pronoun agents, no stative verbs): a corpus may give fewer than n
    data=CorpusSource("dialogue"),  # any shipped corpus or JSONL with --data (rome suite --list-corpora)
    n=200,
    max_texts=3000,  # the judge keeps about one text in a hundred and reads every text: a bound on the run's time
    seed=2027,
    perturbation=Perturb("passive"),
    metrics=ALL,
    checks=[
        Invariant(tolerance=0.1, min_pass_rate=0.8),
        MinimumFunctionality(
            "paper_examples",  # RoMe paper, Table 2 and Figure 3
            pairs=[("Tesla motors is founded by Elon Musk.", "Elon Musk has founded Tesla Motors."),
                   ("tesla motors is founded by elon musk", "elon musk founded tesla motors"),
                   ("Shakespeare has written Macbeth.", "Macbeth is written by Shakespeare.")],
            above=0.5,
        ),
    ],
)
