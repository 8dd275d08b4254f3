"""DEMETR (Karpinska et al. 2022) as a suite: minimal pairs straight from the data, no perturbation.

Each item is a reference, the (edited) machine translation and a perturbed copy of it; a metric
gets it right when it scores the translation strictly above the perturbed copy (ties fail).
The checks ask for an accuracy per severity tier: the three controls (an empty ".", an
unrelated translation, the reference itself) must be right almost always, critical errors
nearly always, minor ones (punctuation, case, a repeated word) more often than not. The bars
are the suite's stated expectations for a usable metric, set per tier, not fitted to any metric.

``pytest suites/demetr.py`` samples 100 items per category; ``rome challenge`` runs the full set
with the accuracy table, bootstrap intervals and sensitivity (docs/challenge.md). Your own file
is the same declaration with ``ChallengeSet("my_pairs.jsonl")``.
"""

from suites.harness import ALL, ChallengeSet, Prefers, Suite

SUITE = Suite(
    name="demetr",
    description="DEMETR minimal pairs (26 shipped files): the MT must score strictly above its perturbed copy.",
    data=ChallengeSet(),
    n=None,
    n_per_category=100,
    seed=0,
    metrics=ALL,
    checks=[
        Prefers("controls", severity="base", min_pass_rate=0.95),
        Prefers("critical", severity="critical", min_pass_rate=0.90),
        Prefers("major", severity="major", min_pass_rate=0.80),
        Prefers("minor", severity="minor", min_pass_rate=0.70),
    ],
)
