"""Files and modules named in the project's Python sources exist (issue "ground": profiling.py named
``python -m rome.evaluate`` and tests/baselines_moverscore_oracle.py a scripts/bench_moverscore.py, neither there)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = ("rome", "perturbations", "baselines", "suites", "reports", "scripts", "tests")
#: a repository path such as scripts/research/bench_baselines.py (placeholders in capitals, like suites/NAME.py, are not paths)
PATH = re.compile(r"(?<![\w/.-])((?:scripts|tests|docs|suites|reports|rome|baselines|perturbations)/[\w/.-]*"
                  r"\.(?:py|md|jsonl|json|sh|safetensors))(?![\w])")
#: files a committed script writes rather than the tree holding them: named while the writer exists
GENERATED = {"docs/results.md": "scripts/results.py"}
MODULE = re.compile(r"python -m ((?:rome|reports|suites|baselines|perturbations|scripts)[\w.]*)")


def _sources():
    for folder in FOLDERS:
        yield from (p for p in (ROOT / folder).rglob("*.py") if p.resolve() != Path(__file__).resolve())


def _module_exists(name: str) -> bool:
    path = ROOT / name.replace(".", "/")
    return path.with_suffix(".py").is_file() or (path / "__main__.py").is_file()


def test_every_file_and_module_a_source_names_exists():
    missing = []
    for source in _sources():
        text = source.read_text(encoding="utf-8")
        for match in PATH.finditer(text):
            path = match.group(1)
            generated = path in GENERATED and (ROOT / GENERATED[path]).exists()
            if not re.search(r"/[A-Z_]+\.", path) and not (ROOT / path).exists() and not generated:
                missing.append(f"{source.relative_to(ROOT)}: {path}")
        missing += [f"{source.relative_to(ROOT)}: python -m {m}" for m in MODULE.findall(text)
                    if not _module_exists(m.rstrip("."))]
    assert not missing, "\n".join(missing)
