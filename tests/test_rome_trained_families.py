"""What RoMe's learned parts were trained on, as the robustness table's † reads it (issue "ground", Claims): the
metric names its training damage in general terms, the reports map it to suites and DEMETR categories."""

from __future__ import annotations

from reports.robustness import trained_families
from rome.metric.metric import GRAMMAR_DAMAGES, RoMe
from rome.training.grammar_corruptions import DAMAGES
from rome.training.negatives import NEGATIVE_KINDS


def test_the_grammar_damages_the_metric_declares_are_those_its_classifier_was_pretrained_on():
    assert GRAMMAR_DAMAGES == DAMAGES


def test_full_rome_declares_its_scorer_and_its_grammar_classifier_families_demetr_included():
    declared = set(RoMe().trained_on_families())
    assert {"adjective", "entity", "random_word", "repetition"} <= declared  # the scorer's harness kinds
    assert declared - {"adjective", "entity", "random_word"} <= set(NEGATIVE_KINDS) | set(DAMAGES)
    assert not any("_id" in name for name in declared), "the metric names no DEMETR category"
    families = trained_families(sorted(declared))
    assert {"critical_id20_shuffled", "critical_id9_ne_replaced", "critical_id23_noun_removed",
            "minor_id2_repeat4"} <= families  # scorer: shuffle, entity swap, truncation; grammar: repeat
    assert "critical_id6_addition" in families  # grammar classifier: insert
    without_grammar = trained_families(RoMe(variant="ted").trained_on_families())
    assert "critical_id6_addition" not in without_grammar and "critical_id20_shuffled" in without_grammar
    assert RoMe(variant="emd_std").trained_on_families() == []
