"""Run a suite: build cases (reference, original, variant), score each metric once, check.

A :class:`SuiteRun` is lazy: the cases are built on first use, and each metric is built
and scored only when one of its checks is asked for, so ``pytest -k bleu`` never loads an
encoder. Scores go through the one engine (:mod:`rome.core.engine`) and the on-disk
:class:`ScoreCache`, chunk by chunk.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from perturbations.base import Perturbation
from rome.core.cache import ScoreCache, default_cache_path
from rome.core.contract import Metric
from rome.core.engine import CHUNK_SIZE, FitCorpus, ScoringEngine, cache_signature  # noqa: F401  (CHUNK_SIZE: re-exported)
from rome.core.errors import InputError, NotApplicableError
from suites.harness.cases import UNLIMITED, BuildStats, Case, build_cases, challenge_cases
from suites.harness.checks import Calibration, CaseScores, CheckResult, MetricInfo
from suites.harness.spec import Suite
from suites.harness.validity import CardMatch, card_folders, match_cases, validity_record


def applies(check: Any, case: Case) -> bool:
    """Whether a case check covers ``case``: by expectation, or by the whole case when the check says how."""
    by_case = getattr(check, "applies_to_case", None)
    return by_case(case) if callable(by_case) else check.applies_to(case.expectation)


class SuiteRun:
    """One suite run: lazy cases, per-metric scores (cached on disk) and check results."""

    def __init__(
        self,
        suite: Suite,
        n: int | None = None,
        metrics: Sequence[str] | None = None,
        cache: ScoreCache | None = None,
    ) -> None:
        if n is not None:
            suite = suite.configured(n=n)
        self.suite = suite
        self.n = int(suite.n or UNLIMITED)
        self.metric_names = suite.metric_names(metrics)
        self.cache = cache if cache is not None else ScoreCache(default_cache_path())
        self._cases: list[Case] | None = None
        self._corpus: FitCorpus | None = None
        self._perturbation: Perturbation | None = None
        self.build_stats: BuildStats | None = None
        self._metrics: dict[str, Metric] = {}
        self._scores: dict[str, dict[tuple[str, str], float]] = {}
        self._results: dict[tuple[str, str], CheckResult] = {}
        self._controls: dict[str, str] | None = None
        self.timings: dict[str, float] = {}
        #: metrics left out of this run and why (e.g. a model or an optional package missing)
        self.unavailable: dict[str, str] = {}
        #: the suite and the texts as the user named them (for the commands the summary prints)
        self.suite_spec: str = suite.name
        self.data_spec: str | None = None
        self._card_match = None
        self._judged: dict[tuple[str, str], CheckResult] = {}

    # -- cases ---------------------------------------------------------------------------
    @property
    def perturbation(self) -> Perturbation:
        if self._perturbation is None:
            self._perturbation = self.suite.build_perturbation()
        return self._perturbation

    def build_perturbation_description(self) -> dict[str, Any]:
        if self.suite.direct_cases:
            return {"kind": "none", "cases": "minimal pairs from the data (original = good, variant = bad)"}
        return self.perturbation.describe()

    @property
    def cases(self) -> list[Case]:
        if self._cases is None:
            start = time.perf_counter()
            if self.suite.direct_cases:
                self._cases, self.build_stats = challenge_cases(self.suite, self.n)
            else:
                self._cases, self.build_stats = build_cases(self.suite, self.n, self.cache, self.perturbation)
            self.timings["cases"] = time.perf_counter() - start
            if not self._cases:
                tried = self.build_stats.texts_tried
                raise NotApplicableError(f"suite {self.suite.name!r} does not apply to {self.suite.corpus}: the "
                                         f"perturbation changed none of the {tried} texts tried", tried)
        return self._cases

    def _pairs(self) -> list[tuple[str, str]]:
        """Every (hypothesis, reference) pair the suite needs, in a stable order, no duplicates."""
        pairs = [(c.original, c.reference) for c in self.cases] + [(c.variant, c.reference) for c in self.cases]
        for check in self.suite.functionality_checks:
            pairs += [(hyp, ref) for ref, hyp in check.pairs]
        return list(dict.fromkeys(pairs))

    # -- controls (the scale-free checks' unit, suites.harness.checks.Calibration) -----------
    @property
    def controls(self) -> dict[str, str]:
        """case_id -> its meaning-destroying control: the original of another case, sharing no text with it.

        The cases are walked in their seeded order; case i takes the first case from i + n/2 on
        (cyclically) whose original and reference differ from case i's original and reference, so
        the control is an unrelated text of the same corpus and the choice needs no extra seed.
        A case with no such partner (a one-text sample) has no control.
        """
        if self._controls is None:
            cases, self._controls = self.cases, {}
            for i, case in enumerate(cases):
                own = {case.original, _first(case.reference)}
                for k in range(len(cases) // 2, len(cases) // 2 + len(cases)):
                    other = cases[(i + k) % len(cases)]
                    if other.original not in own and _first(other.reference) not in own:
                        self._controls[case.case_id] = other.original
                        break
        return self._controls

    # -- validity: this run's cases matched to the perturbation's card (suites.harness.validity) -------------
    @property
    def card_match(self) -> CardMatch | None:
        """This run's own cases matched to the judgements of its perturbation's card: nothing is drawn again."""
        if self._card_match is None and not self.suite.direct_cases:
            self._card_match = match_cases(self.suite, self.cases, card_folders())
        return self._card_match

    @property
    def judged_cases(self) -> list[Case]:
        """This run's cases a reader judged valid (invariant) or intended (decrease): the cases of the rows'
        judged verdicts."""
        return [] if self.suite.direct_cases else self.card_match.good_cases()

    def validity_record(self) -> dict[str, Any]:
        """The summary's validity (:func:`suites.harness.validity.validity_record`), the same under both runners."""
        return validity_record(self.suite, self.cases, self.data_spec, self.suite_spec, self.card_match)

    def judged_result(self, metric: str, check_name: str) -> CheckResult | None:
        """Check ``check_name`` of ``metric`` on the reader-judged good cases of its expectation, with the row's
        calibration (the same scale-free unit and threshold as on all cases); ``None`` for fixed-pair checks."""
        check = next((c for c in self.suite.case_checks if c.name == check_name), None)
        if check is None:
            return None
        key = (metric, check_name)
        if key not in self._judged:
            scores = self.scores(metric)
            cases = [CaseScores(c.case_id, scores[(c.original, c.reference)], scores[(c.variant, c.reference)])
                     for c in self.judged_cases if applies(check, c)]
            self._judged[key] = check.evaluate(self.info(metric), cases, calibration=self.calibration(metric))
        return self._judged[key]

    def _control_pairs(self) -> list[tuple[str, str]]:
        """(control, reference) per case: scored with the case pairs, but not part of the fitting corpus."""
        return list(dict.fromkeys((self.controls[c.case_id], c.reference) for c in self.cases
                                  if c.case_id in self.controls))

    def calibration(self, name: str) -> Calibration:
        """Metric ``name``'s units on this suite's data (fitted on every case, all checks share it)."""
        return Calibration.fit(self.info(name), self.case_scores(name))

    # -- metrics -------------------------------------------------------------------------
    def metric(self, name: str) -> Metric:
        if name not in self._metrics:
            from rome.core.registry import build_metrics

            options = dict(self.suite.metric_options)
            self._metrics[name] = build_metrics([name], options.pop("model", None), **options)[name]
        return self._metrics[name]

    def info(self, name: str) -> MetricInfo:
        return MetricInfo.of(name, self.metric(name))

    def corpus(self) -> FitCorpus:
        """What idf-like metrics are fitted on (the engine's corpus rule): every pair of this run; for a
        challenge set, every pair of every usable item read, as in ``rome challenge``, so a pair gets one
        score whether a sample or the whole set is run, under pytest or the command."""
        if self._corpus is None:
            if self.suite.direct_cases:
                self._corpus = self.suite.data.corpus()
            else:
                self._corpus = FitCorpus.of(f"suite {self.suite.name}: every pair of its {len(self.cases)} cases",
                                         self._pairs())
        return self._corpus

    def signature(self, name: str) -> str:
        """The metric's signature as cached: with the suite corpus's fingerprint when idf-like."""
        return cache_signature(self.metric(name), self.corpus())

    def scores(self, name: str) -> dict[tuple[str, str], float]:
        """Score of every needed (hypothesis, reference) pair under metric ``name``, through the one engine.

        Batch-dependent metrics are fitted on the whole suite corpus, as their cache key says.
        """
        if name in self._scores:
            return self._scores[name]
        start = time.perf_counter()
        corpus = self._pairs()
        in_corpus = set(corpus)
        # controls and the reader-judged cases: scored with the same fit, not fitted on
        extra = self._control_pairs() + [p for c in self.judged_cases for p in ((c.original, c.reference),
                                                                                  (c.variant, c.reference))]
        pairs = corpus + [p for p in dict.fromkeys(extra) if p not in in_corpus]
        metric = self.metric(name)
        engine = ScoringEngine({name: metric}, self.cache, chunk_size=CHUNK_SIZE)
        if metric.needs_reference:
            values = engine.score(pairs, self.corpus())[name].tolist()
        else:  # reference-free: each text scored once, alone
            texts = list(dict.fromkeys(h for h, _ in pairs))
            alone = dict(zip(texts, engine.score([(t, None) for t in texts], self.corpus())[name].tolist()))
            values = [alone[h] for h, _ in pairs]
        self._scores[name] = dict(zip(pairs, [float(v) for v in values]))
        self.timings[name] = time.perf_counter() - start
        return self._scores[name]

    def case_scores(self, name: str) -> list[CaseScores]:
        scores, controls = self.scores(name), self.controls
        return [CaseScores(c.case_id, scores[(c.original, c.reference)], scores[(c.variant, c.reference)],
                           scores[(controls[c.case_id], c.reference)] if c.case_id in controls else None)
                for c in self.cases]

    # -- checks --------------------------------------------------------------------------
    def result(self, metric: str, check_name: str) -> CheckResult:
        key = (metric, check_name)
        if key not in self._results:
            check = next((c for c in self.suite.checks if c.name == check_name), None)
            if check is None:
                raise InputError(f"suite {self.suite.name!r} has no check {check_name!r}")
            info = self.info(metric)
            if hasattr(check, "applies_to"):
                wanted = {c.case_id for c in self.cases if applies(check, c)}
                self._results[key] = check.evaluate(info, [s for s in self.case_scores(metric) if s.case_id in wanted],
                                                    calibration=self.calibration(metric))
            else:
                scores = self.scores(metric)
                self._results[key] = check.evaluate(info, [scores[(hyp, ref)] for ref, hyp in check.pairs])
        return self._results[key]

    def run_all(self) -> dict[str, dict[str, CheckResult]]:
        return {m: {c.name: self.result(m, c.name) for c in self.suite.checks} for m in self.metric_names}

    def scored_metrics(self) -> list[str]:
        """Metrics scored in this run so far, in the suite's order."""
        return [m for m in self.metric_names if m in self._scores] + [
            m for m in self._scores if m not in self.metric_names]

    def case(self, case_id: str) -> Case | None:
        return next((c for c in self.cases if c.case_id == case_id), None)


