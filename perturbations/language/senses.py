"""WordNet 3.0 senses, their SemCor counts, and every synonym and antonym of a word.

WordNet lists a lemma in every synset it has ever been used in, so "synonyms of a word" taken over
all its synsets are mostly synonyms of *other* senses ("serve" -> "function", "central" ->
"fundamental"). Which sense a word has in a sentence is not decided here: the perturbations offer
every sense's candidates (:func:`wordnet_synonyms`, :func:`wordnet_antonyms`) and the judge
(:mod:`perturbations.judge`) reads each in its sentence; the counts give how likely a
shared sense is before the context is read (:func:`shared_sense_share`), and verb frames say which
senses fit how a verb is used (:data:`FRAMES`). Single words only (the token count stays), never the
word's own lemma, never an antonym as synonym.
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


@functools.lru_cache(maxsize=200_000)
def count(synset, lemma: str) -> int:
    """How often ``lemma`` was tagged with ``synset`` in SemCor (cached: NLTK reads each count from the
    sense index file by binary search)."""
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


def most_used_sense(lemma: str, pos: str, usage: str | None = None):
    """The most used sense of ``lemma`` however small its lead (``None`` without counts)."""
    counted = sense_counts(lemma, pos, usage)
    return counted[0][0] if counted and counted[0][1] > 0 else None


_UPOS = {"n": "NOUN", "v": "VERB", "a": "ADJ", "r": "ADV"}


def _base_form(name: str, pos: str) -> bool:
    """WordNet lists some inflected forms as lemmas ("oxen"): lemminflect must read ``name`` as its own lemma."""
    from lemminflect import getAllLemmas

    return name in getAllLemmas(name, upos=_UPOS[pos]).get(_UPOS[pos], (name,))


@functools.lru_cache(maxsize=50_000)
def antonyms_of(lemma: str, pos: str) -> frozenset[str]:
    """Every direct antonym of ``lemma`` in any sense (a synonym candidate must not be one)."""
    return frozenset(a.name().lower() for s in _synsets(lemma, pos) for x in s.lemmas()
                     if x.name().lower() == lemma for a in x.antonyms())


@functools.lru_cache(maxsize=50_000)
def collocation(words: tuple[str, ...]) -> bool:
    """Whether WordNet lists ``words`` as one lemma ("central_bank", "living_room", "little_league")."""
    return bool(wordnet().synsets("_".join(w.lower() for w in words)))


def main_noun_sense(lemma: str):
    """A noun's most used sense, or WordNet's first when SemCor never tagged the noun ("chef")."""
    return most_used_sense(lemma, "n") or next(iter(_synsets(lemma, "n")), None)


@functools.lru_cache(maxsize=50_000)
def common_noun(lemma: str) -> bool:
    """Whether WordNet lists ``lemma`` as a noun written in lower case: "sunset" is, "richmond" is not (WordNet
    has only "Richmond", a name), nor is a word it does not know ("parkside")."""
    lemma = lemma.lower()
    return any(name.name() == lemma for synset in _synsets(lemma, "n") for name in synset.lemmas())


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


# -- every sense: the candidates the judge reads ------------------------------------------------
@functools.lru_cache(maxsize=50_000)
def wordnet_synonyms(lemma: str, pos: str) -> tuple[tuple[str, str], ...]:
    """``(synonym, synset name)`` over *every* sense of ``lemma`` for ``pos`` (adjectives with their
    satellites), in WordNet's sense order (most used first), each synonym once with the first synset it
    shares with ``lemma``. Only single words lemminflect reads as a base form: a multi-word lemma
    ("look_into", "ice_cream") would change the token count and need its own agreement, so it is left out.
    A direct antonym of the lemma in another sense is never a synonym. Which sense the word has *here*
    is not decided here: the judge reads each candidate in its sentence (:func:`perturbations.judged.choose`)."""
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
    order) that ``candidate`` shares, its SemCor count and :func:`shared_sense_share`."""
    lemma, candidate = lemma.lower(), candidate.lower()
    synsets = _synsets(lemma, pos)
    shared = [k for k, s in enumerate(synsets) if any(x.name().lower() == candidate for x in s.lemmas())]
    base = {"senses": len(synsets), "uses": total_count(lemma, pos), "candidate_uses": total_count(candidate, pos),
            "shared_sense_share": round(shared_sense_share(lemma, candidate, pos), 4)}
    if not shared:
        return {**base, "shared_sense_rank": None, "shared_sense_count": 0}
    return {**base, "shared_sense_rank": shared[0],
            "shared_sense_count": sum(count(synsets[k], lemma) for k in shared)}
