"""The metrics under test never choose their perturbations: building the cases of every registered kind
never loads the metrics' encoder (the embedded MiniLM), while the judged kinds do load their own model (the
judge's Gemma 3 270M), so the check watches real loading and is not vacuous."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # runs the judge's model in a fresh interpreter

ROOT = Path(__file__).resolve().parents[1]

#: run in a fresh interpreter: every file opened is recorded (an audit hook sees every ``open``, whichever
#: library opens it), and the metric encoder's loader is replaced by one that records its call
PROBE = r"""
import json, sys
from pathlib import Path

opened = []
sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == "open" and args and isinstance(args[0], (str, bytes, Path)) else None)

import rome.core.encoder as encoder
calls = []
original_load = encoder.Encoder._load
def recording_load(self):
    calls.append("Encoder._load")
    return original_load(self)
encoder.Encoder._load = recording_load

from perturbations.registry import available_perturbations, build_perturbation
from perturbations.judge.files import model_folder

texts = ["She bought a large house near the river.", "The committee rejected the cheap proposal after a long debate.",
         "The band released a new album last year.", "It is a cheap restaurant and the food is good.",
         "The river links the lake to the sea."]
ran = {}
for kind in available_perturbations():
    try:
        perturbation = build_perturbation(kind)
    except Exception as exc:  # an optional dependency missing here: that kind is not run
        ran[kind] = f"not built: {type(exc).__name__}"
        continue
    ran[kind] = sum(len(perturbation.apply(t, seed).variants) for t in texts for seed in (0, 1))
metric = str(encoder.embedded_model_path().resolve())
context = str(model_folder().resolve())
print(json.dumps({"ran": ran, "encoder_calls": calls,
                  "metric_files": sorted({p for p in opened if str(Path(p).resolve()).startswith(metric)}),
                  "context_files": sorted({p for p in opened if str(Path(p).resolve()).startswith(context)})}))
"""


def test_no_perturbation_loads_the_metrics_encoder():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=900, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["ran"]["textfooler"] > 0 and report["ran"]["adjective"] > 0, report["ran"]
    assert report["context_files"], "the judge's model was not loaded: the probe watched nothing"
    assert report["encoder_calls"] == [], report
    assert report["metric_files"] == [], report


#: no module a metric is built from may read the perturbations' judge or its model (Gemma 3 270M)
METRIC_SOURCES = ("rome/metric", "rome/training", "rome/core", "baselines")
JUDGE_MARKS = ("perturbations.judge", "perturbations/judge", "gemma", "gguf")


@pytest.mark.parametrize("folder", METRIC_SOURCES)
def test_no_metric_source_reads_the_judge(folder):
    hits = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        text = path.read_text(encoding="utf-8").lower()
        hits += [f"{path.relative_to(ROOT)}: {mark}" for mark in JUDGE_MARKS if mark in text]
    assert hits == [], hits


METRIC_PROBE = r"""
import json, sys
from pathlib import Path

opened = []
sys.addaudithook(lambda event, args: opened.append(str(args[0])) if event == "open" and args and isinstance(args[0], (str, bytes, Path)) else None)

from rome.core.registry import available_metrics, build_metric
from perturbations.judge.files import model_folder

hyps = ["The band released a new album last year.", "She bought a large house near the river."]
refs = ["The band put out a new record last year.", "She purchased a big house by the river."]
ran = {}
for name in available_metrics(include_variants=True):
    try:
        ran[name] = [float(x) for x in build_metric(name).score(hyps, refs)]
    except Exception as exc:  # a metric that needs more than this machine offers is not run here
        ran[name] = f"not run: {type(exc).__name__}"
judge = str(model_folder().resolve())
print(json.dumps({"ran": ran, "judge_loaded": "perturbations.judge.lm" in sys.modules,
                  "judge_files": sorted({p for p in opened if str(Path(p).resolve()).startswith(judge)})}))
"""


def test_no_metric_loads_the_judges_model():
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", METRIC_PROBE], cwd=ROOT, env=env, capture_output=True, text=True,
                          timeout=1800, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    report = json.loads(done.stdout.strip().splitlines()[-1])
    scored = [name for name, value in report["ran"].items() if isinstance(value, list)]
    assert {"bleu", "chrf", "gruen/likelihood"} <= set(scored), report["ran"]
    assert report["judge_loaded"] is False and report["judge_files"] == [], report
