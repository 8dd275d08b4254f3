"""The robustness table's double dagger: a metric that runs on the model which chose a row's variants.

A perturbation that judges its variants with a model (the context model) records the model's signature in
``describe()``; a metric names the models its scores come from (``models()``, else its encoder). The suite
writes both into summary.json and the table marks the cells where they meet.
"""

from __future__ import annotations

import json
import random

import pytest

from perturbations.base import Perturbation, Result, Variant
from reports import robustness
from suites.harness.outputs import metric_models, perturbation_models, recorded_models

CONTEXT = "all-mpnet-base-v2@78c0197b6159+head@a908ddbe353c/L6"
CELL = {"pass_rate": 0.5, "n": 10, "mean_delta": -0.1, "worst_delta": 0.2, "passed": False, "requirement": "drops"}
METRICS = ("bleu", "bertscore", "gruen")


def _suite_output(root, name: str, perturbation: dict, models: dict | None) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    summary = {"suite": name, "corpus": "dialogue", "signatures": dict.fromkeys(METRICS, "s"),
               "data": {"n_cases": 10}, "perturbation": perturbation,
               "checks": {m: {"decrease": CELL} for m in METRICS}, "check_expectations": {"decrease": "decrease"},
               "validity": {"card": perturbation["kind"], "corpus": "dialogue", "fingerprint": "f"},
               "trained_on_families": {}}
    if models is not None:
        summary["models"] = models
    (folder / "summary.json").write_text(json.dumps(summary), encoding="utf-8")


def _cells(table) -> dict[tuple[str, str], str]:
    return {(row[1], metric): cell for row in table.rows for metric, cell in zip(table.columns[6:], row[6:])}


def test_only_the_cells_of_a_metric_on_the_perturbations_model_are_marked(tmp_path):
    runs_on = {"bleu": [], "bertscore": ["all-MiniLM-L6-v2"], "gruen": [CONTEXT, "all-MiniLM-L6-v2"]}
    _suite_output(tmp_path, "judged_swap", {"kind": "textfooler", "judge": CONTEXT},
                  {"perturbation": [CONTEXT], "metrics": runs_on})
    _suite_output(tmp_path, "typos", {"kind": "typos"}, {"perturbation": [], "metrics": runs_on})
    table = robustness.checks_table(robustness.build_report(tmp_path))
    cells = _cells(table)
    assert cells["judged_swap", "gruen"].endswith(robustness.SHARED_MARK)
    assert not cells["judged_swap", "bertscore"].endswith(robustness.SHARED_MARK)  # MiniLM chose nothing here
    assert not cells["judged_swap", "bleu"].endswith(robustness.SHARED_MARK)
    assert not any(cells["typos", m].endswith(robustness.SHARED_MARK) for m in METRICS)
    notes = "\n".join(table.notes)
    assert f"{robustness.SHARED_MARK} the metric runs on a model that also chose this row's variants " \
           "(all-mpnet-base-v2)" in notes


def test_the_same_model_under_another_digest_or_hub_name_is_shared(tmp_path):
    """A BERTScore run with ``--model sentence-transformers/all-mpnet-base-v2`` reads the judge's own encoder."""
    _suite_output(tmp_path, "judged_swap", {"kind": "textfooler"},
                  {"perturbation": [CONTEXT], "metrics": {"bleu": [], "gruen": [],
                                                           "bertscore": ["sentence-transformers/all-mpnet-base-v2"]}})
    cells = _cells(robustness.checks_table(robustness.build_report(tmp_path)))
    assert cells["judged_swap", "bertscore"].endswith(robustness.SHARED_MARK)
    assert robustness.model_family(CONTEXT) == robustness.model_family("sentence-transformers/all-mpnet-base-v2")
    assert robustness.model_family("all-MiniLM-L6-v2") != robustness.model_family(CONTEXT)


