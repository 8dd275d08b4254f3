"""The README's main job runs through: every step it takes, small (``scripts/main_job.py --smoke``).

The full job takes most of an hour, so CI runs the same steps in the same order on six cases per suite with
chrF only (every suite on every shipped corpus, rome validity, the robustness and correlation tables, DEMETR,
the results page): a step that would stop the job (an exit other than a finding or a suite that does not
apply) fails this test.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.long
def test_every_step_of_the_main_job_runs_on_a_small_sample(tmp_path):
    out = tmp_path / "rome-out"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "main_job.py"), "--smoke", "--out", str(out)],
                          cwd=tmp_path, env={**os.environ, "ROME_HELDOUT": ""}, capture_output=True, text=True,
                          timeout=1800)
    assert done.returncode == 0, done.stderr[-3000:]
    summaries = [json.loads(p.read_text()) for p in out.glob("*/summary.json")]
    corpora = {s["corpus"] for s in summaries}
    assert {"dialogue", "news", "webnlg"} <= corpora and all(s.get("code") for s in summaries)
    page = (out / "results.md").read_text(encoding="utf-8")
    missing = [line for line in page.splitlines() if line.startswith("_missing:")]
    # every table but the bench (not run small) was made; the held-out cards (none given) say why not
    assert len(missing) == 1 and "bench.md" in missing[0], missing
    assert "_not run: no held-out corpus was named." in page
    for table in ("robustness/robustness.md", "correlation/correlation.md", "challenge-demetr/accuracy.md",
                  "job/validity.md"):
        assert (out / table).is_file(), table
