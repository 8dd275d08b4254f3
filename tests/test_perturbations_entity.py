"""Entity replacement: dataset pool tables, CheckList fall-back, modes, expectation, real data."""

from __future__ import annotations

import re

import pytest
from require_extras import missing

from perturbations import thirdparty as _thirdparty
from perturbations.base import apply_edits
from perturbations.entity import EntityPool, EntityReplacement
from suites.harness.strategies import shipped_references

#: one candidate per label: the output is fixed whatever the seed (spaCy en_core_web_sm's NER)
POOL = {"GPE": ["England"], "PERSON": ["Mary Jones"], "ORG": ["Microsoft"], "DATE": ["2010"], "NORP": ["Chinese"]}
TABLE = [
    ("The population of Germany", "The population of England"),
    ("John Smith moved to Berlin in 1999.", "Mary Jones moved to England in 2010."),
    ("Google hired John Smith.", "Microsoft hired Mary Jones."),
    ("Germany is big. I love Germany.", "England is big. I love England."),
    ("He is an Indian chef.", "He is a Chinese chef."),  # NORP, and the article follows
]


@pytest.mark.parametrize("text,expected", TABLE)
def test_pool_table(text, expected):
    p = EntityReplacement(POOL, use_checklist=False)
    for seed in (0, 1, 7):
        (variant,) = p.apply(text, seed).variants
        assert variant.text == expected
        assert variant.kind == "entity" and variant.expectation == "decrease"
        assert {r["source"] for r in variant.meta["replacements"]} == {"dataset"}
        assert apply_edits(text, list(variant.edits)) == variant.text


def test_two_entities_never_become_the_same_one():
    p = EntityReplacement({"PERSON": ["Mary Jones", "Ann Lee"]}, use_checklist=False)
    for seed in range(6):
        text = p.apply("Barack Obama met Angela Merkel.", seed).variants[0].text
        assert sorted(re.findall(r"Mary Jones|Ann Lee", text)) == ["Ann Lee", "Mary Jones"]


def test_mode_one_replaces_a_single_entity():
    p = EntityReplacement(POOL, mode="one", use_checklist=False)
    texts = set()
    for seed in range(10):
        (variant,) = p.apply("John Smith moved to Berlin in 1999.", seed).variants
        assert len(variant.edits) == 1
        texts.add(variant.text)
    assert len(texts) >= 2  # which entity is replaced depends on the seed


def test_entity_itself_is_not_a_candidate():
    p = EntityReplacement({"GPE": ["Germany"]}, use_checklist=False)
    result = p.apply("The population of Germany", 0)
    assert not result.variants and "no replacement" in result.skipped


def test_no_entity_is_skipped():
    assert EntityReplacement(POOL).apply("the weather is nice and warm", 0).skipped == "no named entity"


def test_invariant_framing_is_recorded():
    (variant,) = EntityReplacement(POOL, expectation="invariant", use_checklist=False).apply(
        "The population of Germany", 0).variants
    assert variant.expectation == "invariant"
    with pytest.raises(ValueError):
        EntityReplacement(POOL, expectation="maybe")


def test_checklist_names_locations_numbers():
    if not _thirdparty.available("checklist"):
        missing(f"checklist not importable: {_thirdparty.missing_reason('checklist')}")
    perturb = _thirdparty.checklist_perturb()
    p = EntityReplacement()  # no pool: CheckList's lexicons only
    text = "John Smith moved to Boston with 35 friends."
    for seed in range(5):
        (variant,) = p.apply(text, seed).variants
        by_label = {r["label"]: r for r in variant.meta["replacements"]}
        assert {r["source"] for r in by_label.values()} == {"checklist"}
        first, last = by_label["PERSON"]["new"].split()
        assert first in perturb.data["name_set"]["men"] and last in perturb.data["name_set"]["last"]
        assert by_label["GPE"]["new"] in perturb.data["city"]
        assert by_label["CARDINAL"]["new"] != "35" and abs(int(by_label["CARDINAL"]["new"]) - 35) <= 8
        assert p.apply(text, seed) == p.apply(text, seed)


def test_without_checklist_only_the_pool_is_used():
    result = EntityReplacement(use_checklist=False).apply("John Smith moved to Boston.", 0)
    assert not result.variants
    (variant,) = EntityReplacement({"GPE": ["Paris"]}, use_checklist=False).apply(
        "John Smith moved to Boston.", 0).variants
    assert variant.text == "John Smith moved to Paris." and "only the dataset pool" in variant.meta["note"]


def test_pool_from_the_shipped_data():
    refs = [r for r in shipped_references(("sfhotel",)) if r[:1].isupper()][:300]
    p = EntityReplacement.from_corpus(refs, use_checklist=False)
    assert len(p.pool) > 10
    changed = 0
    for text in refs[:60]:
        for variant in p.apply(text, 3).variants:
            changed += 1
            for r in variant.meta["replacements"]:
                assert r["new"] in p.pool.by_label[r["label"]] and r["new"].casefold() != r["old"].casefold()
            assert apply_edits(text, list(variant.edits)) == variant.text
    assert changed > 0


def test_pool_is_sorted_and_distinct():
    pool = EntityPool.from_mapping({"GPE": ["Paris", "Berlin", "Paris"]})
    assert pool.by_label["GPE"] == ("Berlin", "Paris")
    assert pool.candidates("GPE", "paris") == ["Berlin"]


def test_fit_adds_the_datasets_entities():
    p = EntityReplacement({"GPE": ["Paris"]}, use_checklist=False)
    assert p.fit(["Mary Jones lives in England."]) is p
    assert p.pool.by_label["GPE"] == ("England", "Paris") and p.pool.by_label["PERSON"] == ("Mary Jones",)


