"""Constraints shared by the word-swap recipes (textfooler, adjective): each says why it exists.

Word constraints (:class:`~perturbations.recipe.WordConstraint`) pick the tokens that may change;
candidate constraints (:class:`~perturbations.recipe.CandidateConstraint`) refuse replacements. They
are built from general resources (spaCy's parse and tagger, WordNet, lemminflect, English
grammar's function words), never from reading a corpus.
"""

from __future__ import annotations

from perturbations.language import inflection, names
from perturbations.language.function_words import FUNCTION_WORDS
from perturbations.recipe import Candidate, CandidateConstraint, WordConstraint
from rome.core.parsing import ParsedText

#: tokens re-tagged on each side of a swapped word (bounded, so the cost per word is constant)
TAG_WINDOW = 12
#: default least share of the word's (smoothed) SemCor uses in the senses a synonym shares with it
#: (:class:`SenseShare`): a cheap prior that keeps synonyms of a word's rare senses from the judge
MIN_SENSE_SHARE = 0.3


# -- which words may change --------------------------------------------------------------------
class ProtectedWords(WordConstraint):
    """Names and numbers stay (:func:`perturbations.language.names.protected_tokens`): a swap inside a
    name or a number changes a fact, not the wording."""

    def allowed(self, parsed: ParsedText) -> set[int]:
        return set(range(len(parsed.tokens))) - names.protected_tokens(parsed)


class FunctionWords(WordConstraint):
    """Function words never change (TextAttack's ``StopwordModification``, given the closed classes of
    :data:`~perturbations.language.function_words.FUNCTION_WORDS`): they carry the sentence's structure, and
    their "synonyms" change it."""

    def allowed(self, parsed: ParsedText) -> set[int]:
        return {t.i for t in parsed.tokens if t.text.lower() not in FUNCTION_WORDS}


class ContentWords(WordConstraint):
    """Alphabetic words of the given parts of speech (longer than two letters), never auxiliaries,
    particles or negation: TextFooler swaps content words only."""

    def __init__(self, pos: frozenset[str]) -> None:
        self.pos = pos

    def allowed(self, parsed: ParsedText) -> set[int]:
        return {t.i for t in parsed.tokens if t.pos in self.pos and t.text.isalpha() and len(t.text) > 2
                and t.dep not in ("prt", "aux", "auxpass", "neg")}


#: semi-auxiliaries: verb/adjective + "to" with a modal or aspectual meaning (Quirk et al. 1985,
#: A Comprehensive Grammar of the English Language, §3.45-3.47: "be going to", "have to", "used to",
#: "be able to", "be about to", "be supposed to", "be bound to", "be likely to")
SEMI_AUXILIARIES = frozenset({"going", "have", "has", "had", "having", "used", "able", "about", "supposed",
                              "bound", "likely", "due", "meant"})


class MultiWordUnits(WordConstraint):
    """A word inside a multi-word unit has the unit's meaning, not its own, so it is never swapped:

    * compounds from the parse: a modifier inside a compound noun and the noun it modifies
      ("innovation policy", "credit card");
    * WordNet collocations: any 2-3 adjacent words WordNet lists as one lemma ("central bank",
      "living room", "little league", "special forces"), matched on words and on lemmas;
    * verbs with their own particle, preposition or adverb right after them ("goes back to",
      "going to jail", "looking for"): WordNet's phrasal lemmas ("go_to" = attend) show that the
      pair's sense is not the verb's;
    * semi-auxiliaries before "to" (:data:`SEMI_AUXILIARIES`, "are going to", "have to");
    * tokens joined to a neighbour by a hyphen or slash without spaces ("Jones-compliant").
    """

    def allowed(self, parsed: ParsedText) -> set[int]:
        from perturbations.language.senses import collocation

        tokens = parsed.tokens
        blocked: set[int] = set()
        for tok in tokens:
            if tok.dep == "compound":
                blocked |= {tok.i, tok.head}
            nxt = tokens[tok.i + 1] if tok.i + 1 < len(tokens) else None
            if tok.pos in ("VERB", "AUX") and nxt is not None and nxt.head == tok.i and nxt.dep in (
                    "prt", "prep", "advmod", "agent", "dative"):
                blocked.add(tok.i)
            if tok.pos == "VERB" and any(c.dep == "prt" for c in parsed.children(tok.i)):
                blocked.add(tok.i)
            if nxt is not None and nxt.text.lower() == "to" and tok.text.lower() in SEMI_AUXILIARIES:
                blocked.add(tok.i)
            if tok.whitespace == "" and nxt is not None and (nxt.text in ("-", "/", "–") or tok.text in ("-", "/", "–")):
                blocked |= {tok.i, nxt.i}
                if nxt.i + 1 < len(tokens):
                    blocked.add(nxt.i + 1)
        for n in (2, 3):
            for start in range(len(tokens) - n + 1):
                span = tokens[start : start + n]
                if not all(t.text.isalpha() for t in span):
                    continue
                words = tuple(t.text for t in span)
                lemmas = tuple(t.lemma for t in span)
                if collocation(words) or collocation(lemmas) or collocation((*words[:-1], lemmas[-1])):
                    blocked.update(t.i for t in span)
        return set(range(len(tokens))) - blocked


