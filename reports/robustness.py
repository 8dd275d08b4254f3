"""Robustness report: the suites' outputs in the RoMe paper's Table 7 layout.

Reads ``<source>/<suite>/summary.json`` and ``cases.jsonl`` as written by
``suites.harness.outputs`` (rows: each suite's checks; columns: metrics; cells: pass rate with its
Wilson 95 % interval, the median change in the check's unit and the median raw change), with the validity of the perturbation behind each row (its judged card,
:mod:`suites.harness.validity`, as the run recorded it): rows below 0.85 are marked uninformative on all
cases; beside each case check's row, a "(judged)" row gives the same check on the cases a reader judged
valid or intended (informative with n >= 30, whatever the validity), and RoMe cells whose damage family
is among its scorer's training negatives carry a dagger, and cells of a metric that runs on a model the
perturbation chose its variants with (its judge) a double dagger. With human annotations of the perturbed cases (JSONL keyed by
``case_id`` with fluency, semantics, grammar on 1-3, several lines per case averaged), adds
each metric's Spearman ρ with each criterion over the annotated cases, per suite and pooled.
:func:`comparison_table` compares two metrics on the same cases (exact McNemar per row, Holm over
the rows): a difference without a significant test is a tie.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from reports import plots
from reports.stats import coefficient, holm, mcnemar_exact, wilson_interval
from reports.tables import Table, provenance, write_all
from reports.validity import INFORMATIVE, JUDGED_MIN_N, UNMEASURED, VALIDITY_MIN_N, CardStatus
from rome.core.errors import InputError
from rome.core.jsonl import load_json_file, read_jsonl
from rome.core.numbers import fmt, signed
from rome.core.paths import output_dir
from suites.harness.outputs import recorded_models

CRITERIA = ("fluency", "semantics", "grammar")
ALL = "all suites"


def default_source() -> Path:
    """Where the suites write: ``ROME_OUT`` or ``./rome-out``."""
    return output_dir()


@dataclass
class SuiteOutput:
    name: str
    path: Path
    summary: dict[str, Any]
    cases: list[dict[str, Any]]

    @property
    def metrics(self) -> list[str]:
        return list(self.summary.get("checks", {}))

    @property
    def corpus(self) -> str:
        """The texts the cases came from (outputs written before corpora existed ran on the dialogue texts)."""
        return str(self.summary.get("corpus") or "dialogue")

    @property
    def run(self) -> str:
        """The output folder's name: what tells two runs of one suite on one corpus apart."""
        return self.path.name

    @property
    def applicable(self) -> bool:
        """False when the perturbation changed none of the texts tried (the summary says so, with no check)."""
        return self.summary.get("applicable") is not False


@dataclass
class RobustnessReport:
    source: Path
    suites: list[SuiteOutput]
    annotations: dict[str, dict[str, float]] = field(default_factory=dict)
    annotation_source: str = ""
    #: suites whose perturbation changed none of the texts tried (``rome suite`` exit 3): no row, one note each
    not_applicable: list[SuiteOutput] = field(default_factory=list)

    @property
    def metrics(self) -> list[str]:
        return list(dict.fromkeys(m for s in self.suites for m in s.metrics))

    @property
    def corpora(self) -> list[str]:
        return list(dict.fromkeys(s.corpus for s in self.suites))

    @property
    def repeated(self) -> bool:
        """Whether two outputs hold the same suite on the same corpus (then each row names its run)."""
        keys = [(s.corpus, s.name) for s in self.suites]
        return len(set(keys)) < len(keys)

    @property
    def key_columns(self) -> tuple[str, ...]:
        """:data:`KEY_COLUMNS`, plus ``run`` (the output folder) when the outputs hold several runs of one suite."""
        return (*KEY_COLUMNS, "run") if self.repeated else KEY_COLUMNS

    def on_corpus(self, corpus: str) -> RobustnessReport:
        """The same report restricted to the suites run on ``corpus``."""
        from dataclasses import replace

        return replace(self, suites=[s for s in self.suites if s.corpus == corpus],
                       not_applicable=[s for s in self.not_applicable if s.corpus == corpus])


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


