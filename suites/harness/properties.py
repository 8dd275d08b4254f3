"""Property tests for metrics: hypothesis strategies over the shipped data, plus assertions.

A user checks a metric against a new perturbation in a few lines::

    @given(pair=reference_pairs(), seed=seeds())
    def test_chrf_ignores_my_perturbation(pair, seed):
        assert_invariant("chrf", MyPerturbation(), pair.reference, pair.original, seed=seed, tolerance=0.05)

Texts the perturbation leaves unchanged are discarded with ``hypothesis.assume``, so the
assertions are meant to be called inside ``@given`` tests. Thresholds mean what they mean
in suites (fractions of the metric's range, see :mod:`suites.harness.checks`).
"""

from __future__ import annotations

import functools

from hypothesis import assume
from hypothesis import strategies as st

from perturbations.base import Perturbation
from rome.core.contract import Metric
from suites.harness.checks import CaseCheck, CaseScores, Decrease, Invariant, MetricInfo
from suites.harness.data import NOVIKOVA_DATASETS, Novikova, SourcePair
from suites.harness.spec import Perturb
from suites.harness.strategies import seeds, shipped_sentences

__all__ = ["assert_check", "assert_decrease", "assert_invariant", "perturbations", "reference_pairs",
           "seeds", "sentences"]


@functools.lru_cache(maxsize=8)
def _pairs(datasets: tuple[str, ...], pairing: str) -> tuple[SourcePair, ...]:
    return tuple(Novikova(datasets=datasets, n=10**9, seed=0, pairing=pairing).pairs())


def reference_pairs(
    datasets: tuple[str, ...] = NOVIKOVA_DATASETS, pairing: str = "paraphrase"
) -> st.SearchStrategy[SourcePair]:
    """(reference, original) pairs from the Novikova et al. data, as the suites build them."""
    return st.sampled_from(_pairs(tuple(datasets), pairing))


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


def assert_check(
    metric: str | Metric, perturbation: Perturbation | Perturb, reference: str, original: str, check: CaseCheck,
    seed: int = 0,
) -> None:
    """Perturb ``original``; every variant with the check's expectation must pass ``check``."""
    if isinstance(perturbation, Perturb):
        perturbation = perturbation.build()
    scorer = _metric(metric) if isinstance(metric, str) else metric
    info = MetricInfo.of(metric if isinstance(metric, str) else scorer.name, scorer)
    result = perturbation.apply(original, seed)
    variants = [v for v in result.variants if check.applies_to(v.expectation) and v.text != original]
    assume(variants)
    hyps = [original] + [v.text for v in variants]
    scores = scorer.score(hyps, [reference] * len(hyps))
    for variant, score in zip(variants, scores[1:]):
        case = CaseScores("property", float(scores[0]), float(score))
        assert check.case_passes(info, case), (
            f"{info.name} {check.name} failed ({check.requirement(info.name)}):\n"
            f"  reference: {reference}\n  original:  {original}  -> {case.original:.4g}\n"
            f"  variant:   {variant.text}  -> {case.variant:.4g} (delta {case.delta:+.4g})"
        )


def assert_invariant(
    metric: str | Metric, perturbation: Perturbation | Perturb, reference: str, original: str,
    tolerance: float = 0.05, seed: int = 0,
) -> None:
    """|score(reference, variant) - score(reference, original)| <= tolerance (of the range)."""
    assert_check(metric, perturbation, reference, original, Invariant(tolerance=tolerance), seed)


def assert_decrease(
    metric: str | Metric, perturbation: Perturbation | Perturb, reference: str, original: str,
    margin: float = 0.05, seed: int = 0,
) -> None:
    """score(reference, variant) is worse than score(reference, original) by >= margin (of the range)."""
    assert_check(metric, perturbation, reference, original, Decrease(margin=margin), seed)
