"""English helpers the perturbation recipes share, one module per role.

``casing`` (letter case of a replacement), ``inflection`` (a lemma in a Penn tag, via lemminflect),
``articles`` (a/an before a replaced word, via inflect), ``senses`` (WordNet sense look-up by tag
counts), ``names`` (tokens that name or count something), ``spans`` (character spans and edits),
``function_words`` (the closed word classes of English grammar). Each is built from a general resource,
never from a corpus.
"""
