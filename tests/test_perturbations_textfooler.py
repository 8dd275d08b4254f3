"""TextFooler judged in context: WordNet's every sense, the sense prior, collocations, the context model's
fit, the batched greedy search (real WordNet, spaCy, bigram counts and, where marked slow, the real
context model; no mocks)."""

from __future__ import annotations

import random

import pytest

from perturbations.base import apply_edits
from perturbations.constraints import AdjectivePosition, MultiWordUnits, SenseShare
from perturbations.context_fit import (
    MIN_LOGP,
    MIN_SENSE_SHARE,
    SYNONYM_DELTA,
    Collocation,
    ContentCandidates,
    FitsContext,
    bigram_features,
    collocation_kept,
    fit_scores,
    pass_groups,
)
from perturbations.language.names import protected_tokens
from perturbations.language.senses import shared_sense_share, wordnet_synonyms
from perturbations.recipe import Candidate
from perturbations.search import RandomOrderGreedySearch
from perturbations.textfooler import RULE_SOURCE, TextFoolerSwap
from rome.core.parsing import get_parser
from suites.harness.strategies import shipped_references


def parse(text: str):
    return get_parser().parse_one(text)


def at(parsed, word: str) -> int:
    return next(t.i for t in parsed.tokens if t.text == word)


def candidates(parsed, word: str, *news: str, synset: str = "") -> list[Candidate]:
    i = at(parsed, word)
    return [Candidate(i, new, synset, i) for new in news]


# -- the transformation: every sense, single words -----------------------------------------------
def test_synonyms_come_from_every_sense_but_never_an_antonym_or_a_phrase():
    attempt = {w for w, _ in wordnet_synonyms("attempt", "n")}
    assert {"effort", "try", "endeavor"} <= attempt and "attack" in attempt  # the assault sense too: context decides
    good = {w for w, _ in wordnet_synonyms("good", "a")}
    assert "bad" not in good and "full" in good
    assert all(w.isalpha() for w, _ in wordnet_synonyms("look", "v"))  # "look_into" would change the token count


# -- the sense prior ------------------------------------------------------------------------------
@pytest.mark.parametrize("word,candidate,pos,common", [
    ("cheap", "inexpensive", "a", True), ("cheap", "loud", "a", False),  # loud: only cheap's tawdry sense
    ("large", "big", "a", True), ("large", "heavy", "a", False),
    ("buy", "purchase", "v", True), ("help", "serve", "v", False),
])
def test_the_sense_share_separates_a_usual_sense_from_a_rare_one(word, candidate, pos, common):
    assert (shared_sense_share(word, candidate, pos) >= MIN_SENSE_SHARE) == common


def test_sense_share_refuses_a_synonym_of_a_rare_sense_only():
    parsed = parse("It is a cheap restaurant.")
    kept = SenseShare(MIN_SENSE_SHARE).keep(parsed, candidates(parsed, "cheap", "inexpensive", "loud",
                                                               synset="cheap.a.01"))
    assert [c.word for c in kept] == ["inexpensive"]
    assert len(SenseShare(0).keep(parsed, candidates(parsed, "cheap", "loud"))) == 1  # 0: off


# -- structure --------------------------------------------------------------------------------------
def test_a_function_word_is_no_candidate():
    parsed = parse("They make good bread.")
    kept = ContentCandidates().keep(parsed, candidates(parsed, "make", "do", "have", "produce"))
    assert [c.word for c in kept] == ["produce"]


def test_a_predicative_only_adjective_never_stands_before_its_noun():
    before = parse("The cat carried a dead mouse.")
    after = parse("The mouse was dead.")
    assert AdjectivePosition().keep(before, candidates(before, "dead", "alive", synset="alive.a.01")) == []
    assert len(AdjectivePosition().keep(after, candidates(after, "dead", "alive", synset="alive.a.01"))) == 1


def test_multi_word_units_are_kept():
    parsed = parse("The central bank raised interest rates and is going to act.")
    allowed = {parsed.tokens[i].text for i in MultiWordUnits().allowed(parsed)}
    assert not {"central", "bank", "interest", "rates", "going"} & allowed
    assert "raised" in allowed


