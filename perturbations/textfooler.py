"""Text transformation (RoMe §4.6 case 4): TextFooler's recipe with constraints that keep meaning.

TextFooler (Jin et al., 2020; TextAttack's ``textfooler`` recipe) is a transformation (word swap),
constraints (which words may change, which candidates are acceptable) and a search (which words,
in which order). Its parts serve an *attack*: embedding neighbours (hotel -> motel), a victim
model to rank words, a sentence encoder to filter. A metric test needs the opposite, a rewrite a
careful reader accepts as the same statement, so each part is replaced, keeping the shape:

* **transformation** :class:`WordSwapSenseSynonym`: WordNet synonyms *of the word's sense* and part
  of speech (:mod:`perturbations._senses`: verb frames pick the verb's sense, the sense must be the
  candidate's main sense too, rare words are refused), inflected to the word's tag by lemminflect;
* **constraints before the swap** (which words may change): :class:`ProtectedWordModification`
  (named entities, numbers, addresses, capitalised names, the placeholder ``X``, split suffixes,
  MR slot values and the domain's slot vocabulary: hotel, restaurant, price, area, food, ...; see
  :mod:`perturbations._protected`), :class:`StopwordModification`, :class:`ContentWordModification`
  (nouns, verbs, adjectives, adverbs outside compounds and phrasal verbs);
* **constraints on candidates**: :class:`NoWordExchange` (a candidate never repeats a word of the
  text, so words are never moved or swapped with each other), :class:`PartOfSpeechInContext`
  (spaCy re-tags the swapped word in its context and must give the same Penn tag);
* **search** :class:`RandomOrderGreedySearch`: TextAttack's greedy word-importance search with
  ``wir_method="random"``: words in a seeded random order, the most used acceptable synonym, until
  ``n_words`` are swapped.

Nothing here reads a metric's model: no encoder ranks the words or filters the candidates, so an
encoder-based metric is not made invariant by construction. TextAttack's own classes are not
used because its WordNet swap ignores sense and part of speech, its semantic constraints need
downloads (counter-fitted vectors, USE) and its search needs a victim model. Cost: one parse of
the text and a bounded window re-tagged per tried word, so it grows linearly with the text.
``variant.meta["swaps"]`` names the source of each swap (WordNet synset). Expectation: ``invariant``.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from perturbations import _protected, _senses
from perturbations._domain_senses import DOMAIN_SENSES, VERB_USAGES
from perturbations._text import with_article_fixes
from perturbations.base import Edit, Perturbation, Result, Variant, apply_edits
from rome.core.parsing import ParsedText, Token

WORD_SOURCE = "wordnet-3.0"
#: how the sense of a swapped word was chosen (recorded per swap in ``variant.meta``)
DOMAIN_SOURCE = "wordnet-3.0, reviewed domain sense"
RULE_SOURCE = "wordnet-3.0, most used sense (frames, frequency)"
#: parts of speech that may be swapped; adverbs are left out: in this data they are degree words
#: ("moderately", "pretty", "totally") or fixed phrases ("of course"), where WordNet's synonyms
#: ("pretty priced", "entirely 4 restaurants") change or break the statement
SWAPPABLE_POS = frozenset({"NOUN", "VERB", "ADJ"})
#: tokens re-tagged on each side of a swapped word (bounded, so the cost per word is constant)
TAG_WINDOW = 12
#: clause-like dependents that decide a verb's frame (WordNet frames: object, infinitive, clause)
_OBJECT_DEPS = frozenset({"dobj", "nsubjpass", "dative", "attr", "oprd"})


@dataclass(frozen=True)
class Candidate:
    """``word`` in place of tokens ``index``..``last`` (a phrasal verb "looking for" is two tokens)."""

    index: int
    word: str
    synset: str
    last: int = -1
    source: str = ""

    @property
    def end(self) -> int:
        return max(self.index, self.last)


# -- transformation --------------------------------------------------------------------------
class WordSwapSenseSynonym:
    """Synonyms of the word's sense (:func:`perturbations._senses.sense_synonyms`), inflected and cased."""

    source = WORD_SOURCE

    def __call__(self, parsed: ParsedText, i: int, children: dict[int, list[Token]]) -> list[Candidate]:
        tok = parsed.tokens[i]
        pos = _senses.WORDNET_POS.get(tok.pos)
        if pos is None:
            return []
        usage = verb_usage(tok, children.get(i, [])) if pos == "v" else None
        lemma, last = tok.lemma.lower(), i
        phrasal = phrasal_verb(parsed, i, children) if pos == "v" else None
        if phrasal:  # "looking for" -> "seeking": the sense of the WordNet lemma look_for
            lemma, last, usage = phrasal, i + 1, "object"
        out = []
        for synonym, synset, source in self.synonyms(lemma, pos, usage):
            form = _inflect(synonym, tok.tag)
            if form:
                out.append(Candidate(i, _match_case(form, tok.text), synset, last, source))
        return out

    @staticmethod
    def synonyms(lemma: str, pos: str, usage: str | None) -> list[tuple[str, str, str]]:
        """(synonym, synset, source): the reviewed domain sense if the table has the word, else the rules."""
        if (lemma, pos) in DOMAIN_SENSES:
            entry = DOMAIN_SENSES[lemma, pos]
            usages = entry[2] if entry and len(entry) > 2 else VERB_USAGES
            if entry is None or (usage is not None and usage not in usages):
                return []
            return [(w, entry[0], DOMAIN_SOURCE) for w in entry[1]]
        return [(w, synset, RULE_SOURCE) for w, synset in _senses.sense_synonyms(lemma, pos, usage)]


