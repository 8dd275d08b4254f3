"""Synonyms for a word's sense from WordNet 3.0, checked both ways and by frequency.

WordNet lists a lemma in every synset it has ever been used in, so "synonyms of a word" taken
over all its synsets are mostly synonyms of *other* senses ("serve" -> "function", "allow" ->
"let", "casual" -> "nonchalant"). The rules here keep a candidate only when a reader would
accept it in place of the word:

* **the sense**: the word's most used sense for its part of speech (WordNet's SemCor counts);
  for verbs, the most used sense whose *verb frames* fit how the verb is used in the sentence
  (with an object, without one, before an infinitive or a clause), so "does not allow dogs"
  reads ``permit.v.01`` (frames "Somebody ----s something"), not ``let.v.01`` ("... INFINITIVE");
* **both ways**: the sense is also the candidate's own most used sense, and the candidate is
  attested in it (count >= 1), so a rare reading ("tremendous" for "wonderful") is refused;
* **common words**: the candidate's total count is at least :data:`MIN_LEMMA_COUNT`, so odd
  words ("render", "cognize") are never picked; among several, the most used wins;
* single words only (the token count stays), never the word's own lemma, never an antonym.
"""

from __future__ import annotations

import functools

#: satellite heads whose antonym is no antonym of their satellites ("red" -> "achromatic")
INDIRECT_ANTONYM_BLOCKLIST = frozenset({"chromatic.a.03", "chromatic.a.01"})

#: WordNet verb frame ids by how the verb is used (see WordNet's frames list, wninput(5WN))
FRAMES = {
    "object": frozenset({5, 8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21, 30, 31}),
    "passive": frozenset({5, 8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21, 30, 31}),
    "intransitive": frozenset({1, 2, 3, 4, 6, 7, 12, 13, 22, 23, 27}),
    "infinitive": frozenset({24, 25, 28, 32, 33, 35, 29}),
    "clause": frozenset({26, 34}),
}
#: a candidate must have been seen this often in SemCor (all its senses of the part of speech)
MIN_LEMMA_COUNT = 5
#: the sense must carry this share of the word's counted uses (of those that fit its usage), and of the
#: candidate's: a word used in many senses ("serve", "matter", "stay") is not swapped by its top one
MIN_SENSE_SHARE = 0.5
#: a candidate must be at least this common relative to the word ("want" -/-> "desire", "use" -/-> "apply")
MIN_FREQUENCY_RATIO = 0.1
#: a candidate's count in the sense must be this close to its most used sense's ("seek": 41 vs 44)
NEAR_TOP = 0.75
WORDNET_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}


def _wn():
    from rome.core.nltk_data import wordnet

    return wordnet()


def _synsets(lemma: str, pos: str) -> list:
    wn = _wn()
    found = wn.synsets(lemma, pos=pos)
    if pos == "a":  # satellites ("s") are adjectives too
        found += [s for s in wn.synsets(lemma, pos="s") if s not in found]
    return [s for s in found if s.pos() in (("a", "s") if pos == "a" else (pos,))]


def _count(synset, lemma: str) -> int:
    return sum(x.count() for x in synset.lemmas() if x.name().lower() == lemma)


def _frames(synset, lemma: str) -> set[int]:
    return {f for x in synset.lemmas() if x.name().lower() == lemma for f in x.frame_ids()}


@functools.lru_cache(maxsize=50_000)
def total_count(lemma: str, pos: str) -> int:
    return sum(_count(s, lemma) for s in _synsets(lemma, pos))


@functools.lru_cache(maxsize=50_000)
def top_sense(lemma: str, pos: str, usage: str | None = None):
    """The most used synset of ``lemma`` (ties: WordNet's order); for verbs with ``usage``, the
    most used one whose frames for this lemma fit the usage. ``None`` without any counted use, or
    when that sense has less than :data:`MIN_SENSE_SHARE` of the counted uses."""
    best, best_count, total = None, 0, 0
    for synset in _synsets(lemma, pos):
        if usage and not (_frames(synset, lemma) & FRAMES[usage]):
            continue
        count = _count(synset, lemma)
        total += count
        if count > best_count:
            best, best_count = synset, count
    return best if total and best_count >= MIN_SENSE_SHARE * total else None


def is_main_sense(lemma: str, pos: str, synset) -> bool:
    """``synset`` is ``lemma``'s most used sense, or used nearly as often (:data:`NEAR_TOP`)."""
    counts = [_count(s, lemma) for s in _synsets(lemma, pos)]
    return bool(counts) and _count(synset, lemma) >= max(1, NEAR_TOP * max(counts))


