"""The entry-point lookup metrics and perturbations share (rome/core/plugins.py).

A third-party package is installed the way pip leaves it: a ``*.dist-info`` folder with an
``entry_points.txt`` on ``sys.path``. Its plugin module imports a dependency that is not
installed, which must be a one-line ResourceMissingError for either kind, not a traceback.
"""

from __future__ import annotations

import sys

import pytest

from perturbations import registry as perturbation_registry
from rome.core import registry as metric_registry
from rome.core.errors import InputError, ResourceMissingError

ENTRY_POINTS = """\
[rome_harness.metrics]
needs-missing = plugin_pkg_missing_dep:Thing
not-a-metric = builtins:int

[rome_harness.perturbations]
needs-missing = plugin_pkg_missing_dep:Thing
not-a-perturbation = builtins:int
"""


@pytest.fixture
def installed_plugin(tmp_path, monkeypatch):
    pkg = tmp_path / "plugin_pkg_missing_dep"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("import no_such_dependency_for_rome_tests  # noqa: F401\n")
    dist = tmp_path / "plugin_pkg_missing_dep-1.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: plugin-pkg-missing-dep\nVersion: 1.0\n")
    (dist / "entry_points.txt").write_text(ENTRY_POINTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    sys.modules.pop("plugin_pkg_missing_dep", None)


@pytest.mark.parametrize("load", [metric_registry.metric_class, perturbation_registry.perturbation_class])
def test_missing_dependency_is_one_line_error(installed_plugin, load):
    with pytest.raises(ResourceMissingError, match="'needs-missing' cannot be loaded: No module named "
                                                   "'no_such_dependency_for_rome_tests'"):
        load("needs-missing")


@pytest.mark.parametrize(("load", "name", "expected"), [
    (metric_registry.metric_class, "not-a-metric", "a Metric subclass or factory"),
    (perturbation_registry.perturbation_class, "not-a-perturbation", "a Perturbation subclass"),
])
def test_entry_point_of_the_wrong_kind_is_refused(installed_plugin, load, name, expected):
    with pytest.raises(InputError, match=f"entry point '{name}' of rome_harness.* is not {expected}"):
        load(name)


def test_listed_without_importing(installed_plugin):
    """Listing names never imports a plugin, so a broken one cannot break ``--metric all``'s listing."""
    assert "needs-missing" in metric_registry.available_metrics()
    assert "needs-missing" in perturbation_registry.available_perturbations()
    assert "plugin_pkg_missing_dep" not in sys.modules


def test_unknown_names_list_what_is_available():
    with pytest.raises(InputError, match=r"unknown perturbation 'nope'; available: .*passive"):
        perturbation_registry.perturbation_class("nope")
    with pytest.raises(InputError, match=r"unknown metric 'nope'; available: .*bleu"):
        metric_registry.metric_class("nope")
