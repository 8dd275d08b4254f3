"""GRUEN (baselines/gruen.py): the paper's own examples as ordering tests, and the reference-free paths.

Tables 6, 10 and 11 of Zhu & Bhat (2020) are the examples: the corrected sentence above the broken
one (through the grammar acceptance feature alone, and through the likelihood feature alone), the
redundant pair below the pronoun rewrite, and Table 10's feature labels per pair.
"""

from __future__ import annotations

import json
import math
import random
from pathlib import Path

import numpy as np
import pytest

from baselines.gruen import (
    GRUEN,
    clean_text,
    gruen_likelihood,
    likelihood_feature,
    redundancy_flags,
    sentence_log_probs,
    split_sentences,
    word_mover_similarity,
)
from rome.core.registry import build_metric, expand_metric_names, needs_reference

# Table 6 (a) and (b) / Table 11 (a) and (b): (broken, corrected); the paper prints no complete version of (a)
ORELLANA = ("Orellana shown red card for throwing grass at Sergio Busquets.",
            "Orellana was shown a red card for throwing grass at Sergio Busquets.")
MELDIK = ("Mr Erik Meldik said the.", "Mr Erik Meldik said the results were good.")
FLUENT = ["The hotel is cheap and near the park.", "The footage was captured on a warm day in Bali, Indonesia.",
          "Orellana was shown a red card for throwing grass at Sergio Busquets.",
          "There is no information about a restaurant near the river."]
MONKEY = "The monkey took a bunch of bananas on the desk."
# Table 10: the second sentence of each pair and the features the paper marks (A-D)
TABLE_10 = [
    ("It took a bunch of bananas on the desk.", 4),  # ABCD
    ("The monkey took a bunch of bananas on the desk, and they are the fruits reserved for the special "
     "guests invited tonight.", 3),  # ABD
    ("The monkey took a large bunch of bananas on the red desk.", 2),  # CD
    ("It took bunches of banana on the desks.", 1),  # C
]
FARKHUNDA = ("The brutal murder of Farkhunda, a young woman in Afghanistan, whose body was burnt and "
             "callously chucked into a river in Kabul. ")
REDUNDANT = FARKHUNDA + ("The brutal murder of Farkhunda, a young woman in Afghanistan became pallbearers, "
                         "hoisting the victim's coffin on their shoulders draped with headscarves.")
PRONOUN = FARKHUNDA + "She became pallbearers, hoisting the victim's coffin on their shoulders draped with headscarves."


@pytest.fixture(scope="module")
def gruen() -> GRUEN:
    return build_metric("gruen")


@pytest.mark.parametrize("second, flags", TABLE_10)
def test_table_10_feature_counts(second, flags):
    assert redundancy_flags(MONKEY, second) == flags


def test_identical_or_contained_sentences_count_four_flags_and_short_pairs_none():
    assert redundancy_flags("It is good.", "It is good.") == 4
    assert redundancy_flags("nice hotel.", "A nice hotel. ") == 4
    assert redundancy_flags("It is cheap.", "It is near.") == 0  # under 5 words: features not read


@pytest.mark.slow
def test_table_6_and_11_grammar_the_corrected_sentence_scores_higher(gruen):
    broken, fixed = "Orellana shown red card for throwing grass at Sergio Busquets.", \
        "Orellana was shown a red card for throwing grass at Sergio Busquets."
    incomplete, complete = "Mr Erik Meldik said the.", "Mr Erik Meldik said the results were good."
    scores = build_metric("gruen/grammar").score([broken, fixed, incomplete, complete], None)
    assert scores[1] > scores[0] and scores[3] > scores[2]
    assert np.all((scores >= 0) & (scores <= 1))


@pytest.mark.slow
def test_table_6_and_11_grammar_the_corrected_sentence_is_more_likely_by_the_likelihood_feature_alone():
    likelihood = gruen_likelihood()
    scores = likelihood.score([*ORELLANA, *MELDIK], None)
    assert scores[1] > scores[0] and scores[3] > scores[2]
    assert np.all((scores > 0) & (scores <= 1))
    # the feature as gruen adds it orders them the same way
    log_probs = sentence_log_probs([*ORELLANA, *MELDIK])
    features = [likelihood_feature(log_probs[s]) for s in [*ORELLANA, *MELDIK]]
    assert features[1] > features[0] and features[3] > features[2]


