"""Perturbations by kind: ``build_perturbation("passive")``, ``available_perturbations()``.

Built-in and third-party kinds are found the same way, like metrics: through the entry-point
group ``rome_harness.perturbations`` (``kind = "module:Class"``; see docs/plugins.md), plus
:func:`register` for a notebook or a test. Modules are imported only when a kind is built, so a
kind whose optional dependencies (textattack, checklist) are missing costs nothing until it is
asked for.
"""

from __future__ import annotations

import inspect
from typing import Any

from perturbations.base import Perturbation
from rome.core.errors import InputError
from rome.core.plugins import PluginRegistry

ENTRY_POINT_GROUP = "rome_harness.perturbations"

_PERTURBATIONS: PluginRegistry[type[Perturbation]] = PluginRegistry(
    ENTRY_POINT_GROUP, "perturbation",
    lambda obj: inspect.isclass(obj) and issubclass(obj, Perturbation), "a Perturbation subclass")
#: decorator registering a Perturbation subclass under a kind for this process
register = _PERTURBATIONS.register
unregister = _PERTURBATIONS.unregister


def available_perturbations() -> list[str]:
    """Every kind that :func:`build_perturbation` knows (optional dependencies are checked when built)."""
    return _PERTURBATIONS.names()


def perturbation_class(kind: str) -> type[Perturbation]:
    return _PERTURBATIONS.load(kind)


def build_perturbation(kind: str, **options: Any) -> Perturbation:
    """An instance of ``kind`` with ``options``; unknown kinds and options are one-line InputErrors."""
    cls = perturbation_class(kind)
    try:
        inspect.signature(cls).bind(**options)
    except TypeError as exc:
        raise InputError(f"perturbation {kind!r}: {exc}") from None
    return cls(**options)
