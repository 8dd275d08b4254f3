"""English function words: the closed word classes, which the word-level perturbations leave alone.

A function word carries the sentence's grammar rather than its content: swapping one for a "synonym"
(TextFooler) changes the structure, not the wording; an ``AAA`` or a typo in its place (random word, typos)
tests grammar, not the content the suites mean to damage; and a title-cased one starts a sentence rather
than a name. A frequency-based stop-word list does not draw that line (scikit-learn's, for one, holds
*fire*, *system*, *interest*, *find*, *give*, *move*, *show*, *call*, *describe*), so this list is the
closed classes of English grammar instead:

* Quirk et al. (1985), *A Comprehensive Grammar of the English Language*, §2.39-2.45: prepositions,
  pronouns, determiners, conjunctions, and the auxiliaries (primary verbs *be*, *have*, *do* and the
  modals, §3.21-3.22); the negators of §10.55 (*not*, *no*, *never*, *neither*, *nor*);
* the Universal Dependencies closed classes spaCy's tagger assigns (ADP, AUX, CCONJ, DET, PART, PRON,
  SCONJ): every word here is tagged one of them (or, for *never*, the negation relation) in a frame
  sentence of its group (``tests/test_perturbations_function_words.py``).

Numerals (a closed class in UD) are left out: a number is content, and names and numbers have a rule of
their own (:func:`perturbations.language.names.protected_tokens`); so are interjections and discourse
adverbs (*well*, *oh*, *yes*: open classes in UD). Contractions of function words (*isn't*, *they're*) and
their clitics are function words too, with a straight or a typographic apostrophe.
"""

from __future__ import annotations

#: each closed class, lower-case (a word of several classes, e.g. *that*, is listed in each)
FUNCTION_WORD_CLASSES: dict[str, tuple[str, ...]] = {
    "articles": ("a", "an", "the"),
    "determiners": ("this", "that", "these", "those", "every", "each", "either", "neither", "no", "another",
                    "some", "any", "all", "both", "what", "whatever", "which", "whichever", "whose"),
    "possessive determiners": ("my", "your", "his", "her", "its", "our", "their"),
    "pronouns": ("i", "me", "you", "he", "him", "she", "her", "it", "we", "us", "they", "them", "myself",
                 "yourself", "himself", "herself", "itself", "ourselves", "yourselves", "themselves", "mine",
                 "yours", "hers", "ours", "theirs", "who", "whom", "whose", "which", "what", "that", "whoever",
                 "whatever", "whichever", "someone", "somebody", "something", "anyone", "anybody", "anything",
                 "everyone", "everybody", "everything", "nobody", "nothing", "none", "oneself", "there"),
    "prepositions": ("about", "above", "across", "after", "against", "along", "amid", "amidst", "among", "amongst",
                     "around", "as", "at", "atop", "before", "behind", "below", "beneath", "beside", "besides",
                     "between", "beyond", "by", "despite", "down", "during", "except", "for", "from", "in",
                     "inside", "into", "like", "near", "of", "off", "on", "onto", "opposite", "out", "outside",
                     "over", "past", "per", "since", "than", "through", "throughout", "till", "to", "toward",
                     "towards", "under", "underneath", "unlike", "until", "up", "upon", "via", "with", "within",
                     "without"),
    "coordinators": ("and", "but", "or", "nor", "yet", "so"),
    "subordinators": ("after", "although", "as", "because", "before", "how", "if", "lest", "once", "since",
                      "than", "that", "though", "till", "unless", "until", "when", "whenever", "where", "whereas",
                      "wherever", "whether", "while", "why"),
    "auxiliaries": ("be", "am", "is", "are", "was", "were", "been", "being", "have", "has", "had", "having", "do",
                    "does", "did"),
    "modals": ("can", "could", "may", "might", "must", "shall", "should", "will", "would", "ought"),
    "particles": ("to", "not"),
    "negators": ("not", "no", "never", "nor", "neither"),
    "contractions": ("aren't", "isn't", "wasn't", "weren't", "haven't", "hasn't", "hadn't", "don't", "doesn't",
                     "didn't", "won't", "wouldn't", "shan't", "shouldn't", "can't", "cannot", "couldn't", "mightn't",
                     "mustn't", "i'm", "i've", "i'll", "i'd", "you're", "you've", "you'll", "you'd", "he's", "he'll",
                     "he'd", "she's", "she'll", "she'd", "it's", "it'll", "we're", "we've", "we'll", "we'd",
                     "they're", "they've", "they'll", "they'd", "that's", "there's", "who's", "what's"),
    "clitics": ("n't", "'s", "'re", "'ve", "'ll", "'d", "'m"),
}


def _with_both_apostrophes(words: set[str]) -> frozenset[str]:
    return frozenset(words | {w.replace("'", "\u2019") for w in words})


#: every function word, lower-case, with a straight and a typographic apostrophe
FUNCTION_WORDS: frozenset[str] = _with_both_apostrophes({w for words in FUNCTION_WORD_CLASSES.values() for w in words})


def cased_variants(words: frozenset[str]) -> set[str]:
    """Lower, Title and UPPER forms: TextAttack's ``StopwordModification`` compares words as written."""
    return {v for w in words for v in (w, w.capitalize(), w.upper())}
