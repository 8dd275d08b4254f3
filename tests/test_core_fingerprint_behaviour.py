"""Fingerprints follow behaviour, not bytes (issue #32 item 3): documentation and layout edits keep every
signature, cached score and validity card; a one-token code change re-keys.

Edits are made to copies in a temporary folder, or to what the fingerprint reads of a module
(:func:`rome.core.fingerprint.read_source`, replaced in memory for one file): nothing committed is
modified, and every digest is computed by the real fingerprint code.
"""

from __future__ import annotations

import ast
import io
import shutil
import tokenize
from pathlib import Path

import pytest

from rome.core import fingerprint

ROOT = Path(__file__).resolve().parents[1]
SEMANTIC = ROOT / "rome" / "metric" / "semantic.py"
#: real modules of the project, of several shapes (classes, dataclasses, lazy imports, decorators)
MODULES = [SEMANTIC, ROOT / "rome" / "core" / "parsing.py", ROOT / "perturbations" / "passive" / "__init__.py",
           ROOT / "baselines" / "bertscore.py"]


def edit_docstrings(source: str) -> str:
    """Every docstring (module, class, function) gets words added inside its quotes; a module without
    one gets one."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if fingerprint._bare_string(first):
                found.append(first.value)
    if not (tree.body and fingerprint._bare_string(tree.body[0])):
        return edit_docstrings('"""A module docstring the test added."""\n' + source)
    for literal in sorted(found, key=lambda c: (c.lineno, c.col_offset), reverse=True):
        line = lines[literal.lineno - 1]
        start = literal.col_offset
        prefix = len(line[start:]) - len(line[start:].lstrip("rRuUbB"))
        quote = line[start + prefix : start + prefix + 3]
        quote = quote if quote in ('"""', "'''") else quote[0]
        cut = start + prefix + len(quote)
        lines[literal.lineno - 1] = line[:cut] + "Edited by a test, twice over. " + line[cut:]
    return "".join(lines)


def add_comments(source: str) -> str:
    """A comment at the end of every logical line and a comment line at the top."""
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    lines = source.splitlines(keepends=True)
    ends = sorted({t.start for t in tokens if t.type == tokenize.NEWLINE and t.string}, reverse=True)
    for row, col in ends:
        line = lines[row - 1]
        lines[row - 1] = line[:col] + "  # a comment the test added" + line[col:]
    return "# a first comment the test added\n" + "".join(lines)


def reformat(source: str) -> str:
    """The same code in another layout: ``ast.unparse`` re-quotes strings, re-wraps calls, drops blank
    lines and parentheses (and comments)."""
    return ast.unparse(ast.parse(source)) + "\n"


def digest_of(tmp_path: Path, source: str, name: str = "module.py") -> str:
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return fingerprint.source_digest(path)


