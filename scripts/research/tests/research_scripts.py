"""Load a file of ``scripts/research/`` as a module, so its checks can call what a script defines."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

RESEARCH = Path(__file__).resolve().parents[1]


def load_script(name: str) -> ModuleType:
    """``scripts/research/<name>.py`` as a fresh module named ``name`` (scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, RESEARCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