def phrasal_verb(parsed: ParsedText, i: int, children: dict[int, list[Token]]) -> str | None:
    """``look_for`` when the verb's next token is its particle/preposition and WordNet has the pair."""
    if i + 1 >= len(parsed.tokens):
        return None
    nxt = parsed.tokens[i + 1]
    if nxt.head != i or nxt.dep not in ("prep", "prt") or not nxt.text.isalpha():
        return None
    name = f"{parsed.tokens[i].lemma.lower()}_{nxt.text.lower()}"
    return name if _senses.top_sense(name, "v") is not None else None


def verb_usage(verb: Token, children: list[Token]) -> str:
    """How a verb is used, as WordNet's frames group it: a participle ("is located", "a hotel called X"),
    with an object, an infinitive, a clause, or none."""
    deps = {c.dep for c in children}
    if verb.tag == "VBN":
        return "passive"
    if "ccomp" in deps:  # "help you find": the clause decides the frame, not the object before it
        return "clause"
    if "xcomp" in deps:
        return "infinitive"
    if deps & _OBJECT_DEPS:
        return "object"
    return "intransitive"


def _inflect(lemma: str, tag: str) -> str | None:
    if tag in ("NN", "JJ", "RB", "VB", "VBP"):
        return lemma
    from lemminflect import getInflection

    forms = getInflection(lemma, tag=tag)
    return forms[0] if forms else None


def _match_case(word: str, model: str) -> str:
    if len(model) > 1 and model.isupper():
        return word.upper()
    return word[:1].upper() + word[1:] if model[:1].isupper() else word


# -- constraints on which words may change ----------------------------------------------------
class ProtectedWordModification:
    """Names, numbers, addresses, slot values and domain words stay (:mod:`perturbations._protected`)."""

    def __init__(self, domain: bool = True) -> None:
        self.domain = domain

    def __call__(self, parsed: ParsedText, children: dict[int, list[Token]]) -> set[int]:
        return set(range(len(parsed.tokens))) - _protected.protected_tokens(parsed, self.domain)


class StopwordModification:
    """Stop words never change (TextAttack's constraint, with the project's stop-word list)."""

    def __call__(self, parsed: ParsedText, children: dict[int, list[Token]]) -> set[int]:
        stop = _stopwords()
        return {t.i for t in parsed.tokens if t.text.lower() not in stop}


class ContentWordModification:
    """Alphabetic nouns, verbs, adjectives and adverbs that are not part of a compound or phrasal verb."""

    def __call__(self, parsed: ParsedText, children: dict[int, list[Token]]) -> set[int]:
        allowed = set()
        for tok in parsed.tokens:
            kids = children.get(tok.i, [])
            phrasal = tok.pos == "VERB" and phrasal_verb(parsed, tok.i, children) is not None
            if (tok.pos in SWAPPABLE_POS and tok.text.isalpha() and len(tok.text) > 2
                    and tok.dep not in ("compound", "prt", "aux", "auxpass", "neg")
                    and (phrasal or not any(c.dep in ("compound", "prt") for c in kids))):
                allowed.add(tok.i)
        return allowed


