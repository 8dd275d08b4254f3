"""scripts/results.py stamps the page with the code each output recorded, never the checkout it runs in.

Run as a user runs it (a subprocess): the product's tests import no script.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _page(tmp_path: Path, outputs: dict[str, str]) -> str:
    source = tmp_path / "rome-out"
    for relative, text in outputs.items():
        (source / relative).parent.mkdir(parents=True, exist_ok=True)
        (source / relative).write_text(text, encoding="utf-8")
    out = tmp_path / "results.md"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "results.py"), "--from", str(source), "--out",
                           str(out)], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    return out.read_text(encoding="utf-8").split("\n## ")[0]  # the page's head: title and stamp


def _head_commit() -> str:
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True).stdout.strip()


def test_outputs_of_several_commits_are_each_named_and_the_page_says_so(tmp_path):
    head = _page(tmp_path, {
        "correlation/correlation.md": "# C\n\n- produced by rome report correlation, commit 8e23556, 2026-11-27 00:43 UTC\n",
        "robustness/robustness.md": "# R\n\n- Produced by rome report robustness, commit a439ac9+dirty, 2026-11-27 00:55 UTC\n",
        "job/validity.md": "| corpus | card |\n|---|---|\n",
    })
    assert "2 different code versions" in head
    assert "correlation/correlation.md: commit `8e23556`" in head
    assert "robustness/robustness.md: commit `a439ac9+dirty`" in head
    assert "job/validity.md recorded none" in head
    commit = _head_commit()
    assert not commit or commit not in head  # the checkout the page is generated in is not the outputs' code


def test_outputs_of_one_commit_are_stamped_with_it(tmp_path):
    head = _page(tmp_path, {
        "correlation/correlation.md": "- produced by rome report correlation, commit 8e23556, 2026-11-27 00:43 UTC\n",
        "challenge-demetr/accuracy.md": "- Produced by rome challenge, commit 8e23556, 2026-11-27 00:52 UTC\n",
        "job/bench.md": "peak RSS: 1 MB\nProduced by rome bench, rome-harness 0.3.0, 2026-11-27 01:00 UTC\n",
    })
    assert "2 different code versions" in head and "rome-harness `0.3.0`" in head
    head = _page(tmp_path / "one", {
        "correlation/correlation.md": "- produced by rome report correlation, commit 8e23556, 2026-11-27 00:43 UTC\n",
        "challenge-demetr/accuracy.md": "- Produced by rome challenge, commit 8e23556, 2026-11-27 00:52 UTC\n",
    })
    assert "Every output that records its code was made by commit `8e23556`" in head
    assert "different code versions" not in head
