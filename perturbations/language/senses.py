"""The sense a word most likely has, and the synonyms and antonyms of that sense, from WordNet 3.0.

WordNet lists a lemma in every synset it has ever been used in, so "synonyms of a word" taken over
all its synsets are mostly synonyms of *other* senses ("serve" -> "function", "central" ->
"fundamental", "special" -> "particular"). The one sense look-up of the project keeps a candidate
only when the word's sense is clear without reading the context, and the candidate has that sense:

* **a dominant sense**: WordNet's sense-tagged counts (SemCor, ``index.sense`` / ``cntlist``) give
  the word's senses for its part of speech; the most used one must have been seen at least
  :data:`MIN_SENSE_COUNT` (10) times and carry at least :data:`DOMINANT_SHARE` of the counted uses (four
  times as many as all other senses together). The most-frequent-sense heuristic is the standard
  baseline of word-sense disambiguation (McCarthy et al., 2004, "Finding predominant word senses
  in untagged text"); requiring dominance makes it precise instead of merely frequent. A word
  without counts, or with several common senses ("little": size 63 %, quantity 28 %), is not
  swapped. For verbs only the senses whose *verb frames* fit how the verb is used in the sentence
  count (with an object, a participle, an infinitive, a clause): the parse has to agree;
* **both ways**: the sense is also the candidate's own most used sense, carrying at least
  :data:`CANDIDATE_SHARE` of its uses (the same four in five), and the candidate is attested in it, so a word whose usual
  reading is another ("tell" for "say", "guess" for "think", "matter" for "affair") is refused;
* **common words**: the candidate's total count is at least :data:`MIN_LEMMA_COUNT` and at least
  :data:`MIN_FREQUENCY_RATIO` of the word's, so rare or marked words ("serpent" for "snake",
  "cognize") are never picked; lemminflect must read the candidate as a base form ("oxen" is not);
* **antonyms** are WordNet's *direct* antonyms of the word in its dominant sense (never the
  antonym of a satellite's head: "average" -> "abnormal", "tempting" -> "unseductive" were
  indirect), with :data:`ANTONYM_MIN_COUNT` uses for the sense and the antonym;
* single words only (the token count stays), never the word's own lemma, never an antonym as synonym.
"""

from __future__ import annotations

import functools

#: WordNet verb frame ids by how the verb is used (see WordNet's frames list, wninput(5WN))
FRAMES = {
    "object": frozenset({5, 8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21, 30, 31}),
    "passive": frozenset({5, 8, 9, 10, 11, 14, 15, 16, 17, 18, 19, 20, 21, 30, 31}),
    "intransitive": frozenset({1, 2, 3, 4, 6, 7, 12, 13, 22, 23, 27}),
    "infinitive": frozenset({24, 25, 28, 32, 33, 35, 29}),
    "clause": frozenset({26, 34}),
}
#: the dominant sense must have been tagged this often in SemCor: with fewer uses the counts are too
#: sparse to say that one sense dominates (SemCor is small: most words have fewer than 20 tagged uses)
MIN_SENSE_COUNT = 10
#: the dominant sense must carry this share of the word's counted uses (of those that fit its usage).
#: Four in five, not two in three: with 2/3 a word whose second sense has a third of
#: the uses ("employ": use 75 %, hire 25 %; "program": plan 71 %) was swapped in its minor sense on news
#: and data-to-text; four in five leaves the minor senses under one use in five (the fresh cards test it)
DOMINANT_SHARE = 4 / 5
#: the candidate's own most used sense must be the word's sense and carry the same share of its uses:
#: a candidate read in another sense half the time ("thought", "result", "remember") is no synonym
CANDIDATE_SHARE = 4 / 5
#: a candidate must have been seen this often in SemCor (all its senses of the part of speech)
MIN_LEMMA_COUNT = 10
#: an antonym needs less evidence: WordNet links antonyms sense to sense, and a reversed property is what
#: the variant promises whichever near reading the reader takes ("cheap" / "expensive": 9 uses)
ANTONYM_MIN_COUNT = 5
#: ... and a dominant sense of two thirds of the uses: the antonym card held at 95 % on news with it (a
#: reversed property reads as reversed in either near reading), so the stricter synonym share is not needed
ANTONYM_SHARE = 2 / 3
#: a candidate must be at least this common relative to the word (all senses): a much rarer word for the
#: same thing is usually marked, by register or strength ("snake" -/-> "serpent", "recommend" -/-> "advocate")
MIN_FREQUENCY_RATIO = 0.25
WORDNET_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}


