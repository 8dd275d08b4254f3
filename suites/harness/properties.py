"""Property tests for metrics: hypothesis strategies over the shipped data, plus assertions.

A user checks a metric against a new perturbation in a few lines::

    @given(pair=reference_pairs(), seed=seeds())
    def test_chrf_ignores_my_perturbation(pair, seed):
        assert_invariant("chrf", MyPerturbation(), pair.reference, pair.original, seed=seed, tolerance=0.05)

Texts the perturbation leaves unchanged are discarded with ``hypothesis.assume``, so the
assertions are meant to be called inside ``@given`` tests. Thresholds mean what they mean
in suites (:mod:`suites.harness.checks`): by default fractions of the metric's drop from the
original to an unrelated control text against the same reference (here one case is all the data,
so the unit is the median drop from the original to :data:`CONTROLS` unrelated shipped sentences;
``controls=`` names your own); ``unit="range"`` gives the paper's scale-dependent check.
"""

from __future__ import annotations

import functools

from hypothesis import assume
from hypothesis import strategies as st

from perturbations.base import Perturbation
from rome.core.contract import Metric
from suites.harness.checks import (
    CONTROL,
    DEFAULT_UNIT,
    Calibration,
    CaseCheck,
    CaseScores,
    Decrease,
    Invariant,
    MetricInfo,
)
from suites.harness.data import NOVIKOVA_DATASETS, CorpusSource, Novikova, SourcePair
from suites.harness.spec import Perturb
from suites.harness.strategies import seeds, shipped_sentences

#: unrelated texts whose median drop is one unit when a property test has a single case
CONTROLS = 8

__all__ = ["assert_check", "assert_decrease", "assert_invariant", "perturbations", "reference_pairs",
           "seeds", "sentences"]


@functools.lru_cache(maxsize=8)
def _pairs(datasets: tuple[str, ...], pairing: str, corpus: str | None) -> tuple[SourcePair, ...]:
    source = CorpusSource(corpus) if corpus else Novikova(datasets=datasets, pairing=pairing)
    return tuple(source.pairs(0))


def reference_pairs(
    datasets: tuple[str, ...] = NOVIKOVA_DATASETS, pairing: str = "paraphrase", corpus: str | None = None
) -> st.SearchStrategy[SourcePair]:
    """(reference, original) pairs as the suites build them: from the Novikova et al. data, or from a
    shipped corpus by name (``corpus="news"``)."""
    return st.sampled_from(_pairs(tuple(datasets), pairing, corpus))


def sentences(datasets: tuple[str, ...] = NOVIKOVA_DATASETS) -> st.SearchStrategy[str]:
    """Single human references from the shipped data (the perturbations' own strategy)."""
    return shipped_sentences(tuple(datasets))


def perturbations(kind: str, **options: st.SearchStrategy) -> st.SearchStrategy[Perturb]:
    """Perturbation specs of one registered kind with options drawn from strategies.

    ``perturbations("random_word", max_words=st.integers(1, 3))`` draws ``Perturb`` specs;
    the ``assert_*`` helpers build them.
    """
    return st.fixed_dictionaries(options).map(lambda drawn: Perturb(kind, drawn))


@functools.lru_cache(maxsize=16)
def _metric(name: str) -> Metric:
    from rome.core.registry import build_metric

    return build_metric(name)


def unrelated_texts(reference: str, original: str, k: int = CONTROLS) -> list[str]:
    """``k`` shipped human references sharing no text with the case, picked by a hash of the case (no RNG)."""
    pool = _pairs(NOVIKOVA_DATASETS, "paraphrase", None)
    start, found = sum(map(ord, reference + original)) * 7919 % len(pool), []
    for step in range(len(pool)):
        candidate = pool[(start + step * 97) % len(pool)]
        if not {candidate.original, candidate.reference} & {reference, original, *found}:
            found.append(candidate.original)
            if len(found) == k:
                return found
    raise AssertionError("not enough unrelated texts in the shipped data")


def assert_check(
    metric: str | Metric, perturbation: Perturbation | Perturb, reference: str, original: str, check: CaseCheck,
    seed: int = 0, controls: list[str] | None = None,
) -> None:
    """Perturb ``original``; every variant with the check's expectation must pass ``check``."""
    if isinstance(perturbation, Perturb):
        perturbation = perturbation.build()
    scorer = _metric(metric) if isinstance(metric, str) else metric
    info = MetricInfo.of(metric if isinstance(metric, str) else scorer.name, scorer)
    result = perturbation.apply(original, seed)
    variants = [v for v in result.variants if check.applies_to(v.expectation) and v.text != original]
    assume(variants)
    controls = list(controls) if controls else unrelated_texts(reference, original)
    hyps = [original, *controls] + [v.text for v in variants]
    scores = [float(x) for x in scorer.score(hyps, [reference] * len(hyps))]
    calibration = Calibration.fit(info, [CaseScores(f"control-{i}", scores[0], scores[0], control)
                                         for i, control in enumerate(scores[1 : 1 + len(controls)])])
    # an original the metric scores no better than unrelated texts leaves no sensitivity to measure a change in
    assume(check.unit != CONTROL or calibration.defined(CONTROL))
    for variant, score in zip(variants, scores[1 + len(controls):]):
        case = CaseScores("property", scores[0], score)
        assert check.case_passes(info, case, calibration), (
            f"{info.name} {check.name} failed ({check.requirement(info.name)}):\n"
            f"  reference: {reference}\n  original:  {original}  -> {case.original:.4g}\n"
            f"  variant:   {variant.text}  -> {case.variant:.4g} (delta {case.delta:+.4g}; one unit: "
            f"{calibration.size(check.unit) or 0:.4g})"
        )


def assert_invariant(
    metric: str | Metric, perturbation: Perturbation | Perturb, reference: str, original: str,
    tolerance: float = 0.1, seed: int = 0, unit: str = DEFAULT_UNIT, controls: list[str] | None = None,
) -> None:
    """|score(reference, variant) - score(reference, original)| <= tolerance (in ``unit``)."""
    assert_check(metric, perturbation, reference, original, Invariant(tolerance=tolerance, unit=unit), seed, controls)


def assert_decrease(
    metric: str | Metric, perturbation: Perturbation | Perturb, reference: str, original: str,
    margin: float = 0.05, seed: int = 0, unit: str = DEFAULT_UNIT, controls: list[str] | None = None,
) -> None:
    """score(reference, variant) is worse than score(reference, original) by >= margin (in ``unit``)."""
    assert_check(metric, perturbation, reference, original, Decrease(margin=margin, unit=unit), seed, controls)
