"""Write a run's outputs to ``rome-out/<suite>/`` in the working directory (``ROME_OUT`` overrides the base).

A suite run on other texts than its declared ones (``--data news``) writes to ``rome-out/<suite>--<corpus>/``,
so the runs of one suite on several corpora sit side by side for ``rome report robustness``.

Files (the reports layer reads them):

- ``cases.jsonl``: one line per case: ``case_id, suite, kind, expectation, reference,
  original, variant, source_id, control, p_valid, scores: {metric: {original, variant, delta, control}},
  checks: {metric: {check: bool}}`` (only the checks that apply to the case's expectation).
  ``p_valid`` is the perturbation's own estimate that the variant is valid (its judge's, where it decides
  with one), ``null`` where it gives none.
  ``delta`` is variant - original in the metric's own units; ``control`` is the case's
  meaning-destroying control text and its score (the ``control`` unit, :mod:`suites.harness.checks`).
- ``cases.csv``: the same, flat (``<metric>.original``, ``<metric>.variant``, ``<metric>.delta``,
  ``<metric>.<check>``).
- ``summary.json``: ``suite, signatures: {metric: str}, data: {...}, perturbation: {...},
  checks: {metric: {check: {pass_rate, n, passes, mean_delta, median_delta, worst_delta, unit, unit_size,
  median_change, passed, requirement}}}, calibration: {metric: {control_drop, spread, ...}},
  check_expectations: {check: expectation}, corpus, sample: {n, seed}, coverage: {...}
  (:func:`suites.harness.cases.coverage`), validity: {card, corpus, states, judge}`` (the validity card
  judging this perturbation on this corpus, :func:`suites.harness.validity.validity_record`: per
  expectation, how many of the run's own cases a reader judged (``current``) or none (``UNMEASURED``), the
  validity among them, the cases left to judge, the perturbation's own estimate where it gives one, and the
  commands that judge the rest), ``code`` (the code version the run ran at), ``judged: {metric: {check: {n, passes, pass_rate,
  interval, passed, median_change, ..., informative, outcomes}}}`` (each case check on the cases a reader
  judged valid or intended, :meth:`suites.harness.runner.SuiteRun.judged_result`) and
  ``trained_on_families: {metric: [kind, ...]}`` for learned metrics that say what damage they
  were trained on; ``models: {perturbation: [signature, ...], metrics: {metric: [signature, ...]}}``: the models
  that chose the variants (:func:`perturbation_models`) and those each metric's scores come from
  (:func:`metric_models`), so a report can mark a metric tested on what its own model chose.
  ``mean_delta`` is the mean of variant - original over the check's cases, ``worst_delta``
  the delta of the case farthest from passing; for minimum-functionality checks both are
  the distance of the scores to the bound (positive = passing side).
- ``summary.md``: per metric, each check's pass rate, mean and worst change.

Only the metrics scored in the run appear (``pytest -k bleu`` writes BLEU's columns only).
"""

from __future__ import annotations

import csv
import json
import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from rome.core.errors import NotApplicableError
from rome.core.numbers import fmt, signed
from rome.core.paths import output_dir
from rome.core.version import code_version
from suites.harness.cases import coverage
from suites.harness.checks import wilson_interval
from suites.harness.runner import SuiteRun
from suites.harness.spec import Suite
from suites.harness.validity import JUDGED_MIN_N


def reports_out_dir(suite: str | Suite) -> Path:
    """``rome-out/<suite>``, or ``rome-out/<suite>--<corpus>`` for a suite run on other texts than its own."""
    if isinstance(suite, str):
        return output_dir(suite)
    own = suite.home_corpus is None or suite.corpus == suite.home_corpus
    return output_dir(suite.name if own else f"{suite.name}--{suite.corpus}")


def case_rows(run: SuiteRun) -> list[dict[str, Any]]:
    metrics = run.scored_metrics()
    per_metric = {m: {s.case_id: s for s in run.case_scores(m)} for m in metrics}
    results = {m: [run.result(m, c.name) for c in run.suite.case_checks] for m in metrics}
    rows = []
    for case in run.cases:
        scores = {m: {"original": per_metric[m][case.case_id].original,
                      "variant": per_metric[m][case.case_id].variant,
                      "delta": per_metric[m][case.case_id].delta,
                      "control": per_metric[m][case.case_id].control} for m in metrics}
        checks = {m: {r.check: r.outcomes[case.case_id] for r in results[m] if case.case_id in r.outcomes}
                  for m in metrics}
        rows.append({"case_id": case.case_id, "suite": case.suite, "kind": case.kind,
                     "expectation": case.expectation, "reference": case.reference, "original": case.original,
                     "variant": case.variant, "source_id": case.source_id,
                     "control": run.controls.get(case.case_id), "p_valid": case.p_valid, "scores": scores,
                     "checks": checks})
    return rows


