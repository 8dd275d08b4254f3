"""TextFooler judged in context: WordNet's every sense, the sense prior, the structural constraints, the
search for the variant the judge likes best (real WordNet and spaCy; the search's own tests give it a
scoring function, its interface, so its rule is checked without a model), and, where marked slow, the real
judge (Gemma 3 270M and its calibration; no mocks)."""

from __future__ import annotations

import math
import random

import pytest

from perturbations.base import apply_edits
from perturbations.constraints import AdjectivePosition, MultiWordUnits, SenseShare
from perturbations.context_fit import MIN_SENSE_SHARE, ContentCandidates
from perturbations.language.names import protected_tokens
from perturbations.language.senses import shared_sense_share, wordnet_synonyms
from perturbations.recipe import Candidate
from perturbations.search import BestJudgedSearch
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


# -- the search (its scorer is an argument: the rule is checked with a scoring function of the test's own) -----
def proposer(words: dict[int, list[str]], calls: list):
    """A proposer over fixed candidates, recording the tokens it is asked about."""
    def propose(batch: list[int]) -> dict[int, list[Candidate]]:
        calls.append(list(batch))
        return {i: [Candidate(i, w) for w in words.get(i, [])] for i in batch}
    return propose


def scorer(p: dict[str, float], together: float | None = None, asked: list | None = None):
    """p_valid of a one-word variant from ``p``; of a variant of several words ``together`` (default: the
    product of its words')."""
    def score(variants):
        out = []
        for v in variants:
            if asked is not None:
                asked.append(tuple(c.word for c in v))
            if len(v) == 1:
                out.append(p[v[0].word])
            else:
                out.append(together if together is not None else math.prod(p[c.word] for c in v))
        return out
    return score


def accept(p: float) -> bool:
    return p >= 0.8


def test_the_search_takes_the_candidates_the_judge_likes_best_not_the_first():
    words = {1: ["a1", "a2"], 4: ["b1"], 7: ["c1", "c2"]}
    p = {"a1": 0.81, "a2": 0.97, "b1": 0.5, "c1": 0.9, "c2": 0.85}
    for seed in range(10):
        choice = BestJudgedSearch(2)(set(words), proposer(words, []), scorer(p, together=0.9), accept,
                                     random.Random(seed))
        assert [c.word for c in choice.candidates] == ["a2", "c1"] and choice.p_valid == 0.9
    one = BestJudgedSearch(1)(set(words), proposer(words, []), scorer(p), accept, random.Random(0))
    assert [c.word for c in one.candidates] == ["a2"] and one.p_valid == 0.97


def test_the_search_abstains_when_the_judge_accepts_nothing():
    words = {1: ["a1"], 4: ["b1"]}
    assert BestJudgedSearch(2)(set(words), proposer(words, []), scorer({"a1": 0.79, "b1": 0.2}), accept,
                               random.Random(0)) is None
    assert BestJudgedSearch(2)(set(), proposer(words, []), scorer({}), accept, random.Random(0)) is None


def test_a_variant_of_several_words_is_judged_whole_and_the_weakest_word_goes():
    words = {1: ["a1"], 4: ["b1"], 7: ["c1"]}
    p = {"a1": 0.95, "b1": 0.9, "c1": 0.85}
    asked: list = []
    choice = BestJudgedSearch(3)(set(words), proposer(words, []), scorer(p, together=0.5, asked=asked), accept,
                                 random.Random(0))
    assert [c.word for c in choice.candidates] == ["a1"] and choice.p_valid == 0.95
    assert ("a1", "b1", "c1") in asked and ("a1", "b1") in asked  # the whole, then without the weakest


def test_the_search_never_takes_two_neighbours():
    words = {1: ["a1"], 2: ["b1"], 3: ["c1"]}
    p = {"a1": 0.9, "b1": 0.99, "c1": 0.95}
    for seed in range(10):
        choice = BestJudgedSearch(3)(set(words), proposer(words, []), scorer(p, together=0.99), accept,
                                     random.Random(seed))
        assert [c.word for c in choice.candidates] == ["b1"]


def test_the_search_is_seeded_and_bounded():
    words = {i: [f"w{i}"] for i in range(0, 40, 2)}
    p = {f"w{i}": 0.9 for i in range(0, 40, 2)}  # ties: the seed's order decides
    search = BestJudgedSearch(2, max_words=3)
    runs = [search(set(words), proposer(words, []), scorer(p), accept, random.Random(7)) for _ in range(2)]
    assert runs[0] == runs[1]
    calls: list = []
    BestJudgedSearch(5, max_words=3)(set(words), proposer({}, calls), scorer(p), accept, random.Random(0))
    assert [len(b) for b in calls] == [3]  # three words proposed, in one batch