def test_outputs_without_the_models_field_mark_nothing_and_say_nothing(tmp_path):
    """Written before the field existed: the perturbation's recorded signature is read, but no metric named a
    model then, so no cell is marked (and no legend line is added)."""
    _suite_output(tmp_path, "judged_swap", {"kind": "textfooler", "judge": CONTEXT}, None)
    table = robustness.checks_table(robustness.build_report(tmp_path))
    assert not any(robustness.SHARED_MARK in cell for row in table.rows for cell in row)
    assert not any(note.startswith(robustness.SHARED_MARK) for note in table.notes)


def test_model_signatures_are_found_anywhere_in_a_description():
    description = {"kind": "x", "judge": CONTEXT, "word_source": "WordNet 3.0",
                   "constraints": ["NoWordExchange", {"model": "other-model@0123456789ab"}], "n_words": 2}
    assert recorded_models(description) == [CONTEXT, "other-model@0123456789ab"]
    assert recorded_models({"kind": "typos", "rate": 0.1, "note": "an @ sign is not a model"}) == []


class _JudgedSwap(Perturbation):
    """The last two words swapped; the description records the context model, as a judged perturbation does."""

    kind = "judged_swap"

    def describe(self) -> dict:
        from baselines.context.model import get_context_model

        return {"kind": self.kind, "judge": get_context_model().signature()}

    def _apply(self, text: str, rng: random.Random) -> Result:
        words = text.split()
        if len(words) < 4:
            return Result.skip(text, "too short")
        return Result(text, (Variant(" ".join([*words[:-2], words[-1], words[-2]]), self.kind, "decrease"),))


def test_perturbations_and_metrics_declare_their_models():
    from baselines.context.model import get_context_model
    from perturbations.registry import build_perturbation
    from rome.core.registry import build_metric

    assert perturbation_models(_JudgedSwap()) == [get_context_model().signature()]
    assert perturbation_models(build_perturbation("typos")) == []  # judges nothing with a model
    assert metric_models(build_metric("bleu")) == []
    assert metric_models(build_metric("bertscore")) == ["all-MiniLM-L6-v2"]  # its encoder
    assert metric_models(build_metric("rome")) == ["all-MiniLM-L6-v2"]
    assert metric_models(build_metric("gruen/paper")) == [get_context_model().signature(), "all-MiniLM-L6-v2"]


@pytest.mark.slow
def test_a_real_suite_run_marks_the_metric_built_on_its_judge(tmp_path):
    from baselines.gruen import gruen_likelihood
    from rome.core.cache import ScoreCache
    from rome.core.registry import available_metrics, register, unregister
    from suites.harness import Decrease, Novikova, Suite
    from suites.harness.outputs import write_outputs
    from suites.harness.runner import SuiteRun

    added = "gruen/likelihood" not in available_metrics()
    if added:  # an install made before the entry point existed
        register("gruen/likelihood")(gruen_likelihood)
    try:
        suite = Suite(name="judged_swap", data=Novikova(datasets=("bagel",)), n=4, seed=0,
                      perturbation=_JudgedSwap(), metrics=["gruen/likelihood", "bleu", "bertscore"],
                      checks=[Decrease(margin=0.0, min_pass_rate=0.0)])
        run = SuiteRun(suite, cache=ScoreCache(None))
        run.run_all()
        out = write_outputs(run, tmp_path / "out" / "judged_swap")
    finally:
        if added:
            unregister("gruen/likelihood")
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["models"]["perturbation"] == [_JudgedSwap().describe()["judge"]]
    table = robustness.checks_table(robustness.build_report(tmp_path / "out"))
    cells = _cells(table)
    assert cells["judged_swap", "gruen/likelihood"].endswith(robustness.SHARED_MARK)
    assert not cells["judged_swap", "bleu"].endswith(robustness.SHARED_MARK)
    assert not cells["judged_swap", "bertscore"].endswith(robustness.SHARED_MARK)
    assert any(note.startswith(robustness.SHARED_MARK) for note in table.notes)
