"""Perturbations by kind: ``build_perturbation("passive")``, ``available_perturbations()``.

Kinds point at module paths (``module`` or ``module:Class``) and are imported only when built,
so a kind whose optional dependencies (textattack, checklist) are missing costs nothing until
it is asked for. Without ``:Class`` the module's :class:`Perturbation` subclass whose ``kind``
matches is used, so one module may provide several kinds (typos and contractions).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from typing import Any

from perturbations.base import Perturbation
from rome.core.errors import InputError, ResourceMissingError

#: kind -> where it lives; part A (this package) and part B (textattack / checklist based)
PERTURBATIONS: dict[str, str] = {
    "passive": "perturbations.passive:PassiveVoice",
    "adjective": "perturbations.adjective:AdjectiveSwap",
    "repetition": "perturbations.repetition:Repetition",
    "entity": "perturbations.entity",
    "random_word": "perturbations.random_word",
    "textfooler": "perturbations.textfooler",
    "typos": "perturbations.checklist_ops",
    "contractions": "perturbations.checklist_ops",
}


def _module_exists(path: str) -> bool:
    try:
        return importlib.util.find_spec(path.split(":")[0]) is not None
    except (ImportError, ValueError):
        return False


def available_perturbations() -> list[str]:
    """Kinds whose module is present (their optional dependencies are checked only when built)."""
    return [kind for kind, path in PERTURBATIONS.items() if _module_exists(path)]


def perturbation_class(kind: str) -> type[Perturbation]:
    if kind not in PERTURBATIONS:
        raise InputError(f"unknown perturbation {kind!r}; known: {', '.join(PERTURBATIONS)}")
    module_name, _, class_name = PERTURBATIONS[kind].partition(":")
    if not _module_exists(module_name):
        raise ResourceMissingError(f"perturbation {kind!r} is not installed ({module_name} is missing)")
    module = importlib.import_module(module_name)
    if class_name:
        return getattr(module, class_name)
    for _, cls in inspect.getmembers(module, inspect.isclass):
        if issubclass(cls, Perturbation) and cls.__module__ == module_name and getattr(cls, "kind", None) == kind:
            return cls
    raise ResourceMissingError(f"{module_name} defines no perturbation of kind {kind!r}")


def build_perturbation(kind: str, **options: Any) -> Perturbation:
    """An instance of ``kind`` with ``options``; unknown kinds and options are one-line InputErrors."""
    cls = perturbation_class(kind)
    try:
        inspect.signature(cls).bind(**options)
    except TypeError as exc:
        raise InputError(f"perturbation {kind!r}: {exc}") from None
    return cls(**options)