def summary(run: SuiteRun, validity: dict[str, Any] | None = None) -> dict[str, Any]:
    """The run's summary, the same under ``rome suite`` and pytest; ``validity``: a record to use instead of
    the run's own (:meth:`~suites.harness.runner.SuiteRun.validity_record`)."""
    metrics = run.scored_metrics()
    return {
        "suite": run.suite.name,
        "description": run.suite.description,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "code": code_version(),
        "signatures": {m: run.signature(m) for m in metrics},
        "corpus": run.suite.corpus,
        "sample": {"n": run.suite.n, "seed": run.suite.seed,
                   **({"n_per_category": run.suite.n_per_category} if run.suite.n_per_category else {}),
                   **({"max_texts": run.suite.max_texts} if run.suite.max_texts else {})},
        "data": {**run.suite.data.describe(), **(run.build_stats.as_dict() if run.build_stats else {})},
        "coverage": coverage(run.cases, run.build_stats),
        "perturbation": run.build_perturbation_description(),
        "checks": {m: {c.name: run.result(m, c.name).summary() for c in run.suite.checks} for m in metrics},
        "check_expectations": {c.name: getattr(c, "expectation", None) for c in run.suite.checks},
        "calibration": {m: run.calibration(m).describe() for m in metrics},
        "validity": validity or run.validity_record(),
        "judged": judged_summary(run, metrics),
        "trained_on_families": trained_on_families(run, metrics),
        "models": {"perturbation": [] if run.suite.direct_cases else perturbation_models(run.perturbation),
                   "metrics": {m: metric_models(run.metric(m)) for m in metrics}},
        "unavailable": dict(run.unavailable),
        "cache": {"hits": run.cache.hits, "misses": run.cache.misses,
                  "path": str(run.cache.path) if run.cache.path else None},
        "timings_s": {k: round(v, 3) for k, v in run.timings.items()},
    }


def judged_summary(run: SuiteRun, metrics: list[str]) -> dict[str, dict[str, Any]]:
    """Per metric and case check, the verdict on the reader-judged good cases (``{}`` for a challenge set)."""
    if run.suite.direct_cases:
        return {}
    out: dict[str, dict[str, Any]] = {}
    for metric in metrics:
        for check in run.suite.case_checks:
            result = run.judged_result(metric, check.name)
            low, high = wilson_interval(result.passes, result.n)
            out.setdefault(metric, {})[check.name] = {
                **result.summary(), "interval": [low, high] if result.n else None,
                "informative": result.n >= JUDGED_MIN_N, "outcomes": dict(result.outcomes)}
    return out


def trained_on_families(run: SuiteRun, metrics: list[str]) -> dict[str, list[str]]:
    """Perturbation families each learned metric was trained on (``Metric.trained_on_families()``, e.g.
    RoMe's scorer negatives), so a report can flag rows where the metric saw this damage in training."""
    out = {}
    for name in metrics:
        method = getattr(run.metric(name), "trained_on_families", None)
        if callable(method):
            out[name] = sorted(method())
    return out


#: a model's signature as a perturbation records it in ``describe()``: ``name@<hex digest>…`` (the context
#: model's ``all-mpnet-base-v2@<weights digest>+head@<head digest>/L6``)
MODEL_SIGNATURE = re.compile(r"^[\w.\-/]+@[0-9a-f]{8,}")


def recorded_models(description: Any) -> list[str]:
    """Every model signature (:data:`MODEL_SIGNATURE`) in a perturbation's description, nested values included,
    in order, once each."""
    if isinstance(description, str):
        return [description] if MODEL_SIGNATURE.match(description) else []
    if isinstance(description, dict):
        values = list(description.values())
    else:
        values = list(description) if isinstance(description, list | tuple) else []
    return list(dict.fromkeys(found for value in values for found in recorded_models(value)))


def perturbation_models(perturbation: object) -> list[str]:
    """The models that choose or refuse a perturbation's variants (a language model judging a swap), by signature:
    its own ``models()`` where it declares them, else every model signature its ``describe()`` records. A metric
    that runs on one of them is not fairly tested on these cases (the robustness table marks its cells)."""
    method = getattr(perturbation, "models", None)
    if callable(method):
        return list(method())
    describe = getattr(perturbation, "describe", None)
    return recorded_models(describe()) if callable(describe) else []


def metric_models(metric: object) -> list[str]:
    """The models a metric's scores come from, by signature or name: its own ``models()`` where it declares them
    (GRUEN: the context model and MiniLM), else the encoder it embeds with (BERTScore, MoverScore, RoMe)."""
    method = getattr(metric, "models", None)
    if callable(method):
        return list(method())
    name = getattr(getattr(metric, "encoder", None), "name", None)
    return [name] if isinstance(name, str) else []


