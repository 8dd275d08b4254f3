"""Load a file of ``scripts/research/`` as a module, so its checks can call what a script defines."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

RESEARCH = Path(__file__).resolve().parents[1]


def load_script(name: str) -> ModuleType:
    """``scripts/research/<name>.py`` as a fresh module named ``name`` (scripts are not a package). The research
    folder joins the end of the path, as it heads it when a script runs, so a script's own import of a sibling
    (``from corpus_files import ...``) finds it."""
    if str(RESEARCH) not in sys.path:
        sys.path.append(str(RESEARCH))
    spec = importlib.util.spec_from_file_location(name, RESEARCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # a dataclass looks its module up there; a script importing it by name finds it
    spec.loader.exec_module(module)
    return module
