"""The suite engine: declarations (:mod:`spec`, :mod:`data`, :mod:`checks`), the runner, the
on-disk score cache, output files, the pytest plugin and property-test helpers."""

from suites.harness.checks import Decrease, Invariant, MinimumFunctionality
from suites.harness.data import ChallengeSet, CorpusSource, JsonlPairs, Novikova
from suites.harness.pairwise import Prefers
from suites.harness.spec import ALL, Perturb, Suite

__all__ = ["ALL", "ChallengeSet", "CorpusSource", "Decrease", "Invariant", "JsonlPairs", "MinimumFunctionality",
           "Novikova", "Perturb", "Prefers", "Suite"]
