"""The perturbations' judge (perturbations/judge/): its model file, its API, ``rome judge``, and that the
committed weights follow from the committed feature rows (the trainer itself, scripts/research/judge_train.py,
has its own checks in scripts/research/tests/).

Tests marked slow load Gemma 3 270M (about 1.1 GB in float32; seconds once the set-up has converted it).
The sense examples are written from dictionary definitions, not taken from any corpus of the project.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from perturbations.judge import KINDS, get_judge, language_model, load_weights
from perturbations.judge.features import LEXICAL, SENTENCE, regions
from perturbations.judge.files import GGUF_BYTES, GGUF_NAME, GGUF_SHA256, MODEL_NAME, gguf_path, model_folder
from perturbations.judge.fit import fit_set, predict

ROOT = Path(__file__).resolve().parents[1]
#: the fit rows the committed weights were fitted on, with their labels (data, written by
#: ``scripts/research/judge_train.py --rows``; read here as a file, never as a script)
ROWS = ROOT / "scripts" / "research" / "data" / "judge_features.json"


def _installed() -> bool:
    try:
        from perturbations.judge.files import chunk_files

        chunk_files()
    except Exception:
        return False
    return True


needs_model = pytest.mark.skipif(not _installed() and not os.environ.get("ROME_REQUIRE_EXTRAS"),
                                 reason="the judge's model wheels are not installed (scripts/install.sh)")


def rome(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "reports.cli", *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=900, check=False)


# -- fast -----------------------------------------------------------------------------------------------
def test_regions_find_every_swapped_word():
    text = "The 13 states first formed a weak central government."
    variant = "The 13 provinces first formed a weak principal government."
    found = regions(text, variant)
    assert [(r.old, r.new) for r in found] == [("states", "provinces"), ("central", "principal")]
    assert text[found[0].old_start:found[0].old_end] == "states"
    assert variant[found[1].new_start:found[1].new_end] == "principal"
    assert regions(text, text) == []


def test_committed_weights_cover_every_kind_with_an_operating_point():
    weights = load_weights()
    assert weights["gguf_sha256"] == GGUF_SHA256
    for kind in KINDS:
        entry = weights["kinds"][kind]
        model = weights["models"][entry["model"]]
        assert tuple(model["features"]) == (LEXICAL if model["lexical"] else SENTENCE)
        assert len(model["coef"]) == len(model["mean"]) == len(model["scale"]) == len(model["features"])
        assert 0.0 < entry["threshold"] <= 1.0
        assert entry["set_on"]["fit_pairs"] > 0
    judge = get_judge("passive")
    assert judge.accepts(judge.threshold) and not judge.accepts(judge.threshold - 1e-6)
    described = judge.describe()
    assert described["threshold"] == judge.threshold and described["model"].endswith(GGUF_SHA256[:12])


def test_unknown_kind_is_a_one_line_error():
    from rome.core.errors import InputError

    with pytest.raises(InputError, match="unknown judge kind"):
        get_judge("typos")


def test_no_training_data_ships_in_the_package():
    from rome.core.paths import data_dir

    assert not (data_dir() / "swords").exists()
    judge = ROOT / "perturbations" / "judge"
    assert {p.name for p in judge.iterdir() if p.suffix in (".py", ".json")} == {
        "__init__.py", "features.py", "files.py", "fit.py", "lm.py", "substitutes.py", "weights.json"}


def _committed_rows(model: str) -> list[dict]:
    data = json.loads(ROWS.read_text(encoding="utf-8"))
    assert data["gguf_sha256"] == GGUF_SHA256 and data["window"] == load_weights()["window"]
    return [r for r in data["rows"] if r["model"] == model]


@pytest.mark.parametrize("model", ["lexical", "sentence"])
def test_the_committed_rows_refit_to_the_committed_weights(model):
    """Fitting is deterministic (lbfgs, seeded), but the rows are float32 sums and a solver stops at a
    tolerance: coefficients are compared at rel 1e-4, and what judging uses (thresholds, verdicts) exactly."""
    import numpy as np

    weights = load_weights()
    rows = _committed_rows(model)
    X = np.array([r["features"] for r in rows])
    y = np.array([r["valid"] for r in rows], dtype=int)
    committed = weights["models"][model]
    assert (len(rows), int(y.sum())) == (committed["fit"]["pairs"], committed["fit"]["valid"])
    assert sorted({r["source"] for r in rows}) == committed["fit"]["sources"]
    fresh, thresholds, oof = fit_set(X, y, [f"{r['source']}:{r['group']}" for r in rows], [r["kind"] for r in rows],
                                   weights["seed"])
    for key in ("coef", "mean", "scale"):
        assert fresh[key] == pytest.approx(committed[key], rel=1e-4, abs=1e-9), key
    assert fresh["intercept"] == pytest.approx(committed["intercept"], rel=1e-4)
    kinds = {k: e for k, e in weights["kinds"].items() if e["model"] == model}
    assert {k: round(v, 4) for k, v in thresholds.items()} == {k: e["threshold"] for k, e in kinds.items()}
    p_fresh = predict(fresh, X)
    for kind in kinds:
        judge = get_judge(kind)
        mine = [r["kind"] == kind for r in rows]
        p_committed = judge._probabilities(X[mine])
        assert p_committed == pytest.approx(predict(committed, X[mine]).tolist(), abs=1e-12)
        assert [judge.accepts(p) for p in p_committed] == [p >= round(thresholds[kind], 4) for p in p_fresh[mine]]
        assert int((oof[mine] >= thresholds[kind]).sum()) == kinds[kind]["set_on"]["accepted"]


@pytest.mark.parametrize("lines, message", [
    (['{"id": 1, "text": "A dog barked."}'], "'variant' must be a string"),
    (['{"id": 1, "text": "A dog barked.", "variant": "A hound barked."}',
      '{"id": 1, "text": "A cat sat.", "variant": "A cat sat down."}'], "duplicate id"),
    (['{"id": 1, "text": "A dog'], "in.jsonl:1: malformed JSON"),
    (['{"text": "A dog barked.", "variant": "A hound barked."}'], "'id' is missing"),
    ([], "no pairs to judge"),
])
def test_rome_judge_refuses_bad_input_with_exit_2(tmp_path, lines, message):
    source = tmp_path / "in.jsonl"
    source.write_text("\n".join(lines) + ("\n" if lines else ""))
    done = rome("judge", "--kind", "textfooler", "--input", str(source), "--output", str(tmp_path / "out.jsonl"),
                cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out.jsonl").exists()


def test_rome_judge_never_overwrites_a_file_it_did_not_write(tmp_path):
    source = tmp_path / "in.jsonl"
    source.write_text('{"id": 1, "text": "A dog barked.", "variant": "A hound barked."}\n')
    mine = tmp_path / "notes.jsonl"
    mine.write_text('{"my": "notes"}\n')
    done = rome("judge", "--kind", "textfooler", "--input", str(source), "--output", str(mine), "--force",
                cwd=tmp_path)
    assert done.returncode == 2 and "not an output of rome judge" in done.stderr
    assert mine.read_text() == '{"my": "notes"}\n'


# -- the model file --------------------------------------------------------------------------------------
@needs_model
def test_model_file_is_verified_against_its_hash_and_rejoined_when_damaged(tmp_path):
    folder = tmp_path / MODEL_NAME
    folder.mkdir()
    damaged = folder / GGUF_NAME
    damaged.write_bytes(b"\0" * 1024)
    (folder / (GGUF_NAME + ".verified")).write_text(GGUF_SHA256 + "\n")  # a stamp does not vouch for a wrong size
    path = gguf_path(tmp_path)
    assert path == damaged and path.stat().st_size == GGUF_BYTES
    from rome.core.fingerprint import file_digest

    assert file_digest(path) == GGUF_SHA256


@needs_model
def test_the_converted_tokenizer_is_reused(monkeypatch):
    from perturbations.judge.files import tokenizer_dir

    folder = tokenizer_dir()  # converts once (minutes) unless the set-up did
    assert (folder / ".complete").read_text().strip() == GGUF_SHA256
    import transformers

    def refuse(*args, **kwargs):
        raise AssertionError("the tokenizer was converted again")

    monkeypatch.setattr(transformers.AutoTokenizer, "from_pretrained", refuse)
    assert tokenizer_dir() == folder
    assert folder.parent == model_folder()


# -- the judge on the real model --------------------------------------------------------------------------
#: (sentence, the word, a synonym in its sense here, a WordNet synonym of another sense), written from
#: dictionary definitions of the words' senses
SENSES = [
    ("The bright student answered every question.", "bright", "smart", "vivid"),
    ("The plant produces cars and trucks.", "plant", "factory", "flora"),
    ("She has a sharp mind.", "sharp", "keen", "pointed"),
]
#: measured: the judge gives "pulled" (0.17) more than "sketched" (0.12) here; kept as a known weakness
MISSED = [("He drew a picture of the house.", "drew", "sketched", "pulled")]


@pytest.mark.slow
@needs_model
def test_p_valid_is_a_deterministic_probability():
    judge = get_judge("textfooler")
    pairs = [(s, s.replace(w, r)) for s, w, r, _ in SENSES] + [(s, s.replace(w, x)) for s, w, _, x in SENSES]
    first = judge.p_valid(pairs)
    assert all(0.0 <= p <= 1.0 for p in first)
    assert judge.p_valid(pairs) == first
    assert judge.p_valid(pairs[1:3]) == pytest.approx(first[1:3], abs=1e-5)  # the batch changes only rounding


@pytest.mark.slow
@needs_model
@pytest.mark.parametrize("sentence, word, right, wrong", [
    *SENSES, *[pytest.param(*m, marks=pytest.mark.xfail(strict=True, reason="measured weakness")) for m in MISSED]])
def test_p_valid_prefers_the_synonym_of_the_sense_in_use(sentence, word, right, wrong):
    good, bad = get_judge("textfooler").p_valid([(sentence, sentence.replace(word, right)),
                                                 (sentence, sentence.replace(word, wrong))])
    assert good > bad, (good, bad)


@pytest.mark.slow
@needs_model
def test_the_english_normaliser_keeps_sentence_differences_close_to_the_full_softmax():
    import numpy as np
    import torch

    lm = language_model()
    texts = ["He drew a picture of the house.", "He sketched a picture of the house.",
             "He pulled a picture of the house."]
    ids = [lm.encode(t) for t in texts]
    ours = [x.sum() for x in lm.token_logprobs(ids)]
    with torch.inference_mode():
        full = [float(torch.log_softmax(lm.model(input_ids=torch.tensor([i])).logits[0].float(), -1)[:-1]
                      .gather(1, torch.tensor(i[1:]).unsqueeze(-1)).sum()) for i in ids]
    assert np.allclose(np.diff(ours), np.diff(full), atol=0.5), (ours, full)
    assert lm.sentence_logprobs(texts) == pytest.approx(ours)


@pytest.mark.slow
@needs_model
def test_rome_judge_round_trips_in_input_order(tmp_path):
    source = tmp_path / "in.jsonl"
    rows = [{"id": key, "text": s, "variant": s.replace(w, r)} for key, (s, w, r, _) in zip("ba", SENSES[:2])]
    rows.append({"id": 7, "text": SENSES[2][0], "variant": SENSES[2][0].replace("plant", "flora")})
    source.write_text("".join(json.dumps(r) + "\n" for r in rows))
    out = tmp_path / "out.jsonl"
    done = rome("judge", "--kind", "adjective", "--input", str(source), "--output", str(out), cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    got = [json.loads(line) for line in out.read_text().splitlines()]
    assert [g["id"] for g in got] == ["b", "a", 7]
    judge = get_judge("adjective")
    expected = judge.p_valid([(r["text"], r["variant"]) for r in rows])
    for g, p in zip(got, expected):
        assert set(g) == {"id", "valid", "p_valid"} and g["p_valid"] == pytest.approx(p, abs=1e-5)
        assert g["valid"] == judge.accepts(g["p_valid"])


#: measured on this project's 2-core CPU (the rows computed by the trainer, one thread, in other batches; the
#: sample here in one batch, torch's default threads): at most 7.6e-6 (lexical ``d_right``; 3.8e-6 sentence
#: ``d_sent``), one or two float32 ulps of a log-probability sum of magnitude 30-100. The WordNet and wordfreq
#: features matched exactly. The bound, 1e-4, keeps a margin of ten over that; every feature off by 1e-4 at once
#: would move ``p_valid`` by at most 4e-5 (the sum of |coef / scale| of weights.json, times 1e-4 / 4)
FEATURE_TOLERANCE = 1e-4


@pytest.mark.slow
@needs_model
def test_the_model_recomputes_a_sample_of_the_committed_rows():
    """The committed rows are what the model gives: a seeded sample, lexical and sentence, recomputed."""
    import random

    import numpy as np

    from perturbations.judge.features import compute

    weights = load_weights()
    for model, n in (("lexical", 12), ("sentence", 6)):
        rows = random.Random(f"judge-rows:{model}").sample(_committed_rows(model), n)
        lexical = model == "lexical"
        got = compute([(r["text"], r["variant"]) for r in rows], language_model(), lexical=lexical,
                      window=weights["window"] if lexical else None)
        want = np.array([r["features"] for r in rows])
        assert np.abs(np.asarray(got) - want).max() <= FEATURE_TOLERANCE, (model, np.abs(np.asarray(got) - want).max())
