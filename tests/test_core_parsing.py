"""The shared spaCy parser: its layers multiply through numpy's BLAS, and that changes no parse."""

from __future__ import annotations

import pytest

from rome.core.parsing import DEFAULT_SPACY_MODEL, SpacyParser

TEXTS = [
    "The restaurant near the river serves cheap Italian food and it is family friendly.",
    "Aromi is a coffee shop that has a 5 out of 5 customer rating.",
    "I saw that Dáda's wreath and Lucie surely has some.",
    "Who do you think Snoke actually is?",
    "The Eagle, which is not family-friendly, is located in the city centre near Burger King.",
    "He was told by the committee that the proposal had been rejected on 12 March 2019.",
    "What do you believe the new stadium will look like when it's finished?",
    "Members of the Labour Party organised a rally; thousands came.",
]


@pytest.mark.parametrize("entities", [False, True])
def test_numpy_blas_parses_equal_spacys_own(entities):
    """Every token attribute and entity the harness reads equals spaCy's own load (its bundled blis)."""
    import spacy

    parser = SpacyParser(DEFAULT_SPACY_MODEL, entities=entities)
    ops = parser.nlp.get_pipe("tok2vec").model.ops
    assert type(ops).__name__ == "NumpyOps" and ops.use_blis is False
    own = spacy.load(DEFAULT_SPACY_MODEL, disable=[] if entities else ["ner"])
    assert own.get_pipe("tok2vec").model.ops.use_blis is True  # the load it is compared with
    for parsed, doc in zip(parser.parse(TEXTS), own.pipe(TEXTS)):
        assert [(t.text, t.lemma, t.pos, t.tag, t.dep, t.head, t.ent_type) for t in parsed.tokens] == [
            (t.text, t.lemma_, t.pos_, t.tag_, t.dep_, t.head.i, t.ent_type_) for t in doc
        ]
        assert [(e.label, e.text) for e in parsed.entities] == [(e.label_, e.text) for e in doc.ents]


#: texts that fire the attribute ruler's multi-token, IN, REGEX, NOT_IN and space rules
RULER_TEXTS = [
    "I'm gonna go, y'all, ain't nothin' gonna stop us.",
    "Let's go! C'mon, we gotta leave now.",
    "It is he who gave it to me and you, and then to I.",
    "There's a dog.  There are   two\n\ncats. Whether or not he does, I do.",
    "He doesn't, she didn't, they haven't. Nuthin' here, y' know.",
    "Do you have what it takes? I did have it. He has, and had.",
    "That is what that was; those who know, know.",
    "AIN'T NOTHIN' GONNA BREAK MY STRIDE",
    "She gets it and he got it, 'cause they're sure.",
    "\t",
]


def test_the_indexed_attribute_ruler_matches_spacys_own():
    """The ruler's matches found by lookup (:class:`IndexedRuleMatch`) are spaCy's Matcher's, rule for rule,
    and every token comes out the same, on texts that fire its unusual rules and on a spread of shipped ones."""
    import spacy

    from rome.core.parsing import IndexedRuleMatch
    from rome.data.corpora import dialogue_pairs, news_pairs, webnlg_pairs

    shipped = [text for pairs in (dialogue_pairs(0), news_pairs(0), webnlg_pairs(0))
               for pair in pairs[:150] for text in (pair.reference, pair.original)]
    texts = RULER_TEXTS + TEXTS + shipped
    indexed = SpacyParser(DEFAULT_SPACY_MODEL, entities=False).nlp
    own = spacy.load(DEFAULT_SPACY_MODEL, disable=["ner"])
    match = indexed.get_pipe("attribute_ruler").match
    assert isinstance(match, IndexedRuleMatch)
    ruler = own.get_pipe("attribute_ruler")
    assert len(match.rest) + len(match.by_tag) + len(match.by_lower) == len(ruler.attrs)
    assert len(match.rest) < len(ruler.attrs) / 10  # the point of it: few rules left to try at every token
    fired = set()
    for mine, theirs in zip(indexed.pipe(texts), own.pipe(texts)):
        expected = ruler.match(theirs)
        fired.update(rule for rule, *_ in expected)
        assert match(theirs) == expected, theirs.text
        assert [(t.text, t.tag_, t.pos_, str(t.morph), t.lemma_, t.dep_, t.head.i) for t in mine] == [
            (t.text, t.tag_, t.pos_, str(t.morph), t.lemma_, t.dep_, t.head.i) for t in theirs
        ], theirs.text
    kinds = {"tag": match.by_tag, "lower": match.by_lower, "rest": match.rest}
    for name, found in kinds.items():  # each of the three ways found at least one rule that fired
        assert any(str(rule) in found for rule in fired), name


def test_rules_the_index_cannot_look_up_stay_with_a_matcher_and_match_the_same():
    """A ruler of other shapes (quantifiers, other attributes, an empty form, NOT_IN, no tagger to set TAG):
    the rules that cannot be looked up go to the Matcher, and every doc's matches are still spaCy's."""
    import spacy

    from rome.core.parsing import IndexedRuleMatch

    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("attribute_ruler")
    ruler.add([[{"LOWER": "the"}]], {"LEMMA": "THE"})
    ruler.add([[{"LOWER": {"IN": ["a", "an"]}}, {"IS_SPACE": False, "LOWER": "cat"}]], {"LEMMA": "A"})
    ruler.add([[{"TAG": "NN"}]], {"POS": "NOUN"})  # no tagger: TAG is missing, nothing matches
    ruler.add([[{"LOWER": "big", "OP": "+"}]], {"LEMMA": "BIG"})
    ruler.add([[{"ORTH": "Cat"}]], {"LEMMA": "CAT"})
    ruler.add([[{"LOWER": ""}]], {"LEMMA": "EMPTY"})
    ruler.add([[{"LOWER": {"NOT_IN": ["the", "a"]}}]], {"LEMMA": "OTHER"})
    match = IndexedRuleMatch(ruler)
    assert len(match.by_lower) == 2 and len(match.by_tag) == 1 and len(match.rest) == 4
    for text in ["The big big Cat saw a cat and an  cat.", "the THE tHe", "A Cat", ""]:
        doc = nlp.make_doc(text)
        assert match(doc) == ruler.match(doc), text