#: what each kind of field of a suite's outputs must hold (``None`` is accepted for every optional field)
_KINDS = {
    "rate": ("a number from 0 to 1", lambda v: _is_number(v) and 0 <= v <= 1),
    "count": ("a whole number >= 0", lambda v: isinstance(v, int) and not isinstance(v, bool) and v >= 0),
    "number": ("a number", _is_number),
    "text": ("a string", lambda v: isinstance(v, str)),
    "flag": ("true or false", lambda v: isinstance(v, bool)),
    "object": ("an object", lambda v: isinstance(v, dict)),
    "texts": ("a list of strings", lambda v: isinstance(v, list) and all(isinstance(x, str) for x in v)),
}
_SUMMARY = {"suite": "text", "corpus": "text", "signatures": "object", "checks": "object", "coverage": "object",
            "validity": "object", "perturbation": "object", "data": "object", "check_expectations": "object",
            "trained_on_families": "object", "judged": "object", "applicable": "flag", "code": "text"}
_STATS = {"pass_rate": "rate", "n": "count", "passes": "count", "median_change": "number", "median_delta": "number",
          "mean_delta": "number", "worst_delta": "number", "unit": "text", "requirement": "text", "passed": "flag"}
_COVERAGE = {"changed_share": "rate", "texts_tried": "count", "distinct_edits": "count", "top_edit_share": "rate"}
_VALIDITY = {"card": "text", "published": "flag", "corpus": "text", "fingerprint": "text"}
_SCORE = {"original": "number", "variant": "number", "delta": "number", "control": "number"}


def _check_fields(obj: dict[str, Any], kinds: dict[str, str], where: str, prefix: str = "") -> None:
    """One-line InputError naming the first field of ``obj`` that is not of its kind (a tampered output)."""
    for key, kind in kinds.items():
        value = obj.get(key)
        what, ok = _KINDS[kind]
        if value is not None and not ok(value):
            shown = repr(value) if len(repr(value)) <= 60 else repr(value)[:57] + "..."
            raise InputError(f"{where}: {prefix}{key} is {shown}, not {what} (not as rome suite writes it; "
                             "edited by hand?)")


def _check_summary(summary: Any, where: str) -> None:
    """The fields of a summary.json the report reads, each of its kind; else one line naming the field."""
    if not isinstance(summary, dict):
        raise InputError(f"{where}: expected a JSON object (a suite summary), got {type(summary).__name__}")
    for key in ("suite", "signatures", "checks"):
        if key not in summary:
            raise InputError(f"{where}: missing {key!r} (not a suite summary)")
    _check_fields(summary, _SUMMARY, where)
    for name, part, kinds in (("coverage", summary.get("coverage"), _COVERAGE),
                              ("validity", summary.get("validity"), _VALIDITY)):
        _check_fields(part or {}, kinds, where, f"{name}.")
    _check_fields(summary.get("perturbation") or {}, {"kind": "text"}, where, "perturbation.")
    _check_fields(summary["signatures"], dict.fromkeys(summary["signatures"], "text"), where, "signatures.")
    _check_fields(summary.get("check_expectations") or {}, dict.fromkeys(summary.get("check_expectations") or {}, "text"),
                  where, "check_expectations.")
    families = summary.get("trained_on_families") or {}
    _check_fields(families, dict.fromkeys(families, "texts"), where, "trained_on_families.")
    judged = summary.get("judged") or {}
    for metric, checks in judged.items():
        _check_fields(judged, {metric: "object"}, where, "judged.")
        for check, stats in checks.items():
            _check_fields(checks, {check: "object"}, where, f"judged.{metric}.")
            _check_fields(stats or {}, {**_STATS, "outcomes": "object"}, where, f"judged.{metric}.{check}.")
            outcomes = (stats or {}).get("outcomes") or {}
            _check_fields(outcomes, dict.fromkeys(outcomes, "flag"), where, f"judged.{metric}.{check}.outcomes.")
    for metric, checks in summary["checks"].items():
        _check_fields(summary["checks"], {metric: "object"}, where, "checks.")
        for check, stats in checks.items():
            _check_fields(checks, {check: "object"}, where, f"checks.{metric}.")
            _check_fields(stats or {}, _STATS, where, f"checks.{metric}.{check}.")


def _check_case(case: dict[str, Any], where: str) -> None:
    if "case_id" not in case or not isinstance(case.get("scores"), dict):
        raise InputError(f"{where}: a case needs 'case_id' and 'scores'")
    for metric, score in case["scores"].items():
        _check_fields(case["scores"], {metric: "object"}, where, "scores.")
        _check_fields(score, _SCORE, where, f"scores.{metric}.")
    checks = case.get("checks") or {}
    _check_fields(case, {"checks": "object"}, where)
    for metric, verdicts in checks.items():
        _check_fields(checks, {metric: "object"}, where, "checks.")
        _check_fields(verdicts, dict.fromkeys(verdicts, "flag"), where, f"checks.{metric}.")


