"""Case 2 of the RoMe paper (section 4.6): an adjective replaced by a synonym and by an antonym.

Up to two variants per sentence ("cheap" -> "inexpensive" / "expensive"): the synonym keeps meaning
(invariant), the antonym reverses it (the score should drop). Synonyms are precision-first (a word
whose main sense is clear, a synonym of that sense in common use), so far fewer adjectives have one
than have an antonym: requiring both (``require_both``) left no case on the dialogue texts, and the
two rows now have different numbers of cases.
"""

from suites.harness import ALL, CorpusSource, Decrease, Invariant, Perturb, Suite

SUITE = Suite(
    name="adjective_replacement",
    description="Adjectives of a human paraphrase replaced by a WordNet synonym and by an antonym.",
    data=CorpusSource("dialogue"),  # any shipped corpus or JSONL with --data (rome suite --list-corpora)
    n=200,
    max_texts=600,  # the judge keeps few variants and reads every text: a bound on the run's time
    seed=2027,
    perturbation=Perturb("adjective"),
    variants_per_text=2,
    metrics=ALL,
    checks=[
        Invariant(tolerance=0.1, min_pass_rate=0.8),
        Decrease(margin=0.05, min_pass_rate=0.8),
    ],
)
