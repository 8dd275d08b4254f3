"""The perturbations' judge (perturbations/judge/): its model file, its API, ``rome judge`` and its trainer.

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

from perturbations.judge import KINDS, get_judge, load_weights
from perturbations.judge.data import development_half, swords
from perturbations.judge.train import split
from perturbations.judge.features import LEXICAL, SENTENCE, regions
from perturbations.judge.files import GGUF_BYTES, GGUF_NAME, GGUF_SHA256, MODEL_NAME, gguf_path, model_folder

ROOT = Path(__file__).resolve().parents[1]


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


def test_swords_split_keeps_contexts_apart_and_no_test_split_ships():
    examples = swords()
    assert len(examples) > 900 and 0.1 < sum(e.valid for e in examples) / len(examples) < 0.3
    fit, held = split(examples, 0)
    assert not {e.group for e in fit} & {e.group for e in held}
    assert 0.2 < len({e.group for e in held}) / len({e.group for e in examples}) < 0.4
    shipped = list((ROOT / "rome" / "data" / "datasets" / "swords").iterdir())
    assert not [p for p in shipped if "test" in p.name.lower()]
    assert development_half("news", "news-1") in (True, False)


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
    from rome.context.files import sha256_of

    assert sha256_of(path) == GGUF_SHA256


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
    ("He drew a picture of the house.", "drew", "sketched", "pulled"),
    ("The plant produces cars and trucks.", "plant", "factory", "flora"),
    ("She has a sharp mind.", "sharp", "keen", "pointed"),
]


@pytest.mark.slow
@needs_model
def test_p_valid_is_a_deterministic_probability_that_prefers_the_right_sense():
    judge = get_judge("textfooler")
    pairs = []
    for sentence, word, right, wrong in SENSES:
        pairs += [(sentence, sentence.replace(word, right)), (sentence, sentence.replace(word, wrong))]
    first = judge.p_valid(pairs)
    assert all(0.0 <= p <= 1.0 for p in first)
    assert judge.p_valid(pairs) == first
    assert judge.p_valid(pairs[2:4]) == pytest.approx(first[2:4], abs=1e-9)  # no dependence on the batch
    for k, (sentence, _, right, wrong) in enumerate(SENSES):
        assert first[2 * k] > first[2 * k + 1], (sentence, right, wrong, first[2 * k], first[2 * k + 1])


@pytest.mark.slow
@needs_model
def test_the_english_normaliser_keeps_sentence_differences_close_to_the_full_softmax():
    import numpy as np
    import torch

    from perturbations.judge import language_model

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


@pytest.mark.slow
@needs_model
def test_the_trainer_reproduces_the_committed_weights(tmp_path):
    """Quick when the feature cache is there (the set-up's first training run fills it); an hour without."""
    from perturbations.judge import train

    out = tmp_path / "weights.json"
    assert train.main(["--seed", str(load_weights()["seed"]), "--out", str(out)]) == 0
    fresh, committed = json.loads(out.read_text()), load_weights()
    assert fresh["kinds"].keys() == committed["kinds"].keys()
    for name, model in committed["models"].items():
        for key in ("coef", "mean", "scale"):
            assert fresh["models"][name][key] == pytest.approx(model[key], rel=1e-6, abs=1e-9)
        assert fresh["models"][name]["intercept"] == pytest.approx(model["intercept"], rel=1e-6)
    for kind, entry in committed["kinds"].items():
        assert fresh["kinds"][kind]["threshold"] == pytest.approx(entry["threshold"], abs=1e-4)
