"""The declaration of a suite: data, perturbation, metrics and checks, nothing else.

A suite file (``suites/passive_form.py``) only builds one :class:`Suite` named ``SUITE``;
the runner and the pytest plugin do the work. A new case is a copy of a file with other
declarations.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from perturbations.base import Perturbation
from rome.core.errors import InputError, ResourceMissingError
from suites.harness.checks import CaseCheck, Check, MinimumFunctionality
from suites.harness.data import DataSource

#: ``metrics=ALL``: every registered metric except variants (names with ``/``).
ALL = ("all",)


@dataclass(frozen=True)
class Perturb:
    """A perturbation by its registered kind and options (``build_perturbation(kind, **options)``)."""

    kind: str
    options: dict[str, Any] = field(default_factory=dict)

    def build(self) -> Perturbation:
        try:
            from perturbations.registry import build_perturbation
        except ImportError as exc:
            raise ResourceMissingError("perturbations.registry is not available; cannot build "
                                       f"perturbation {self.kind!r}") from exc
        return build_perturbation(self.kind, **self.options)


def perturbation_fingerprint(perturbation: Perturbation) -> str:
    """Settings plus a hash of the source beside the implementing module, so cached cases go
    stale when any of it changes (perturbations share helpers, e.g. ``_clause.py``)."""
    from pathlib import Path

    module = inspect.getmodule(type(perturbation))
    path = Path(getattr(module, "__file__", "") or "")
    files = sorted(path.parent.glob("*.py")) if path.is_file() else []
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.name.encode() + b"\0" + file.read_bytes())
    if not files:
        digest.update(type(perturbation).__qualname__.encode())
    described = json.dumps(perturbation.describe(), sort_keys=True, default=str)
    return described + "|src:" + digest.hexdigest()[:16]


@dataclass(frozen=True)
class Suite:
    """One robustness case: which texts, which perturbation, which metrics, which checks."""

    name: str
    data: DataSource
    perturbation: Perturb | Perturbation
    checks: Sequence[Check]
    metrics: Sequence[str] = ALL
    description: str = ""
    #: variants kept per original text (e.g. adjective synonym + antonym = 2)
    variants_per_text: int = 1
    #: options passed to every metric's constructor (e.g. ``{"model": ...}``); unknown ones are dropped
    metric_options: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "checks", tuple(self.checks))
        object.__setattr__(self, "metrics", tuple(self.metrics))
        if not self.name or not self.name.replace("_", "").replace("-", "").isalnum():
            raise InputError(f"suite name {self.name!r} must be letters, digits, '_' or '-'")
        names = [c.name for c in self.checks]
        if len(set(names)) != len(names):
            raise InputError(f"suite {self.name!r}: check names must be unique, got {names}")
        if not self.checks:
            raise InputError(f"suite {self.name!r} declares no checks")
        if self.variants_per_text < 1:
            raise InputError(f"suite {self.name!r}: variants_per_text must be >= 1")

    @property
    def case_checks(self) -> tuple[CaseCheck, ...]:
        return tuple(c for c in self.checks if isinstance(c, CaseCheck))

    @property
    def functionality_checks(self) -> tuple[MinimumFunctionality, ...]:
        return tuple(c for c in self.checks if isinstance(c, MinimumFunctionality))

    def metric_names(self, selected: Sequence[str] | None = None) -> list[str]:
        """The declared metrics (``all`` expanded), optionally narrowed to ``selected``."""
        from rome.core.registry import expand_metric_names

        declared = expand_metric_names(list(self.metrics))
        if not selected:
            return declared
        return expand_metric_names(list(selected))

    def build_perturbation(self) -> Perturbation:
        if isinstance(self.perturbation, Perturbation):
            return self.perturbation
        return self.perturbation.build()

    def perturbation_kind(self) -> str:
        p = self.perturbation
        return p.kind if isinstance(p, Perturb) else type(p).kind


def load_suite(name_or_path: str) -> Suite:
    """A suite by name (``passive_form`` -> ``suites/passive_form.py``) or by path to a suite file."""
    import importlib
    import importlib.util
    from pathlib import Path

    path = Path(name_or_path)
    if path.suffix == ".py":
        if not path.is_file():
            raise InputError(f"{path}: no such suite file")
        spec = importlib.util.spec_from_file_location(f"_rome_suite_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    else:
        if not name_or_path.replace("_", "").isalnum():
            raise InputError(f"suite name {name_or_path!r} must be letters, digits or '_'")
        try:
            module = importlib.import_module(f"suites.{name_or_path}")
        except ModuleNotFoundError as exc:
            if exc.name != f"suites.{name_or_path}":
                raise
            raise InputError(f"unknown suite {name_or_path!r}; available: {', '.join(available_suites())}") from None
    suite = getattr(module, "SUITE", None)
    if not isinstance(suite, Suite):
        raise InputError(f"{name_or_path}: the file declares no SUITE = Suite(...)")
    return suite


def available_suites() -> list[str]:
    """Names of the suite files shipped in ``suites/`` (files that declare ``SUITE``)."""
    import re
    from pathlib import Path

    marker = re.compile(r"^SUITE\s*=\s*Suite\(", re.MULTILINE)
    here = Path(__file__).resolve().parents[1]
    return sorted(p.stem for p in here.glob("*.py") if marker.search(p.read_text(encoding="utf-8")))