def load_suite(directory: Path) -> SuiteOutput:
    """One suite's outputs, every field the report reads checked (JSON limits, kinds): a tampered or foreign
    file is a one-line error naming the file and field, never a traceback or a "nan%" cell."""
    summary_path, cases_path = directory / "summary.json", directory / "cases.jsonl"
    summary = load_json_file(summary_path)
    _check_summary(summary, str(summary_path))
    cases = []
    if cases_path.exists():
        for number, case in read_jsonl(cases_path):
            _check_case(case, f"{cases_path}:{number}")
            cases.append(case)
    return SuiteOutput(str(summary["suite"]), directory, summary, cases)


def load_suites(source: Path, names: list[str] | None = None) -> list[SuiteOutput]:
    """Every suite under ``source`` that has a ``summary.json`` (or the ``names`` given), sorted."""
    source = Path(source)
    if names:
        missing = [n for n in names if not (source / n / "summary.json").is_file()]
        if missing:
            raise InputError(f"no outputs for suite {missing[0]!r} in {source} (run: rome suite {missing[0]})")
        dirs = [source / n for n in names]
    else:
        # a hidden folder is a run still being written (rome.core.files.output_folder), not a suite
        dirs = sorted(p.parent for p in source.glob("*/summary.json") if not p.parent.name.startswith("."))
    if not dirs:
        raise InputError(f"no suite outputs (*/summary.json) in {source}; run the suites first (rome suite NAME)")
    return [load_suite(d) for d in dirs]


def _ratings(obj: dict[str, Any], where: str) -> dict[str, float]:
    source = obj.get("ratings", obj)
    found = {}
    for criterion in CRITERIA:
        if criterion in source and source[criterion] is not None:
            value = source[criterion]
            if isinstance(value, bool) or not isinstance(value, int | float) or not 1 <= value <= 3:
                raise InputError(f"{where}: {criterion} must be a rating from 1 to 3, got {value!r}")
            found[criterion] = float(value)
    if not found:
        raise InputError(f"{where}: no rating ({', '.join(CRITERIA)}) in the line")
    return found


def annotation_key(case_id: object, suite: object = None) -> str:
    """``suite/case_id`` when the suite is known: suites may reuse a source sentence's case id."""
    return f"{suite}/{case_id}" if suite else str(case_id)


def load_annotations(path: Path) -> dict[str, dict[str, float]]:
    """``[suite/]case_id -> {criterion: mean rating}``; several annotators of one case are averaged.

    A line may name its ``suite``; without one, its ratings apply to that case id in any suite.
    """
    collected: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for number, obj in read_jsonl(path):
        where = f"{path}:{number}"
        if "case_id" not in obj:
            raise InputError(f"{where}: missing 'case_id'")
        for criterion, value in _ratings(obj, where).items():
            collected[annotation_key(obj["case_id"], obj.get("suite"))][criterion].append(value)
    if not collected:
        raise InputError(f"{path}: no annotations")
    return {case: {c: float(np.mean(v)) for c, v in crits.items()} for case, crits in collected.items()}


def build_report(source: Path, suites: list[str] | None = None, annotations: Path | None = None) -> RobustnessReport:
    loaded = load_suites(Path(source), suites)
    report = RobustnessReport(Path(source), [s for s in loaded if s.applicable],
                              not_applicable=[s for s in loaded if not s.applicable])
    if annotations is not None:
        report.annotations = load_annotations(annotations)
        report.annotation_source = str(annotations)
        if not _annotated(report.suites, report):
            raise InputError(f"{annotations}: none of its case_ids is in the suites' cases.jsonl")
    return report


# -- tables ---------------------------------------------------------------------------------
#: the columns that name a row: the texts, the perturbation suite and the check
KEY_COLUMNS = ("corpus", "perturbation", "check")
ALPHA = 0.05


def passes_of(stats: dict[str, Any]) -> int:
    """Cases passed (older summaries give only the rate: rounded back from it)."""
    if stats.get("passes") is not None:
        return int(stats["passes"])
    return round(float(stats["pass_rate"]) * int(stats.get("n") or 0))


def pass_interval(stats: dict[str, Any]) -> tuple[float, float]:
    return wilson_interval(passes_of(stats), int(stats.get("n") or 0))


def _check_cell(stats: dict[str, Any] | None) -> str:
    """``72% [65, 78] +0.08 (Δ -0.025)``: pass rate [Wilson 95 %], median change in the check's unit
    (omitted for outputs without one), median raw change (mean for older outputs)."""
    if not stats or stats.get("pass_rate") is None:
        return "n/a"
    low, high = pass_interval(stats)
    cell = f"{stats['pass_rate']:.0%} [{low * 100:.0f}, {high * 100:.0f}]"
    if stats.get("median_change") is not None:
        cell += f" {signed(stats['median_change'])}"
    delta = stats.get("median_delta")
    delta = stats.get("mean_delta") if delta is None else delta
    return cell + ("" if delta is None else f" (Δ {signed(delta, 3)})")


