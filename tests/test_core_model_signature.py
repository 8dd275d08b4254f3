"""A local model is signed by its files, not its folder's name (issue #32, sweep defect 1).

``rome score --model models/a/model``, a retrain into ``models/b/model``, then ``--model models/b/model``
was served A's cached scores: both signatures said ``model:model``. Here two real model folders (copies
of the embedded MiniLM, one with a weight tensor changed and saved with safetensors) must sign apart,
and the same files in another folder must sign alike.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rome.core.cache import ScoreCache
from rome.core.encoder import embedded_model_path
from rome.core.engine import FitCorpus, ScoringEngine
from rome.core.registry import build_metric

ENCODER_METRICS = ("bertscore", "moverscore", "rome")


def copy_model(target: Path) -> Path:
    shutil.copytree(embedded_model_path(), target)
    return target


def perturb_one_tensor(folder: Path, scale: float = 1.5) -> None:
    """Scale one weight tensor (the last layer's output projection) and save the weights again."""
    from safetensors.torch import load_file, save_file

    path = folder / "model.safetensors"
    tensors = load_file(str(path))
    name = next(k for k in sorted(tensors) if k.endswith("layer.5.output.dense.weight"))
    tensors[name] = tensors[name] * scale
    save_file(tensors, str(path), metadata={"format": "pt"})


@pytest.fixture(scope="module")
def models(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("models")
    a = copy_model(root / "a" / "model")
    b = copy_model(root / "b" / "model")
    perturb_one_tensor(b)
    same_as_a = copy_model(root / "elsewhere" / "other-name")
    return {"a": a, "b": b, "same_as_a": same_as_a}


def model_field(metric) -> str:
    return dict(metric.signature().fields)["model"]


@pytest.mark.parametrize("name", ENCODER_METRICS)
def test_two_local_models_with_other_weights_never_share_a_signature(models, name):
    a, b = (build_metric(name, model=str(models[k])) for k in ("a", "b"))
    assert str(a.signature()) != str(b.signature())
    assert model_field(a) != model_field(b) and model_field(a).startswith("local:")


@pytest.mark.parametrize("name", ENCODER_METRICS)
def test_the_same_files_in_another_folder_share_a_signature(models, name):
    a, same = (build_metric(name, model=str(models[k])) for k in ("a", "same_as_a"))
    assert str(a.signature()) == str(same.signature())


def test_the_embedded_default_keeps_its_name(models):
    assert model_field(build_metric("bertscore")) == "all-MiniLM-L6-v2"
    assert model_field(build_metric("bertscore", model=str(models["a"]))) != "all-MiniLM-L6-v2"


def test_a_folder_named_like_the_default_is_signed_by_its_files(tmp_path, models):
    """``--model ./all-MiniLM-L6-v2`` (a fine-tuned copy kept under the default's name) is not the default."""
    named = tmp_path / "all-MiniLM-L6-v2"
    shutil.copytree(models["b"], named)
    assert model_field(build_metric("bertscore", model=str(named))) == model_field(build_metric("bertscore", model=str(models["b"])))


def test_weights_rewritten_in_place_re_sign(tmp_path, models):
    folder = shutil.copytree(models["a"], tmp_path / "model")
    metric = build_metric("bertscore", model=str(folder))
    before = str(metric.signature())
    perturb_one_tensor(folder)
    assert str(metric.signature()) != before


def test_a_fresh_run_with_another_local_model_is_not_served_the_first_ones_scores(tmp_path, models):
    pairs = [("the hotel is cheap and quiet", "an inexpensive quiet hotel"), ("a bar in soho", "a pub near soho")]
    cache = ScoreCache(tmp_path / "scores.sqlite")

    def run(model: Path):
        engine = ScoringEngine({"bertscore": build_metric("bertscore", model=str(model))}, cache)
        return engine.score(pairs, FitCorpus.of("two pairs", pairs))["bertscore"].tolist()

    first = run(models["a"])
    hits = cache.hits
    second = run(models["b"])
    assert cache.hits == hits, "B was served A's cached scores"
    assert second != first  # B's own scores: its changed tensor changes them
    assert run(models["same_as_a"]) == first and cache.hits == hits + len(pairs)  # same files: served from the cache


def test_resume_with_another_local_model_in_a_folder_of_the_same_name_is_refused(tmp_path, models, capsys):
    """The sweep's reproduction: ``--model models/a/model``, then ``--resume --model models/b/model``."""
    import json

    from reports.cli import main

    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text("".join(json.dumps({"id": i, "hypothesis": f"a quiet hotel number {i}", "reference": "a hotel"})
                             + "\n" for i in range(3)), encoding="utf-8")
    out = tmp_path / "scores.jsonl"
    common = ["score", "--input", str(pairs), "--metric", "bertscore", "--output", str(out), "--no-cache"]
    assert main([*common, "--model", str(models["a"])]) == 0
    out.write_text(out.read_text(encoding="utf-8").splitlines()[0] + "\n", encoding="utf-8")  # interrupted
    written = out.read_text(encoding="utf-8")
    capsys.readouterr()
    assert main([*common, "--model", str(models["b"]), "--resume"]) == 2
    assert "different signature" in capsys.readouterr().err
    assert out.read_text(encoding="utf-8") == written  # left untouched
    assert main([*common, "--model", str(models["same_as_a"]), "--resume"]) == 0  # the same files: resumed
    assert len(out.read_text(encoding="utf-8").splitlines()) == 3