def test_the_search_judges_at_most_max_words_tokens_whatever_the_length():
    """The cost bound (TextAttack's query budget): however long the text, at most ``MAX_WORDS`` of its tokens
    go to the judge, so case building is linear in the number of texts, not their length."""
    from perturbations.textfooler import MAX_WORDS

    for n_tokens in (MAX_WORDS // 2, 60, 6000):
        calls: list = []
        BestJudgedSearch(2, max_words=MAX_WORDS)(set(range(n_tokens)), proposer({}, calls), scorer({}), accept,
                                                 random.Random(0))
        assert sum(len(b) for b in calls) == len(set(calls[0])) == min(n_tokens, MAX_WORDS)
    assert TextFoolerSwap().search.max_words == MAX_WORDS


# -- the judge (slow: loads Gemma 3 270M) ------------------------------------------------------------
ISSUE_SWAPS = [  # the issues' wrong-sense and register failures: fluent, but not the same statement
    ("Please respond to an email from your manager.", "respond", "react"),
    ("You can place the order online.", "place", "set"),
    ("The international agency tested the vaccine.", "international", "external"),
]


@pytest.mark.slow
@pytest.mark.parametrize("text,word,synonym", ISSUE_SWAPS)
def test_the_issues_swaps_are_never_made(text, word, synonym):
    result = TextFoolerSwap().apply(text, 0)
    assert all(f" {synonym}" not in v.text for v in result.variants), result


@pytest.mark.slow
def test_textfooler_swaps_a_plain_sentence_and_says_how():
    from perturbations.context_fit import get_kind_judge

    text = "She bought a large house near the river."
    result = TextFoolerSwap().apply(text, 0)
    (variant,) = result.variants
    assert variant.expectation == "invariant" and apply_edits(text, list(variant.edits)) == variant.text
    assert all(s["source"] == RULE_SOURCE and s["synset"] for s in variant.meta["swaps"])
    judge = get_kind_judge("textfooler")
    assert judge.accepts(variant.meta["p_valid"])
    (again,) = judge.p_valid([(text, variant.text)])
    assert again == pytest.approx(variant.meta["p_valid"], abs=1e-3)  # the variant's own p_valid, as judged whole
    assert TextFoolerSwap().apply(text, 0) == result
    assert not TextFoolerSwap().apply("The phone number of hotel drisco is 4153462880 .", 0).variants


@pytest.mark.slow
def test_the_chosen_swap_is_the_best_the_judge_accepts():
    """Against the judge itself: no other pre-ranked candidate of the judged words has a higher p_valid than
    the one-word variant taken."""
    from perturbations.context_fit import get_kind_judge, variant_text

    text = "The company announced a big increase in its profits."
    tf = TextFoolerSwap(n_words=1)
    result = tf.apply(text, 0)
    parsed = parse(text)
    found = tf.proposals(parsed, sorted(tf.allowed(parsed)))
    pairs = [(text, variant_text(parsed, [c])) for cs in found.values() for c in cs]
    judge = get_kind_judge("textfooler")
    ps = judge.p_valid(pairs)
    if not result.variants:
        assert not any(judge.accepts(p) for p in ps)
        return
    assert result.variants[0].meta["p_valid"] == pytest.approx(max(ps), abs=1e-3)


@pytest.mark.slow
def test_the_judge_keys_the_fingerprint():
    from perturbations.context_fit import get_kind_judge
    from suites.harness.spec import perturbation_fingerprint

    described = TextFoolerSwap(n_words=1).describe()
    assert described["judge"] == get_kind_judge("textfooler").describe() and described["n_words"] == 1
    assert perturbation_fingerprint(TextFoolerSwap(judged_per_word=5)) != perturbation_fingerprint(TextFoolerSwap())
    assert perturbation_fingerprint(TextFoolerSwap(min_sense_share=0.15)) != perturbation_fingerprint(TextFoolerSwap())


@pytest.mark.slow
def test_never_exchanges_or_moves_words_and_keeps_protected_ones():
    texts = [t for t in shipped_references()[:200:2] if len(t.split()) > 3]
    changed = 0
    for text in texts:
        result = TextFoolerSwap().apply(text, 1)
        if not result.variants:
            assert result.skipped
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
    assert changed > 0