def wordnet():
    """WordNet 3.0 with its sense counts (offline copy, ``rome.core.nltk_data``)."""
    from rome.core.nltk_data import wordnet as load

    return load()


def _synsets(lemma: str, pos: str) -> list:
    wn = wordnet()
    found = wn.synsets(lemma, pos=pos)
    if pos == "a":  # satellites ("s") are adjectives too
        found += [s for s in wn.synsets(lemma, pos="s") if s not in found]
    return [s for s in found if s.pos() in (("a", "s") if pos == "a" else (pos,))]


def count(synset, lemma: str) -> int:
    """How often ``lemma`` was tagged with ``synset`` in SemCor."""
    return sum(x.count() for x in synset.lemmas() if x.name().lower() == lemma)


def _frames(synset, lemma: str) -> set[int]:
    return {f for x in synset.lemmas() if x.name().lower() == lemma for f in x.frame_ids()}


@functools.lru_cache(maxsize=50_000)
def total_count(lemma: str, pos: str) -> int:
    return sum(count(s, lemma) for s in _synsets(lemma, pos))


@functools.lru_cache(maxsize=50_000)
def sense_counts(lemma: str, pos: str, usage: str | None = None) -> tuple[tuple[object, int], ...]:
    """``(synset, count)`` for ``lemma``'s senses (for verbs with ``usage``: those whose frames fit),
    most used first (ties: WordNet's order)."""
    found = [(s, count(s, lemma)) for s in _synsets(lemma, pos)
             if not (usage and not (_frames(s, lemma) & FRAMES[usage]))]
    return tuple(sorted(found, key=lambda sc: -sc[1]))


@functools.lru_cache(maxsize=50_000)
def top_sense(lemma: str, pos: str, usage: str | None = None, share: float | None = None,
              min_count: int | None = None):
    """The dominant sense of ``lemma`` (see the module docstring), or ``None`` when it is not clear;
    ``share``: the share of counted uses it needs (default :data:`DOMINANT_SHARE`); ``min_count``: the
    uses it needs (default :data:`MIN_SENSE_COUNT`)."""
    counted = sense_counts(lemma, pos, usage)
    total = sum(c for _, c in sense_counts(lemma, pos))  # the share is of *all* uses: the parse picks, counts confirm
    share = DOMINANT_SHARE if share is None else share
    min_count = MIN_SENSE_COUNT if min_count is None else min_count
    if not counted or counted[0][1] < min_count or counted[0][1] < share * total:
        return None
    return counted[0][0]


def most_used_sense(lemma: str, pos: str, usage: str | None = None):
    """The most used sense of ``lemma`` however small its lead (``None`` without counts)."""
    counted = sense_counts(lemma, pos, usage)
    return counted[0][0] if counted and counted[0][1] > 0 else None


_UPOS = {"n": "NOUN", "v": "VERB", "a": "ADJ", "r": "ADV"}


def _base_form(name: str, pos: str) -> bool:
    """WordNet lists some inflected forms as lemmas ("oxen"): lemminflect must read ``name`` as its own lemma."""
    from lemminflect import getAllLemmas

    return name in getAllLemmas(name, upos=_UPOS[pos]).get(_UPOS[pos], (name,))


def _common(name: str, lemma: str, pos: str) -> bool:
    return total_count(name, pos) >= max(MIN_LEMMA_COUNT, MIN_FREQUENCY_RATIO * total_count(lemma, pos))


@functools.lru_cache(maxsize=50_000)
def antonyms_of(lemma: str, pos: str) -> frozenset[str]:
    """Every direct antonym of ``lemma`` in any sense (a synonym candidate must not be one)."""
    return frozenset(a.name().lower() for s in _synsets(lemma, pos) for x in s.lemmas()
                     if x.name().lower() == lemma for a in x.antonyms())


@functools.lru_cache(maxsize=50_000)
def sense_synonyms(lemma: str, pos: str, usage: str | None = None) -> tuple[tuple[str, str], ...]:
    """``(synonym, synset name)`` pairs for ``lemma``'s dominant sense, most used first."""
    lemma = lemma.lower()
    sense = top_sense(lemma, pos, usage)
    if sense is None:
        return ()
    found = []
    for other in sense.lemmas():
        name = other.name().lower()
        if not name.isalpha() or name == lemma or other.count() < 1:
            continue
        if top_sense(name, pos, share=CANDIDATE_SHARE) != sense or not _common(name, lemma, pos) or not _base_form(name, pos):
            continue  # the sense must be the candidate's own *dominant* sense too ("say" -/-> "tell")
        if usage and not (set(other.frame_ids()) >= (_frames(sense, lemma) & FRAMES[usage])):
            continue  # the candidate must take every frame the word takes in this usage ("tell me" / "say")
        if name in antonyms_of(lemma, pos):
            continue
        found.append((-other.count(), name))
    return tuple((name, sense.name()) for _, name in sorted(found))


