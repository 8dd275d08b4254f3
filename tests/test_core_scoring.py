"""Scoring engines: the Ray path gives the same rows as the local path on the same input."""

from __future__ import annotations

import json

import pytest
from require_extras import import_or_missing

from rome.core.errors import InputError
from rome.core.paths import shared_path
from rome.core.scoring import LocalEngine, RayEngine, chunked, get_engine


@pytest.fixture(scope="module")
def items():
    lines = shared_path("data", "novikova2017", "bagel.jsonl").read_text().splitlines()[:40]
    rows = [json.loads(line) for line in lines]
    return [{"id": r["id"], "hypothesis": r["hypothesis"], "reference": r["references"]} for r in rows]


def test_chunked_keeps_order_and_sizes():
    assert [len(c) for c in chunked(list(range(10)), 4)] == [4, 4, 2]


def test_unknown_engine():
    with pytest.raises(InputError, match="unknown engine"):
        get_engine("spark")


def test_ray_engine_equals_local_engine(items):
    """Same rows from a local Ray instance started here; the model metrics agree to float noise
    (an actor runs torch on one thread, the local path on two)."""
    ray = import_or_missing("ray", "the ray engine test needs ray (pip install 'ray==2.60.0')")
    names = ["bleu", "meteor", "bertscore", "moverscore", "rome"]
    subset = items[:16]
    local = [row for chunk in LocalEngine().run(subset, subset, names, None, 5) for row in chunk]
    try:
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        remote = [row for chunk in RayEngine(workers=2).run(subset, subset, names, None, 5) for row in chunk]
    finally:
        ray.shutdown()
    assert [r["id"] for r in remote] == [r["id"] for r in subset]
    for mine, theirs in zip(local, remote):
        assert {k: v for k, v in mine.items() if k != "scores"} == {k: v for k, v in theirs.items() if k != "scores"}
        assert mine["scores"]["bleu"] == theirs["scores"]["bleu"]
        assert mine["scores"]["meteor"] == theirs["scores"]["meteor"]
        assert mine["scores"] == pytest.approx(theirs["scores"], abs=1e-5)