#: restrictive and determiner-like adjectives: they restrict or count the noun's reference rather than
#: describe it (Quirk et al. 1985, §7.33 "restrictive adjectives" and §5.17-5.26 "determiners"), and
#: preposition-like ones ("near X", "close to X"): swapping them changes the structure or the reference
RESTRICTIVE_ADJECTIVES = frozenset({
    "certain", "chief", "exact", "main", "only", "particular", "precise", "principal", "prime", "sole",
    "specific", "very", "same", "other", "such", "own", "many", "much", "few", "several", "more", "most",
    "less", "least", "various", "else", "enough", "next", "last", "first", "second", "third", "whole",
    "entire", "total", "complete", "individual", "single", "further", "former", "latter", "due", "able",
    "sorry", "near", "close", "far",
})


class NotRestrictive(WordConstraint):
    """Restrictive, determiner-like and preposition-like adjectives (:data:`RESTRICTIVE_ADJECTIVES`, Quirk et
    al. 1985 §7.33, §5.17-5.26) never change: they restrict or count the noun's reference rather than describe
    it, and their "synonyms" change the structure ("the same" / "the identical"). Other words pass."""

    def allowed(self, parsed: ParsedText) -> set[int]:
        return {t.i for t in parsed.tokens if t.pos != "ADJ" or not (
            {t.lemma.lower(), t.text.lower()} & RESTRICTIVE_ADJECTIVES)}


class ClearUse(WordConstraint):
    """Only words used the way their part of speech is normally used: a noun as the head of its phrase
    (not a noun used as a modifier, "innovation policy"), a verb with its arguments, an adjective
    modifying a following noun or as a predicate after a linking verb. An adjective with a determiner
    and no noun ("is the favourite") is a noun in disguise; a possessor keeps its form ("children's")."""

    def allowed(self, parsed: ParsedText) -> set[int]:
        out = set()
        for tok in parsed.tokens:
            if tok.pos == "ADJ":
                head = parsed.tokens[tok.head]
                attributive = tok.dep == "amod" and head.pos == "NOUN" and head.i > tok.i
                predicate = tok.dep == "acomp"
                if not (attributive or predicate):
                    continue
            if tok.pos == "NOUN" and tok.dep in ("compound", "npadvmod", "nmod"):
                continue
            if tok.pos == "VERB" and tok.dep in ("amod", "compound", "nmod"):
                continue  # a participle used as a modifier ("applied researchers") is neither verb nor adjective
            nxt = parsed.tokens[tok.i + 1] if tok.i + 1 < len(parsed.tokens) else None
            if nxt is not None and nxt.tag == "POS":  # a possessor: "children's" -/-> "kids's"
                continue
            out.add(tok.i)
        return out


#: how far back a measure phrase's number is looked for, across brackets and units ("185.0 (centimetres) tall")
MEASURE_WINDOW = 4