def row_key(report: RobustnessReport, suite: SuiteOutput, check: str) -> list[str]:
    """The values of the report's key columns for one row.

    Several runs of one suite on one corpus (other seeds, samples, metrics) stay separate rows, each naming
    its output folder: pooling them would count a text drawn by both twice and narrow every interval, and a
    verdict belongs to the configuration that produced it.
    """
    return [suite.corpus, suite.name, check, *([suite.run] if report.repeated else [])]


def coverage_cell(suite: SuiteOutput) -> str:
    """``7% of 286 · 150 edits · top 2%``: the share of texts tried the perturbation changed, the distinct
    edits among the cases and the share of the most frequent one (``–`` for a published challenge set)."""
    cov = suite.summary.get("coverage") or {}
    if (suite.summary.get("validity") or {}).get("published") or not cov.get("texts_tried"):
        return "–"
    return (f"{cov['changed_share']:.0%} of {cov['texts_tried']} · {cov['distinct_edits']} edits · "
            f"top {cov['top_edit_share']:.0%}")


def suite_checks(suite: SuiteOutput) -> list[str]:
    return list(dict.fromkeys(c for m in suite.metrics for c in suite.summary["checks"][m]))


def _units_used(report: RobustnessReport) -> dict[str, set[str]]:
    used: dict[str, set[str]] = defaultdict(set)
    for suite in report.suites:
        for checks in suite.summary["checks"].values():
            for check, stats in checks.items():
                if isinstance(stats, dict) and stats.get("unit") and stats.get("median_change") is not None:
                    used[stats["unit"]].add(f"{suite.name}/{check}")
    return used


UNIT_NOTES = {
    "control": "control: 1 = the metric's median drop, on that suite's cases, from the original to an unrelated "
               "text of the suite against the same reference (scale-free)",
    "spread": "spread: 1 = the standard deviation of the metric's scores of the suite's originals (scale-free)",
    "quantile": "quantile: the change in the originals' score distribution, 0..1 (scale-free)",
    "range": "range: a fraction of the metric's declared range (the paper's check; SCALE-DEPENDENT: an affine "
             "rescaling of the metric changes its verdicts)",
}


def provenance_notes(report: RobustnessReport) -> list[str]:
    notes = [f"Source: {report.source}"]
    for suite in report.suites:
        data = suite.summary.get("data", {})
        shown = {k: data[k] for k in ("source", "datasets", "path", "n_cases", "seed") if k in data}
        run = f" (run {suite.run})" if report.repeated else ""
        notes.append(f"Suite {suite.name}{run}: {len(suite.cases)} cases, data {json.dumps(shown, ensure_ascii=False)}")
    signatures: dict[str, set[str]] = defaultdict(set)
    for suite in report.suites:
        for metric, sig in suite.summary.get("signatures", {}).items():
            signatures[metric].add(str(sig))
    notes += [f"Signature {m}: {' / '.join(sorted(s))}" for m, s in signatures.items()]
    versions: dict[str, int] = defaultdict(int)
    for suite in [*report.suites, *report.not_applicable]:
        versions[str(suite.summary.get("code") or "an unrecorded code version")] += 1
    notes += [f"{count} suite output{'s' if count > 1 else ''} produced by rome suite, {version}"
              for version, count in versions.items()]
    notes += [f"Not applicable: {s.name} on {s.corpus} (the perturbation changed none of the "
              f"{(s.summary.get('coverage') or {}).get('texts_tried', '?')} texts tried)" for s in report.not_applicable]
    notes.append(f"Produced by rome report robustness, {provenance()}")
    return notes


#: the validity cell of a challenge set's rows: its pairs were made and checked by its authors
PUBLISHED = "published set"
TRAINED_MARK = "†"
TRAINED_NOTE = (f"{TRAINED_MARK} RoMe's scorer or grammar classifier was trained on this family of damage (their "
                "training negatives; on a DEMETR row: on at least one of the tier's categories)")


