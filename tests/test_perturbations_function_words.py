"""The function words the word-level perturbations leave alone: closed classes only, by spaCy's tags, and
the one list every user of it reads (inside each perturbation's fingerprint)."""

from __future__ import annotations

import pytest

from perturbations.language.function_words import FUNCTION_WORD_CLASSES, FUNCTION_WORDS, cased_variants
from rome.core.parsing import get_parser

#: Universal Dependencies' closed classes but NUM (numbers are content: names.protected_tokens keeps them)
CLOSED = frozenset({"ADP", "AUX", "CCONJ", "DET", "PART", "PRON", "SCONJ"})
#: the primary verbs, closed-class words whatever their use (Quirk et al. 1985 §2.39-2.45, §3.21): UD tags an
#: existential or main-verb *be* / *have* / *do* VERB ("there's a problem")
PRIMARY_VERBS = frozenset({"be", "have", "do"})
#: closed-class words spaCy's small model tags as nouns in every frame: pronouns in Quirk et al. (§6.23
#: reflexives, §6.60 *none*) and in UD's English treebank (PRON); the test keeps this list exact
MISTAGGED = {"yourselves": "NNS", "none": "NN"}
#: sentences in which a word of the class stands in its usual role ({w}: the word, {W}: capitalised)
FRAMES = {
    "articles": ["{W} dog barked.", "I saw {w} dog."],
    "determiners": ["{W} dogs barked.", "I saw {w} dogs."],
    "possessive determiners": ["{W} dog barked.", "I saw {w} dog."],
    "pronouns": ["I saw {w} there.", "{W} left early.", "That book is {w}.", "You hurt {w}.", "{W} of them came.",
                 "Mine is red and {w} is blue."],
    "prepositions": ["The cat sat {w} the mat.", "She walked {w} the house."],
    "coordinators": ["Tea {w} coffee was served.", "He came, {w} she left."],
    "subordinators": ["We stayed {w} it rained.", "I wonder {w} she left."],
    "auxiliaries": ["They {w} going.", "They {w} gone.", "They {w} not go.", "They {w} here."],
    "modals": ["They {w} go.", "They {w} to go."],
    "particles": ["I want {w} go.", "I do {w} know."],
    "negators": ["I do {w} know.", "{W} dog barked.", "I have {w} seen it.", "Tea {w} coffee was served."],
    "contractions": ["I said {w} so.", "{W} going."],
}
#: content words a frequency-based stop-word list holds (scikit-learn's ENGLISH_STOP_WORDS)
CONTENT_WORDS = ("fire", "system", "interest", "find", "give", "move", "show", "call", "describe", "bill", "computer",
                 "thick", "thin", "top", "bottom", "front", "back", "side", "name", "mill", "cry", "detail", "empty",
                 "fill", "full", "found", "get", "go", "keep", "made", "part", "put", "see", "seem", "serious", "take")


def _closed(tokens) -> bool:
    return all(t.pos in CLOSED or t.dep == "neg" or t.lemma.lower() in PRIMARY_VERBS for t in tokens)


def _tagged_closed(word: str, frames: list[str]) -> bool:
    """Whether spaCy tags ``word`` a closed class (or, for *never*, the negation relation; a primary verb) in one
    of the frames; a contraction: every token it is split into."""
    parser = get_parser()
    for frame in frames:
        text = frame.replace("{W}", word[:1].upper() + word[1:]).replace("{w}", word)
        start = text.lower().index(word)
        tokens = [t for t in parser.parse_one(text).tokens if start <= t.idx < start + len(word)]
        if tokens and _closed(tokens):
            return True
    return False


@pytest.mark.parametrize("word", CONTENT_WORDS)
def test_content_words_are_not_function_words(word):
    assert word not in FUNCTION_WORDS


@pytest.mark.parametrize("group", [g for g in FUNCTION_WORD_CLASSES if g != "clitics"])
def test_every_function_word_is_tagged_a_closed_class(group):
    wrong = [w for w in FUNCTION_WORD_CLASSES[group] if not _tagged_closed(w, FRAMES[group])]
    assert wrong == [w for w in FUNCTION_WORD_CLASSES[group] if w in MISTAGGED]


def test_every_clitic_is_the_closed_class_end_of_a_listed_contraction():
    contractions = FUNCTION_WORD_CLASSES["contractions"]
    for clitic in FUNCTION_WORD_CLASSES["clitics"]:
        assert any(c.endswith(clitic) for c in contractions), clitic


def test_apostrophes_and_cases():
    assert {"isn't", "isn\u2019t", "they're", "they\u2019re", "n\u2019t"} <= FUNCTION_WORDS
    assert all(w == w.lower() for w in FUNCTION_WORDS)
    assert {"The", "THE", "the", "I'm"} <= cased_variants(frozenset({"the", "i'm"}))


def test_every_word_level_perturbation_reads_this_list_and_fingerprints_it():
    from perturbations.constraints import FunctionWords
    from perturbations.random_word import RandomWordReplacement
    from perturbations.textfooler import TextFoolerSwap
    from perturbations.typos import Typos, is_english_word
    from rome.core.fingerprint import module_closure

    parsed = get_parser().parse_one("The system is on fire and they call it in.")
    allowed = {parsed.tokens[i].text for i in FunctionWords().allowed(parsed)}
    assert {"system", "fire", "call"} <= allowed and not allowed & {"The", "is", "on", "and", "they", "it", "in"}
    assert RandomWordReplacement().kept_words == FUNCTION_WORDS
    assert RandomWordReplacement()._lowercase_and_title() == cased_variants(FUNCTION_WORDS)  # TextAttack's list
    assert is_english_word("whereas") and not is_english_word("qzxv")
    for perturbation in (RandomWordReplacement(), TextFoolerSwap(), Typos()):
        assert "perturbations.language.function_words" in module_closure(type(perturbation))
