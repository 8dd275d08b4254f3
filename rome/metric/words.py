"""Whole words with contextual vectors: the unit both RoMe steps (EMD and TED-SE) work on.

The paper aligns *words*, but the encoder sees sub-word pieces ("unbelievably" ->
"un ##bel ##ie ##va ##bly"). The authors' released code took the first k piece vectors as
the k word vectors, which misaligns every word after the first split. Here the parser's
tokens are the words, and each word's vector is the mean of the pieces whose character
offsets overlap the word's span (:func:`pool_pieces`). One encoder pass and one parse per
unique sentence serve both steps, through the shared caches of ``rome.core``.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from rome.core.encoder import Encoder, TokenEmbeddings
from rome.core.parsing import ParsedText
from rome.metric.profiling import step

#: universal POS tags that are not words for RoMe (the paper's trees and alignments have none)
SKIPPED_POS = frozenset({"PUNCT", "SPACE", "SYM", "X"})
#: dependency labels of a passive clause, spaCy's and Universal Dependencies' (Stanza)
PASSIVE_SUBJECTS = frozenset({"nsubjpass", "csubjpass", "nsubj:pass", "csubj:pass"})
PASSIVE_AUXILIARIES = frozenset({"auxpass", "aux:pass"})
SPACY_AGENT = "agent"  # the *by* token; its child is the agent
UD_AGENT = "obl:agent"  # the agent itself; its *by* is a ``case`` child
_DIGIT = re.compile(r"\d")
_EDGE_PUNCTUATION = ".,;:!?()[]\"'"


@dataclass(frozen=True)
class Words:
    """A sentence's words (punctuation dropped), with lemmas, dependency heads and vectors."""

    text: str
    words: tuple[str, ...]
    lemmas: tuple[str, ...]
    #: index (into ``words``) of each word's head; -1 for a root
    heads: tuple[int, ...]
    vectors: np.ndarray  # (n_words, dim) float32, mean of each word's pieces
    unit: np.ndarray  # the same vectors scaled to unit length (cosines are dot products)
    #: each word's dependency label (spaCy's or Universal Dependencies'); empty when unknown
    deps: tuple[str, ...] = ()
    #: each word's meaning-bearing inflection (:func:`meaning_inflection`), e.g. "Tense=Past"; empty when unknown
    inflections: tuple[str, ...] = ()
    #: each word's :func:`number_key`, kept so every pair does not recompute it; empty when unknown
    numbers: tuple[str | None, ...] = ()
    #: each word's closed function-word class (:func:`function_class`: "ADP", "Art" or ""); empty when unknown
    function_classes: tuple[str, ...] = ()
    #: each verb's finite verb group (:func:`verb_group`: "Tense=Past|Perf|Prog"-like, "" for other words); empty when unknown
    verb_groups: tuple[str, ...] = ()

    def __len__(self) -> int:
        return len(self.words)

    @property
    def keys(self) -> list[str]:
        """Lower-cased surface words: the terms of the TF-IDF weights."""
        return [w.lower() for w in self.words]


def passive_markers(words: Words) -> frozenset[int]:
    """Indices of the words that only mark the passive voice: the auxiliary *be* and the agent's
    *by* (spaCy's ``agent`` token, or the ``case`` child of a UD ``obl:agent``). Both RoMe steps
    leave them out, so a passive and its active differ only where their content words do."""
    deps = words.deps or ("",) * len(words)
    marks = {i for i, d in enumerate(deps) if d in PASSIVE_AUXILIARIES or d == SPACY_AGENT}
    for i, dep in enumerate(deps):
        if dep == UD_AGENT:
            marks.update(c for c, h in enumerate(words.heads) if h == i and deps[c] == "case")
    return frozenset(marks)


#: cardinal numbers written as one word; hand-written because these 32 words are all the rule
#: needs (a parser of number phrases such as text2num would add a compiled dependency for them;
#: compounds like "twenty-five" keep their cosine)
_UNITS = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
          "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen", "twenty")