def row_validity(suite: SuiteOutput, check: str) -> CardStatus | None:
    """The validity of the perturbation behind one row, as the run recorded it (its card matched to the code
    that drew the cases, :func:`suites.harness.validity.validity_record`); ``None`` for checks without an
    expectation (fixed minimum-functionality pairs). A run that recorded no card state is UNMEASURED."""
    expectation = _row_expectation(suite, check)
    if expectation is None:
        return None
    recorded = suite.summary.get("validity") or {}
    if recorded.get("published"):
        return None
    card = recorded.get("card") or (suite.summary.get("perturbation") or {}).get("kind") or "?"
    state = (recorded.get("states") or {}).get(expectation)
    return CardStatus.from_dict(card, expectation, state) if isinstance(state, dict) else CardStatus(
        card, expectation, UNMEASURED)


def _row_expectation(suite: SuiteOutput, check: str) -> str | None:
    expectations = suite.summary.get("check_expectations")
    return expectations.get(check) if expectations else _expectation_of(suite, check)


def row_estimate(suite: SuiteOutput, check: str) -> dict[str, Any] | None:
    """The perturbation's own estimate of the row's validity (mean ``p_valid`` over its cases), when it gives one."""
    expectation = _row_expectation(suite, check)
    state = ((suite.summary.get("validity") or {}).get("states") or {}).get(expectation) if expectation else None
    estimate = state.get("estimated") if isinstance(state, dict) else None
    return estimate if isinstance(estimate, dict) and _is_number(estimate.get("mean")) else None


def _expectation_of(suite: SuiteOutput, check: str) -> str | None:
    """Outputs written before ``check_expectations`` existed: the expectation of the cases the check judged."""
    judged = {c.get("expectation") for c in suite.cases
              if any(check in per_metric for per_metric in c.get("checks", {}).values())}
    return next(iter(judged)) if len(judged) == 1 else None


def validity_cell(status: CardStatus | None, estimate: dict[str, Any] | None = None) -> str:
    if status is None:
        return "–"
    cell = status.cell() + (" **uninformative**" if status.informative is False else "")
    if estimate:
        cell += f"; estimated {estimate['mean']:.0%} (n={estimate.get('n', '?')}, an estimate)"
    return cell


#: the check column of a row on the reader-judged cases
JUDGED_SUFFIX = " (judged)"


def judged_stats(suite: SuiteOutput, metric: str, check: str) -> dict[str, Any] | None:
    """A check's result on the reader-judged good cases as the run recorded it (``None``: not recorded)."""
    stats = ((suite.summary.get("judged") or {}).get(metric) or {}).get(check)
    return stats if isinstance(stats, dict) else None


def judged_validity_cell(n: int) -> str:
    """The validity cell of a judged row: every case was judged good by a reader; informative from n >= 30."""
    if n >= JUDGED_MIN_N:
        return f"judged good by a reader (n={n}): informative"
    return f"judged good by a reader (n={n}): **uninformative** (n < {JUDGED_MIN_N})"


#: a published set's check named otherwise than the severity its categories start with (DEMETR: base_id33_...)
_TIER_OF_CHECK = {"controls": "base"}
#: DEMETR's word-removal categories: words dropped, as truncation and deletion drop them
_DEMETR_REMOVALS = ("major_id5_pp_removed", "minor_id12_conj_removed", "critical_id21_adj_adv_removed",
                    "critical_id23_noun_removed", "critical_id24_subj_removed", "critical_id25_ne_removed")
_DEMETR_SHUFFLES = ("critical_id20_shuffled", "base_id33_shuffle_trans")
#: the harness perturbation kinds and DEMETR categories each damage a metric says it was trained on resembles
#: (``Metric.trained_on_families()``: RoMe's scorer negatives, ``rome.training.negatives``, and its grammar
#: classifier's damages, ``rome.training.grammar_corruptions``). A row listed here is not unseen damage (†).
RESEMBLES: dict[str, tuple[str, ...]] = {
    "shuffle": _DEMETR_SHUFFLES,
    "entity_swap": ("critical_id9_ne_replaced", "critical_id10_numbers_replaced"),
    "truncation": _DEMETR_REMOVALS,
    "repetition": ("minor_id2_repeat4",),
    "swap": _DEMETR_SHUFFLES,
    "move": _DEMETR_SHUFFLES,
    "delete": _DEMETR_REMOVALS,
    "repeat": ("repetition", "minor_id2_repeat4"),
    "insert": ("critical_id6_addition",),
    "inflect": ("major_id18_aspect",),
}


def trained_families(trained: list[str]) -> set[str]:
    """The damage a metric was trained on (its ``trained_on_families``) with every harness kind and DEMETR
    category that damage resembles (:data:`RESEMBLES`)."""
    return {*trained, *(family for damage in trained for family in RESEMBLES.get(damage, ()))}


