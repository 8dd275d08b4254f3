"""RoMe's parse and tree edit distance see what its encoder sees (issue "ground" #5).

Three pairs of 5,000 words took 171 s and 2.1 GB with RoMe (BERTScore 6 s, 0.6 GB): the encoder
truncated each text at its limit, but the parse, the EMD and TED-SE still worked on every word.
No wall time is asserted here; the cap is.
"""

from __future__ import annotations

import warnings

import numpy as np

from rome.core.encoder import get_encoder
from rome.core.parsing import get_parser
from rome.metric.metric import RoMe
from rome.metric.words import analyse, encoded_part

SENTENCE = ("the hotel near the station is cheap and the staff were friendly to every guest who stayed there "
            "during the long summer festival")
WORDS = SENTENCE.split()


def long_text(n_words: int, shift: int = 0) -> str:
    """``n_words`` words in sentences of 18 (a text, not one endless sentence)."""
    words = [WORDS[(i + shift) % len(WORDS)] + ("." if i % 18 == 17 else "") for i in range(n_words)]
    return " ".join(words) + "."


def test_words_of_a_long_text_stop_where_the_encoder_stops():
    encoder, parser = get_encoder(), get_parser(None, entities=False)
    text = long_text(5000)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        words = analyse([text], encoder, parser)[text]
    (emb,) = encoder.encode([text])
    assert emb.truncated
    assert 0 < len(words) <= encoder.max_length  # not 5,000 words: the parse and TED see the encoded part
    last_piece_end = max(end for _, end in emb.offsets)
    assert encoded_part(text, emb) == text[:last_piece_end]
    assert words.text == text[:last_piece_end]
    assert any("RoMe" in str(w.message) and "parse" in str(w.message) for w in caught)


def test_a_short_text_is_not_cut():
    encoder = get_encoder()
    text = long_text(40)
    (emb,) = encoder.encode([text])
    assert not emb.truncated and encoded_part(text, emb) == text


def test_rome_scores_a_pair_of_5000_words():
    """The issue's case end to end: finite, in range (the cap itself is asserted above; no wall time here)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = RoMe().score([long_text(5000)], [long_text(5000, shift=3)])
    assert np.isfinite(scores).all() and 0.0 <= scores[0] <= 1.0
