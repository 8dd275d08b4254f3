"""The product's tests never import a script: ``scripts/`` is run (as a user runs it), never loaded as code.

What a test needs lives in the package; the research tools of ``scripts/research/`` have their own checks
(``scripts/research/tests``), run on demand.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
#: calls that load a file as code
LOADERS = {"spec_from_file_location", "run_path", "SourceFileLoader", "load_script"}


def _imports_a_script(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[0] in ("scripts", "project_scripts")]
        elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] in ("scripts", "project_scripts"):
            found.append(node.module)
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            if name in LOADERS and "scripts" in ast.unparse(node):
                found.append(ast.unparse(node))
    return found


def test_no_test_imports_a_script():
    offenders = {str(p.relative_to(ROOT)): hits for p in sorted((ROOT / "tests").rglob("*.py"))
                 if (hits := _imports_a_script(p))}
    assert offenders == {}


def test_the_check_sees_the_ways_a_script_is_loaded(tmp_path):
    bad = tmp_path / "test_bad.py"
    bad.write_text("import importlib.util\nfrom scripts.results import main\n"
                   "spec = importlib.util.spec_from_file_location('x', ROOT / 'scripts' / 'x.py')\n", encoding="utf-8")
    assert len(_imports_a_script(bad)) == 2