def _verdict(passed: bool | None) -> str:
    return "n/a" if passed is None else ("yes" if passed else "**no**")


def _fmt(value: float | None, digits: int = 3) -> str:
    return "n/a" if value is None else fmt(value, digits)


def summary_markdown(data: dict[str, Any]) -> str:
    lines = [f"# Suite `{data['suite']}`", ""]
    if data.get("description"):
        lines += [data["description"], ""]
    if data.get("applicable") is False:
        return "\n".join([*lines, f"**Not applicable**: {data.get('reason', '')}.", "",
                          f"Produced by rome suite, {data.get('code', '')}.", ""])
    d = data["data"]
    sample = data.get("sample") or {}
    lines += [f"Corpus: `{data.get('corpus', '?')}`. Cases: {d.get('n_cases', '?')} (requested "
              f"{d.get('n_requested', '?')}, seed {sample.get('seed', '?')}), data: "
              f"{json.dumps({k: d[k] for k in d if k in ('source', 'corpus', 'datasets', 'path', 'pairing')})}, "
              f"perturbation: `{json.dumps(data.get('perturbation', {}))}`", ""]
    if d.get("stopped_at_max_texts"):
        lines += [f"The sample stopped at the suite's bound of {d['stopped_at_max_texts']} texts tried "
                  f"(`--max-texts`), short of the {d.get('n_requested', '?')} cases requested.", ""]
    lines += validity_lines(data.get("validity") or {})
    cov = data.get("coverage") or {}
    if cov.get("texts_tried"):
        lines += [f"Coverage: changed {cov['texts_changed']} of {cov['texts_tried']} texts tried "
                  f"({cov['changed_share']:.1%}); {cov['distinct_edits']} distinct edits in {cov['cases']} cases, "
                  f"the most frequent in {cov['top_edit_share']:.1%} (`{cov['top_edit'][:80]}`).", ""]
    judged = data.get("judged") or {}
    lines += ["| metric | check | passed | pass rate | n | median change (unit) | median change (raw) | "
              "worst change (raw) | on reader-judged cases | requirement |", "|---|---|---|---|---|---|---|---|---|---|"]
    for metric, checks in data["checks"].items():
        for name, c in checks.items():
            rate = "n/a" if c["pass_rate"] is None else f"{c['pass_rate']:.1%}"
            change = c.get("median_change")
            in_unit = "–" if change is None else f"{signed(change, 3)} {c.get('unit', '')}"
            lines.append(f"| {metric} | {name} | {_verdict(c['passed'])} | {rate} | {c['n']} | {in_unit} | "
                         f"{_fmt(c.get('median_delta'))} | {_fmt(c['worst_delta'])} | "
                         f"{judged_cell((judged.get(metric) or {}).get(name))} | "
                         f"{c['requirement'].replace('|', chr(92) + '|')} |")
    lines += ["", "Raw changes are variant - original in each metric's own units (BLEU 0-100, others mostly 0-1); "
              "for minimum-functionality checks they are the distance to the bound. Changes in the unit: "
              "control = the metric's median drop from an original to an unrelated text of the suite "
              "(positive = the metric likes the variant more; docs/suites.md). On reader-judged cases: the same check "
              "(same unit, same calibration) on this run's cases a reader judged valid or intended (its cases matched "
              f"to the validity card's judged lines): passed, pass rate [Wilson 95 %], n; with n >= {JUDGED_MIN_N} it answers \"is this "
              "metric robust to this change?\" whatever the perturbation's overall validity.", "",
              "Signatures:", ""]
    lines += [f"- `{m}`: `{s}`" for m, s in data["signatures"].items()]
    if data.get("code"):
        lines += ["", f"Produced by rome suite, {data['code']}."]
    if data.get("unavailable"):
        lines += ["", "Left out (not available here):", ""]
        lines += [f"- `{m}`: {why}" for m, why in data["unavailable"].items()]
    return "\n".join(lines) + "\n"


def judged_cell(stats: dict[str, Any] | None) -> str:
    """``yes 85% [70, 93] n=34``: a check's verdict on the reader-judged cases (``–`` when there are none)."""
    if not stats or not stats.get("n"):
        return "–"
    if stats.get("pass_rate") is None:
        return f"n/a n={stats['n']}"
    low, high = stats.get("interval") or wilson_interval(stats["passes"], stats["n"])
    small = "" if stats["n"] >= JUDGED_MIN_N else f" (n < {JUDGED_MIN_N})"
    return (f"{_verdict(stats['passed'])} {stats['pass_rate']:.0%} [{low * 100:.0f}, {high * 100:.0f}] "
            f"n={stats['n']}{small}")


