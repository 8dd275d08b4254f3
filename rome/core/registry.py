"""Find and build metrics by name.

Built-in and third-party metrics are found the same way: through the entry-point group
``rome_harness.metrics`` (see docs/plugins.md). :func:`register` adds one at run time,
which is handy in notebooks and tests. Metric modules are imported only when built, so
listing metrics is cheap.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from rome.core.contract import Metric
from rome.core.errors import InputError
from rome.core.plugins import PluginRegistry

ENTRY_POINT_GROUP = "rome_harness.metrics"


def _is_metric_factory(obj: Any) -> bool:
    return callable(obj) and not (inspect.isclass(obj) and not issubclass(obj, Metric))


_METRICS: PluginRegistry[Callable[..., Metric]] = PluginRegistry(
    ENTRY_POINT_GROUP, "metric", _is_metric_factory, "a Metric subclass or factory")
#: decorator registering a Metric subclass or factory under a name for this process
register = _METRICS.register
unregister = _METRICS.unregister


def available_metrics(include_variants: bool = True) -> list[str]:
    """Names of every metric that :func:`build_metric` can build, sorted.

    A name containing ``/`` (``rome/emd_std``) is a variant of another metric, e.g. an
    ablation; variants are left out of ``--metric all``.
    """
    names = _METRICS.names()
    return names if include_variants else [n for n in names if "/" not in n]


def metric_class(name: str) -> Callable[..., Metric]:
    """The class (or factory function) registered under ``name``."""
    return _METRICS.load(name)


def build_metric(name: str, **options: Any) -> Metric:
    """Build metric ``name`` with ``options``; an option it does not take is a one-line error.

    ``None`` values mean "not given" and are left out, so callers can pass optional settings
    through. Use :func:`build_metrics` to apply ``model=`` only to encoder-based metrics.
    """
    factory = metric_class(name)
    accepted = inspect.signature(factory).parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in accepted.values())
    kwargs = {k: v for k, v in options.items() if v is not None}
    unknown = [k for k in kwargs if not (takes_any or k in accepted)]
    if unknown:
        known = ", ".join(k for k, p in accepted.items() if p.kind is p.POSITIONAL_OR_KEYWORD) or "none"
        raise InputError(f"metric {name!r} takes no option {unknown[0]!r} (its options: {known})")
    try:
        metric = factory(**kwargs)
    except TypeError as exc:
        raise InputError(f"metric {name!r}: {exc}") from None
    if not isinstance(metric, Metric):
        raise InputError(f"metric {name!r} did not build a Metric (got {type(metric).__name__})")
    return metric


def uses_encoder(name: str) -> bool:
    """Whether metric ``name`` embeds text with an encoder (so ``--model`` applies to it)."""
    return bool(getattr(metric_class(name), "uses_encoder", False))


def needs_reference(name: str) -> bool:
    """Whether metric ``name`` scores against references (``False``: reference-free, e.g. fluency)."""
    return bool(getattr(metric_class(name), "needs_reference", True))


def _name_list(names: Any) -> list[str]:
    """``names`` as a list, refusing a bare string (iterating it would ask for metrics 'b', 'l', ...)."""
    if isinstance(names, str):
        raise InputError(f"give a list of metric names, not the single string {names!r} (e.g. [{names!r}])")
    return list(names)


def build_metrics(names: list[str], model: str | None = None, **options: Any) -> dict[str, Metric]:
    """Build several metrics; ``model`` goes to the encoder-based ones only, ``options`` to all."""
    names = _name_list(names)
    return {name: build_metric(name, **options, **({"model": model} if uses_encoder(name) else {}))
            for name in names}


def expand_metric_names(names: list[str]) -> list[str]:
    """Turn CLI-style names (``all`` allowed) into registered metric names, order kept."""
    out: list[str] = []
    for name in _name_list(names):
        for item in available_metrics(include_variants=False) if name == "all" else [name]:
            metric_class(item)  # validates
            if item not in out:
                out.append(item)
    return out
