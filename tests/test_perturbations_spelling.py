"""British <-> American spelling (perturbations/spelling): the pair table and its properties on text."""

from __future__ import annotations

import re

import editdistance
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perturbations.base import apply_edits, text_rng
from perturbations.spelling import REFUSED, Spelling, spelling_pairs, variety_words

TO_AMERICAN, TO_BRITISH = spelling_pairs()
#: British words that are plain lower-case words of the pattern table, in a fixed order
BRITISH = sorted(b for b, a in TO_AMERICAN.items() if TO_BRITISH.get(a) == b)
#: frames a word of any part of speech fits well enough for the parser ("word" is the slot)
FRAMES = ("We talked about {w} for a while.", "They said {w} twice.", "Here, {w} is the word.")
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

spelling = Spelling()


def test_the_table_keeps_regular_pairs_and_refuses_words_that_part_by_sense():
    assert TO_AMERICAN["colour"] == "color" and TO_BRITISH["organize"] == "organise"
    assert TO_AMERICAN["travelled"] == "traveled" and TO_AMERICAN["centre"] == "center"
    for word in ("tyre", "programme", "draught", "tonne", "disc", "cheque", "philtre", "analyses", *REFUSED):
        assert word not in TO_AMERICAN, word
    for word in ("tire", "program", "draft", "ton", "disk", "check", "meter", "license", "practice", "filter"):
        assert word not in TO_BRITISH, word


def test_the_table_is_a_one_to_one_map_of_near_spellings():
    for british, american in TO_AMERICAN.items():
        assert british != american and editdistance.eval(british, american) <= 3, (british, american)
    for american, british in TO_BRITISH.items():
        assert TO_AMERICAN[british] == american
        assert american not in TO_AMERICAN  # a word is never both spellings


@SETTINGS
@given(word=st.sampled_from(BRITISH), frame=st.sampled_from(FRAMES), seed=st.integers(0, 2**31))
def test_a_respelt_word_goes_back_by_the_other_direction(word, frame, seed):
    text = frame.format(w=word)
    result = spelling.apply(text, text_rng(seed, "t"))
    for variant in result.variants:
        assert apply_edits(text, list(variant.edits)) == variant.text
        for edit in variant.edits:
            table = TO_AMERICAN if variant.meta["direction"] == "to_american" else TO_BRITISH
            assert table[edit.old.lower()] == edit.new.lower()
    american = [v for v in result.variants if v.meta["direction"] == "to_american"]
    if american:  # the parser may read the frame so that the word is refused; then no variant at all
        assert american[0].text == frame.format(w=TO_AMERICAN[word])
        back = spelling.apply(american[0].text, seed).variants
        # the parser may read the other spelling differently ("bougainvillea" as a name) and refuse it;
        # a respelling back, when there is one, is the original
        assert [v.text for v in back if v.meta["direction"] == "to_british"] in ([text], [])
    assert spelling.apply(text, seed) == result  # the seed does not matter: one variant per direction


@SETTINGS
@given(word=st.sampled_from(BRITISH), seed=st.integers(0, 2**31))
def test_a_capitalised_word_inside_a_sentence_or_a_quoted_one_never_changes(word, seed):
    capital = word[:1].upper() + word[1:]
    for text in (f"We met at The {capital} Society yesterday.", f'She read "{word}" aloud.'):
        result = spelling.apply(text, seed)
        assert all(word not in e.old.lower() for v in result.variants for e in v.edits), (text, result)


@SETTINGS
@given(word=st.sampled_from(BRITISH), quotes=st.sampled_from((("'", "'"), ("‘", "’"))), seed=st.integers(0, 2**31))
def test_a_word_in_single_quotation_marks_never_changes(word, quotes, seed):
    text = f"He said {quotes[0]}the {word} is here{quotes[1]} and left, but the students' color didn't."
    result = spelling.apply(text, seed)
    assert all(word not in e.old.lower() for v in result.variants for e in v.edits), (text, result)


ONE_VARIETY_ONLY = sorted(b for b in variety_words()[0] if b not in TO_AMERICAN)
AMERICAN_ONLY = sorted(a for a in variety_words()[1] if a not in TO_BRITISH)


@SETTINGS
@given(british=st.sampled_from(BRITISH), american=st.sampled_from(sorted(TO_BRITISH)),
       unconvertible=st.sampled_from(ONE_VARIETY_ONLY + AMERICAN_ONLY), seed=st.integers(0, 2**31))
def test_a_variant_is_spelt_in_one_variety_throughout(british, american, unconvertible, seed):
    british_words, american_words = variety_words()
    for text in (f"We talked about {british} and {american} for a while.",
                 f"We talked about {british}, then {unconvertible}, then {american}."):
        for variant in spelling.apply(text, seed).variants:
            other = british_words if variant.meta["direction"] == "to_american" else american_words
            words = {w.lower() for w in re.findall(r"[A-Za-z]+", variant.text)}
            assert not words & other, (text, variant.text)