# -- collocations -------------------------------------------------------------------------------------
def test_collocation_keeps_each_attested_bigram_at_the_ratio():
    assert collocation_kept({"left_original": 100, "left_candidate": 10, "right_original": None,
                             "right_candidate": None}, 0.05)
    assert not collocation_kept({"left_original": 100, "left_candidate": 4, "right_original": 0,
                                 "right_candidate": 0}, 0.05)
    assert collocation_kept({"left_original": 0, "left_candidate": 0, "right_original": 0, "right_candidate": 0}, 0.5)


def test_a_synonym_that_breaks_a_common_bigram_is_refused():
    parsed = parse("I want to buy a new phone for my son.")
    features = bigram_features(parsed, candidates(parsed, "phone", "telephone")[0])
    assert features["left"] == "new" and features["left_original"] > 0 and features["left_candidate"] == 0
    assert Collocation(0.05).keep(parsed, candidates(parsed, "phone", "telephone")) == []
    assert len(Collocation(0.0).keep(parsed, candidates(parsed, "phone", "telephone"))) == 1  # 0: off
    house = parse("She bought a large house near the river.")
    assert len(Collocation(0.05).keep(house, candidates(house, "large", "big"))) == 1


# -- the search ----------------------------------------------------------------------------------------
def proposer(words: dict[int, list[str]], calls: list):
    """A proposer over fixed candidates (best first), recording each group it is asked to judge."""
    def propose(batch: list[int]) -> dict[int, list[Candidate]]:
        calls.append(list(batch))
        return {i: [Candidate(i, w) for w in words.get(i, [])] for i in batch}
    return propose


def test_the_search_takes_each_words_best_candidate_and_never_two_neighbours():
    words = {1: ["a1", "a2"], 2: ["b1"], 5: ["c1"], 8: ["d1"]}
    for seed in range(20):
        calls: list = []
        chosen = RandomOrderGreedySearch(2)(set(words), proposer(words, calls), random.Random(seed), 2)
        assert len(chosen) == 2 and all(c.word.endswith("1") for c in chosen)
        assert abs(chosen[0].index - chosen[1].index) > 1
        assert all(len(batch) <= 2 and all(abs(i - j) > 1 for i in batch for j in batch if i != j) for batch in calls)


def test_the_search_is_seeded_and_bounded():
    words = {i: [f"w{i}"] for i in range(0, 40, 2)}
    search = RandomOrderGreedySearch(2, max_words=3)
    runs = [search(set(words), proposer(words, []), random.Random(7), 1) for _ in range(2)]
    assert runs[0] == runs[1]
    calls: list = []
    RandomOrderGreedySearch(5, max_words=3)(set(words), proposer({}, calls), random.Random(0), 1)
    assert sum(len(b) for b in calls) == 3  # nothing acceptable: three words judged, then it stops


def test_pass_groups_hold_no_neighbours():
    groups = pass_groups([3, 4, 5, 9, 10], 2)
    assert sorted(i for g in groups for i in g) == [3, 4, 5, 9, 10]
    assert all(len(g) <= 2 and all(abs(i - j) > 1 for i in g for j in g if i != j) for g in groups)


# -- the context model (slow: loads MPNet) ------------------------------------------------------------
ISSUE_SWAPS = [  # the issue's register and collocation failures: the original fits, the synonym does not
    ("Please respond to an email from your manager.", "respond", "react"),
    ("They build a computer from parts.", "build", "construct"),
    ("I want to buy a new phone for my son.", "phone", "telephone"),
]


@pytest.mark.slow
@pytest.mark.parametrize("text,word,synonym", ISSUE_SWAPS)
def test_the_issues_swaps_do_not_fit_their_context(text, word, synonym):
    parsed = parse(text)
    found = candidates(parsed, word, synonym)
    (fit,) = fit_scores(parsed, {found[0].index: found})[found[0].index]
    assert fit < -SYNONYM_DELTA
    assert FitsContext().keep(parsed, found) == []
    result = TextFoolerSwap().apply(text, 0)
    assert all(synonym not in v.text for v in result.variants)