def validity_lines(record: dict[str, Any]) -> list[str]:
    """The summary's word on the perturbation's validity on these texts: each expectation's card state (and the
    perturbation's own estimate, marked as one), and where no card is current what that means and the commands
    that judge one."""
    if record.get("published"):
        return ["Validity: a published minimal-pair set (its pairs were made and checked by its authors).", ""]
    states = record.get("states") or {}
    where = f"`{record.get('card', '?')}` card on `{record.get('corpus', '?')}`"
    cells = "; ".join(f"{expectation}: {state['cell']}" + (
        f" (estimated by the perturbation: {state['estimated']['mean']:.0%} over {state['estimated']['n']} cases, "
        "an estimate, not a reader's judgement)" if state.get("estimated") else "")
        for expectation, state in states.items())
    lines = [f"Validity of the perturbation ({where}; judged lines the code still draws): {cells}."]
    if any(state["state"] == "UNMEASURED" for state in states.values()):
        lines.append("UNMEASURED: no judged card for this perturbation on these texts, so nobody has checked that "
                     "its variants do what the expectation says; a check's pass rate here measures the metric only "
                     "as far as the variants are valid.")
    if any(state["state"] == "STALE" for state in states.values()):
        lines.append("STALE: the code draws lines of the card that no reader judged (to judge next).")
    if record.get("judge"):
        lines.append("To judge a card: " + ", then ".join(f"`{command}`" for command in record["judge"])
                     + " (docs/validity.md has the rubric).")
    return [" ".join(lines), ""]


#: the files of a suite's output folder (what a run checks, before scoring, that it may replace)
SUITE_FILES = ("cases.jsonl", "cases.csv", "summary.json", "summary.md")


def write_outputs(run: SuiteRun, out_dir: str | Path | None = None, validity: dict[str, Any] | None = None,
                  into: Path | None = None) -> Path:
    """Write the four files (``validity``: as :func:`summary` takes it) with the one folder writer
    (:func:`rome.core.files.output_folder`: locked, all or nothing, never over a user's file), or into
    ``into``, the folder a caller's writer holds for the run's folder; returns the directory."""
    from rome.core.files import writing

    out = Path(out_dir) if out_dir is not None else reports_out_dir(run.suite)
    rows = case_rows(run)
    data = summary(run, validity)
    with writing(out, SUITE_FILES, into) as folder:
        with (folder / "cases.jsonl").open("w", encoding="utf-8") as handle:
            handle.writelines(json.dumps(row, ensure_ascii=False) + "\n" for row in rows)
        _write_csv(folder / "cases.csv", rows, run)
        (folder / "summary.json").write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        (folder / "summary.md").write_text(summary_markdown(data), encoding="utf-8")
    return out


def not_applicable_summary(run: SuiteRun, error: NotApplicableError) -> dict[str, Any]:
    """The summary of a run whose perturbation changed none of the texts tried: no case, no check, and why."""
    return {
        "suite": run.suite.name,
        "description": run.suite.description,
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "code": code_version(),
        "applicable": False,
        "reason": str(error),
        "signatures": {},
        "corpus": run.suite.corpus,
        "sample": {"n": run.suite.n, "seed": run.suite.seed},
        "data": {**run.suite.data.describe(), **(run.build_stats.as_dict() if run.build_stats else {})},
        "coverage": {"texts_tried": error.texts_tried, "texts_changed": 0, "changed_share": 0.0,
                     "distinct_edits": 0, "cases": 0, "top_edit": "", "top_edit_share": None},
        "perturbation": run.build_perturbation_description(),
        "checks": {},
    }


def write_not_applicable(run: SuiteRun, error: NotApplicableError, folder: Path) -> dict[str, Any]:
    """Write the summary of a suite that does not apply to its texts into ``folder`` (a folder being written
    by :func:`rome.core.files.output_folder`), so a job over every corpus records it and goes on."""
    data = not_applicable_summary(run, error)
    (folder / "cases.jsonl").write_text("", encoding="utf-8")
    (folder / "summary.json").write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    (folder / "summary.md").write_text(summary_markdown(data), encoding="utf-8")
    return data


def _write_csv(path: Path, rows: list[dict[str, Any]], run: SuiteRun) -> None:
    base = ["case_id", "suite", "kind", "expectation", "reference", "original", "variant", "source_id", "control",
            "p_valid"]
    extra = []
    for m in run.scored_metrics():
        extra += [f"{m}.original", f"{m}.variant", f"{m}.delta", f"{m}.control"]
        extra += [f"{m}.{c.name}" for c in run.suite.case_checks]
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=base + extra)
        writer.writeheader()
        for row in rows:
            flat = {k: row[k] for k in base}
            for m, s in row["scores"].items():
                flat.update({f"{m}.original": s["original"], f"{m}.variant": s["variant"], f"{m}.delta": s["delta"],
                             f"{m}.control": s["control"]})
            for m, checks in row["checks"].items():
                flat.update({f"{m}.{name}": ok for name, ok in checks.items()})
            writer.writerow(flat)