def _trained_on(suite: SuiteOutput, check: str, metric: str, status: CardStatus | None) -> bool:
    """Whether the metric was trained on this row's damage: the suite's perturbation kind, or for a published
    minimal-pair set (DEMETR, rows by severity) any category of the row's tier (``critical_id20_shuffled``)."""
    trained = trained_families(suite.summary.get("trained_on_families", {}).get(metric, []))
    kind = (suite.summary.get("perturbation") or {}).get("kind")
    if kind:
        return status is not None and kind in trained
    tier = _TIER_OF_CHECK.get(check, check)
    return any(family.startswith(f"{tier}_id") for family in trained)


SHARED_MARK = "‡"


def shared_note(families: set[str]) -> str:
    return (f"{SHARED_MARK} the metric runs on a model that also chose this row's variants "
            f"({', '.join(sorted(families))}): a metric built on the perturbation's judge is not fairly tested on "
            "what that judge chose")


def model_family(signature: str) -> str:
    """The model a signature or name stands for, whatever its weights' digest or hub organisation:
    ``all-mpnet-base-v2@78c0…+head@…/L6`` and ``sentence-transformers/all-mpnet-base-v2`` are one model."""
    return signature.split("@", 1)[0].rstrip("/").rsplit("/", 1)[-1].lower()


def shared_models(suite: SuiteOutput, metric: str) -> set[str]:
    """The models both ``metric`` runs on and the suite's perturbation chose its variants with (the summary's
    ``models``; outputs written before it existed: the model signatures their perturbation description records,
    and no metric's)."""
    models = suite.summary.get("models") or {}
    made_by = models.get("perturbation")
    if made_by is None:
        made_by = recorded_models(suite.summary.get("perturbation") or {})
    runs_on = (models.get("metrics") or {}).get(metric) or []
    return {model_family(m) for m in made_by if isinstance(m, str)} & {
        model_family(m) for m in runs_on if isinstance(m, str)}


def checks_table(report: RobustnessReport) -> Table:
    metrics = report.metrics
    rows, flagged, shared_seen = [], False, set()
    for suite in report.suites:
        for check in suite_checks(suite):
            per_metric = [suite.summary["checks"].get(m, {}).get(check) for m in metrics]
            n = max((s.get("n") or 0 for s in per_metric if s), default=0)
            status = row_validity(suite, check)
            marks = []
            for metric in metrics:
                mark = _trained_on(suite, check, metric, status)
                flagged |= mark
                shared = shared_models(suite, metric)
                shared_seen |= shared
                marks.append((f" {TRAINED_MARK}" if mark else "") + (f" {SHARED_MARK}" if shared else ""))
            published = bool((suite.summary.get("validity") or {}).get("published"))
            validity = PUBLISHED if published else validity_cell(status, row_estimate(suite, check))
            rows.append([*row_key(report, suite, check), str(n), validity, coverage_cell(suite),
                         *(_check_cell(stats) + mark for stats, mark in zip(per_metric, marks))])
            judged = [judged_stats(suite, m, check) for m in metrics]
            if any(judged) and status is not None:
                judged_n = max((s.get("n") or 0 for s in judged if s), default=0)
                key = row_key(report, suite, check)
                key[2] += JUDGED_SUFFIX
                rows.append([*key, str(judged_n), judged_validity_cell(judged_n), "–",
                             *(_check_cell(stats if stats and stats.get("n") else None) + mark
                               for stats, mark in zip(judged, marks))])
    requirements = {f"{s.name}/{check}: {stats['requirement']}" for s in report.suites
                    for checks in s.summary["checks"].values() for check, stats in checks.items()
                    if isinstance(stats, dict) and stats.get("requirement")}
    notes = ["Cells: pass rate of the check [Wilson 95 % interval], the median change variant − original in the "
             "check's unit (positive = the metric likes the variant more), and (Δ the median raw change in the "
             "metric's own units; TER is lower-is-better); a difference between two cells is a finding only with "
             "a paired test (`rome report robustness --compare A B`)",
             *(f"Unit {UNIT_NOTES.get(u, u)}" for u in sorted(_units_used(report))),
             f"Validity: share of the row's cases a careful reader judged to do what the check expects, among "
             f"those judged (the row's cases matched to its validity card: Wilson 95 % interval, n judged of the "
             f"row's cases; `rome validity`); below {INFORMATIVE:.2f} (with at least {VALIDITY_MIN_N} judged) the "
             "row on all cases is **uninformative**: failures there say more about the perturbation than about the "
             "metrics; UNMEASURED: none of the row's cases is judged (a row never borrows another corpus's card); "
             "\"estimated\": the perturbation's own mean estimate of its variants' validity, not a reader's judgement",
             f"Rows \"CHECK{JUDGED_SUFFIX}\": the same check (same unit, same calibration) on the row's cases a "
             "reader judged valid (invariant) or intended (decrease), each scored against its own reference. **Which figure answers \"is this metric robust to this change?\"**: the judged "
             f"row when its n >= {JUDGED_MIN_N}, whatever the kind's validity; else the row on all cases when its "
             f"validity is >= {INFORMATIVE:.2f}; else neither (judge more lines: `rome validity --draw`)",
             "Coverage: share of the corpus's texts tried that the perturbation changed, distinct edits among the "
             "row's cases, and the share of cases holding the most frequent edit",
             *([TRAINED_NOTE] if flagged else []), *([shared_note(shared_seen)] if shared_seen else []),
             *(f"Check {r}" for r in sorted(requirements)), *provenance_notes(report)]
    return Table("Robustness checks per perturbation (RoMe Table 7 layout)",
                 [*report.key_columns, "n", "validity", "coverage", *metrics], rows, notes, label="checks")


