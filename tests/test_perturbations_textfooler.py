"""TextFooler that keeps meaning: sense synonyms, protected words, no exchanges, linear cost (real WordNet/spaCy)."""

from __future__ import annotations

import pytest

from perturbations.base import apply_edits
from perturbations.language import senses as _senses
from perturbations.language.names import protected_tokens
from perturbations.textfooler import RULE_SOURCE, TextFoolerSwap
from rome.core.parsing import get_parser
from suites.harness.strategies import shipped_references

#: (text, seed) -> expected variant (None: skipped); more rows in perturbations/textfooler/examples.py
TABLE = [
    ("She bought a large house near the river.", 0, "She purchased a big house near the river."),
    # names (the letter name X), numbers and compounds ("riverside area", "hotel drisco", "phone number")
    # are never touched; "cheap" and "restaurant" have no synonym of a dominant sense: nothing to swap
    ("X is a cheap restaurant in the riverside area near X .", 0, None),
    ("The phone number of hotel drisco is 4153462880 .", 0, None),
    ("Shakespeare has written Macbeth .", 0, None),
    # a verb with its own preposition is a unit ("go_to" is attend in WordNet)
    ("Are you looking for a hotel ?", 0, None),
]


@pytest.mark.parametrize("text,seed,expected", TABLE)
def test_table(text, seed, expected):
    result = TextFoolerSwap().apply(text, seed)
    if expected is None:
        assert not result.variants and "synonym" in result.skipped
        return
    (variant,) = result.variants
    assert variant.text == expected and variant.expectation == "invariant"
    assert apply_edits(text, list(variant.edits)) == variant.text
    assert all(s["source"] == RULE_SOURCE and s["synset"] for s in variant.meta["swaps"])


@pytest.mark.slow
def test_never_exchanges_or_moves_words_and_keeps_protected_ones():
    texts = [t for t in shipped_references()[:2000] if len(t.split()) > 3]  # round 2's 4/5 sense share swaps fewer
    changed = 0
    for text in texts:
        result = TextFoolerSwap().apply(text, 1)
        if not result.variants:
            continue
        changed += 1
        parsed = get_parser().parse_one(text)
        protected = {parsed.tokens[i].idx for i in protected_tokens(parsed)}
        for edit in result.variants[0].edits:
            if edit.old.lower() in ("a", "an"):
                continue  # the article fix
            assert edit.start not in protected, (text, edit)
            assert edit.new.lower() not in text.lower().split(), (text, edit)  # no word of the text
            assert not any(ch.isdigit() for ch in edit.old + edit.new)
    assert changed > 5


def test_sense_rules_refuse_other_senses():
    assert _senses.sense_synonyms("serve", "v", "object") == ()  # "function" is another sense
    assert "let" not in [w for w, _ in _senses.sense_synonyms("allow", "v", "object")]
    assert all(w != "tremendous" for w, _ in _senses.sense_synonyms("wonderful", "a"))
    assert "tell" not in [w for w, _ in _senses.sense_synonyms("say", "v", "object")]  # tell's own sense is another
    assert "serpent" not in [w for w, _ in _senses.sense_synonyms("snake", "n")]  # far rarer: marked
    assert _senses.top_sense("little", "a") is None  # size 63 %, quantity 28 %: no dominant sense
    assert [w for w, _ in _senses.sense_synonyms("buy", "v", "object")] == ["purchase"]


def test_multi_word_units_are_kept():
    from perturbations.constraints import MultiWordUnits

    parsed = get_parser().parse_one("The central bank raised interest rates and is going to act.")
    allowed = {parsed.tokens[i].text for i in MultiWordUnits().allowed(parsed)}
    assert not {"central", "bank", "interest", "rates", "going"} & allowed
    assert "raised" in allowed


def test_same_seed_same_output_and_settings_described():
    text = "Do you need a hotel that allows dogs ?"
    assert TextFoolerSwap().apply(text, 3) == TextFoolerSwap().apply(text, 3)
    described = TextFoolerSwap(n_words=1).describe()
    assert described["n_words"] == 1 and described["word_source"] == "wordnet-3.0"


@pytest.mark.slow
def test_the_work_per_tried_word_is_bounded_so_the_cost_is_linear(monkeypatch):
    """Operation counts, not seconds: with more words asked for than the text has, every allowed word is tried
    once; each tried word's candidates are re-tagged in a window of at most ``2 * TAG_WINDOW + 1`` tokens, so a
    text twice as long tries twice the words and re-tags twice the tokens (a step re-reading the whole text per
    tried word would make it four times)."""
    import perturbations.textfooler as textfooler
    from perturbations import constraints
    from perturbations.textfooler.examples import EXAMPLES

    tried: list[int] = []
    windows: list[int] = []
    real_acceptable, real_retag = textfooler.acceptable, constraints.retag

    def counting_acceptable(parsed, candidates, checks):
        tried.append(len(candidates))
        return real_acceptable(parsed, candidates, checks)

    def counting_retag(batch, index):
        windows.extend(len(window) for window in batch)
        return real_retag(batch, index)

    monkeypatch.setattr(textfooler, "acceptable", counting_acceptable)
    monkeypatch.setattr(constraints, "retag", counting_retag)
    text = " ".join([*shipped_references()[:100], *(example.text for example in EXAMPLES)])

    def work(source: str) -> tuple[int, int]:
        tried.clear()
        windows.clear()
        TextFoolerSwap(n_words=100_000).apply(source, 0)
        assert windows and max(windows) <= 2 * constraints.TAG_WINDOW + 1
        return len(tried), sum(windows)

    (words_once, tokens_once), (words_twice, tokens_twice) = work(text), work(f"{text} {text}")
    assert words_once > 50
    assert 1.8 * words_once <= words_twice <= 2.2 * words_once
    assert 1.8 * tokens_once <= tokens_twice <= 2.2 * tokens_once