def after_measure(parsed: ParsedText, i: int) -> bool:
    """Whether the adjective at ``i`` follows a measure phrase: walking back over punctuation and units of
    measurement (WordNet), the first other token is a number ("185 cm tall", "185.0 (centimetres) tall",
    "185.26m tall", "ten years old"); "the big 4 restaurant is expensive" is none."""
    from perturbations.language.senses import noun_class

    for tok in reversed(parsed.tokens[max(0, i - MEASURE_WINDOW) : i]):
        if tok.pos == "PUNCT" or (tok.pos == "NOUN" and noun_class(tok.lemma) == "unit"):
            continue
        return tok.pos == "NUM" or any(ch.isdigit() for ch in tok.text)
    return False


class PlainAdjectives(WordConstraint):
    """An adjective stays when it is part of a measurement or a lexicalised name of an activity:

    * after a measure phrase ("185 cm tall", "35 metres long", "ten years old": Quirk et al. 1985, §7.67;
      :func:`after_measure`) the adjective names the dimension, not a degree of it: "185 cm short" is not
      English;
    * before a unit of measurement ("square kilometre"; WordNet: the noun is a ``unit_of_measurement``);
    * before an *-ing* nominal ("easy listening", "heavy lifting", "deep learning"): adjective + gerund
      nominals name activities and genres as a unit.
    Other parts of speech pass."""

    def allowed(self, parsed: ParsedText) -> set[int]:
        from lemminflect import getAllLemmas

        from perturbations.language.senses import noun_class

        out = set()
        for tok in parsed.tokens:
            if tok.pos == "ADJ":
                kids = parsed.children(tok.i)
                if any(c.dep in ("npadvmod", "nummod", "quantmod") or c.pos == "NUM" or any(ch.isdigit() for ch in c.text)
                       for c in kids):
                    continue
                if after_measure(parsed, tok.i):
                    continue  # "185 cm tall", "185.0 (centimetres) tall", "185.26m tall"
                head = parsed.tokens[tok.head]
                nxt = parsed.tokens[tok.i + 1] if tok.i + 1 < len(parsed.tokens) else None
                if head.i > tok.i and head.pos == "NOUN" and noun_class(head.lemma) == "unit":
                    continue
                if nxt is not None and nxt.tag.startswith("NN") and nxt.text.lower().endswith("ing") and (
                        "VERB" in getAllLemmas(nxt.text.lower())):
                    continue  # "easy listening (music)": the -ing nominal right after it, whatever the head
            out.add(tok.i)
        return out


class BeforeCommonNoun(WordConstraint):
    """An adjective before a name stays: the adjective is then part of the name. Every noun from the adjective
    to the noun it modifies must be a common noun: not a proper noun, and a word WordNet lists in lower case
    (:func:`~perturbations.language.senses.common_noun`). Lower-cased text hides names from the tagger and the
    entity recogniser ("inner richmond", "lower haight", "lower pacific heights" read as adjective + noun),
    and changing "inner" there moves the place, it does not describe it differently. Other words pass."""

    def allowed(self, parsed: ParsedText) -> set[int]:
        from perturbations.language.senses import common_noun

        out = set()
        for tok in parsed.tokens:
            if tok.pos == "ADJ" and tok.dep == "amod" and tok.head > tok.i and any(
                    t.pos == "PROPN" or (t.pos == "NOUN" and not common_noun(t.lemma))
                    for t in parsed.tokens[tok.i + 1 : tok.head + 1]):
                continue
            out.add(tok.i)
        return out


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


