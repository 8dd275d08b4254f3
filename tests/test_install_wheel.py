"""The built wheel is a self-contained runtime: installed on its own, it runs every command from an empty
folder, with no ``../shared`` and no ``ROME_SHARED``, and writes nothing into its site-packages. Its fresh
``HOME`` has no cache; only the install's unpacked model files are shared (``ROME_MODEL_DIR``).

The wheel is installed without dependencies into a fresh virtual environment; a ``.pth`` file lets that
environment see this test environment's packages (torch, spaCy, ...), after its own site-packages, so the
project itself is imported from the wheel. Only the venv's ``rome`` console script is run, from an empty
temporary folder, with a fresh ``HOME`` and no ``PYTHONPATH``.
"""

from __future__ import annotations

import json
import os
import shutil
import site
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from rome.core.paths import models_dir

ROOT = Path(__file__).resolve().parents[1]
#: what a source tree may hold that is no part of the package build
NOT_SOURCE = (".git", ".venv", ".tox", "build", "dist", "*.egg-info", "__pycache__", "rome-out", ".pytest_cache",
              ".ruff_cache", ".hypothesis", ".cache", ".cache-scores", ".runs")
#: a passive-form suite's user corpus: sentences with clear agents and objects
PAIRS = [
    ("The committee approved the budget on Monday.", "The committee approved the new budget."),
    ("The chef cooked the dinner for the guests.", "The chef prepared the dinner."),
    ("Police arrested the suspect last night.", "The police arrested the suspect."),
    ("The company hired two engineers.", "The company hired the engineers."),
    ("Maria wrote the report.", "Maria wrote the final report."),
    ("The storm destroyed the old bridge.", "The storm destroyed the bridge."),
]


def _run(cmd: list[str], cwd: Path, env: dict[str, str], ok: tuple[int, ...] = (0,)) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode in ok, f"{' '.join(cmd)} exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done


def _listing(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns) for p in folder.rglob("*")
            if p.is_file() or p.is_symlink()}


def _test_env_sites() -> list[str]:
    """This environment's package folders, for the venv's ``.pth`` (a venv's own ``--system-site-packages``
    would see the base interpreter's, not this environment's)."""
    found = [*site.getsitepackages(), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    return list(dict.fromkeys(p for p in found if Path(p).is_dir()))


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> tuple[Path, Path]:
    """(the venv, its site-packages) with the project's freshly built wheel installed, no dependencies."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(ROOT, source, ignore=shutil.ignore_patterns(*NOT_SOURCE))  # never a stale build/ of the checkout
    wheels = work / "wheels"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
          "-w", str(wheels), str(source)], work, env)
    (wheel,) = wheels.glob("rome_harness-*.whl")
    venv = work / "venv"
    _run([sys.executable, "-m", "venv", str(venv)], work, env)
    python = venv / "bin" / "python"
    _run([str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)], work, env)
    sites = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], work, env)
    venv_site = Path(sites.stdout.strip())
    (venv_site / "_rome_test_environment.pth").write_text("\n".join(_test_env_sites()) + "\n", encoding="utf-8")
    return venv, venv_site


@pytest.mark.long
def test_the_installed_wheel_runs_every_command_from_an_empty_folder(installed, tmp_path):
    venv, venv_site = installed
    run_dir, home = tmp_path / "empty", tmp_path / "home"
    run_dir.mkdir()
    home.mkdir()
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("ROME_") and k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV", "XDG_CACHE_HOME")}
    env.update(HOME=str(home), PATH=f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}", PYTHONNOUSERSITE="1")
    # the unpacked model files are the install's, kept apart from every cache (rome.core.paths.models_dir): a
    # fresh user of the same install reads them; unpacking and dequantising them again is the install's test
    env["ROME_MODEL_DIR"] = str(models_dir())
    rome = str(venv / "bin" / "rome")

    where = _run([str(venv / "bin" / "python"), "-c",
                  "import rome, perturbations, reports, suites; print(rome.__file__, suites.__file__)"], run_dir, env)
    assert all(Path(p).is_relative_to(venv_site) for p in where.stdout.split())  # the wheel's code, not the checkout's
    for top in ("rome", "perturbations", "baselines", "suites", "reports"):  # no code knows a folder beside a checkout
        assert not [p for p in (venv_site / top).rglob("*.py") if "ROME_SHARED" in p.read_text(encoding="utf-8")]
    assert not (venv_site.parent / "shared").exists() and not (run_dir.parent / "shared").exists()
    before = _listing(venv_site)

    (run_dir / "one.jsonl").write_text(json.dumps({"id": "1", "text": "The committee approved the new budget."}) + "\n")
    _run([rome, "perturb", "--kind", "passive", "--input", "one.jsonl", "--output", "variants.jsonl"], run_dir, env)
    assert "The new budget was approved by the committee." in (run_dir / "variants.jsonl").read_text()

    # a suite exits 1 when a check fails: it ran on a shipped corpus and wrote its summary (the judged passive
    # runs on the user's corpus below: on news it changes a few texts in a hundred)
    _run([rome, "suite", "contractions", "--data", "news", "--n", "20", "--metric", "bleu"], run_dir, env, ok=(0, 1))
    assert json.loads((run_dir / "rome-out" / "contractions--news" / "summary.json").read_text())
    (run_dir / "my.jsonl").write_text("".join(json.dumps({"id": f"p{i}", "reference": ref, "original": orig}) + "\n"
                                              for i, (ref, orig) in enumerate(PAIRS)))
    _run([rome, "suite", "passive_form", "--data", "my.jsonl", "--metric", "bleu"], run_dir, env, ok=(0, 1))
    assert json.loads((run_dir / "rome-out" / "passive_form--my" / "summary.json").read_text())
    _run([rome, "report", "correlation", "--dataset", "bagel", "--n", "50", "--metric", "bleu", "--bootstrap", "0"],
         run_dir, env)
    _run([rome, "challenge", "demetr/minor_id15_case", "demetr/critical_id9_ne_replaced",
          "--metric", "bleu", "--n-per-category", "5", "--bootstrap", "10", "--workers", "1"], run_dir, env)
    accuracy = (run_dir / "rome-out" / "challenge" / "accuracy.csv").read_text()
    assert "minor_id15_case" in accuracy and "critical_id9_ne_replaced" in accuracy
    # one card: reading every card redraws every suite on every corpus (tests/test_reports_validity.py does)
    validity = _run([rome, "validity", "--suite", "contractions", "--data", "news"], run_dir, env)
    assert "contractions" in validity.stdout and "current" in validity.stdout
    _run([rome, "validity", "--draw", "passive_form", "--data", "my.jsonl", "--n", "2"], run_dir, env)

    out = run_dir / "rome-out"
    assert (out / "cards" / "my" / "passive.todo.jsonl").is_file()  # the todo card: under ./rome-out
    assert {p.name for p in out.iterdir()} >= {"challenge", "cards"} and len(list(out.iterdir())) >= 5
    assert _listing(venv_site) == before  # nothing written into the installed package
