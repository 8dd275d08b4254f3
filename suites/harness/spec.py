"""The declaration of a suite: data, perturbation, metrics and checks, nothing else.

A suite file (``suites/passive_form.py``) only builds one :class:`Suite` (named ``SUITE`` by
convention; a file is found by importing it, so any top-level name works); the runner and the
pytest plugin do the work. A new case is a copy of a file with other declarations.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from perturbations.base import Perturbation
from rome.core.errors import InputError, ResourceMissingError
from rome.core.fingerprint import code_fingerprint
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
    """Settings plus :func:`rome.core.fingerprint.code_fingerprint` of the perturbation's class: its module,
    every project module it imports (``passive`` -> ``passive/clause.py``, ``language/names.py`` ->
    ``rome/core/parsing.py``), transitively, and the data files those name (none: no perturbation reads a
    corpus), so cached cases are built again when any of them changes, and only then. The same function
    signs the metrics' code. Validity cards do not use it: they are judged text (:mod:`suites.harness.validity`)."""
    files = getattr(perturbation, "fingerprint_files", None)
    source = code_fingerprint(*type(perturbation).__mro__, files=files() if callable(files) else (), length=16)
    described = json.dumps(perturbation.describe(), sort_keys=True, default=str)
    return described + "|src:" + source


def data_fingerprint(data: object) -> str:
    """The data source's code (:func:`~rome.core.fingerprint.code_fingerprint` of its class) and the files
    it reads (its ``files()``, by content), so cached cases go stale when either changes."""
    files = getattr(data, "files", None)
    return code_fingerprint(*type(data).__mro__, files=files() if callable(files) else (), length=16)


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
    #: the sample: ``n`` cases (``None``: every pair or item), drawn in the order of ``seed``; every
    #: text's perturbation is seeded by ``seed`` and the text's id (:func:`perturbations.base.text_rng`)
    n: int | None = 200
    seed: int = 0
    #: texts tried at most before the sample stops short of ``n`` (``None``: no bound). A kind that keeps
    #: only the variants its judge is confident of changes few texts, and each costs passes of a language
    #: model: the bound keeps a run's time bounded; the summary's coverage says where it stopped
    max_texts: int | None = None
    #: a challenge set's items kept per category before ``n`` (``None``: all)
    n_per_category: int | None = None
    #: the corpus the suite file declares, once ``configured(data=...)`` has swapped its texts
    home_corpus: str | None = field(default=None, compare=False)
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
        for field_name in ("n", "n_per_category", "max_texts"):
            value = getattr(self, field_name)
            if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
                raise InputError(f"suite {self.name!r}: {field_name} must be a whole number of at least 1")
        if not isinstance(self.seed, int) or isinstance(self.seed, bool):
            raise InputError(f"suite {self.name!r}: seed must be an integer")
        if self.n_per_category is not None and not self.direct_cases:
            raise InputError(f"suite {self.name!r}: n_per_category is for challenge sets")
        if self.perturbation is None and not self.direct_cases:
            raise InputError(f"suite {self.name!r} declares no perturbation; only a data source with its "
                             "own cases (ChallengeSet) can go without one")
        if self.perturbation is not None and self.direct_cases:
            raise InputError(f"suite {self.name!r}: {type(self.data).__name__} gives its own cases; "
                             "drop perturbation=")

    def configured(self, data: str | DataSource | None = None, n: int | None = None, seed: int | None = None,
                   n_per_category: int | None = None, max_texts: int | None = None) -> Suite:
        """This suite on other texts or another sample (``--data``, ``--n``, ``--seed``, ``--max-texts``): one place that
        applies and checks the overrides for ``rome suite``, pytest and ``rome challenge``."""
        from dataclasses import replace

        from suites.harness.data import resolve_data

        changes: dict[str, Any] = {}
        if data is not None:
            changes["data"] = resolve_data(data, challenge=self.direct_cases)
            changes["home_corpus"] = self.home_corpus or self.corpus
        for key, value in (("n", n), ("seed", seed), ("n_per_category", n_per_category), ("max_texts", max_texts)):
            if value is not None:
                changes[key] = value
        return replace(self, **changes) if changes else self

    @property
    def corpus(self) -> str:
        """The name of the texts the cases come from (a shipped corpus, a file's stem, a challenge set)."""
        return self.data.corpus_name

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
    except SyntaxError as exc:  # the user's file: a one-line input error (exit 2), not "a check failed" (1)
        del sys.modules[name]
        raise InputError(f"{path}:{exc.lineno}: the suite file does not parse ({exc.msg})") from None
    except (InputError, ResourceMissingError):
        del sys.modules[name]
        raise
    except Exception as exc:
        del sys.modules[name]
        message = " ".join(str(exc).split())
        raise InputError(f"{path}: importing the suite file failed: {type(exc).__name__}: {message}") from exc
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


#: other names of a shipped suite, taken wherever a suite name is: ``text_transformation`` (the RoMe paper's
#: name for TextFooler's test) names the ``textfooler`` suite, and the ``suite`` field of the lines of the
#: ``textfooler`` validity cards holds it
SUITE_ALIASES = {"text_transformation": "textfooler"}


def suite_aliases(name: str) -> list[str]:
    """The other names :func:`load_suite` takes for the shipped suite ``name``."""
    return sorted(alias for alias, target in SUITE_ALIASES.items() if target == name)


def load_suite(name_or_path: str) -> Suite:
    """A suite by name (``passive_form`` -> ``suites/passive_form.py``; an alias of :data:`SUITE_ALIASES`
    names the same suite) or by path to a suite file."""
    path = Path(name_or_path)
    if path.suffix != ".py":
        name_or_path = SUITE_ALIASES.get(name_or_path, name_or_path)
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
