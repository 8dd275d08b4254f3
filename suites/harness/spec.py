"""The declaration of a suite: data, perturbation, metrics and checks, nothing else.

A suite file (``suites/passive_form.py``) only builds one :class:`Suite` (named ``SUITE`` by
convention; a file is found by importing it, so any top-level name works); the runner and the
pytest plugin do the work. A new case is a copy of a file with other declarations.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
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
    """Settings plus a hash of the sources the perturbation runs: its module and the modules of its
    package it imports, directly or through each other (``passive/__init__.py`` -> ``passive/clause.py``), so
    cached cases and validity cards go stale when any of them changes, and only then."""

    module = inspect.getmodule(type(perturbation))
    path = Path(getattr(module, "__file__", "") or "")
    files = sorted(_package_sources(path)) if path.is_file() else []
    digest = hashlib.sha256()
    for file in files:
        digest.update(file.name.encode() + b"\0" + file.read_bytes())
    if not files:
        digest.update(type(perturbation).__qualname__.encode())
    described = json.dumps(perturbation.describe(), sort_keys=True, default=str)
    return described + "|src:" + digest.hexdigest()[:16]


def _package_sources(path: Path) -> set[Path]:
    """``path`` and the files of its top-level package it imports, transitively (absolute imports of
    the package, e.g. ``perturbations.language.senses``, and relative ones; lazy imports inside
    functions count). A kind living in its own folder (``perturbations/passive/__init__.py``) thus
    counts the shared helpers it uses (``perturbations/language/...``) and nothing else."""
    import ast

    root = path.parent
    while (root.parent / "__init__.py").is_file():
        root = root.parent
    package = root.name

    def files_for(dotted: str) -> list[Path]:
        """The source file of module ``package.<dotted>`` (a module or a package's ``__init__``)."""
        base = root.joinpath(*dotted.split(".")) if dotted else root
        return [f for f in (base.with_suffix(".py"), base / "__init__.py") if dotted or f.name == "__init__.py"]

    found: set[Path] = set()
    todo = [path]
    while todo:
        current = todo.pop()
        if current in found or not current.is_file():
            continue
        found.add(current)
        here = current.parent.relative_to(root).parts
        for node in ast.walk(ast.parse(current.read_text(encoding="utf-8"))):
            modules: list[str] = []
            if isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = list(here[: len(here) - node.level + 1]) + ((node.module or "").split(".") if node.module else [])
                    dotted = ".".join(p for p in parts if p)
                elif node.module == package or (node.module or "").startswith(package + "."):
                    dotted = node.module[len(package) + 1 :]
                else:
                    continue
                modules = [dotted] + [f"{dotted}.{a.name}" if dotted else a.name for a in node.names]
            elif isinstance(node, ast.Import):
                modules = [a.name[len(package) + 1 :] for a in node.names if a.name.startswith(package + ".")]
            for dotted in modules:
                todo += files_for(dotted)
    return found


@dataclass(frozen=True)
class Suite:
    """One robustness case: which texts, which perturbation, which metrics, which checks.

    A data source with its own cases (``ChallengeSet``: minimal pairs) needs no perturbation.
    """

    name: str
    data: DataSource
    perturbation: Perturb | Perturbation | None = None
    checks: Sequence[Check] = ()
    metrics: Sequence[str] = ALL
    description: str = ""
    #: variants kept per original text (e.g. adjective synonym + antonym = 2)
    variants_per_text: int = 1
    #: options for the metrics' constructors: ``model`` goes to the encoder-based ones, any other option
    #: to every metric of the suite (one a metric does not take is an error, never silently dropped)
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
        if self.perturbation is None and not self.direct_cases:
            raise InputError(f"suite {self.name!r} declares no perturbation; only a data source with its "
                             "own cases (ChallengeSet) can go without one")
        if self.perturbation is not None and self.direct_cases:
            raise InputError(f"suite {self.name!r}: {type(self.data).__name__} gives its own cases; "
                             "drop perturbation=")

    @property
    def direct_cases(self) -> bool:
        """Whether the cases come straight from the data (minimal pairs), not from a perturbation."""
        return bool(getattr(self.data, "direct_cases", False))

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
        if self.perturbation is None:
            raise InputError(f"suite {self.name!r} has no perturbation (its cases come from its data)")
        if isinstance(self.perturbation, Perturbation):
            return self.perturbation
        return self.perturbation.build()

    def perturbation_kind(self) -> str:
        p = self.perturbation
        if p is None:
            return "challenge"
        return p.kind if isinstance(p, Perturb) else type(p).kind


def _load_module(path: Path):
    """Import a suite file by path (its own module name, so files with the same stem do not clash)."""
    import importlib.util
    import sys

    name = f"_rome_suite_{hashlib.sha1(str(path.resolve()).encode()).hexdigest()[:8]}_{path.stem}"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception:
        del sys.modules[name]
        raise
    return module


def suites_in(module) -> list[Suite]:
    """Every :class:`Suite` a module defines at top level (``SUITE = ...``, ``SUITE: Suite = ...``, any name)."""
    found = [value for value in vars(module).values() if isinstance(value, Suite)]
    return list({id(s): s for s in found}.values())


def _the_suite(module, where: str) -> Suite:
    suites = suites_in(module)
    if isinstance(getattr(module, "SUITE", None), Suite):
        return module.SUITE
    if len(suites) == 1:
        return suites[0]
    if not suites:
        raise InputError(f"{where}: the file declares no Suite (write SUITE = Suite(...))")
    raise InputError(f"{where}: several suites ({', '.join(s.name for s in suites)}); name the one to run SUITE")


def suite_dir() -> Path:
    return Path(__file__).resolve().parents[1]


def load_suite(name_or_path: str) -> Suite:
    """A suite by name (``passive_form`` -> ``suites/passive_form.py``) or by path to a suite file."""
    path = Path(name_or_path)
    if path.suffix != ".py":
        if not name_or_path.replace("_", "").isalnum():
            raise InputError(f"suite name {name_or_path!r} must be letters, digits or '_'")
        path = suite_dir() / f"{name_or_path}.py"
        if not path.is_file() or name_or_path not in available_suites():
            raise InputError(f"unknown suite {name_or_path!r}; available: {', '.join(available_suites())}")
    if not path.is_file():
        raise InputError(f"{path}: no such suite file")
    return _the_suite(_load_module(path), str(path))


def is_suite_file(path: Path) -> bool:
    """Whether importing ``path`` defines a :class:`Suite` (files that never mention ``Suite`` are not imported)."""
    if path.suffix != ".py" or path.name in ("conftest.py", "__init__.py"):
        return False
    if "Suite" not in path.read_text(encoding="utf-8"):
        return False
    return bool(suites_in(_load_module(path)))


def available_suites() -> list[str]:
    """Names of the suite files shipped in ``suites/``: the files that define a :class:`Suite` when imported."""
    return sorted(p.stem for p in suite_dir().glob("*.py") if is_suite_file(p))