def paired_outcomes(suite: SuiteOutput, check: str, a: str, b: str) -> tuple[list[bool], list[bool]]:
    """Both metrics' verdicts on the cases of ``check`` that both were judged on (from cases.jsonl)."""
    left, right = [], []
    for case in suite.cases:
        verdicts = case.get("checks", {})
        if check in verdicts.get(a, {}) and check in verdicts.get(b, {}):
            left.append(bool(verdicts[a][check]))
            right.append(bool(verdicts[b][check]))
    return left, right


def judged_paired_outcomes(suite: SuiteOutput, check: str, a: str, b: str) -> tuple[list[bool], list[bool]]:
    """Both metrics' verdicts on the reader-judged cases of ``check`` (the summary's ``judged`` outcomes)."""
    left = (judged_stats(suite, a, check) or {}).get("outcomes") or {}
    right = (judged_stats(suite, b, check) or {}).get("outcomes") or {}
    common = [case for case in left if case in right]
    return [bool(left[c]) for c in common], [bool(right[c]) for c in common]


def comparison_table(report: RobustnessReport, a: str, b: str, alpha: float = ALPHA) -> Table:
    """Metric ``a`` against ``b`` on the same cases, per row: exact McNemar, Holm-adjusted over the rows."""
    for name in (a, b):
        if name not in report.metrics:
            raise InputError(f"--compare: no metric {name!r} in these outputs (have: {', '.join(report.metrics)})")
    if a == b:
        raise InputError("--compare needs two different metrics")
    tested = []
    for suite in report.suites:
        for check in suite_checks(suite):
            left, right = paired_outcomes(suite, check, a, b)
            if left:
                tested.append((row_key(report, suite, check), mcnemar_exact(left, right)))
            left, right = judged_paired_outcomes(suite, check, a, b)
            if left:
                key = row_key(report, suite, check)
                key[2] += JUDGED_SUFFIX
                tested.append((key, mcnemar_exact(left, right)))
    adjusted = holm([t.p_value for _, t in tested])
    rows = []
    for (key, test), p_holm in zip(tested, adjusted):
        cells = []
        for passes in (test.a_passes, test.b_passes):
            low, high = wilson_interval(passes, test.n)
            cells.append(f"{passes / test.n:.0%} [{low * 100:.0f}, {high * 100:.0f}]")
        rows.append([*key, str(test.n), *cells, signed(test.difference * 100, 1), str(test.a_only), str(test.b_only),
                     f"{test.p_value:.3g}", f"{p_holm:.3g}", test.reading(a, b, alpha, p_holm)])
    notes = [f"Paired on the same cases (cases.jsonl): {a} only / {b} only = cases one metric passes and the other "
             "fails; p: exact McNemar (two-sided binomial test on those discordant cases); p (Holm): adjusted "
             f"over the {len(rows)} rows; reading: a lead only when p (Holm) < {alpha:g}, else a tie; rows "
             f"\"CHECK{JUDGED_SUFFIX}\": the same test on the reader-judged cases",
             "Pass rates: Wilson 95 % intervals", *provenance_notes(report)]
    return Table(f"Paired comparison: {a} vs {b}",
                 [*report.key_columns, "n", a, b, "difference (points)", f"{a} only", f"{b} only", "p", "p (Holm)",
                  "reading"], rows, notes, label=f"compare-{a}-{b}".replace("/", "_"))