def _shuffled(sentence: str, seed: int) -> str:
    """The sentence's words in a seeded random order other than their own (final full stop kept last)."""
    words = sentence.rstrip(".").split()
    order = list(words)
    rng = random.Random(seed)
    while order == words:
        rng.shuffle(order)
    return " ".join(order) + "."


@pytest.mark.slow
def test_a_fluent_sentence_is_more_likely_than_its_word_shuffled_copy_by_the_likelihood_feature_alone():
    shuffled = [_shuffled(s, seed) for seed, s in enumerate(FLUENT)]
    scores = gruen_likelihood().score([*FLUENT, *shuffled], None)
    assert np.all(scores[: len(FLUENT)] > scores[len(FLUENT):]), (scores, shuffled)


def test_the_likelihood_feature_is_the_release_map_of_the_perplexity():
    assert likelihood_feature(math.log(0.5)) == pytest.approx(math.exp(-0.5 * 2.0))  # perplexity 2
    assert likelihood_feature(0.0) == pytest.approx(math.exp(-0.5))  # every piece certain: perplexity 1
    assert likelihood_feature(-math.inf) == 0.0  # a sentence without pieces
    assert likelihood_feature(-1.0) > likelihood_feature(-2.0) > likelihood_feature(-3.0)


@pytest.mark.slow
def test_gruen_adds_the_likelihood_to_the_grammar_acceptance_per_sentence_then_rescales():
    """gruen/paper: the paper's y_g = sum_i (l_i + g_i) / n, rescaled max(0, y / 8 + 0.5); ``gruen/grammar``
    and ``gruen`` keep g_i alone."""
    gruen = build_metric("gruen/paper")
    from rome.metric.grammar import load_default

    two = "The hotel is cheap and near the park. Orellana was shown a red card."
    sentences = split_sentences(two)
    assert len(sentences) == 2
    log_probs = sentence_log_probs(sentences)
    acceptance = load_default().logits(sentences) / 2.0
    per_sentence = [likelihood_feature(log_probs[s]) + g for s, g in zip(sentences, acceptance)]
    assert gruen.module_scores([two])["grammar"][0] == pytest.approx(max(0.0, np.mean(per_sentence) / 8 + 0.5))
    assert build_metric("gruen/grammar").score([two], None)[0] == pytest.approx(max(0.0, acceptance.mean() / 8 + 0.5))
    assert build_metric("gruen").module_scores([two])["grammar"][0] == pytest.approx(max(0.0, acceptance.mean() / 8 + 0.5))
    assert gruen_likelihood().score([two], None)[0] == pytest.approx(np.mean(np.exp([log_probs[s] for s in sentences])))


def test_the_signature_names_the_context_model_so_a_new_head_rekeys_the_cache(tmp_path, monkeypatch):
    from baselines.context import model as context

    head = context.get_context_model().signature()
    assert f"lm:{head}" in str(build_metric("gruen/paper").signature())
    assert f"lm:{head}" in str(gruen_likelihood().signature())
    assert "|lm:none|" in str(build_metric("gruen").signature())  # gruen leaves the likelihood to gruen/paper
    assert "|lm:none|" in str(build_metric("gruen/grammar").signature())  # the CoLA feature alone reads no LM
    # another head (one byte changed): another context-model signature, another gruen signature
    other = tmp_path / context.HEAD_FILE
    data = bytearray(context.head_path().read_bytes())
    data[-1] ^= 1
    other.write_bytes(bytes(data))
    (tmp_path / context.HEAD_CARD).write_bytes(context.head_path().with_name(context.HEAD_CARD).read_bytes())
    before = str(build_metric("gruen/paper").signature())
    monkeypatch.setattr(context, "head_path", lambda: other)
    monkeypatch.setattr(context, "_models", {})
    after = str(build_metric("gruen/paper").signature())
    assert after != before and context.get_context_model().signature() in after


