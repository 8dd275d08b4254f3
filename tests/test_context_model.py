"""The context model: MPNet, pinned and verified, with the masked-LM head the perturbations judge with.

What is asserted is what the perturbations rely on: the weights are the pinned ones, a word that
fits its slot is more probable than one that does not, a fluent sentence is more likely than the same
words shuffled, and the model is never the metrics' encoder.
"""

from __future__ import annotations

import random

import pytest

from baselines.context import files
from baselines.context.model import get_context_model
from rome.core.fingerprint import file_digest

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def model():
    return get_context_model()


def test_the_unpacked_weights_are_the_pinned_ones():
    folder = files.encoder_dir()
    assert file_digest(folder / "model.safetensors") == files.WEIGHTS_SHA256
    assert (folder / ".verified").read_text().strip() == files.WEIGHTS_SHA256


def test_a_folder_whose_weights_differ_is_not_trusted(tmp_path):
    folder = tmp_path / files.MODEL_NAME
    folder.mkdir()
    (folder / "model.safetensors").write_bytes(b"\0" * 1024)
    assert not files._verified(folder)


def test_it_is_not_the_metrics_encoder(model):
    from rome.core.encoder import embedded_model_path

    model._load()
    assert type(model.model).__name__ == "MPNetModel"
    assert model.model.config.vocab_size == 30527
    assert str(embedded_model_path()) not in model.signature()
    assert model.signature().startswith("all-mpnet-base-v2@78c0197b6159+head@")


def test_a_word_that_fits_its_slot_is_more_probable(model):
    text = "She picked up the phone and called her mother."
    start = text.index("phone")
    fits, misfits = model.word_log_probs(text, start, start + len("phone"), ["phone", "banana"])
    assert fits > misfits + 2.0


def test_a_word_of_several_pieces_gets_a_joint_probability(model):
    text = "The committee will consider the proposal tomorrow."
    start = text.index("consider")
    # "reconsider" and "contemplate" split into several word pieces; their scores are finite sums
    scores = model.word_log_probs(text, start, start + len("consider"), ["consider", "reconsider", "contemplate"])
    assert all(s < 0 and s > -60 for s in scores)
    assert scores[0] > scores[2]


def test_a_fluent_sentence_is_more_likely_than_its_words_shuffled(model):
    sentences = ["The band released a new album last year.", "Beethoven composed nine symphonies in his life.",
                 "The hotel offers free internet to all of its guests."]
    rng = random.Random(0)
    shuffled = []
    for s in sentences:
        words = s.rstrip(".").split()
        rng.shuffle(words)
        shuffled.append(" ".join(words) + ".")
    fluent = model.pseudo_log_likelihood(sentences)
    broken = model.pseudo_log_likelihood(shuffled)
    for (total, n), (total_b, n_b) in zip(fluent, broken):
        assert n > 0 and n_b > 0
        assert total / n > total_b / n_b + 0.5


def test_the_empty_text_has_no_pieces(model):
    assert model.pseudo_log_likelihood([""]) == [(0.0, 0)]


def test_concurrent_callers_restore_torch_threads_to_what_they_were():
    """The one-thread setting is process-wide: two callers that overlap (A in, B in, A out, B out) leave torch's
    thread count as it was before A, never at the 1 that B would have saved as the original."""
    import torch

    from baselines.context.model import one_torch_thread

    before = torch.get_num_threads()
    torch.set_num_threads(3)
    try:
        a, b = one_torch_thread(torch), one_torch_thread(torch)
        a.__enter__()
        assert torch.get_num_threads() == 1
        b.__enter__()
        a.__exit__(None, None, None)
        assert torch.get_num_threads() == 1  # B is still inside
        b.__exit__(None, None, None)
        assert torch.get_num_threads() == 3
    finally:
        torch.set_num_threads(before)


def test_spaced_pseudo_log_likelihood_is_exact_when_no_pieces_share_a_pass():
    from baselines.context.model import get_context_model

    model = get_context_model()
    texts = ["The budget was approved by the committee.", "An apple was eaten by the man."]
    exact = model.pseudo_log_likelihood(texts)
    far = model.pseudo_log_likelihood(texts, spacing=1000)
    assert [n for _, n in far] == [n for _, n in exact]
    assert [s for s, _ in far] == pytest.approx([s for s, _ in exact], abs=1e-4)
    spaced = model.pseudo_log_likelihood(texts, spacing=3)
    assert [n for _, n in spaced] == [n for _, n in exact]  # every piece scored once
    assert [s for s, _ in spaced] != pytest.approx([s for s, _ in exact], abs=1e-4)  # with others hidden
    with pytest.raises(ValueError):
        model.pseudo_log_likelihood(texts, spacing=0)
