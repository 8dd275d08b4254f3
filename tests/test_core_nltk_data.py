"""The offline WordNet reader (:func:`rome.core.nltk_data.wordnet`)."""

from __future__ import annotations


def test_the_reader_skips_only_an_identity_map():
    """The reader does not build NLTK's map onto the ``wordnet`` corpus; that corpus is this WordNet 3.0, so
    the map NLTK would build sends every synset to itself, and skipping it loses nothing."""
    from rome.core import nltk_data

    wn = nltk_data.wordnet()
    assert wn.get_version() == "3.0" and wn.map30 is None
    mapped = wn.map_to_one("wordnet")  # what NLTK builds on construction
    assert len(mapped) > 100_000 and not wn.nomap["wordnet"]
    # a satellite adjective ("...-s") is also listed under its head's "...-a" id: an alias, not a change
    assert all(target == source or (source.endswith("-a") and target == source[:-1] + "s")
               for source, target in mapped.items())
    assert [s.name() for s in wn.synsets("bank", pos="n")][:2] == ["bank.n.01", "depository_financial_institution.n.01"]