# -- constraints on candidates ----------------------------------------------------------------
class NoWordExchange:
    """A candidate may not be a word already in the text: no word is moved or swapped with another."""

    def __call__(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        present = {t.text.lower() for t in parsed.tokens} | {t.lemma.lower() for t in parsed.tokens}
        return [c for c in candidates if c.word.lower() not in present]


class NotSameLemma:
    """An inflection of the same word is no synonym (serves -> served)."""

    def __call__(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        return [c for c in candidates if not (_lemmas(parsed.tokens[c.index].text) & _lemmas(c.word))]


class PartOfSpeechInContext:
    """spaCy re-tags the swapped word within :data:`TAG_WINDOW` tokens and must give the word's Penn tag."""

    def __call__(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        if not candidates:
            return []
        words = [t.text for t in parsed.tokens]
        i = candidates[0].index
        lo, hi = max(0, i - TAG_WINDOW), min(len(words), i + TAG_WINDOW + 1)
        windows = [[*words[lo:i], c.word, *words[c.end + 1 : hi]] for c in candidates]
        tags = _retag(windows, i - lo)
        return [c for c, tag in zip(candidates, tags) if tag == parsed.tokens[i].tag]


# -- search -----------------------------------------------------------------------------------
class RandomOrderGreedySearch:
    """Words in a seeded random order (TextAttack ``wir_method="random"``); the first acceptable,
    most used candidate of each word is kept, until ``n_words`` words are swapped."""

    def __init__(self, n_words: int) -> None:
        self.n_words = n_words

    def __call__(self, parsed: ParsedText, allowed: set[int], propose, rng: random.Random) -> list[Candidate]:
        order = sorted(allowed)
        rng.shuffle(order)
        chosen: list[Candidate] = []
        for i in order:
            found = propose(i)
            if found:
                chosen.append(found[0])
                if len(chosen) == self.n_words:
                    break
        return sorted(chosen, key=lambda c: c.index)


class TextFoolerSwap(Perturbation):
    """Swap ``n_words`` content words for synonyms of their sense (meaning kept: ``invariant``)."""

    kind = "textfooler"

    def __init__(self, n_words: int = 2, protect_domain: bool = True) -> None:
        """``protect_domain``: also keep the Novikova slot values and slot vocabulary (hotel, price, ...)."""
        if n_words < 1:
            raise ValueError("n_words must be at least 1")
        self.n_words = n_words
        self.protect_domain = protect_domain
        self.transformation = WordSwapSenseSynonym()
        self.pre_constraints = [ProtectedWordModification(protect_domain), StopwordModification(),
                                ContentWordModification()]
        self.constraints = [NoWordExchange(), NotSameLemma(), PartOfSpeechInContext()]
        self.search = RandomOrderGreedySearch(n_words)

    def describe(self) -> dict:
        return {"kind": self.kind, "n_words": self.n_words, "protect_domain": self.protect_domain,
                "word_source": WORD_SOURCE, "search": "random order, most used synonym"}

    def _apply(self, text: str, rng: random.Random) -> Result:
        from rome.core.parsing import get_parser

        parsed = get_parser().parse_one(text)
        children: dict[int, list[Token]] = {}
        for tok in parsed.tokens:
            if tok.head != tok.i:
                children.setdefault(tok.head, []).append(tok)
        allowed = set(range(len(parsed.tokens)))
        for constraint in self.pre_constraints:
            allowed &= constraint(parsed, children)

        def propose(i: int) -> list[Candidate]:
            found = self.transformation(parsed, i, children)
            for constraint in self.constraints:
                found = constraint(parsed, found)
            return found

        chosen = self.search(parsed, allowed, propose, rng)
        if not chosen:
            return Result.skip(text, "no content word with a synonym of its sense (names, numbers and domain words kept)")
        edits = []
        for c in chosen:
            start, last = parsed.tokens[c.index], parsed.tokens[c.end]
            end = last.idx + len(last.text)
            edits.append(Edit(start.idx, end, text[start.idx : end], c.word))
        edits = with_article_fixes(text, edits)
        meta = {"word_source": WORD_SOURCE,
                "swaps": [{"old": _span_text(parsed, c), "new": c.word, "source": c.source,
                           "synset": c.synset} for c in chosen]}
        if len(chosen) < self.n_words:
            meta["note"] = f"only {len(chosen)} word(s) could be swapped, {self.n_words} requested"
        return Result(text, (Variant(apply_edits(text, edits), self.kind, "invariant", tuple(edits), meta),))


def _span_text(parsed: ParsedText, c: Candidate) -> str:
    start, last = parsed.tokens[c.index], parsed.tokens[c.end]
    return parsed.text[start.idx : last.idx + len(last.text)]


@functools.cache
def _stopwords() -> frozenset[str]:
    from perturbations.random_word import default_stopwords

    return default_stopwords()


@functools.lru_cache(maxsize=50_000)
def _lemmas(word: str) -> frozenset[str]:
    from lemminflect import getAllLemmas

    return frozenset({lem.lower() for forms in getAllLemmas(word.lower()).values() for lem in forms} | {word.lower()})


def _retag(windows: list[list[str]], index: int) -> list[str]:
    """Penn tag of ``index`` in each pre-tokenised window (spaCy's tok2vec and tagger only)."""
    from spacy.tokens import Doc

    from rome.core.parsing import get_parser

    nlp = get_parser().nlp
    docs = [Doc(nlp.vocab, words=w) for w in windows]
    for name in ("tok2vec", "tagger"):
        docs = list(nlp.get_pipe(name).pipe(docs))
    return [doc[index].tag_ for doc in docs]
