"""Constraints shared by the word-swap recipes (textfooler, adjective): each says why it exists.

Word constraints (:class:`~perturbations.recipe.WordConstraint`) pick the tokens that may change;
candidate constraints (:class:`~perturbations.recipe.CandidateConstraint`) refuse replacements. They
are built from general resources (spaCy's parse and tagger, WordNet, lemminflect, NLTK's stop
words), never from reading a corpus.
"""

from __future__ import annotations

from perturbations.language import inflection, names
from perturbations.language.phrases import phrasal_verb
from perturbations.language.stopwords import default_stopwords
from perturbations.recipe import Candidate, CandidateConstraint, WordConstraint
from rome.core.parsing import ParsedText

#: tokens re-tagged on each side of a swapped word (bounded, so the cost per word is constant)
TAG_WINDOW = 12


# -- which words may change --------------------------------------------------------------------
class ProtectedWords(WordConstraint):
    """Names and numbers stay (:func:`perturbations.language.names.protected_tokens`): a swap inside a
    name or a number changes a fact, not the wording."""

    def __init__(self, domain: bool = True) -> None:
        self.domain = domain

    def allowed(self, parsed: ParsedText) -> set[int]:
        return set(range(len(parsed.tokens))) - names.protected_tokens(parsed, self.domain)


class StopWords(WordConstraint):
    """Stop words never change (TextAttack's ``StopwordModification``, NLTK's English list): function
    words carry the sentence's structure, and their "synonyms" change it."""

    def allowed(self, parsed: ParsedText) -> set[int]:
        stop = default_stopwords()
        return {t.i for t in parsed.tokens if t.text.lower() not in stop}


class ContentWords(WordConstraint):
    """Alphabetic words of the given parts of speech that are not part of a compound or phrasal verb
    (a compound's parts and a particle have the unit's meaning, not their own)."""

    def __init__(self, pos: frozenset[str]) -> None:
        self.pos = pos

    def allowed(self, parsed: ParsedText) -> set[int]:
        allowed = set()
        for tok in parsed.tokens:
            kids = parsed.children(tok.i)
            phrasal = tok.pos == "VERB" and phrasal_verb(parsed, tok.i) is not None
            if (tok.pos in self.pos and tok.text.isalpha() and len(tok.text) > 2
                    and tok.dep not in ("compound", "prt", "aux", "auxpass", "neg")
                    and (phrasal or not any(c.dep in ("compound", "prt") for c in kids))):
                allowed.add(tok.i)
        return allowed


# -- which candidates are acceptable -----------------------------------------------------------
class NoWordExchange(CandidateConstraint):
    """A candidate may not be a word already in the text: no word is moved or swapped with another."""

    def keep(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        present = {t.text.lower() for t in parsed.tokens} | {t.lemma.lower() for t in parsed.tokens}
        return [c for c in candidates if c.word.lower() not in present]


class NotSameLemma(CandidateConstraint):
    """An inflection of the same word is no synonym (serves -> served)."""

    def keep(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        return [c for c in candidates
                if not (inflection.lemmas_of(parsed.tokens[c.index].text) & inflection.lemmas_of(c.word))]


class PartOfSpeechInContext(CandidateConstraint):
    """spaCy re-tags the swapped word within :data:`TAG_WINDOW` tokens and must give the word's Penn
    tag (TextAttack's ``PartOfSpeech`` constraint): a synonym that reads as another part of speech
    there ("abroad markets") does not fit the sentence."""

    def keep(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        if not candidates:
            return []
        words = [t.text for t in parsed.tokens]
        i = candidates[0].index
        lo, hi = max(0, i - TAG_WINDOW), min(len(words), i + TAG_WINDOW + 1)
        windows = [[*words[lo:i], c.word, *words[c.end + 1 : hi]] for c in candidates]
        tags = retag(windows, i - lo)
        return [c for c, tag in zip(candidates, tags) if tag == parsed.tokens[i].tag]


def retag(windows: list[list[str]], index: int) -> list[str]:
    """Penn tag of ``index`` in each pre-tokenised window (spaCy's tok2vec and tagger only)."""
    from spacy.tokens import Doc

    from rome.core.parsing import get_parser

    nlp = get_parser().nlp
    docs = [Doc(nlp.vocab, words=w) for w in windows]
    for name in ("tok2vec", "tagger"):
        docs = list(nlp.get_pipe(name).pipe(docs))
    return [doc[index].tag_ for doc in docs]