def _first(reference: str | Sequence[str]) -> str:
    return reference if isinstance(reference, str) else reference[0]


def failure_message(run: SuiteRun, result: CheckResult) -> str:
    """What a failing check says: the rule, the pass rate, and the worst cases with their texts."""
    if result.n == 0:
        return f"{result.metric}[{result.check}]: no cases with this check's expectation in the sample"
    lines = [f"{result.metric}[{result.check}]: {result.pass_rate:.1%} of {result.n} passed; "
             f"required: {result.requirement}", "worst cases:"]
    for worst in result.worst:
        case = run.case(worst["case_id"])
        mark = "ok  " if worst["passed"] else "FAIL"
        if case is None:  # a minimum-functionality pair
            lines.append(f"  {mark} {worst['case_id']}: score {worst['score']:.4g} (margin {worst['margin']:+.4g})")
            lines.append(f"       reference: {worst['reference']}")
            lines.append(f"       hypothesis: {worst['variant']}")
            continue
        lines.append(f"  {mark} {case.case_id}: original {worst['original']:.4g} -> variant "
                     f"{worst['variant']:.4g} (delta {worst['delta']:+.4g})")
        lines.append(f"       reference: {case.reference}")
        lines.append(f"       original:  {case.original}")
        lines.append(f"       variant:   {case.variant}")
    return "\n".join(lines)


