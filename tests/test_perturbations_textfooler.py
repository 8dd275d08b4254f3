"""TextFooler that keeps meaning: sense synonyms, protected words, no exchanges, linear cost (real WordNet/spaCy)."""

from __future__ import annotations

import time

import pytest

from perturbations.base import apply_edits
from perturbations.language import senses as _senses
from perturbations.language.names import protected_tokens
from perturbations.textfooler import DOMAIN_SOURCE, RULE_SOURCE, TextFoolerSwap
from perturbations.textfooler.domain_senses import DOMAIN_SENSES
from rome.core.nltk_data import wordnet
from rome.core.parsing import get_parser
from suites.harness.strategies import shipped_references

#: NL-Augmenter style: (text, seed) -> expected variant (None: skipped)
TABLE = [
    ("The carriage inn does not allow dogs .", 0, "The carriage inn does not permit dogs ."),
    ("Are you looking for a hotel that accepts credit card -s ?", 0,
     "Are you seeking a hotel that takes credit card -s ?"),
    ("Chow restaurant is located at 215 church street .", 0, "Chow restaurant is situated at 215 church street ."),
    ("There is a hotel called seal rock inn .", 0, "There is a hotel named seal rock inn ."),
    ("Is there anything else I can help you with ?", 0, "Is there anything else I can assist you with ?"),
    # names, numbers, slot values and domain words are never touched: nothing left to swap
    ("X is a cheap restaurant in the riverside area near X .", 0, None),
    ("The phone number of hotel drisco is 4153462880 .", 0, None),
    ("Shakespeare has written Macbeth .", 0, None),
    # the dialogue senses that have no synonym reading the same are refused
    ("Can I confirm your request ?", 0, None),
    ("Do you want to try aperto restaurant ?", 0, None),  # try = sample here, not attempt
    ("What area can I help you find a restaurant in ?", 0, None),  # "assist you find" is ungrammatical
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
    assert all(s["source"] in (DOMAIN_SOURCE, RULE_SOURCE) and s["synset"] for s in variant.meta["swaps"])


def test_never_exchanges_or_moves_words_and_keeps_protected_ones():
    texts = [t for t in shipped_references()[:600] if len(t.split()) > 3]
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
    assert changed > 50


def test_sense_rules_refuse_other_senses():
    assert _senses.sense_synonyms("serve", "v", "object") == ()  # "function" is another sense
    assert "let" not in [w for w, _ in _senses.sense_synonyms("allow", "v", "object")]
    assert all(w != "tremendous" for w, _ in _senses.sense_synonyms("wonderful", "a"))


def test_domain_senses_are_wordnet_lemmas_of_their_synset():
    wn = wordnet()
    for (lemma, _pos), entry in DOMAIN_SENSES.items():
        if entry is None:
            continue
        synset = wn.synset(entry[0])
        names = {x.name().lower() for x in synset.lemmas()}
        assert lemma in names and set(entry[1]) <= names, (lemma, entry)


def test_same_seed_same_output_and_settings_described():
    text = "Do you need a hotel that allows dogs ?"
    assert TextFoolerSwap().apply(text, 3) == TextFoolerSwap().apply(text, 3)
    described = TextFoolerSwap(n_words=1).describe()
    assert described["n_words"] == 1 and described["word_source"] == "wordnet-3.0"


@pytest.mark.slow
def test_a_6000_word_text_completes_in_linear_time():
    refs = shipped_references()
    words, parts = 0, []
    while words < 6000:
        parts.append(refs[len(parts) % len(refs)])
        words += len(parts[-1].split())
    text = " ".join(parts)
    TextFoolerSwap().apply(refs[0] + " Do you need dogs to be allowed ?", 0)  # warm up parser and WordNet
    start = time.perf_counter()
    result = TextFoolerSwap().apply(text, 0)
    assert result.variants and len(result.variants[0].meta["swaps"]) == 2
    assert time.perf_counter() - start < 600  # the old embedding search took 9 minutes; this takes seconds
