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
