"""Protected words come from general rules (parse, capitals, letters, numerals), never from a corpus."""

from __future__ import annotations

import pytest

from perturbations.language.names import protected_tokens
from perturbations.registry import available_perturbations, perturbation_class
from rome.core import fingerprint
from rome.core.parsing import get_parser


def protected(text: str) -> set[str]:
    parsed = get_parser().parse_one(text)
    return {parsed.tokens[i].text for i in protected_tokens(parsed)}


@pytest.mark.parametrize("kind", available_perturbations())
def test_no_perturbation_imports_the_data_layer(kind):
    """A perturbation that imported rome.data could read a corpus (the Novikova slot values it once read):
    none does, directly or through the modules it imports, so it runs on any text with no data set."""
    closure = fingerprint.module_closure(*perturbation_class(kind).__mro__)
    assert "perturbations.language.names" in closure or kind not in ("textfooler", "adjective", "passive")
    assert not [name for name in closure if name == "rome.data" or name.startswith("rome.data.")]


def test_letter_names_are_kept_but_not_the_article_or_the_pronoun():
    assert {"X"} <= protected("X is a cheap restaurant near X .")
    assert "B" in protected("We will use Plan B tomorrow .")
    assert "A" not in protected("A cheap hotel is near the river .")  # sentence-initial: the article
    assert "I" not in protected("I want a cheap hotel .")


def test_lower_cased_values_of_one_data_set_are_not_protected():
    """"cheap" and "pricey" were price-range slot values of the Novikova data; no rule reads those now."""
    assert not {"cheap", "restaurant"} & protected("X is a cheap restaurant near X .")
    assert "pricey" not in protected("the hotel drisco is pricey .")


def test_a_modifier_of_a_lower_cased_name_belongs_to_it():
    assert "outer" in protected("I found a hotel in the outer richmond .")  # richmond: a GPE written in lower case
    assert "historic" not in protected("We visited historic Boston .")  # capitals say the adjective describes


def test_an_adjective_before_a_numeral_belongs_to_a_name():
    words = protected("The big 4 restaurant is expensive .")
    assert "big" in words and "expensive" not in words
    assert "big" not in protected("They own four big restaurants .")  # the usual order: numeral, then adjective
