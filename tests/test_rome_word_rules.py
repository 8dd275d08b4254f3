"""RoMe's word rules, on the real encoder and parser: one lemma is one word, two different
numbers are two words, the passive's own words weigh nothing (inputs and expected outputs)."""

from __future__ import annotations

import numpy as np
import pytest

from rome.core.encoder import get_encoder
from rome.core.parsing import get_parser
from rome.metric.semantic import IdfTable, content_weights, semantic_similarity, tfidf_weights
from rome.metric.tree_edit import node_equality, ted_similarity
from rome.metric.words import analyse, meaning_inflection, number_key, passive_markers, word_similarity

ACTIVE = "House of nanking serves chinese food."
PASSIVE = "Chinese food is served by House of nanking."
ADDRESS = "The hotel is at 169 bush street, phone 4157758160."
OTHER_NUMBER = "The hotel is at 161 bush street, phone 4157758160."
SAME_NUMBER_WRITTEN = "The hotel is at 169 bush street, phone 4157758160 ."
PAST = "The agency reported that the plane had landed."
PRESENT = "The agency reports that the plane had landed."
THREE_ROOMS = "They booked three rooms."
FOUR_ROOMS = "They booked four rooms."
DIGIT_ROOMS = "They booked 3 rooms."
CHEAP_ROOM = "They booked a cheap room."
CHEAPER_ROOMS = "They booked cheaper rooms."


@pytest.fixture(scope="module")
def words():
    return analyse([ACTIVE, PASSIVE, ADDRESS, OTHER_NUMBER, SAME_NUMBER_WRITTEN, PAST, PRESENT, CHEAP_ROOM, CHEAPER_ROOMS,
                    THREE_ROOMS, FOUR_ROOMS, DIGIT_ROOMS],
                   get_encoder(), get_parser())


@pytest.mark.parametrize(("word", "pos", "key"), [
    ("169", "", "169"), ("4,000.", "NUM", "4000"), ("5th", "ADJ", "5th"), ("(94117)", "", "94117"),
    ("fifth", "ADJ", None), ("-s", "", None), ("three", "NUM", "3"), ("Ninety", "NUM", "90"),
    ("hundred", "NUM", "100"), ("one", "PRON", None), ("three", "", None), ("twenty-five", "NUM", None),
])
def test_number_key(word, pos, key):
    assert number_key(word, pos) == key


def test_the_passive_markers_are_be_and_by(words):
    passive = words[PASSIVE]
    assert sorted(passive.words[i] for i in passive_markers(passive)) == ["by", "is"]
    assert passive_markers(words[ACTIVE]) == frozenset()


def test_one_lemma_is_one_word_whatever_the_context(words):
    active, passive = words[ACTIVE], words[PASSIVE]
    raw = active.unit @ passive.unit.T
    sim = word_similarity(active, passive)
    serves, served = active.words.index("serves"), passive.words.index("served")
    assert raw[serves, served] < 0.9  # the encoder alone: context moved the vector
    assert sim[serves, served] == 1.0
    house = active.words.index("House"), passive.words.index("House")
    assert sim[house] == 1.0


def test_different_numbers_are_different_words(words):
    a, b = words[ADDRESS], words[OTHER_NUMBER]
    i, j = a.words.index("169"), b.words.index("161")
    assert float(a.unit[i] @ b.unit[j]) > 0.5  # the encoder calls them rather alike
    assert word_similarity(a, b)[i, j] == 0.0
    assert not node_equality(a, b)[i, j]
    phone = a.words.index("4157758160"), b.words.index("4157758160")
    assert word_similarity(a, b)[phone] == 1.0 and node_equality(a, b)[phone]


def test_a_changed_number_costs_meaning_and_structure(words):
    ref, changed, same = words[ADDRESS], words[OTHER_NUMBER], words[SAME_NUMBER_WRITTEN]
    assert semantic_similarity(ref, same).f_sem == pytest.approx(1.0, abs=1e-6)
    assert semantic_similarity(ref, changed).f_sem < 0.95
    assert ted_similarity(ref, changed) < ted_similarity(ref, same) == 1.0