def ratings_of(report: RobustnessReport, case: dict[str, Any]) -> dict[str, float] | None:
    found = report.annotations.get(annotation_key(case["case_id"], case.get("suite")))
    return found if found is not None else report.annotations.get(str(case["case_id"]))


def _annotated(suites: list[SuiteOutput], report: RobustnessReport) -> list[dict[str, Any]]:
    return [c for s in suites for c in s.cases if ratings_of(report, c) is not None]


def human_correlations(report: RobustnessReport, cases: list[dict[str, Any]]) -> dict[tuple[str, str], float]:
    """(metric, criterion) -> Spearman ρ of the metric's score of the variant with the rating."""
    out = {}
    for metric in report.metrics:
        for criterion in CRITERIA:
            pairs = [(c["scores"][metric]["variant"], ratings_of(report, c)[criterion])
                     for c in cases if metric in c["scores"] and criterion in (ratings_of(report, c) or {})]
            rho = coefficient(*zip(*pairs))[0] if len(pairs) >= 3 else math.nan
            out[(metric, criterion)] = rho
    return out


def annotation_table(report: RobustnessReport) -> Table:
    metrics = report.metrics
    columns = ["perturbation", "n annotated", *(f"{m} {c[0]}" for m in metrics for c in CRITERIA)]
    rows = []
    labels = [f"{s.name} ({s.run})" if report.repeated else s.name for s in report.suites]
    for label, suites in [*((label, [s]) for label, s in zip(labels, report.suites)), (ALL, report.suites)]:
        cases = _annotated(suites, report)
        rhos = human_correlations(report, cases)
        rows.append([label, str(len(cases)), *(fmt(rhos[(m, c)]) for m in metrics for c in CRITERIA)])
    notes = ["Spearman ρ between each metric's score of the perturbed text and the human rating; "
             "f: fluency, s: semantics, g: grammar (1-3, annotators averaged); – : fewer than 3 cases or constant",
             f"Annotations: {report.annotation_source} ({len(report.annotations)} cases, "
             f"{len(report.annotations) - len(_annotated(report.suites, report))} not matched in these suites)",
             *provenance_notes(report)]
    return Table("Correlation with human judgments on perturbed texts (RoMe Table 7)", columns, rows, notes,
                 label="human")


def delta_plot(suite: SuiteOutput, out: Path) -> Path | None:
    groups: dict[str, dict[str, list[float]]] = {}
    for metric in suite.metrics:
        by_kind: dict[str, list[float]] = defaultdict(list)
        for case in suite.cases:
            score = case["scores"].get(metric)
            if score and score.get("delta") is not None:
                label = f"{case.get('kind', '?')}\n({case.get('expectation', '?')})"
                by_kind[label].append(float(score["delta"]))
        if by_kind:
            groups[metric] = dict(by_kind)
    if not groups:
        return None
    return plots.delta_boxes(groups, out / f"deltas-{suite.path.name}.png",
                             f"{suite.name} ({suite.corpus}): score change per case")


#: the fixed files of a robustness report's folder (checked before reading; the rest are checked at the end)
ROBUSTNESS_FILES = ("robustness.md", "robustness.tex", "robustness.html", "robustness-checks.csv")


def write_report(report: RobustnessReport, out: Path, compare: list[tuple[str, str]] | None = None,
                 alpha: float = ALPHA, into: Path | None = None) -> list[Path]:
    """Every corpus's rows in ``out/robustness.*`` and, when the outputs hold several corpora, each
    corpus's own table in ``out/<corpus>/robustness.*`` (a verdict is read per corpus); one folder
    written with the one folder writer (:func:`rome.core.files.output_folder`), or into ``into``, the folder a
    caller's writer holds for ``out``."""
    from rome.core.files import writing

    with writing(out, ROBUSTNESS_FILES, into) as folder:
        written = _write_tables(report, folder, compare, alpha)
        if len(report.corpora) > 1:
            for corpus in report.corpora:
                _write_tables(report.on_corpus(corpus), folder / corpus, compare, alpha, plots_too=False)
    return [out / path.relative_to(folder) for path in written]


def _write_tables(report: RobustnessReport, out: Path, compare: list[tuple[str, str]] | None, alpha: float,
                  plots_too: bool = True) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)  # a subfolder of the folder being written
    tables = [checks_table(report), *(comparison_table(report, a, b, alpha) for a, b in compare or [])]
    if report.annotations:
        tables.append(annotation_table(report))
    images = [p for p in (delta_plot(s, out) for s in report.suites) if p is not None] if plots_too else []
    written = write_all(out, "robustness", "Robustness of the metrics to perturbations", tables, into=out,
                        images=[p.name for p in images])
    return [*written, *images]
