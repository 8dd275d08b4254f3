"""Property tests for metrics: hypothesis strategies over the shipped data, plus assertions.

A user checks a metric against a new perturbation in a few lines::

    @given(pair=reference_pairs(), seed=seeds())
    def test_chrf_ignores_my_perturbation(pair, seed):
        assert_invariant("chrf", MyPerturbation(), pair.reference, pair.original, seed=seed, tolerance=0.05)

Texts the perturbation leaves unchanged are discarded with ``hypothesis.assume``, so the
assertions are meant to be called inside ``@given`` tests. Thresholds mean what they mean
in suites (:mod:`suites.harness.checks`): by default fractions of the metric's drop from the
original to an unrelated control text against the same reference (here one case is all the data,
so the unit is that case's own drop; ``control=`` names the text, default an unrelated shipped
sentence); ``unit="range"`` gives the paper's scale-dependent check.
"""

from __future__ import annotations

import functools

from hypothesis import assume
from hypothesis import strategies as st

from perturbations.base import Perturbation
from perturbations.strategies import seeds, shipped_sentences
from rome.core.contract import Metric
from suites.harness.checks import DEFAULT_UNIT, CaseCheck, CaseScores, Decrease, Invariant, MetricInfo
from suites.harness.data import NOVIKOVA_DATASETS, Novikova, SourcePair
from suites.harness.spec import Perturb

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


def unrelated_text(reference: str, original: str) -> str:
    """A shipped human reference sharing no text with the case, picked by a hash of the case (no RNG)."""
    pool = _pairs(NOVIKOVA_DATASETS, "paraphrase")
    start = sum(map(ord, reference + original)) % len(pool)
    for k in range(len(pool)):
        candidate = pool[(start + k) % len(pool)]
        if not {candidate.original, candidate.reference} & {reference, original}:
            return candidate.original
    raise AssertionError("no unrelated text in the shipped data")


def assert_check(
    metric: str | Metric, perturbation: Perturbation | Perturb, reference: str, original: str, check: CaseCheck,
    seed: int = 0, control: str | None = None,
) -> None:
    """Perturb ``original``; every variant with the check's expectation must pass ``check``."""
    if isinstance(perturbation, Perturb):
        perturbation = perturbation.build()
    scorer = _metric(metric) if isinstance(metric, str) else metric
    info = MetricInfo.of(metric if isinstance(metric, str) else scorer.name, scorer)
    result = perturbation.apply(original, seed)
    variants = [v for v in result.variants if check.applies_to(v.expectation) and v.text != original]
    assume(variants)
    control = control if control is not None else unrelated_text(reference, original)
    hyps = [original, control] + [v.text for v in variants]
    scores = scorer.score(hyps, [reference] * len(hyps))
    for variant, score in zip(variants, scores[2:]):
        case = CaseScores("property", float(scores[0]), float(score), float(scores[1]))
        assert check.case_passes(info, case), (
            f"{info.name} {check.name} failed ({check.requirement(info.name)}):\n"
            f"  reference: {reference}\n  original:  {original}  -> {case.original:.4g}\n"
            f"  variant:   {variant.text}  -> {case.variant:.4g} (delta {case.delta:+.4g})\n"
            f"  control:   {control}  -> {case.control:.4g}"
        )


def assert_invariant(
    metric: str | Metric, perturbation: Perturbation | Perturb, reference: str, original: str,
    tolerance: float = 0.1, seed: int = 0, unit: str = DEFAULT_UNIT, control: str | None = None,
) -> None:
    """|score(reference, variant) - score(reference, original)| <= tolerance (in ``unit``)."""
    assert_check(metric, perturbation, reference, original, Invariant(tolerance=tolerance, unit=unit), seed, control)


def assert_decrease(
    metric: str | Metric, perturbation: Perturbation | Perturb, reference: str, original: str,
    margin: float = 0.05, seed: int = 0, unit: str = DEFAULT_UNIT, control: str | None = None,
) -> None:
    """score(reference, variant) is worse than score(reference, original) by >= margin (in ``unit``)."""
    assert_check(metric, perturbation, reference, original, Decrease(margin=margin, unit=unit), seed, control)