_TENS = ("thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
WORD_NUMBERS = {w: str(i) for i, w in enumerate(_UNITS)} | {w: str(10 * i) for i, w in enumerate(_TENS, 3)}
WORD_NUMBERS |= {"hundred": "100", "thousand": "1000", "million": "1000000", "billion": "1000000000"}


def number_key(word: str, pos: str = "") -> str | None:
    """The number a word carries ("4,000." -> "4000"; "three" tagged ``NUM`` -> "3"), else ``None``.

    Digits count whatever the tag; a number word only when the parser tags it ``NUM`` (so the
    pronoun *one* is not a number).
    """
    key = word.strip(_EDGE_PUNCTUATION).replace(",", "")
    if _DIGIT.search(key):
        return key
    return WORD_NUMBERS.get(key.lower()) if pos == "NUM" else None


def _features(morph: str) -> dict[str, str]:
    """A token's Universal Dependencies features (``"Tense=Past|VerbForm=Fin"``) as a dict."""
    return dict(f.split("=", 1) for f in morph.split("|") if "=" in f)


#: the inflections that change what a word says, by universal POS (Universal Dependencies features)
MEANING_INFLECTIONS = {"VERB": "Tense", "AUX": "Tense", "ADJ": "Degree", "ADV": "Degree", "NOUN": "Number"}


def meaning_inflection(pos: str, morph: str) -> str:
    """The one inflection of a word that carries meaning, as ``"Feature=Value"``, or "".

    A finite verb's tense (*reported* / *reports*; a participle or an infinitive has none that
    counts: the passive's *served* moves its tense to the auxiliary), an adjective's or adverb's
    degree (*cheap* / *cheaper* / *cheapest*), a common noun's number (*room* / *rooms*).
    Agreement (a verb's person and number) says nothing new and is not read. spaCy and Stanza
    both write these features.
    """
    feature = MEANING_INFLECTIONS.get(pos)
    features = _features(morph)
    if feature is None or feature not in features:
        return ""
    if feature == "Tense" and features.get("VerbForm") != "Fin":
        return ""
    return f"{feature}={features[feature]}"


#: dependency labels of a verb's auxiliaries, spaCy's and Universal Dependencies' (Stanza)
AUXILIARY_DEPS = frozenset({"aux", "auxpass", "aux:pass"})


def verb_group(parsed: ParsedText, i: int) -> str:
    """The tense and aspect a verb's finite verb group states, as ``"Tense=Past|Perf|Prog"``, or "".

    Departure D4 (docs/rome.md, "Departures"): the lemma rule makes two forms of one verb one word unless both
    are finite with different tenses, so *ate* / *was eating*, *ate* / *has eaten* and *reported* / *will
    report* are one word and the change rests on a light auxiliary. English states tense and aspect in the
    verb *group* (Quirk et al. 1985 §3.54; UD's ``aux``): the tense of its finite member (none for a modal),
    the perfect (a *have* auxiliary) and the progressive (an *-ing* member: UD ``Aspect=Prog`` or
    ``VerbForm=Ger``). Only a ``VERB`` whose group has a finite member gets a value; a participle or
    infinitive without one (*the hotel, located in ...*) gets "", as do all other words. The passive keeps
    its group's tense and aspect (*serves* / *is served*: ``Tense=Pres||``; *is serving* / *is being
    served*: ``Tense=Pres||Prog``), so it stays one word.
    """
    token = parsed.tokens[i]
    if token.pos != "VERB":
        return ""
    members = [token, *(c for c in parsed.children(i) if c.dep in AUXILIARY_DEPS)]
    features = [_features(m.morph) for m in members]
    finite = [f for f in features if f.get("VerbForm") == "Fin"]
    if not finite:
        return ""
    tense = finite[0].get("Tense", "")
    perfect = any(m is not token and m.lemma.lower() == "have" for m in members)
    progressive = any(f.get("Aspect") == "Prog" or f.get("VerbForm") == "Ger" for f in features)
    return f"Tense={tense}|{'Perf' if perfect else ''}|{'Prog' if progressive else ''}"


def function_class(pos: str, morph: str) -> str:
    """A word's closed function-word class, read from the parser: "ADP" for a preposition (UD
    ``ADP``), "Art" for an article (``DET`` with ``PronType=Art``), else "".

    Two members of one closed class share every context, so their contextual vectors are close
    (*in* / *on*, *a* / *the*) although they contrast in meaning exactly there (docs/rome.md,
    changes 2 and 3: TED-SE holds them apart).
    """
    if pos == "ADP":
        return "ADP"
    return "Art" if pos == "DET" and "PronType=Art" in morph.split("|") else ""


def _pairwise(ref_values: Sequence, hyp_values: Sequence) -> tuple[np.ndarray, np.ndarray]:
    """A per-word value of each side as a (p, 1) column and a (1, q) row: compared, they broadcast to
    the (p, q) matrix every pair rule below returns."""
    return (np.array(ref_values, dtype=object).reshape(-1, 1), np.array(hyp_values, dtype=object).reshape(1, -1))


def same_lemma(ref: Words, hyp: Words) -> np.ndarray:
    """(p, q) boolean matrix: the two words share a lemma."""
    lemmas_r, lemmas_h = _pairwise(ref.lemmas, hyp.lemmas)
    return lemmas_r == lemmas_h


def _numbers(words: Words) -> tuple[str | None, ...]:
    return words.numbers if len(words.numbers) == len(words) else tuple(number_key(w) for w in words.words)


def _number_pairs(ref: Words, hyp: Words) -> tuple[np.ndarray, np.ndarray]:
    """(p, q) boolean matrices: both words are numbers; and they are the same number."""
    numbers_r, numbers_h = _pairwise(_numbers(ref), _numbers(hyp))
    both = (numbers_r != None) & (numbers_h != None)  # noqa: E711
    return both, both & (numbers_r == numbers_h)


def different_inflections(ref: Words, hyp: Words) -> np.ndarray:
    """(p, q) boolean matrix: both words carry the same kind of meaning-bearing inflection, with
    different values (*reported* / *reports*, *cheap* / *cheaper*, *room* / *rooms*)."""
    if len(ref.inflections) != len(ref) or len(hyp.inflections) != len(hyp):
        return np.zeros((len(ref), len(hyp)), dtype=bool)
    kinds_r, kinds_h = _pairwise([i.split("=")[0] for i in ref.inflections], [i.split("=")[0] for i in hyp.inflections])
    values_r, values_h = _pairwise(ref.inflections, hyp.inflections)
    return (kinds_r != "") & (kinds_r == kinds_h) & (values_r != values_h)


def different_verb_groups(ref: Words, hyp: Words) -> np.ndarray:
    """(p, q) boolean matrix: both words head finite verb groups (:func:`verb_group`) that state a
    different tense or aspect (*ate* / *was eating*, *ate* / *has eaten*, *reported* / *will report*)."""
    if len(ref.verb_groups) != len(ref) or len(hyp.verb_groups) != len(hyp):
        return np.zeros((len(ref), len(hyp)), dtype=bool)
    groups_r, groups_h = _pairwise(ref.verb_groups, hyp.verb_groups)
    return (groups_r != "") & (groups_h != "") & (groups_r != groups_h)


def different_function_words(ref: Words, hyp: Words) -> np.ndarray:
    """(p, q) boolean matrix: two prepositions, or two articles, with different lemmas (:func:`function_class`)."""
    if len(ref.function_classes) != len(ref) or len(hyp.function_classes) != len(hyp):
        return np.zeros((len(ref), len(hyp)), dtype=bool)
    classes_r, classes_h = _pairwise(ref.function_classes, hyp.function_classes)
    return (classes_r != "") & (classes_r == classes_h) & ~same_lemma(ref, hyp)


def word_rules(ref: Words, hyp: Words) -> tuple[np.ndarray, np.ndarray]:
    """(p, q) boolean matrices ``(one_word, different_words)``: what RoMe knows about a word pair
    whatever the vectors say, for the EMD and TED-SE alike (number keys compared once).

    * One word: one lemma, unless an inflection that carries meaning differs
      (:func:`meaning_inflection`): *serves* / *is served* keep their meaning (the passive's
      tense moves to its auxiliary), *reported* / *reports* and *cheap* / *cheaper* do not, so
      such a pair is left to the encoder's cosine like any other; nor when the two forms' finite
      verb groups state a different tense or aspect (:func:`verb_group`: *ate* / *was eating*). One
      number is one word however it is written (*three* / *3*, *4,000* / *4000*).
    * Different words: both words are numbers (:func:`number_key`), and not the same one. TED-SE
      also holds two different prepositions or articles apart (:func:`different_function_words`);
      the EMD does not (docs/rome.md, "Departures").
    """
    both, same = _number_pairs(ref, hyp)
    lemma_word = same_lemma(ref, hyp) & ~different_inflections(ref, hyp) & ~different_verb_groups(ref, hyp)
    return lemma_word | same, both & ~same


def word_similarity(ref: Words, hyp: Words, rules: bool = True) -> np.ndarray:
    """(p, q) cosines of the words' contextual vectors, with two facts a cosine misses.

    * Two words with one lemma are the same word (1.0): the encoder gives a word a different
      vector in a reordered sentence ("serves" / "is served" 0.81, "House" 0.97), which made
      every rewrite cost meaning; word order is TED-SE's feature, not the EMD's. Not when both
      differ in an inflection that carries meaning, or head verb groups of another tense or aspect
      (:func:`word_rules`): a changed tense changes it.
    * Two different numbers are different words (0.0): in the entity suite's 191 changed
      numbers MiniLM gave the old and new number a median cosine of 0.70 (70 % above TED-SE's
      theta), so a changed address, price or phone number cost almost nothing. A number word
      counts as its value (:func:`number_key`): *three* / *four* differ, *three* / *3* are one.

    ``rules=False`` (``rome/paper``) gives the plain cosines, as the paper computes them.
    """
    if not len(ref) or not len(hyp):
        return np.zeros((len(ref), len(hyp)))
    if not rules:
        return np.clip(ref.unit @ hyp.unit.T, -1.0, 1.0)
    one_word, different = word_rules(ref, hyp)
    cos = np.where(one_word, 1.0, np.clip(ref.unit @ hyp.unit.T, -1.0, 1.0))
    return np.where(different, 0.0, cos)


def pool_pieces(
    offsets: Sequence[tuple[int, int]], vectors: np.ndarray, spans: Sequence[tuple[int, int]]
) -> np.ndarray:
    """Mean of the piece vectors overlapping each character span; (n_spans, dim).

    Special tokens have empty offsets and never overlap. A span no piece covers (the text
    was truncated) gets the mean of all real pieces, so it still has a direction.
    """
    starts = np.array([o[0] for o in offsets])
    ends = np.array([o[1] for o in offsets])
    real = ends > starts
    span_s = np.array([s for s, _ in spans]).reshape(-1, 1)
    span_e = np.array([e for _, e in spans]).reshape(-1, 1)
    member = (starts[None, :] < span_e) & (ends[None, :] > span_s) & real[None, :]
    empty = ~member.any(axis=1)
    if empty.any():
        member[empty] = real
    weights = member / member.sum(axis=1, keepdims=True)
    return (weights @ vectors).astype(np.float32)


def _keep_heads(parsed: ParsedText, kept: list[int]) -> tuple[int, ...]:
    """Heads re-indexed to kept words; a dropped head (punctuation) passes to its own head."""
    position = {tok_i: pos for pos, tok_i in enumerate(kept)}
    heads = []
    for tok_i in kept:
        head, seen = parsed.tokens[tok_i].head, {tok_i}
        while head not in position and head not in seen:
            seen.add(head)
            head = parsed.tokens[head].head
        heads.append(-1 if head == tok_i or head not in position else position[head])
    return tuple(heads)


def build_words(parsed: ParsedText, emb: TokenEmbeddings) -> Words:
    """Combine one sentence's parse and encoding (both of ``text.strip()``) into :class:`Words`."""
    kept = [t.i for t in parsed.tokens if t.pos not in SKIPPED_POS and t.text.strip()]
    if not kept:  # only punctuation: keep every token rather than leave the sentence empty
        kept = [t.i for t in parsed.tokens if t.text.strip()]
    tokens = [parsed.tokens[i] for i in kept]
    spans = [(t.idx, t.idx + len(t.text)) for t in tokens]
    dim = emb.vectors.shape[1]
    vectors = pool_pieces(emb.offsets, emb.vectors, spans) if tokens else np.zeros((0, dim), np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return Words(
        text=parsed.text,
        words=tuple(t.text for t in tokens),
        lemmas=tuple(t.lemma.lower() for t in tokens),
        heads=_keep_heads(parsed, kept),
        vectors=vectors,
        unit=vectors / np.maximum(norms, 1e-12),
        deps=tuple(t.dep for t in tokens),
        inflections=tuple(meaning_inflection(t.pos, t.morph) for t in tokens),
        numbers=tuple(number_key(t.text, t.pos) for t in tokens),
        function_classes=tuple(function_class(t.pos, t.morph) for t in tokens),
        verb_groups=tuple(verb_group(parsed, t.i) for t in tokens),
    )


_warned_cap = False


def encoded_part(text: str, emb: TokenEmbeddings) -> str:
    """The prefix of ``text`` (stripped) that the encoder kept: all of it unless the encoder truncated it.

    RoMe's parse, EMD and TED-SE work on this part only. Words past the encoder's limit have no
    vector of their own, and a parse and tree edit distance over thousands of words cost minutes
    and gigabytes (3 pairs of 5,000 words: 171 s, 2.1 GB), so the limit is the encoder's (MiniLM:
    512 pieces, about 400 words), with a one-time warning.
    """
    global _warned_cap
    if not emb.truncated:
        return text
    if not _warned_cap:
        warnings.warn("RoMe parses and aligns only the part of a text its encoder keeps (the encoder's "
                      "token limit); the rest of a longer text is left out (this warning is shown once)",
                      stacklevel=3)
        _warned_cap = True
    return text[: max(end for _, end in emb.offsets)]


def analyse(texts: Sequence[str], encoder: Encoder, parser, layer: int | None = None) -> dict[str, Words]:
    """:class:`Words` of every unique text, keyed by the text; one batched encode and parse."""
    unique = list(dict.fromkeys(texts))
    stripped = [t.strip() for t in unique]
    with step("encode"):
        embs = encoder.encode(stripped, layer)
    with step("parse"):
        parses = parser.parse([encoded_part(text, emb) for text, emb in zip(stripped, embs)])
    with step("pool_words"):
        return {text: build_words(p, e) for text, p, e in zip(unique, parses, embs)}
