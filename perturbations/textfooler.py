"""Text transformation (RoMe §4.6 case 4): TextFooler swaps two words for similar ones, meaning kept.

Built from TextAttack's TextFooler parts (Jin et al., 2020): word importance by deletion, then,
most important word first, ``WordSwapEmbedding`` candidates filtered by ``RepeatModification``,
``StopwordModification``, ``WordEmbeddingDistance`` and ``PartOfSpeech`` and by sentence similarity;
the most similar surviving candidate is kept, until ``n_words`` words are swapped.

Deviations, because a metric test has no victim model and this machine has no downloads:

* importance = drop in sentence similarity when the word is deleted (TextFooler's "delete" ranking
  with the embedded MiniLM encoder in place of a classifier's confidence);
* the word table is TextAttack's counter-fitted one when it is in the user's TextAttack cache,
  else MiniLM's whole-word input embeddings; those are not counter-fitted, so antonyms sit close
  (cheap/expensive) and a WordNet antonym check and a same-lemma check are added;
* the part-of-speech tagger is spaCy (every TextAttack tagger is a download), comparing Penn tags
  so inflection is kept too; sentence similarity is the embedded encoder's, not USE's;
* without textattack, candidates are WordNet synonyms inflected with lemminflect (``meta``
  ``"embedding": "wordnet"``), checked the same way.

``variant.meta`` records which word table and sentence encoder ran. Expectation: ``invariant``.
"""

from __future__ import annotations

import functools
import random

from perturbations import _embeddings, _thirdparty
from perturbations._text import WORD_RE, with_article_fixes, word_spans
from perturbations.base import Edit, Perturbation, Result, Variant, apply_edits
from perturbations.random_word import cased_variants, default_stopwords

WORDNET = "wordnet"
SENTENCE_ENCODER = "all-MiniLM-L6-v2 (mean-pooled)"
#: minimum word cosine per table: TextFooler's 0.5 for counter-fitted vectors; for MiniLM's input
#: embeddings (lower cosines overall) 0.4, chosen by inspecting neighbours, never on ratings.
MIN_WORD_COS = {_embeddings.COUNTER_FITTED: 0.5, _embeddings.MINILM_INPUT: 0.4}


@functools.lru_cache(maxsize=20_000)
def _tag(words: tuple[str, ...], index: int) -> tuple[str, str]:
    """(Penn tag, lemma) of ``words[index]``, tagged by spaCy in its pre-tokenised context."""
    from spacy.tokens import Doc

    from rome.core.parsing import get_parser

    nlp = get_parser().nlp
    doc = nlp(Doc(nlp.vocab, words=list(words)))
    return doc[index].tag_, doc[index].lemma_.lower()


@functools.lru_cache(maxsize=50_000)
def _antonyms(word: str) -> frozenset[str]:
    from rome.core.nltk_data import wordnet

    wn = wordnet()
    return frozenset(a.name().lower() for s in wn.synsets(word) for lem in s.lemmas() for a in lem.antonyms())


def _tags(word_lists: list[tuple[str, ...]], index: int) -> list[str]:
    """Penn tags of ``index`` in each pre-tokenised text, tagged in one spaCy batch."""
    from spacy.tokens import Doc

    from rome.core.parsing import get_parser

    nlp = get_parser().nlp
    docs = nlp.pipe(Doc(nlp.vocab, words=list(words)) for words in word_lists)
    return [doc[index].tag_ for doc in docs]


def _lemmas(word: str) -> set[str]:
    from lemminflect import getAllLemmas

    return {lem.lower() for forms in getAllLemmas(word.lower()).values() for lem in forms} | {word.lower()}


def _meaning_kept(old: str, new: str) -> bool:
    """Not an inflection of the same lemma (serves/served) and not a WordNet antonym (cheap/expensive)."""
    old_lemmas, new_lemmas = _lemmas(old), _lemmas(new)
    if old_lemmas & new_lemmas:
        return False
    antonyms = set().union(*(_antonyms(lem) for lem in old_lemmas))
    return not (new_lemmas & antonyms)