def test_content_weights_drop_the_passive_markers_and_stay_a_distribution(words):
    passive, table = words[PASSIVE], IdfTable.general()
    weights, plain = content_weights(passive, table), tfidf_weights(passive.keys, table)
    markers = sorted(passive_markers(passive))
    assert np.all(weights[markers] == 0.0) and weights.sum() == pytest.approx(1.0)
    kept = [i for i in range(len(passive)) if i not in markers]
    np.testing.assert_allclose(weights[kept], plain[kept] / plain[kept].sum())


def test_a_passive_keeps_the_meaning_of_its_active(words):
    """Every content word matches at distance 0; only *serves* / *served* weigh a little differently
    (their idf), so some mass moves between matched words: 0.994, not 1."""
    active, passive = words[ACTIVE], words[PASSIVE]
    assert semantic_similarity(active, passive, "std").f_sem > 0.99
    assert semantic_similarity(passive, active, "std").f_sem > 0.99


@pytest.mark.parametrize(("pos", "morph", "inflection"), [
    ("VERB", "Tense=Past|VerbForm=Fin", "Tense=Past"),
    ("AUX", "Mood=Ind|Number=Sing|Person=3|Tense=Pres|VerbForm=Fin", "Tense=Pres"),
    ("VERB", "Aspect=Perf|Tense=Past|VerbForm=Part", ""),  # the passive's participle: no tense of its own
    ("VERB", "VerbForm=Inf", ""),
    ("ADJ", "Degree=Cmp", "Degree=Cmp"), ("ADV", "Degree=Sup", "Degree=Sup"), ("ADV", "", ""),
    ("NOUN", "Number=Plur", "Number=Plur"), ("PROPN", "Number=Sing", ""), ("PRON", "Number=Plur", ""),
    ("", "", ""),
])
def test_meaning_inflection(pos, morph, inflection):
    assert meaning_inflection(pos, morph) == inflection


def test_a_changed_tense_is_not_one_word(words):
    """*reported* / *reports*: one lemma, but a finite verb in another tense is left to the encoder's
    cosine; the passive's participle (*serves* / *served*) stays one word (test above)."""
    past, present = words[PAST], words[PRESENT]
    i, j = past.words.index("reported"), present.words.index("reports")
    assert past.inflections[i] == "Tense=Past" and present.inflections[j] == "Tense=Pres"
    sim = word_similarity(past, present)
    assert sim[i, j] == pytest.approx(float(past.unit[i] @ present.unit[j])) and sim[i, j] < 0.99
    landed = past.words.index("landed"), present.words.index("landed")
    assert sim[landed] == 1.0
    assert semantic_similarity(past, present).f_sem < semantic_similarity(past, past).f_sem - 0.01


def test_a_changed_degree_or_noun_number_is_not_one_word(words):
    a, b = words[CHEAP_ROOM], words[CHEAPER_ROOMS]
    sim, raw = word_similarity(a, b), a.unit @ b.unit.T
    for x, y in (("cheap", "cheaper"), ("room", "rooms")):
        i, j = a.words.index(x), b.words.index(y)
        assert a.lemmas[i] == b.lemmas[j] and sim[i, j] == pytest.approx(float(raw[i, j])) and sim[i, j] < 0.99
    booked = a.words.index("booked"), b.words.index("booked")
    assert sim[booked] == 1.0


def test_a_number_word_is_its_value(words):
    three, four, digit = words[THREE_ROOMS], words[FOUR_ROOMS], words[DIGIT_ROOMS]
    i = three.words.index("three")
    assert word_similarity(three, four)[i, four.words.index("four")] == 0.0
    assert not node_equality(three, four)[i, four.words.index("four")]
    assert word_similarity(three, digit)[i, digit.words.index("3")] == 1.0
    assert node_equality(three, digit)[i, digit.words.index("3")]