@pytest.mark.parametrize("module", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_documentation_comments_and_layout_leave_a_module_digest_unchanged(tmp_path, module):
    source = module.read_text(encoding="utf-8")
    original = digest_of(tmp_path, source)
    variants = {"docstrings": edit_docstrings(source), "comments": add_comments(source), "layout": reformat(source)}
    variants["all three"] = reformat(add_comments(edit_docstrings(source)))
    assert ast.dump(ast.parse(variants["docstrings"])) != ast.dump(ast.parse(source))  # the edit is in the tree
    for what, edited in variants.items():
        assert edited != source
        assert digest_of(tmp_path, edited, f"{what.replace(' ', '_')}.py") == original, what
    assert fingerprint.file_digest(tmp_path / "docstrings.py") != fingerprint.file_digest(tmp_path / "module.py")


SMALL = '''"""A module."""
import math
from collections import Counter

LIMIT = 3


def weigh(words, scale=2.0, *, floor=0):
    """Weigh words."""
    counts = Counter(words)
    total = sum(v * scale for v in counts.values() if v < LIMIT)
    return max(floor, math.log1p(total))


class Box:
    """A box."""

    label = "small"

    def size(self):
        return len(self.label) + 1
'''

ONE_TOKEN_CHANGES = {
    "a constant": ("LIMIT = 3", "LIMIT = 4"),
    "a string constant": ('label = "small"', 'label = "large"'),
    "an operator": ("if v < LIMIT", "if v <= LIMIT"),
    "an arithmetic operator": ("v * scale", "v + scale"),
    "a name": ("math.log1p(total)", "math.log(total)"),
    "a variable": ("max(floor, ", "max(scale, "),
    "an import": ("import math", "import cmath as math"),
    "a from-import": ("from collections import Counter", "from collections import OrderedDict as Counter"),
    "a default": ("scale=2.0", "scale=2.5"),
    "a keyword-only default": ("floor=0", "floor=1"),
    "a returned expression": ("len(self.label) + 1", "len(self.label) + 2"),
    "a docstring returned": ('    """Weigh words."""\n', '    return """Weigh words."""\n'),
}


@pytest.mark.parametrize("what", list(ONE_TOKEN_CHANGES))
def test_a_one_token_code_change_changes_the_digest(tmp_path, what):
    old, new = ONE_TOKEN_CHANGES[what]
    assert SMALL.count(old) == 1
    original = digest_of(tmp_path, SMALL)
    assert digest_of(tmp_path, SMALL.replace(old, new), "changed.py") != original


def test_a_one_token_change_in_a_real_module_changes_the_digest(tmp_path):
    source = SEMANTIC.read_text(encoding="utf-8")
    original = digest_of(tmp_path, source)
    tree = ast.parse(source)
    number = next(n for n in ast.walk(tree) if isinstance(n, ast.Constant) and type(n.value) in (int, float)
                  and n.end_lineno == n.lineno)
    lines = source.splitlines(keepends=True)
    line = lines[number.lineno - 1]
    lines[number.lineno - 1] = line[: number.col_offset] + repr(number.value + 1) + line[number.end_col_offset :]
    assert digest_of(tmp_path, "".join(lines), "changed.py") != original


def test_a_module_that_does_not_parse_is_hashed_by_its_bytes(tmp_path):
    assert digest_of(tmp_path, "def broken(:\n") != digest_of(tmp_path, "def broken(: # now a comment\n", "b.py")


# -- the acceptance test of issue #32: a docstring edit in rome/metric/semantic.py -----------------
def _all_signatures() -> dict[str, str]:
    from rome.core.registry import available_metrics, build_metric

    return {name: str(build_metric(name).signature()) for name in available_metrics()}


@pytest.fixture
def semantic_reads_as(monkeypatch):
    """Make the fingerprint read ``rome/metric/semantic.py`` as the given text (memos emptied, so it is read)."""
    real_read = fingerprint.read_source

    def install(text: str) -> None:
        def read(path: Path) -> bytes:
            return text.encode("utf-8") if Path(path).resolve() == SEMANTIC.resolve() else real_read(path)

        monkeypatch.setattr(fingerprint, "read_source", read)
        monkeypatch.setattr(fingerprint, "_source_memo", {})
        monkeypatch.setattr(fingerprint, "_parse_memo", {})

    return install


def test_a_docstring_edit_in_semantic_keeps_every_signature(semantic_reads_as):
    """(Validity cards are judged text, keyed by no code: tests/test_reports_validity.py.)"""
    source = SEMANTIC.read_text(encoding="utf-8")
    signatures = _all_signatures()
    assert any("rome" in name for name in signatures)
    semantic_reads_as(add_comments(edit_docstrings(source)))
    assert _all_signatures() == signatures
    # the same path with a code edit re-signs RoMe: the edited text above was read, and did not count
    semantic_reads_as(source.rstrip("\n") + "\n_EDITED_FOR_TEST = 1\n")
    edited = _all_signatures()
    assert edited["rome"] != signatures["rome"] and edited["bleu"] == signatures["bleu"]


def test_a_docstring_edit_in_a_copy_keeps_a_perturbation_fingerprint(tmp_path, monkeypatch):
    """The whole path on a copy of the package: passive imports rome/core/parsing.py; documenting it anew
    keeps the card's fingerprint, a code edit there changes it."""
    import rome
    from perturbations.registry import build_perturbation
    from suites.harness.spec import perturbation_fingerprint

    copy = tmp_path / "rome"
    shutil.copytree(Path(rome.__file__).parent, copy,
                    ignore=shutil.ignore_patterns("__pycache__", "weights", "*.json", "*.safetensors"))
    monkeypatch.setitem(fingerprint._root_memo, "rome", [copy])
    passive = build_perturbation("passive")
    assert fingerprint.module_closure(type(passive))["rome.core.parsing"] == (copy / "core" / "parsing.py").resolve()
    before = perturbation_fingerprint(passive)
    parsing = copy / "core" / "parsing.py"
    source = parsing.read_text(encoding="utf-8")
    parsing.write_text(reformat(add_comments(edit_docstrings(source))), encoding="utf-8")
    assert perturbation_fingerprint(passive) == before
    parsing.write_text(source + "\n_EDITED_FOR_TEST = 1\n", encoding="utf-8")
    assert perturbation_fingerprint(passive) != before
