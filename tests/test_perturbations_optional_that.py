"""The optional "that" of a complement clause (perturbations/optional_that): properties on built sentences."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from perturbations.base import apply_edits
from perturbations.optional_that import OptionalThat

PAST = {"say": "said", "think": "thought", "hope": "hoped", "know": "knew", "believe": "believed",
        "feel": "felt", "guess": "guessed", "suspect": "suspected", "realise": "realised", "claim": "claimed"}
SUBJECTS = ("I", "She", "He", "We", "They")
CLAUSE_SUBJECTS = ("he", "she", "they", "we", "it")
PREDICATES = ("was late", "would come back", "had left the hotel", "liked the food", "could pay")
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

that = OptionalThat()


@SETTINGS
@given(st.sampled_from(SUBJECTS), st.sampled_from(sorted(PAST)), st.sampled_from(CLAUSE_SUBJECTS),
       st.sampled_from(PREDICATES), st.integers(0, 2**31))
def test_drop_and_insert_are_each_others_inverse(subject, verb, clause_subject, predicate, seed):
    full = f"{subject} {PAST[verb]} that {clause_subject} {predicate}."
    bare = f"{subject} {PAST[verb]} {clause_subject} {predicate}."
    dropped = that.apply(full, seed)
    assert [v.text for v in dropped.variants] == [bare], dropped
    assert [e.old for e in dropped.variants[0].edits] == ["that "]
    inserted = that.apply(bare, seed)
    assert [v.text for v in inserted.variants] == [full], inserted
    for variant in (*dropped.variants, *inserted.variants):
        assert apply_edits(full if variant.meta["direction"] == "drop" else bare,
                           list(variant.edits)) == variant.text
        assert variant.expectation == "invariant"


@SETTINGS
@given(st.sampled_from(("hotel", "room", "train", "restaurant")), st.sampled_from(CLAUSE_SUBJECTS),
       st.sampled_from(("booked", "liked", "saw")), st.integers(0, 2**31))
def test_relative_clauses_and_demonstratives_are_never_touched(noun, subject, verb, seed):
    for text in (f"The {noun} that {subject} {verb} was full.", f"I liked that {noun} a lot."):
        result = that.apply(text, seed)
        assert not any("that" in e.old for v in result.variants for e in v.edits), (text, result)


@SETTINGS
@given(st.sampled_from(("know", "believe", "feel", "suspect", "claim")), st.sampled_from(("manager", "driver", "plan")),
       st.integers(0, 2**31))
def test_a_verb_that_takes_a_noun_object_keeps_that_before_a_noun_subject(verb, noun, seed):
    text = f"They {PAST[verb]} that the {noun} was wrong."
    assert not any(v.meta["direction"] == "drop" for v in that.apply(text, seed).variants)


def test_each_edit_is_only_the_word_that():
    text = "He said that the hotel was near the centre, and I think you will like it."
    result = that.apply(text, 0)
    assert {v.meta["direction"] for v in result.variants} == {"drop", "insert"}
    for variant in result.variants:
        assert all({e.old, e.new} <= {"", "that "} for e in variant.edits)


@SETTINGS
@given(st.sampled_from(sorted(PAST)), st.sampled_from(CLAUSE_SUBJECTS), st.integers(0, 2**31))
def test_no_that_after_the_verb_of_a_wh_question(verb, clause_subject, seed):
    for text in (f"What do you {verb} {clause_subject} liked?", f"Who do you {verb} {clause_subject} met?",
                 f"Who do you {verb} was late?", f"Where did they {verb} {clause_subject} had left the car?"):
        result = that.apply(text, seed)
        assert not any(v.meta["direction"] == "insert" for v in result.variants), (text, result)


@SETTINGS
@given(st.sampled_from(SUBJECTS), st.sampled_from(sorted(PAST)), st.sampled_from(CLAUSE_SUBJECTS),
       st.sampled_from(PREDICATES), st.integers(0, 2**31))
def test_that_takes_the_case_of_an_upper_case_text_and_a_title_is_left_alone(subject, verb, clause_subject,
                                                                             predicate, seed):
    bare = f"{subject} {PAST[verb]} {clause_subject} {predicate}"
    for variant in that.apply(bare.upper() + ".", seed).variants:
        assert variant.text == f"{subject} {PAST[verb]} THAT {clause_subject} {predicate}.".upper()
    for title in (bare.title(), f"{subject} {PAST[verb]} that {clause_subject} {predicate}".title()):
        assert not that.apply(title, seed).variants, title
