"""``rome/paper``: the published RoMe as a named variant (aligned, softly penalised EMD, plain TED-SE,
grammar, an unconstrained two-layer network), beside the shipped ``rome`` and its departures."""

from __future__ import annotations

import numpy as np
import pytest

from rome.core.encoder import get_encoder
from rome.core.parsing import get_parser
from rome.core.registry import available_metrics, build_metric
from rome.metric.scorer import ScorerNet, load_scorer
from rome.metric.semantic import semantic_similarity
from rome.metric.tree_edit import ted_similarity
from rome.metric.words import analyse, word_similarity

ACTIVE = "The committee approved three new rules."
PASSIVE = "Three new rules were approved by the committee."
OTHER_NUMBER = "The committee approved four new rules."


@pytest.fixture(scope="module")
def words():
    return analyse([ACTIVE, PASSIVE, OTHER_NUMBER], get_encoder(None), get_parser(None, entities=False))


def test_rome_paper_is_registered_and_signs_what_sets_it_apart():
    assert "rome/paper" in available_metrics()
    metric = build_metric("rome/paper")
    signature = str(metric.signature())
    assert "emd:soft" in signature and "word-rules:none" in signature and "scorer:paper:" in signature
    assert "word-rules" not in str(build_metric("rome/ted").signature())


def test_without_word_rules_two_numbers_are_only_their_cosines(words):
    ref, hyp = words[ACTIVE], words[OTHER_NUMBER]
    i, j = ref.words.index("three"), hyp.words.index("four")
    assert word_similarity(ref, hyp)[i, j] == 0.0  # the shipped rule: different numbers
    plain = word_similarity(ref, hyp, rules=False)
    assert plain[i, j] == pytest.approx(float(ref.unit[i] @ hyp.unit[j]), abs=1e-6) and plain[i, j] > 0.3


def test_without_the_voice_rule_a_passive_costs_tree_and_weight(words):
    ref, hyp = words[ACTIVE], words[PASSIVE]
    assert ted_similarity(ref, hyp, rules=False) < ted_similarity(ref, hyp)
    assert semantic_similarity(ref, hyp, "soft", rules=False).hyp_weights.min() > 0  # were, by weigh
    assert semantic_similarity(ref, hyp, "soft").hyp_weights.min() == 0.0


def test_the_paper_scorer_is_an_unconstrained_network_over_three_features():
    scorer = load_scorer("paper")
    assert isinstance(scorer, ScorerNet) and scorer.features == ("f_sem", "f_ted", "f_g")
    assert "unconstrained" in scorer.meta["optimiser"] and scorer.meta["test"]["auc"] > 0.8
    assert (scorer.w1 < 0).any() or (scorer.w2 < 0).any()  # nothing forces its weights non-negative
    good, bad = scorer(np.array([[0.95, 0.95, 0.95], [0.2, 0.4, 0.3]]))
    assert 0 <= bad < good <= 1


def test_paper_training_is_seeded_and_deterministic():
    from rome.training.scorer import train_paper_net

    rng = np.random.default_rng(0)
    x = rng.random((60, 3))
    y = (x.sum(1) > 1.5).astype(np.float64)
    first, second = (train_paper_net(x, y, ("f_sem", "f_ted", "f_g"), seed=3) for _ in range(2))
    np.testing.assert_array_equal(first.w1, second.w1)
    assert (first(x[y == 1]).mean() > first(x[y == 0]).mean())


def test_rome_paper_scores_a_copy_above_a_changed_number():
    metric = build_metric("rome/paper")
    same, changed = metric.score([ACTIVE, OTHER_NUMBER], [ACTIVE, ACTIVE])
    assert 0 <= changed < same <= 1