@functools.lru_cache(maxsize=50_000)
def sense_antonyms(lemma: str, pos: str) -> tuple[tuple[str, str], ...]:
    """``(antonym, its synset name)``: direct antonyms of ``lemma`` in its dominant sense (WordNet links
    antonyms sense to sense, so the antonym's sense is the linked one), single common words, most used first."""
    lemma = lemma.lower()
    sense = top_sense(lemma, pos, share=ANTONYM_SHARE, min_count=ANTONYM_MIN_COUNT)
    if sense is None:
        return ()
    found = []
    for own in sense.lemmas():
        if own.name().lower() != lemma:
            continue
        for anti in own.antonyms():
            name = anti.name().lower()
            if name.isalpha() and name != lemma and total_count(name, pos) >= ANTONYM_MIN_COUNT:
                found.append((-anti.count(), name, anti.synset().name()))
    return tuple((name, synset) for _, name, synset in sorted(found))


@functools.lru_cache(maxsize=50_000)
def collocation(words: tuple[str, ...]) -> bool:
    """Whether WordNet lists ``words`` as one lemma ("central_bank", "living_room", "little_league")."""
    return bool(wordnet().synsets("_".join(w.lower() for w in words)))


#: satellite heads whose antonym is no antonym of their satellites ("red" -> "achromatic"): colours
COLOUR_HEADS = frozenset({"chromatic.a.03", "chromatic.a.01"})


@functools.lru_cache(maxsize=50_000)
def is_descriptive_adjective(lemma: str) -> bool:
    """A gradable, descriptive adjective in WordNet's own sense (Gross & Miller 1990; Fellbaum 1998,
    ch. 3): its dominant sense has a direct antonym ("cheap" / "expensive"), or is a satellite of a
    head that has one and names an attribute ("huge" -> large, size). Classifying adjectives
    ("single market", "special forces", "criminal law", "central bank") have neither, and their
    WordNet "synonyms" name another class; colours are excluded (their head's antonym is "achromatic")."""
    sense = top_sense(lemma.lower(), "a", share=ANTONYM_SHARE, min_count=ANTONYM_MIN_COUNT)
    if sense is None or sense.lexname() == "adj.pert":
        return False
    if any(x.name().lower() == lemma.lower() and x.antonyms() for x in sense.lemmas()):
        return True
    heads = sense.similar_tos() if sense.pos() == "s" else []
    return any(h.name() not in COLOUR_HEADS and h.attributes() and any(x.antonyms() for x in h.lemmas())
               for h in heads)


def main_noun_sense(lemma: str):
    """A noun's most used sense, or WordNet's first when SemCor never tagged the noun ("chef")."""
    return most_used_sense(lemma, "n") or next(iter(_synsets(lemma, "n")), None)


@functools.lru_cache(maxsize=50_000)
def noun_class(lemma: str) -> str:
    """``"physical"``, ``"unit"`` (a unit of measurement: "kilometre", "cm") or ``"abstract"`` for a noun's
    most used WordNet sense (``""`` when WordNet does not know the noun), from its hypernym paths."""
    sense = main_noun_sense(lemma.lower())
    if sense is None:
        return ""
    above = {h.name() for path in sense.hypernym_paths() for h in path}
    if "unit_of_measurement.n.01" in above:
        return "unit"
    return "physical" if "physical_entity.n.01" in above else "abstract"


# -- every sense: the candidates a context model judges -------------------------------------------
@functools.lru_cache(maxsize=50_000)
def wordnet_synonyms(lemma: str, pos: str) -> tuple[tuple[str, str], ...]:
    """``(synonym, synset name)`` over *every* sense of ``lemma`` for ``pos`` (adjectives with their
    satellites), in WordNet's sense order (most used first), each synonym once with the first synset it
    shares with ``lemma``. Only single words lemminflect reads as a base form: a multi-word lemma
    ("look_into", "ice_cream") would change the token count and need its own agreement, so it is left out.
    A direct antonym of the lemma in another sense is never a synonym. Which sense the word has *here*
    is not decided here: the context model judges each candidate in its slot
    (:class:`perturbations.context_fit.FitsContext`)."""
    lemma = lemma.lower()
    refused = antonyms_of(lemma, pos) | {lemma}
    found: dict[str, str] = {}
    for synset in _synsets(lemma, pos):
        for other in synset.lemmas():
            name = other.name().lower()
            if name in found or name in refused or not name.isalpha() or not _base_form(name, pos):
                continue
            found[name] = synset.name()
    return tuple(found.items())


