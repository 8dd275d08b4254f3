"""Names to classes through one entry-point group: the lookup metrics and perturbations share.

Both are found the same way (docs/plugins.md): the group's entry points, installed by this
package or a third party, plus run-time :meth:`PluginRegistry.register` for notebooks and
tests. Entry points are loaded only when a name is built, so listing names is cheap and a
plugin whose optional dependencies are missing costs nothing until it is asked for; then it is
a one-line :class:`ResourceMissingError`, not a traceback.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import entry_points
from typing import Any, Generic, TypeVar

from rome.core.errors import InputError, ResourceMissingError

T = TypeVar("T")


class PluginRegistry(Generic[T]):
    """The ``group``'s entry points plus run-time registrations; ``accepts`` says what may be one."""

    def __init__(self, group: str, what: str, accepts: Callable[[Any], bool], expected: str) -> None:
        """``what`` names a plugin in messages ("metric"); ``expected`` what one must be ("a Metric subclass")."""
        self.group = group
        self.what = what
        self.accepts = accepts
        self.expected = expected
        self._runtime: dict[str, T] = {}

    def register(self, name: str) -> Callable[[T], T]:
        """Decorator registering ``obj`` under ``name`` for this process."""

        def decorate(obj: T) -> T:
            if not self.accepts(obj):
                raise TypeError(f"{obj!r} is not {self.expected}")
            self._runtime[name] = obj
            return obj

        return decorate

    def unregister(self, name: str) -> None:
        self._runtime.pop(name, None)

    def _entry_points(self) -> dict[str, Any]:
        return {ep.name: ep for ep in entry_points(group=self.group)}

    def names(self) -> list[str]:
        """Every name :meth:`load` knows, sorted."""
        return sorted(set(self._entry_points()) | set(self._runtime))

    def load(self, name: str) -> T:
        """The object registered under ``name``: run-time registrations first, then entry points."""
        if name in self._runtime:
            return self._runtime[name]
        eps = self._entry_points()
        if name not in eps:
            raise InputError(f"unknown {self.what} {name!r}; available: {', '.join(self.names())}")
        try:
            obj = eps[name].load()
        except ModuleNotFoundError as exc:
            raise ResourceMissingError(f"{self.what} {name!r} cannot be loaded: {exc}") from exc
        if not self.accepts(obj):
            raise InputError(f"entry point {name!r} of {self.group} is not {self.expected}")
        return obj