class ContentCandidates(CandidateConstraint):
    """A content word is replaced by a content word: a candidate in the function-word list ("make" ->
    "do", "have", "get" is "make"'s WordNet synonym in some sense) changes the sentence's structure,
    the reason the word itself would be kept (TextAttack's ``StopwordModification``, applied to both
    sides)."""

    def keep(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        return [c for c in candidates if c.word.lower() not in FUNCTION_WORDS]


class AdjectivePosition(CandidateConstraint):
    """An adjective candidate must be usable where the word stands: WordNet marks adjectives used only as
    predicates, ``(p)`` or ``(ip)`` ("alive", "afraid": never "an alive mouse"), and only before a noun,
    ``(a)`` ("former"). Candidates of other parts of speech pass."""

    def keep(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        from perturbations.language.senses import wordnet

        tok = parsed.tokens[candidates[0].index] if candidates else None
        if tok is None or tok.pos != "ADJ":
            return candidates
        attributive = tok.dep == "amod"
        out = []
        for c in candidates:
            lemmas = inflection.lemmas_of(c.word)
            marker = next((x.syntactic_marker() for x in wordnet().synset(c.synset).lemmas()
                           if x.name().lower() in lemmas), None) if c.synset else None
            if (attributive and marker in ("(p)", "(ip)")) or (not attributive and marker == "(a)"):
                continue
            out.append(c)
        return out


def candidate_lemma(c: Candidate) -> str:
    """The WordNet lemma a candidate was made from: the lemma of its synset that its form inflects."""
    from perturbations.language.senses import wordnet

    forms = inflection.lemmas_of(c.word)
    names = [x.name().lower() for x in wordnet().synset(c.synset).lemmas()] if c.synset else []
    return next((n for n in names if n in forms), c.word.lower())


class SenseShare(CandidateConstraint):
    """A synonym must share a sense the word has often enough: the senses it shares with the word carry at
    least ``min_share`` of the word's uses in SemCor (add-one smoothed per sense,
    :func:`perturbations.language.senses.shared_sense_share`). The prior of word-sense disambiguation
    (McCarthy et al. 2004): a language model judges whether a candidate fits the slot, not whether it
    means what the word means there ("a cheap restaurant" / "a loud restaurant" fit alike; "loud" shares
    only "cheap"'s rare tawdry sense). ``min_share`` 0 turns it off."""

    def __init__(self, min_share: float) -> None:
        if not 0 <= min_share <= 1:
            raise ValueError("min_share must be between 0 and 1")
        self.min_share = float(min_share)

    def describe(self) -> dict:
        return {"min_share": self.min_share, "counts": "semcor (wordnet-3.0), add-one"}

    def keep(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        from perturbations.language.senses import WORDNET_POS, shared_sense_share

        if self.min_share == 0 or not candidates:
            return candidates
        tok = parsed.tokens[candidates[0].index]
        pos = WORDNET_POS.get(tok.pos)
        return [c for c in candidates
                if pos and shared_sense_share(tok.lemma.lower(), candidate_lemma(c), pos) >= self.min_share]


class PartOfSpeechInContext(CandidateConstraint):
    """spaCy re-tags the swapped word within :data:`TAG_WINDOW` tokens and must give the word's Penn
    tag (TextAttack's ``PartOfSpeech`` constraint): a synonym that reads as another part of speech
    there ("abroad markets") does not fit the sentence."""

    def keep(self, parsed: ParsedText, candidates: list[Candidate]) -> list[Candidate]:
        return self.keep_all(parsed, {candidates[0].index: candidates})[candidates[0].index] if candidates else []

    def keep_all(self, parsed: ParsedText, by_word: dict[int, list[Candidate]]) -> dict[int, list[Candidate]]:
        """Every token's candidates re-tagged in one tagger pass."""
        words = [t.text for t in parsed.tokens]
        windows, spots, owners = [], [], []
        for i, candidates in by_word.items():
            lo, hi = max(0, i - TAG_WINDOW), min(len(words), i + TAG_WINDOW + 1)
            for c in candidates:
                windows.append([*words[lo:i], c.word, *words[c.end + 1 : hi]])
                spots.append(i - lo)
                owners.append(c)
        tags = retag_at(windows, spots) if windows else []
        ok = {id(c) for c, tag in zip(owners, tags) if tag == parsed.tokens[c.index].tag}
        return {i: [c for c in candidates if id(c) in ok] for i, candidates in by_word.items()}


def retag_at(windows: list[list[str]], spots: list[int]) -> list[str]:
    """Penn tag of token ``spots[k]`` in pre-tokenised window ``k`` (spaCy's tok2vec and tagger only)."""
    from spacy.tokens import Doc

    from rome.core.parsing import get_parser

    nlp = get_parser().nlp
    docs = [Doc(nlp.vocab, words=w) for w in windows]
    for name in ("tok2vec", "tagger"):
        docs = list(nlp.get_pipe(name).pipe(docs))
    return [doc[k].tag_ for doc, k in zip(docs, spots)]
