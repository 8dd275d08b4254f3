"""Repeated words or phrases (the RoMe paper's Table 2: "Elon elon elon elon elon founded ...").

Repetition damages the form without adding content, so the score should drop.
"""

from suites.harness import ALL, CorpusSource, Decrease, MinimumFunctionality, Perturb, Suite

SUITE = Suite(
    name="repetition",
    description="A word or phrase of a human paraphrase repeated.",
    data=CorpusSource("dialogue"),  # any shipped corpus or JSONL with --data (rome suite --list-corpora)
    n=200,
    seed=2026,
    perturbation=Perturb("repetition"),
    metrics=ALL,
    checks=[
        Decrease(margin=0.05, min_pass_rate=0.8),
        MinimumFunctionality(
            "paper_repetition_example",  # RoMe paper, Table 2: RoMe scores it 0.11
            pairs=[("Elon musk has founded tesla motors.", "Elon elon elon elon elon founded tesla tesla tesla.")],
            below=0.5,
        ),
    ],
)