@functools.lru_cache(maxsize=50_000)
def antonyms_of(lemma: str, pos: str) -> frozenset[str]:
    return frozenset(a.name().lower() for s in _synsets(lemma, pos) for x in s.lemmas()
                     if x.name().lower() == lemma for a in x.antonyms())


@functools.lru_cache(maxsize=50_000)
def sense_synonyms(lemma: str, pos: str, usage: str | None = None) -> tuple[tuple[str, str], ...]:
    """``(synonym, synset name)`` pairs for ``lemma``'s sense, most used first (see module docstring)."""
    lemma = lemma.lower()
    sense = top_sense(lemma, pos, usage)
    if sense is None:
        return ()
    found = []
    for other in sense.lemmas():
        name = other.name().lower()
        if not name.isalpha() or name == lemma or other.count() < 1:
            continue
        common = total_count(name, pos) >= max(MIN_LEMMA_COUNT, MIN_FREQUENCY_RATIO * total_count(lemma, pos))
        if not is_main_sense(name, pos, sense) or not common:
            continue
        if usage and not (set(other.frame_ids()) >= (_frames(sense, lemma) & FRAMES[usage])):
            continue  # the candidate must take every frame the word takes in this usage ("tell me" / "say")
        if name in antonyms_of(lemma, pos):
            continue
        found.append((-other.count(), name))
    return tuple((name, sense.name()) for _, name in sorted(found))


# -- adjectives (the adjective swap) ------------------------------------------------------------
@functools.lru_cache(maxsize=4096)
def dominant_senses(word: str, min_share: float) -> tuple:
    """The adjective senses of ``word`` used often enough (by WordNet's tagged-corpus counts)."""
    from rome.core.nltk_data import wordnet

    wn = wordnet()
    scored = []
    for rank, synset in enumerate(wn.synsets(word, pos=wn.ADJ)):
        count = sum(lemma.count() for lemma in synset.lemmas() if lemma.name().lower() == word)
        scored.append((count, rank, synset))
    if not scored:
        return ()
    top = max(count for count, _, _ in scored)
    if top == 0:
        return (scored[0][2],)  # no counts: WordNet lists the most common sense first
    kept = [s for s in scored if s[0] >= min_share * top]
    return tuple(synset for _, _, synset in sorted(kept, key=lambda s: (-s[0], s[1])))


def _single_words(lemmas, exclude: str, min_count: int = 0) -> list:
    return [lemma for lemma in lemmas
            if lemma.name().isalpha() and lemma.name().lower() != exclude and lemma.count() >= min_count]


def _by_frequency(lemmas) -> tuple[str, ...]:
    ordered = sorted(lemmas, key=lambda lemma: (-lemma.count(), lemma.name()))
    return tuple(dict.fromkeys(lemma.name().lower() for lemma in ordered))


@functools.lru_cache(maxsize=4096)
def synonyms(word: str, min_share: float = 0.25) -> tuple[str, ...]:
    """Single-word synonyms of ``word`` in its most used sense, most frequent first.

    A synonym must be attested in that sense (WordNet count >= 1): unattested lemmas are where
    WordNet's synonymy is loosest ("open" -> "unfastened"), and the sense must be the most used
    sense of the synonym too ("open" -/-> "exposed", "ethnic" -/-> "cultural", "delicious" -/->
    "delightful", "wonderful" -/-> "tremendous": each one's main sense is another)."""
    for synset in dominant_senses(word, min_share)[:1]:
        found = [lemma for lemma in _single_words(synset.lemmas(), word, min_count=1)
                 if dominant_senses(lemma.name().lower(), min_share)[:1] == (synset,)]
        if found:
            return _by_frequency(found)
    return ()


@functools.lru_cache(maxsize=4096)
def antonyms(word: str, min_share: float = 0.25) -> tuple[str, ...]:
    """Antonyms from the most used sense that has any: direct antonyms of ``word``, else of its
    synonyms, else of its satellite head ("pricey" -> "cheap"); "little" gets "big" (size), not
    "much" (quantity, a rarer sense)."""
    for sense in dominant_senses(word, min_share):
        own = [lemma for lemma in sense.lemmas() if lemma.name().lower() == word]
        mates = [lemma for lemma in sense.lemmas() if lemma.name().lower() != word]
        heads = [lemma for h in (sense.similar_tos() if sense.pos() == "s" else ())
                 if h.name() not in INDIRECT_ANTONYM_BLOCKLIST for lemma in h.lemmas()]
        for source in (own, mates, heads):
            found = _single_words([a for lemma in source for a in lemma.antonyms()], word)
            if found:
                return _by_frequency(found)
    return ()