@functools.lru_cache(maxsize=50_000)
def wordnet_antonyms(lemma: str, pos: str) -> tuple[tuple[str, str], ...]:
    """``(antonym, its synset name)``: WordNet's *direct* antonyms of ``lemma`` in any of its senses
    (Gross & Miller 1990: "cheap" / "expensive", "hard" / "soft" and "hard" / "easy"), single words, in
    the lemma's sense order. Indirect antonyms (a satellite's head's antonym: "average" -> "abnormal")
    are left out. Which one reverses the property *here* is the context model's choice."""
    lemma = lemma.lower()
    found: dict[str, str] = {}
    for synset in _synsets(lemma, pos):
        for own in synset.lemmas():
            if own.name().lower() != lemma:
                continue
            for anti in own.antonyms():
                name = anti.name().lower()
                if name.isalpha() and name != lemma and name not in found and _base_form(name, pos):
                    found[name] = anti.synset().name()
    return tuple(found.items())


@functools.lru_cache(maxsize=50_000)
def shared_sense_share(lemma: str, candidate: str, pos: str) -> float:
    """The share of ``lemma``'s uses (SemCor counts, add-one smoothed per sense, so a word with few or no
    counts gets an even prior) that fall in the senses it shares with ``candidate``: how likely, before
    the context is read, ``lemma`` means something ``candidate`` also means. "cheap" shares its usual
    sense (inexpensive) with nothing common but its tawdry sense with "loud": a small share."""
    lemma, candidate = lemma.lower(), candidate.lower()
    synsets = _synsets(lemma, pos)
    if not synsets:
        return 0.0
    total = sum(count(s, lemma) + 1 for s in synsets)
    shared = sum(count(s, lemma) + 1 for s in synsets if any(x.name().lower() == candidate for x in s.lemmas()))
    return shared / total


@functools.lru_cache(maxsize=50_000)
def antonym_sense_share(lemma: str, antonym: str, pos: str) -> float:
    """Like :func:`shared_sense_share` for an antonym: the share of ``lemma``'s (smoothed) uses in the
    senses where WordNet links it to ``antonym`` ("hard" / "soft" is the texture sense, "hard" / "easy"
    the difficulty one)."""
    lemma, antonym = lemma.lower(), antonym.lower()
    synsets = _synsets(lemma, pos)
    if not synsets:
        return 0.0
    total = sum(count(s, lemma) + 1 for s in synsets)
    linked = sum(count(s, lemma) + 1 for s in synsets
                 if any(x.name().lower() == lemma and any(a.name().lower() == antonym for a in x.antonyms())
                        for x in s.lemmas()))
    return linked / total


def sense_features(lemma: str, candidate: str, pos: str, usage: str | None = None) -> dict:
    """What WordNet's senses and their counts say about a swap, for measuring whether they still add
    validity once the context decides (development data): the first sense of ``lemma`` (in WordNet's
    order) that ``candidate`` shares, its SemCor count, :func:`shared_sense_share`, and whether the shared
    sense is ``lemma``'s and ``candidate``'s dominant one by the former gate (:func:`top_sense`)."""
    lemma, candidate = lemma.lower(), candidate.lower()
    synsets = _synsets(lemma, pos)
    shared = [k for k, s in enumerate(synsets) if any(x.name().lower() == candidate for x in s.lemmas())]
    base = {"senses": len(synsets), "uses": total_count(lemma, pos), "candidate_uses": total_count(candidate, pos),
            "shared_sense_share": round(shared_sense_share(lemma, candidate, pos), 4)}
    if not shared:
        return {**base, "shared_sense_rank": None, "shared_sense_count": 0, "dominant_sense": False}
    top = top_sense(lemma, pos, usage)
    own = top_sense(candidate, pos, share=CANDIDATE_SHARE)
    return {**base, "shared_sense_rank": shared[0],
            "shared_sense_count": sum(count(synsets[k], lemma) for k in shared),
            "dominant_sense": top is not None and top == own and top in [synsets[k] for k in shared]}