def open_run(
    suite: Suite | str,
    *,
    data: str | None = None,
    n: int | None = None,
    seed: int | None = None,
    metrics: Sequence[str] | None = None,
    cache: ScoreCache | None = None,
    no_cache: bool = False,
    max_texts: int | None = None,
) -> SuiteRun:
    """The one way ``rome suite``, ``pytest suites/X.py`` and ``rome challenge`` start a run: the suite
    (by name, path or object) on ``data`` (a shipped corpus or a file) with its sample overridden by
    ``n`` / ``seed`` / ``max_texts``, and the score cache (the user's, or memory only)."""
    from suites.harness.spec import load_suite

    given = suite
    if isinstance(suite, str):
        suite = load_suite(suite)
    suite = suite.configured(data=data, n=n, seed=seed, max_texts=max_texts)
    if cache is None:
        cache = ScoreCache(None if no_cache else default_cache_path())
    run = SuiteRun(suite, metrics=metrics, cache=cache)
    run.data_spec = data
    if isinstance(given, str):
        run.suite_spec = given
    return run


def extras_required() -> bool:
    """``ROME_REQUIRE_EXTRAS=1`` (tox): the install promised every metric, so a missing one is an error."""
    import os

    return os.environ.get("ROME_REQUIRE_EXTRAS", "").strip() not in ("", "0", "false", "no")


def score_metric(run: SuiteRun, metric: str, required: bool = False) -> str | None:
    """Evaluate every check of ``metric``; ``None`` when done, else why the metric is left out (a model,
    weights or optional package missing), recorded in ``run.unavailable``. ``required``: raise instead
    (pytest under ``ROME_REQUIRE_EXTRAS``, where the install promised every metric)."""
    from rome.core.errors import ResourceMissingError

    try:
        for check in run.suite.checks:
            run.result(metric, check.name)
    except ResourceMissingError as exc:
        if required:
            raise
        run.unavailable[metric] = str(exc)
        return str(exc)
    return None
