"""The folders are the architecture: each layer imports only from the layers before it.

texts, data and shared contract (rome.core, rome.data) -> perturbations -> metrics (rome.metric and
its training code rome.training, baselines) -> suites -> reports, with the command line (reports.cli)
on top. Lazy imports inside functions count too. Within the metrics layer, the RoMe metric never
imports its training code.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

LAYERS = ["rome.core", "perturbations", "metrics", "suites", "reports", "reports.cli"]


def layer_of(module: str) -> str | None:
    if module.startswith("reports.cli") or module == "rome.__main__":
        return "reports.cli"
    if module.startswith(("rome.core", "rome.data")):
        return "rome.core"
    if module == "rome" or module.startswith(("rome.", "baselines")):
        return "metrics"
    for top in ("perturbations", "suites", "reports"):
        if module == top or module.startswith(top + "."):
            return top
    return None


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return found


SOURCES = [
    p for top in ("rome", "perturbations", "baselines", "suites", "reports") for p in sorted((ROOT / top).rglob("*.py"))
]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_imports_only_go_backwards(path):
    own = layer_of(module_name(path))
    assert own is not None
    for module in imported_modules(path):
        other = layer_of(module)
        if other is None:
            continue
        assert LAYERS.index(other) <= LAYERS.index(own), f"{path.name} ({own}) imports {module} ({other})"


@pytest.mark.parametrize("path", sorted((ROOT / "rome" / "metric").rglob("*.py")), ids=lambda p: p.name)
def test_the_metric_never_imports_its_training_code(path):
    assert not any(m.startswith("rome.training") for m in imported_modules(path)), path.name


def test_every_source_file_belongs_to_a_layer():
    unknown = [str(p.relative_to(ROOT)) for p in SOURCES if layer_of(module_name(p)) is None]
    assert unknown == []


FOLDER_ORDER = ["rome", "perturbations", "baselines", "suites", "reports"]


def top_folder(module: str) -> str | None:
    top = module.split(".")[0]
    return top if top in FOLDER_ORDER else None


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_import_runs_back_up_a_folder(path):
    """The folders alone show the layers: a file imports only from its own top folder or one before it
    (``rome/`` holds layers 0 and 2; that ``perturbations`` uses only its ``rome.core`` part is the
    layer test's to check)."""
    own = top_folder(module_name(path))
    for module in imported_modules(path):
        other = top_folder(module)
        if other is None:
            continue
        assert FOLDER_ORDER.index(other) <= FOLDER_ORDER.index(own), f"{path.name} ({own}) imports {module}"
