"""Case 3 of the RoMe paper (section 4.6): words replaced by the token ``AAA`` (TextAttack style).

"x is a cheap restaurant near y" -> "x is a cheap restaurant AAA AAA": content is lost and
the text is degenerate, so the score must drop; a text of only ``AAA`` must score low.
"""

from suites.harness import ALL, CorpusSource, Decrease, MinimumFunctionality, Perturb, Suite

SUITE = Suite(
    name="random_word",
    description="Non-stop words of a human paraphrase replaced by the generic token AAA.",
    data=CorpusSource("dialogue"),  # any shipped corpus or JSONL with --data (rome suite --list-corpora)
    n=200,
    seed=2026,
    perturbation=Perturb("random_word"),
    metrics=ALL,
    checks=[
        Decrease(margin=0.1, min_pass_rate=0.9),
        MinimumFunctionality(
            "all_aaa_scores_low",
            pairs=[("x is a cheap restaurant near y .", "AAA AAA AAA AAA AAA AAA AAA ."),
                   ("The phone number for hotel rex is 4154334434 .", "AAA AAA AAA AAA AAA AAA AAA AAA .")],
            below=0.3,
        ),
    ],
)