@pytest.mark.slow
@pytest.mark.parametrize("text,word,synonym", [
    ("She bought a large house near the river.", "large", "big"),
    ("The work is hard.", "hard", "difficult"),
    ("The patient made several attempts to quit.", "attempts", "efforts"),
])
def test_plain_synonyms_fit_their_context(text, word, synonym):
    parsed = parse(text)
    kept = FitsContext().keep(parsed, candidates(parsed, word, synonym))
    assert [c.word for c in kept] == [synonym] and kept[0].score >= -SYNONYM_DELTA


@pytest.mark.slow
def test_a_words_fit_does_not_depend_on_what_other_constraints_refused():
    parsed = parse("The old man bought a large house near the quiet river.")
    house, river = at(parsed, "house"), at(parsed, "river")
    both = {house: [Candidate(house, "home")], river: [Candidate(river, "stream")]}
    alone = {house: [Candidate(house, "home")], river: []}  # "stream" refused by an earlier constraint
    assert fit_scores(parsed, both)[house] == fit_scores(parsed, alone)[house]


@pytest.mark.slow
def test_textfooler_swaps_a_plain_sentence_and_says_how():
    text = "She bought a large house near the river."
    result = TextFoolerSwap().apply(text, 0)
    (variant,) = result.variants
    assert variant.expectation == "invariant" and apply_edits(text, list(variant.edits)) == variant.text
    assert all(s["source"] == RULE_SOURCE and s["synset"] and s["fit"] >= -SYNONYM_DELTA for s in variant.meta["swaps"])
    assert TextFoolerSwap().apply(text, 0) == result
    assert not TextFoolerSwap().apply("The phone number of hotel drisco is 4153462880 .", 0).variants


@pytest.mark.slow
def test_thresholds_and_the_context_model_key_the_fingerprint():
    from perturbations.context_fit import model_signature
    from suites.harness.spec import perturbation_fingerprint

    described = TextFoolerSwap(n_words=1).describe()
    assert described["context_model"] == model_signature() and described["n_words"] == 1
    assert {"FitsContext": {"delta": SYNONYM_DELTA, "model": model_signature(), "min_logp": MIN_LOGP}} in described["constraints"]
    assert perturbation_fingerprint(TextFoolerSwap(min_logp=-3.0)) != perturbation_fingerprint(TextFoolerSwap())
    assert perturbation_fingerprint(TextFoolerSwap(delta=1.0)) != perturbation_fingerprint(TextFoolerSwap(delta=2.5))
    assert perturbation_fingerprint(TextFoolerSwap(min_sense_share=0.15)) != perturbation_fingerprint(TextFoolerSwap())


@pytest.mark.slow
def test_never_exchanges_or_moves_words_and_keeps_protected_ones():
    texts = [t for t in shipped_references()[:400:2] if len(t.split()) > 3]
    changed = 0
    for text in texts:
        result = TextFoolerSwap().apply(text, 1)
        if not result.variants:
            continue
        changed += 1
        parsed = parse(text)
        protected = {parsed.tokens[i].idx for i in protected_tokens(parsed)}
        for edit in result.variants[0].edits:
            if edit.old.lower() in ("a", "an"):
                continue  # the article fix
            assert edit.start not in protected, (text, edit)
            assert edit.new.lower() not in text.lower().split(), (text, edit)  # no word of the text
            assert not any(ch.isdigit() for ch in edit.old + edit.new)
    assert changed > 20


@pytest.mark.slow
def test_the_search_judges_at_most_max_words_tokens_whatever_the_length():
    """The cost bound (TextAttack's query budget): however long the text, at most ``MAX_WORDS`` of its tokens
    go to the context model, so case building is linear in the number of texts, not their length."""
    from perturbations.search import RandomOrderGreedySearch
    from perturbations.textfooler import MAX_WORDS

    judged: list[int] = []

    def propose(batch: list[int]) -> dict:
        judged.extend(batch)
        return {}  # nothing fits: the search goes on through every token it may judge

    for n_tokens in (MAX_WORDS // 2, 60, 6000):
        judged.clear()
        RandomOrderGreedySearch(2, max_words=MAX_WORDS)(set(range(n_tokens)), propose, random.Random(0))
        assert len(judged) == len(set(judged)) == min(n_tokens, MAX_WORDS)
    assert TextFoolerSwap().search.max_words == MAX_WORDS