def test_gruen_declares_the_models_its_scores_come_from():
    from baselines.context.model import get_context_model

    assert build_metric("gruen/paper").models() == [get_context_model().signature(), "all-MiniLM-L6-v2"]
    assert build_metric("gruen").models() == ["all-MiniLM-L6-v2"]
    assert gruen_likelihood().models() == [get_context_model().signature()]
    assert build_metric("gruen/grammar").models() == ["all-MiniLM-L6-v2"]
    assert build_metric("gruen/redundancy").models() == []


@pytest.mark.slow
def test_table_11_redundancy_the_pronoun_rewrite_scores_higher(gruen):
    redundancy = build_metric("gruen/redundancy").score([REDUNDANT, PRONOUN], None)
    assert redundancy[0] < 0 == redundancy[1]
    full = gruen.score([REDUNDANT, PRONOUN], None)
    assert full[0] < full[1]


@pytest.mark.slow
def test_repeating_a_sentence_costs_the_four_flags(gruen):
    once = "The hotel is cheap and near the park."
    scores = gruen.module_scores([once, f"{once} {once}"])
    assert scores["redundancy"].tolist() == [0.0, pytest.approx(-0.4)]
    assert gruen.score([f"{once} {once}"], None)[0] < gruen.score([once], None)[0]


def test_word_mover_similarity_is_one_for_the_same_tokens_and_bounded_below():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=(5, 8)), rng.normal(size=(3, 8))
    assert word_mover_similarity(a, a) == pytest.approx(1.0)
    assert np.exp(-2) - 1e-9 <= word_mover_similarity(a, b) < 1.0
    assert word_mover_similarity(a[:1], -a[:1]) == pytest.approx(np.exp(-2))  # opposite unit vectors: 2 apart


def test_sentences_are_cleaned_as_the_release_cleans_them():
    assert split_sentences("Nice.Cheap hotel near the park. Ok.") == ["Cheap hotel near the park."]
    assert clean_text("It costs 3.5 pounds") == "It costs UNK pounds"
    assert split_sentences("   ") == []


@pytest.mark.slow
def test_reference_free_the_reference_is_never_read(gruen):
    hyps = ["The hotel is cheap.", "hotel the cheap is is."]
    alone = gruen.score(hyps, None)
    with_refs = gruen.score(hyps, ["The hotel is inexpensive.", ["anything", "at all"]])
    assert alone.tolist() == with_refs.tolist() and alone[0] > alone[1]
    assert gruen.score(["", "  "], None).tolist() == [0.0, 0.0]


def test_metadata_variants_and_all():
    assert not needs_reference("gruen") and GRUEN.score_range == (0.0, 1.0)
    assert "gruen" in expand_metric_names(["all"])
    assert not {"gruen/grammar", "gruen/redundancy", "gruen/focus"} & set(expand_metric_names(["all"]))
    assert not needs_reference("gruen/grammar") and gruen_likelihood().score_range == (0.0, 1.0)
    pyproject = (Path(__file__).parents[1] / "pyproject.toml").read_text(encoding="utf-8")
    assert '"gruen/likelihood" = "baselines.gruen:gruen_likelihood"' in pyproject  # an entry point like the others
    assert build_metric("gruen/redundancy").score_range == (-1.0, 0.0)
    assert "sop:none" in str(build_metric("gruen").signature())


@pytest.mark.slow
def test_rome_score_without_references(tmp_path, capsys):
    from reports.cli import main

    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("\n".join(json.dumps({"id": i, "hypothesis": h}) for i, h in
                               enumerate([REDUNDANT, PRONOUN])) + "\n", encoding="utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["score", "--input", str(pairs), "--metric", "gruen", "--metric", "gruen/redundancy",
                 "--output", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows[0]["scores"]["gruen"] < rows[1]["scores"]["gruen"]
    assert rows[0]["scores"]["gruen/redundancy"] < rows[1]["scores"]["gruen/redundancy"] == 0.0
    assert main(["score", "--hyp", PRONOUN, "--metric", "gruen"]) == 0
    assert capsys.readouterr().out.split()[0] == "gruen"
