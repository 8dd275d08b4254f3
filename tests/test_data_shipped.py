"""The data sets ship inside the package, complete, and the runtime reads nothing outside it."""

from __future__ import annotations

import ast
import csv
import json
import re
from pathlib import Path

import pytest

from rome.core.errors import InputError
from rome.core.paths import data_dir, data_path
from rome.data.challenge import demetr_files, expand_paths, shipped_challenge

ROOT = Path(__file__).resolve().parents[1]
RUNTIME = ("rome", "perturbations", "baselines", "suites", "reports")


def _lines(path: Path) -> int:
    return sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())


def test_the_data_folder_is_inside_the_package():
    import rome

    assert data_dir() == Path(rome.__file__).resolve().parent / "data" / "datasets"


def test_every_shipped_file_is_complete():
    """Counts of the releases (docs/data.md): a truncated or missing copy fails here, not in a user's run."""
    novikova = {"bagel": 404, "sfhotel": 875, "sfrest": 1181}
    for name, rows in novikova.items():
        assert _lines(data_path("novikova2017", f"{name}.jsonl")) == rows, name
    with data_path("novikova2017", "emnlp_data_medians.csv").open(newline="", encoding="utf-8") as handle:
        assert sum(1 for _ in csv.DictReader(handle)) == sum(novikova.values())
    for name in ("webnlg2020.en.generated.jsonl", "webnlg2020.en.metrics.jsonl"):
        assert _lines(data_path("webnlg2020", name)) == 2848, name
    files = demetr_files()
    assert len(files) == 26 and all(len(json.loads(p.read_text(encoding="utf-8"))) == 1000 for p in files)
    assert "MIT License" in data_path("demetr", "LICENSE").read_text(encoding="utf-8")
    cola = {"in_domain_train.tsv": 8551, "in_domain_dev.tsv": 527, "out_of_domain_dev.tsv": 516}
    for name, rows in cola.items():
        assert _lines(data_path("cola", name)) == rows, name


def test_research_only_wmt21_texts_are_not_shipped():
    assert not list(data_dir().rglob("*wmt*"))


def _reads_outside(path: Path) -> list[str]:
    """What in a module's code (docstrings aside) points outside the package: ``ROME_SHARED``, a ``../shared``
    or ``shared`` path part, the removed ``shared_path`` / ``shared_dir`` helpers."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            if "ROME_SHARED" in node.value or re.search(r"(^|/)(\.\./)?shared(/|$)", node.value):
                found.append(repr(node.value))
        elif isinstance(node, ast.Name | ast.Attribute | ast.alias):
            name = getattr(node, "id", None) or getattr(node, "attr", None) or getattr(node, "name", None)
            if name in ("shared_path", "shared_dir"):
                found.append(name)
    return found


@pytest.mark.parametrize("top", RUNTIME)
def test_no_runtime_module_reads_a_folder_beside_the_checkout(top):
    """``ROME_SHARED`` and ``../shared`` were where the runtime once found its data; an install has neither."""
    offenders = {str(p.relative_to(ROOT)): found for p in (ROOT / top).rglob("*.py") if (found := _reads_outside(p))}
    assert offenders == {}


def _checkout_parts(path: Path) -> list[str]:
    """Path parts naming a checkout's own folders (``ROOT / "scripts"``, ``... / "tests" / "fixtures"``)."""
    return [repr(node.value) for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Constant) and node.value in ("scripts", "tests", "fixtures")]


@pytest.mark.parametrize("top", RUNTIME)
def test_no_runtime_module_reads_the_checkouts_scripts_or_tests(top):
    """An install has no ``scripts/`` or ``tests/``: the judge's trainer once read its data from both."""
    offenders = {str(p.relative_to(ROOT)): found for p in (ROOT / top).rglob("*.py") if (found := _checkout_parts(p))}
    assert offenders == {}


def test_shipped_demetr_files_are_read_by_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    files, _ = expand_paths(["demetr/minor_id15_case", "demetr/base_id33_empty.json"])
    assert [p.name for p in files] == ["minor_id15_case.json", "base_id33_empty.json"]
    assert all(p.parent == data_path("demetr").resolve() for p in files)
    assert len(expand_paths(["demetr"])[0]) == 26
    assert shipped_challenge("other/minor_id15_case") is None
    with pytest.raises(InputError, match="no such shipped DEMETR file; the shipped ones are .*minor_id15_case"):
        expand_paths(["demetr/minor_id99_nothing"])


def test_a_path_that_exists_wins_over_the_shipped_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "demetr").mkdir()
    (tmp_path / "demetr" / "mine.jsonl").write_text(
        json.dumps({"id": 1, "reference": "a b", "good": "a b", "bad": "a c", "category": "c"}) + "\n")
    files, _ = expand_paths(["demetr"])
    assert [p.name for p in files] == ["mine.jsonl"]