@functools.cache
def _spacy_pos_class():
    """TextAttack's ``PartOfSpeech`` tagging with spaCy (its own taggers all need downloads)."""
    from textattack.constraints.grammaticality import PartOfSpeech

    class SpacyPartOfSpeech(PartOfSpeech):
        def __init__(self) -> None:
            super().__init__(tagger_type="spacy", allow_verb_noun_swap=False)

        def _get_pos(self, before_ctx, word, after_ctx):
            return _tag((*before_ctx, word, *after_ctx), len(before_ctx))[0]

    return SpacyPartOfSpeech


class TextFoolerSwap(Perturbation):
    """Swap ``n_words`` important words for close, same-tag, non-antonym words (``invariant``)."""

    kind = "textfooler"

    def __init__(self, n_words: int = 2, max_candidates: int = 50, min_sentence_sim: float = 0.85,
                 embedding: str = "auto", use_textattack: bool | None = None) -> None:
        if n_words < 1:
            raise ValueError("n_words must be at least 1")
        if embedding not in ("auto", _embeddings.COUNTER_FITTED, _embeddings.MINILM_INPUT, WORDNET):
            raise ValueError(f"unknown embedding {embedding!r}")
        self.n_words = n_words
        self.max_candidates = max_candidates
        self.min_sentence_sim = min_sentence_sim
        self.embedding = embedding
        self.use_textattack = use_textattack

    def backend(self) -> str:
        """Which word table runs: counter-fitted, MiniLM input embeddings, or WordNet."""
        if self.embedding == WORDNET or self.use_textattack is False:
            return WORDNET
        if not (self.use_textattack or _thirdparty.available("textattack")):
            return WORDNET
        if self.embedding == "auto":
            return _embeddings.COUNTER_FITTED if _embeddings.counter_fitted_cached() else _embeddings.MINILM_INPUT
        return self.embedding

    def describe(self) -> dict:
        return {"kind": self.kind, "n_words": self.n_words, "max_candidates": self.max_candidates,
                "min_sentence_sim": self.min_sentence_sim, "embedding": self.backend()}

    # -- the search ------------------------------------------------------------------------
    def _apply(self, text: str, rng: random.Random) -> Result:
        backend = self.backend()
        if backend == WORDNET:
            words, chosen = self._search(text, WORD_RE.findall(text), self._wordnet_candidates, None)
            spans = [m.span() for m in WORD_RE.finditer(text)]
        else:
            words, chosen, spans = self._search_textattack(text, backend)
        if not chosen:
            return Result.skip(text, "no word with a similar replacement that keeps tag and meaning")
        edits = [Edit(spans[i][0], spans[i][1], words[i], new) for i, new in sorted(chosen.items())]
        edits = with_article_fixes(text, edits)
        new_text = apply_edits(text, edits)
        meta = {"embedding": backend, "sentence_encoder": SENTENCE_ENCODER,
                "sentence_similarity": round(float(_embeddings.sentence_similarity(text, [new_text])[0]), 4),
                "swaps": [{"old": words[i], "new": new} for i, new in sorted(chosen.items())]}
        if len(chosen) < self.n_words:
            meta["note"] = f"only {len(chosen)} word(s) could be swapped, {self.n_words} requested"
        return Result(text, (Variant(new_text, self.kind, "invariant", tuple(edits), meta),))

    def _importance(self, text: str, words: list[str], allowed: set[int]) -> list[int]:
        """Allowed word indices by how much deleting them lowers sentence similarity."""
        order = sorted(allowed)
        if not order:
            return []
        deleted = [" ".join(w for j, w in enumerate(words) if j != i) for i in order]
        sims = _embeddings.sentence_similarity(text, deleted)
        return [i for _, i in sorted(zip(sims.tolist(), order))]

    def _search(self, text: str, words: list[str], candidates_for, allowed: set[int] | None):
        """Greedy over the importance ranking; ``candidates_for(current_words, i)`` proposes words."""
        stop = _stopwords()
        allowed = allowed if allowed is not None else {
            i for i, w in enumerate(words) if w.lower() not in stop and w.isalpha()}
        current, chosen = list(words), {}
        for i in self._importance(text, words, allowed):
            options = list(dict.fromkeys(candidates_for(current, i)))
            if not options:
                continue
            texts = [" ".join([*current[:i], c, *current[i + 1 :]]) for c in options]
            sims = _embeddings.sentence_similarity(" ".join(words), texts)
            best = max(range(len(options)), key=lambda k: (sims[k], -k))
            if sims[best] < self.min_sentence_sim:
                continue
            current[i] = chosen[i] = options[best]
            if len(chosen) == self.n_words:
                break
        return words, chosen

    def _wordnet_candidates(self, words: list[str], i: int) -> list[str]:
        from lemminflect import getInflection

        from rome.core.nltk_data import wordnet

        tag, lemma = _tag(tuple(words), i)
        pos = {"N": "n", "V": "v", "J": "a", "R": "r"}.get(tag[:1])
        if pos is None:
            return []
        names = dict.fromkeys(
            name.replace("_", " ") for s in wordnet().synsets(lemma, pos=pos) for name in s.lemma_names())
        out = []
        for name in names:
            if " " in name or name.lower() == lemma:
                continue
            inflected = getInflection(name, tag=tag) or (name,)
            out.append(_recover_case(inflected[0], words[i]))
        out = [c for c in out[: self.max_candidates] if _meaning_kept(words[i], c)]
        tags = _tags([(*words[:i], c, *words[i + 1 :]) for c in out], i)
        return [c for c, t in zip(out, tags) if t == tag]

    def _search_textattack(self, text: str, backend: str):
        _thirdparty.textattack()
        from textattack.constraints.pre_transformation import RepeatModification, StopwordModification
        from textattack.constraints.semantics import WordEmbeddingDistance
        from textattack.shared import AttackedText
        from textattack.transformations import WordSwapEmbedding

        name, table = _embeddings.word_embedding(backend)
        swap = WordSwapEmbedding(max_candidates=self.max_candidates, embedding=table)
        pre = [RepeatModification(), StopwordModification(stopwords=cased_variants(_stopwords()))]
        post = [WordEmbeddingDistance(embedding=table, min_cos_sim=MIN_WORD_COS[name]), _spacy_pos_class()()]
        original = AttackedText(text)
        words = list(original.words)
        allowed = set.intersection(*(c(original, swap) for c in pre)) if words else set()

        def candidates(current: list[str], i: int) -> list[str]:
            attacked = original.replace_words_at_indices(
                [j for j in range(len(words)) if current[j] != words[j]],
                [current[j] for j in range(len(words)) if current[j] != words[j]])
            found = swap(attacked, pre_transformation_constraints=pre, indices_to_modify={i})
            found = [t for t in post[0].call_many(found, original) if _meaning_kept(words[i], t.words[i])]
            return [t.words[i] for t in post[1].call_many(found, original)]

        _, chosen = self._search(text, words, candidates, {i for i in allowed if words[i].isalpha()})
        try:
            spans = word_spans(text, words)
        except ValueError:  # TextAttack's words could not be aligned: fall back to WordNet
            words, chosen = self._search(text, WORD_RE.findall(text), self._wordnet_candidates, None)
            spans = [m.span() for m in WORD_RE.finditer(text)]
        return words, chosen, spans


@functools.cache
def _stopwords() -> frozenset[str]:
    return default_stopwords()


def _recover_case(word: str, reference: str) -> str:
    if reference.isupper() and len(reference) > 1:
        return word.upper()
    if reference[:1].isupper():
        return word[:1].upper() + word[1:]
    return word

