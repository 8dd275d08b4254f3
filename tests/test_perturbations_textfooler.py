"""TextFooler decided by the judge: WordNet's every sense, the sense prior, the structure constraints (real
WordNet and spaCy), and, where marked slow, the judge's real language model (Gemma 3 270M; no mocks): one
distribution per word ranks its candidates, the few best are judged in full."""

from __future__ import annotations

import random

import numpy as np
import pytest

from perturbations.base import apply_edits
from perturbations.constraints import (
    MIN_SENSE_SHARE,
    AdjectivePosition,
    ContentCandidates,
    MultiWordUnits,
    SenseShare,
)
from perturbations.language.names import protected_tokens
from perturbations.language.senses import shared_sense_share, wordnet_synonyms
from perturbations.recipe import Candidate
from perturbations.textfooler import RULE_SOURCE, TextFoolerSwap
from rome.core.parsing import get_parser
from suites.harness.strategies import shipped_references

#: a news sentence the judge accepts a swap in (it abstains on most single sentences)
ACCEPTED = "Apple's introduction of larger screens may have appealed to buyers who would otherwise have purchased a Galaxy."


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


# -- the judge's language model (slow: loads Gemma 3 270M) ----------------------------------------------
@pytest.mark.slow
def test_one_batched_pass_scores_what_one_pass_per_item_scores():
    """The batched pass (every row reads the whole original, its later positions hidden) gives the
    log-probabilities of a pass from the original cut at each row's own point."""
    from perturbations.judge.features import PATTERN
    from perturbations.judge.lm import language_model

    lm = language_model()
    text = "The committee approved the new budget after a long debate about public transport."
    primed = lm.prime(lm.encode(text))
    pattern = lm.pieces(PATTERN)
    items = [(4, pattern + lm.pieces(" passed")), (3, pattern), (8, lm.pieces(" fresh plan")), (12, lm.pieces(" x"))]
    batched = lm.extend_at(primed, items)
    for (keep, tail), got in zip(items, batched):
        assert np.allclose(got, lm.extend(primed, keep, [tail])[0], atol=1e-4)
    targets = [[lm.pieces(" accepted")[0], lm.pieces(" passed")[0]], [lm.pieces(" good")[0]]]
    read = lm.extend_at(primed, [(4, pattern), (9, pattern)], targets=targets)
    for (keep, want), got in zip([(4, targets[0]), (9, targets[1])], read):
        assert np.allclose(got, lm.next_logprobs(primed, keep, pattern, want), atol=1e-4)


@pytest.mark.slow
def test_a_words_candidates_cost_one_pass_whatever_their_number(monkeypatch):
    """The cost grows with texts, not candidates: ranking every word's candidates is one pass over the
    original and one batched pass, for 2 candidates or 20."""
    from perturbations import judged
    from perturbations.judge.lm import language_model

    lm = language_model()
    passes: list[int] = []
    real = lm.model.model.forward
    monkeypatch.setattr(lm.model.model, "forward", lambda *a, **k: passes.append(1) or real(*a, **k))
    parsed = parse("The old man bought a large house near the quiet river last spring.")
    counts = []
    for n in (2, 20):
        by_word = {at(parsed, w): [Candidate(at(parsed, w), f"{w}{k}") for k in range(n)]
                   for w in ("bought", "large", "house", "quiet")}
        lm._primed.clear()
        passes.clear()
        ranked = judged.ranked(parsed, by_word)
        assert all(len(found) == n for found in ranked.values())
        counts.append(len(passes))
    assert counts[0] == counts[1] == 2  # the original's pass, then one for every word's distribution


@pytest.mark.slow
@pytest.mark.parametrize("text,word,synonym", [
    ("Please respond to an email from your manager.", "respond", "react"),
    ("They build a computer from parts.", "build", "construct"),
    ("I want to buy a new phone for my son.", "phone", "telephone"),
])
def test_the_issues_swaps_are_not_accepted(text, word, synonym):
    """The issue's register and collocation failures: the judge does not accept them."""
    from perturbations.judged import get_kind_judge, variant_text

    parsed = parse(text)
    judge = get_kind_judge("textfooler")
    (p,) = judge.p_valid([(text, variant_text(parsed, candidates(parsed, word, synonym)))])
    assert not judge.accepts(p)
    assert all(synonym not in v.text for v in TextFoolerSwap().apply(text, 0).variants)


