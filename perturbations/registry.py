"""Perturbations by kind: ``build_perturbation("passive")``, ``available_perturbations()``.

Built-in and third-party kinds are found the same way, like metrics: through the entry-point
group ``rome_harness.perturbations`` (``kind = "module:Class"``; see docs/plugins.md), plus
:func:`register` for a notebook or a test. Modules are imported only when a kind is built, so a
kind whose optional dependencies (textattack, checklist) are missing costs nothing until it is
asked for.
"""

from __future__ import annotations

import inspect
from importlib.metadata import entry_points
from typing import Any

from perturbations.base import Perturbation
from rome.core.errors import InputError, ResourceMissingError

ENTRY_POINT_GROUP = "rome_harness.perturbations"

_runtime: dict[str, type[Perturbation]] = {}


def register(kind: str):
    """Decorator registering a :class:`Perturbation` subclass under ``kind`` for this process."""

    def decorate(cls: type[Perturbation]) -> type[Perturbation]:
        if not (inspect.isclass(cls) and issubclass(cls, Perturbation)):
            raise TypeError(f"{cls!r} is not a Perturbation subclass")
        _runtime[kind] = cls
        return cls

    return decorate


def unregister(kind: str) -> None:
    _runtime.pop(kind, None)


def _entry_points() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def available_perturbations() -> list[str]:
    """Every kind that :func:`build_perturbation` knows (optional dependencies are checked when built)."""
    return sorted(set(_entry_points()) | set(_runtime))


def perturbation_class(kind: str) -> type[Perturbation]:
    if kind in _runtime:
        return _runtime[kind]
    eps = _entry_points()
    if kind not in eps:
        raise InputError(f"unknown perturbation {kind!r}; known: {', '.join(available_perturbations())}")
    try:
        cls = eps[kind].load()
    except ModuleNotFoundError as exc:
        raise ResourceMissingError(f"perturbation {kind!r} cannot be loaded: {exc}") from exc
    if not (inspect.isclass(cls) and issubclass(cls, Perturbation)):
        raise InputError(f"entry point {kind!r} does not point at a Perturbation subclass")
    return cls


def build_perturbation(kind: str, **options: Any) -> Perturbation:
    """An instance of ``kind`` with ``options``; unknown kinds and options are one-line InputErrors."""
    cls = perturbation_class(kind)
    try:
        inspect.signature(cls).bind(**options)
    except TypeError as exc:
        raise InputError(f"perturbation {kind!r}: {exc}") from None
    return cls(**options)