def test_name_rules_from_wordnet_and_grammar():
    """The general rules of perturbations/entity/rules.py on invented names (real WordNet)."""
    from perturbations.entity import rules

    assert rules.needs_article("United States") and rules.needs_article("Czech Republic")
    assert rules.needs_article("Philippines") and rules.needs_article("Netherlands")
    assert not rules.needs_article("Belgium") and not rules.needs_article("Athens")
    assert not rules.needs_article("Buffalo")  # a one-word name is never taken for a bare common noun
    assert rules.is_place_or_body("Dijon") and rules.is_place_or_body("Alan B Miller Hall")
    assert not rules.is_place_or_body("Ada Lovelace") and not rules.is_place_or_body("Ann Lee")
    assert rules.is_group_name("Roman") and rules.is_group_name("Democrats") and not rules.is_group_name("Isaiah")
    assert rules.is_plural_group("Americans") and not rules.is_plural_group("French")
    assert rules.agreeing_noun("ton", "NN", plural=True) == "tons"
    assert rules.agreeing_noun("pages", "NNS", plural=False) == "page"


def test_pool_keeps_only_entities_it_would_replace():
    """A place tagged PERSON ("in Dijon") is no person to put elsewhere; a name swallowing an adverb is trimmed."""
    pool = EntityPool.from_corpus(["She studied in Dijon.", "Police said Franco A. illegally stored weapons."])
    people = pool.by_label.get("PERSON", ())
    assert "Dijon" not in people and "Franco A." in people


def _span(parsed, words: str) -> tuple[int, int]:
    """Token range of ``words`` (space-separated tokens) in ``parsed``."""
    wanted = words.split()
    texts = [t.text for t in parsed.tokens]
    start = next(i for i in range(len(texts)) if texts[i : i + len(wanted)] == wanted)
    return start, start + len(wanted)


def test_acronym_firm_particle_and_citation_rules_on_real_parses():
    """The academic-prose rules of rules.py on invented sentences (spaCy's tokens and tags)."""
    from perturbations.entity import rules
    from rome.core.parsing import get_parser

    assert rules.is_acronym("JAMES") and rules.is_acronym("TER BLEU")
    assert not rules.is_acronym("J. R. R. Tanner") and not rules.is_acronym("JRR Tanner")
    assert not rules.is_acronym("J. R.")  # initials alone are no acronym
    parse = get_parser().parse_one
    firm = parse("She thanked Edwin Marsh & Sons for the loan.")
    assert rules.is_firm_name(firm.tokens, *_span(firm, "Edwin Marsh"), "PERSON")
    assert rules.is_firm_name(firm.tokens, *_span(firm, "Edwin Marsh & Sons"), "PERSON")
    assert not rules.is_firm_name(firm.tokens, *_span(firm, "Edwin Marsh & Sons"), "ORG")  # the whole firm may go
    kin = parse("Edwin Marsh and son walked home.")
    assert not rules.is_firm_name(kin.tokens, *_span(kin, "Edwin Marsh"), "PERSON")  # a lower-case "son" is kin
    split = parse("Hugo ter Molen met Anna van der Veen.")
    assert rules.splits_particle_name(split.tokens, *_span(split, "Hugo"))
    assert rules.splits_particle_name(split.tokens, *_span(split, "Molen"))
    assert rules.splits_particle_name(split.tokens, *_span(split, "Anna van der"))
    assert not rules.splits_particle_name(split.tokens, *_span(split, "Anna van der Veen"))
    count = parse("Ten Americans met Anna.")
    assert not rules.splits_particle_name(count.tokens, *_span(count, "Americans"))  # "ten" is a number there
    cited = parse("As Moreau and Whitfield (2012, p. 4) and Lind et al. showed (see Dunn, 2001a; Cole, 1999), "
                  "Anna Berg (1950-2010) and Carl Lind (born in Oslo in 1950) agreed.")
    for author in ("Moreau", "Whitfield", "Lind", "Dunn", "Cole"):
        assert rules.is_citation_author(cited.tokens, *_span(cited, author)), author
    for person in ("Anna Berg", "Carl Lind", "Oslo"):  # life dates and a parenthesis without a citation
        assert not rules.is_citation_author(cited.tokens, *_span(cited, person)), person


def test_a_person_written_in_lower_case_is_neither_replaced_nor_used():
    """Personal names are capitalised in running text: a lower-case PERSON is the tagger's guess, often a place
    ("the inn on castro": once kept by a list of one data set's places, now by capitalisation, on any text)."""
    from perturbations.entity import rules

    assert rules.is_lower_case_name("castro", sentence_start=False)
    assert rules.is_lower_case_name("Martin luther king square", sentence_start=True)
    assert not rules.is_lower_case_name("Castro", sentence_start=False)
    assert not rules.is_lower_case_name("Obama", sentence_start=True)  # a capital at a sentence's start says nothing
    p = EntityReplacement({"PERSON": ["Mary Jones"]}, use_checklist=False)
    assert not p.apply("the inn on castro is cheap .", 0).variants  # spaCy: "castro" and "inn" PERSON
    assert not p.apply("the hotel was built by john smith .", 0).variants  # a person, but nothing says so
    assert p.apply("The hotel was built by John Smith.", 0).variants[0].text == "The hotel was built by Mary Jones."
    assert "castro" not in EntityPool.from_corpus(["The inn on castro is in the castro area ."]).by_label.get("PERSON", ())