@pytest.mark.slow
def test_the_judge_decides_and_its_estimate_is_recorded():
    text = ACCEPTED
    result = TextFoolerSwap().apply(text, 0)
    (variant,) = result.variants
    assert variant.expectation == "invariant" and apply_edits(text, list(variant.edits)) == variant.text
    assert all(s["source"] == RULE_SOURCE and s["synset"] for s in variant.meta["swaps"])
    from perturbations.judged import get_kind_judge

    judge = get_kind_judge("textfooler")
    assert judge.accepts(variant.meta["p_valid"])
    assert variant.meta["p_valid"] == pytest.approx(judge.p_valid([(text, variant.text)])[0], abs=1e-4)
    assert TextFoolerSwap().apply(text, 0) == result
    assert not TextFoolerSwap().apply("The phone number of hotel drisco is 4153462880 .", 0).variants


@pytest.mark.slow
def test_the_judge_and_the_settings_key_the_fingerprint():
    from perturbations.judged import judge_description
    from suites.harness.spec import perturbation_fingerprint

    described = TextFoolerSwap(n_words=1).describe()
    assert described["judge"] == judge_description("textfooler") and described["n_words"] == 1
    assert described["judge"]["threshold"] > 0.5 and described["judge"]["model"].startswith("gemma-3-270m")
    assert perturbation_fingerprint(TextFoolerSwap(min_sense_share=0.15)) != perturbation_fingerprint(TextFoolerSwap())
    assert perturbation_fingerprint(TextFoolerSwap(max_words=4)) != perturbation_fingerprint(TextFoolerSwap())


def assert_no_exchange_move_or_protected(text: str, parsed, edits) -> None:
    protected = {parsed.tokens[i].idx for i in protected_tokens(parsed)}
    for edit in edits:
        if edit.old.lower() in ("a", "an"):
            continue  # the article fix
        assert edit.start not in protected, (text, edit)
        assert edit.new.lower() not in text.lower().split(), (text, edit)  # no word of the text
        assert not any(ch.isdigit() for ch in edit.old + edit.new)


def test_no_candidate_exchanges_or_moves_words_or_touches_protected_ones():
    """Every candidate the judge could be shown (not only the one it accepts), on 200 shipped references."""
    from perturbations.judged import candidate_edits

    swap, proposed = TextFoolerSwap(max_words=None), 0
    for text in [t for t in shipped_references()[:400:2] if len(t.split()) > 3]:
        parsed = parse(text)
        for candidates in swap.proposals(parsed, sorted(swap.allowed(parsed))).values():
            for c in candidates:
                proposed += 1
                assert_no_exchange_move_or_protected(text, parsed, candidate_edits(parsed, [c]))
    assert proposed > 100  # never vacuous


@pytest.mark.slow
def test_the_accepted_variant_keeps_protected_words_and_its_order():
    """End to end through the judge, on texts where it accepts a swap."""
    texts = [ACCEPTED,
             "The committee approved the new budget after a long debate about public transport."]
    changed = 0
    for text in texts:
        result = TextFoolerSwap().apply(text, 0)
        if result.variants:
            changed += 1
            assert_no_exchange_move_or_protected(text, parse(text), result.variants[0].edits)
    assert changed >= 1


def test_at_most_max_words_words_are_ranked_whatever_the_length():
    """The cost bound (TextAttack's query budget): however long the text, at most ``MAX_WORDS`` of its words
    are ranked (in the seeded order), so case building is linear in the number of texts, not their length."""
    from perturbations.textfooler import MAX_WORDS

    seen: list[list[int]] = []

    class Counting(TextFoolerSwap):
        def proposals(self, parsed, indices, constraints=None):
            seen.append(list(indices))
            return {}

    text = " ".join(["The careful farmer planted tall trees beside the quiet river."] * 20)
    Counting().apply(text, random.Random(0))
    assert len(seen) == 1 and len(seen[0]) == MAX_WORDS
    assert Counting().max_words == MAX_WORDS
