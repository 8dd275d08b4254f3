"""Self-supervised training pairs for RoMe's scorer (paper §3.4), built from human references.

KELM (the paper's source) is not available here, so the pairs come from SFREST's human
references (the shipped ``novikova2017/sfrest.jsonl``, field ``references`` only, train side
of the data layer's split; no rating is ever read; the suites sample only the held-out side):

* **positive** (label 1): two different human references written for the same meaning
  representation (MR): two texts that say the same thing in different words;
* **negative** (label 0): the second text damaged by one of the perturbations below, paired
  with the first, or a reference of another MR (:data:`NEGATIVE_KINDS`).

The perturbations are small and self-contained, deliberately separate from the suites'
``perturbations/`` (different code, different texts); the families they resemble are recorded
(:data:`PERTURBATION_FAMILIES`) so the robustness table can flag those rows. Each takes a
``random.Random`` so the pairs are reproducible.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from dataclasses import dataclass

#: words the perturbations leave alone (changing them rarely changes the meaning)
_STOPWORD_TEXT = (
    "a an the is are was were be been am to of in on at for with by and or but that this it "
    "there here you i we they he she do does did not no , . ? ! ' 's -s"
)
STOPWORDS = frozenset(_STOPWORD_TEXT.split(" "))
_SLOT = re.compile(r"(\w+)=(?:'([^']*)'|([^,)]*))")


@dataclass(frozen=True)
class Item:
    """One MR with its human references and its slot values (for entity swaps)."""

    mr: str
    references: tuple[str, ...]
    slots: dict[str, str]


def parse_slots(mr: str) -> dict[str, str]:
    """``inform(name='x',food=thai)`` -> ``{"name": "x", "food": "thai"}`` (multi-word values kept)."""
    out = {}
    for slot, quoted, bare in _SLOT.findall(mr):
        value = (quoted or bare).strip()
        if value and value not in ("none", "dont_care", "yes", "no"):
            out[slot] = value
    return out


def _content_positions(words: list[str]) -> list[int]:
    return [i for i, w in enumerate(words) if w.lower() not in STOPWORDS and w.isalnum()]


def random_word_aaa(text: str, item: Item, pool: list[Item], rng: random.Random) -> str | None:
    """TextAttack's case 3: about a third of the content words become the token ``AAA``."""
    words = text.split()
    spots = _content_positions(words)
    if not spots:
        return None
    for i in rng.sample(spots, max(1, len(spots) // 3)):
        words[i] = "AAA"
    return " ".join(words)


def word_swap(text: str, item: Item, pool: list[Item], rng: random.Random) -> str | None:
    """Two content words replaced by content words of an unrelated reference."""
    words = text.split()
    spots = _content_positions(words)
    other = rng.choice(pool).references[0].split()
    donors = [other[i] for i in _content_positions(other)]
    if not spots or not donors:
        return None
    for i in rng.sample(spots, min(2, len(spots))):
        words[i] = rng.choice(donors)
    return " ".join(words)


def repetition(text: str, item: Item, pool: list[Item], rng: random.Random) -> str | None:
    """Content words repeated 3-5 times in place ("elon elon elon founded tesla tesla tesla")."""
    words = text.split()
    spots = _content_positions(words)
    if not spots:
        return None
    chosen = set(rng.sample(spots, min(2, len(spots))))
    out = []
    for i, w in enumerate(words):
        out.extend([w] * (rng.randint(3, 5) if i in chosen else 1))
    return " ".join(out)


def entity_swap(text: str, item: Item, pool: list[Item], rng: random.Random) -> str | None:
    """A slot value of the MR found in the text replaced by another MR's value for that slot."""
    present = [(s, v) for s, v in item.slots.items() if v.lower() in text.lower()]
    if not present:
        return None
    slot, value = rng.choice(present)
    others = sorted({o.slots[slot] for o in pool if slot in o.slots and o.slots[slot].lower() != value.lower()})
    if not others:
        return None
    return re.sub(re.escape(value), rng.choice(others), text, count=1, flags=re.IGNORECASE)


def antonym_swap(text: str, item: Item, pool: list[Item], rng: random.Random) -> str | None:
    """A word replaced by a WordNet antonym (cheap -> expensive), CheckList's antonym test."""
    from rome.core.nltk_data import wordnet

    wn = wordnet()
    words = text.split()
    options = []
    for i in _content_positions(words):
        antonyms = sorted(
            {a.name().replace("_", " ") for s in wn.synsets(words[i].lower()) for lem in s.lemmas() for a in lem.antonyms()}
        )
        if antonyms:
            options.append((i, antonyms))
    if not options:
        return None
    i, antonyms = rng.choice(options)
    words[i] = rng.choice(antonyms)
    return " ".join(words)


def shuffle(text: str, item: Item, pool: list[Item], rng: random.Random) -> str | None:
    """All words in a random order."""
    words = text.split()
    if len(set(words)) < 3:
        return None
    shuffled = words[:]
    while shuffled == words:
        rng.shuffle(shuffled)
    return " ".join(shuffled)


def truncation(text: str, item: Item, pool: list[Item], rng: random.Random) -> str | None:
    """Only the first 30-60 % of the words kept (information dropped, sentence cut)."""
    words = text.split()
    if len(words) < 5:
        return None
    return " ".join(words[: max(2, int(len(words) * rng.uniform(0.3, 0.6)))])


def unrelated(text: str, item: Item, pool: list[Item], rng: random.Random) -> str | None:
    """A human reference of a different MR: fluent, but says something else."""
    other = rng.choice(pool)
    return None if other.mr == item.mr else rng.choice(other.references)


Negative = Callable[[str, Item, list[Item], random.Random], "str | None"]
NEGATIVE_KINDS: dict[str, Negative] = {
    "random_word_aaa": random_word_aaa,
    "word_swap": word_swap,
    "repetition": repetition,
    "entity_swap": entity_swap,
    "antonym_swap": antonym_swap,
    "shuffle": shuffle,
    "truncation": truncation,
    "unrelated": unrelated,
}


#: the harness perturbation kinds (``perturbations/``) whose damage each negative kind resembles:
#: suites of these kinds test RoMe on a family of damage its scorer was trained to penalise, and
#: the robustness table flags such rows (``RoMe.trained_on_families``)
PERTURBATION_FAMILIES = {
    "random_word_aaa": "random_word",
    "word_swap": "random_word",
    "repetition": "repetition",
    "entity_swap": "entity",
    "antonym_swap": "adjective",
}


@dataclass(frozen=True)
class Pair:
    reference: str
    hypothesis: str
    label: int  # 1 same meaning, 0 negative
    kind: str  # "paraphrase" or a NEGATIVE_KINDS key
    mr: str


def build_pairs(items: list[Item], pool: list[Item], rng: random.Random, per_mr: int = 4) -> list[Pair]:
    """Up to ``per_mr`` positive pairs per MR, each followed by one negative of the next kind.

    The negative damages the positive's hypothesis (kinds taken in turn, skipping a kind
    that does not apply to the text), so positives and negatives share their references.
    """
    kinds = list(NEGATIVE_KINDS)
    turn = 0
    pairs: list[Pair] = []
    for item in items:
        refs = list(item.references)
        combos = [(a, b) for a in refs for b in refs if a != b]
        for ref, hyp in rng.sample(combos, min(per_mr, len(combos))):
            pairs.append(Pair(ref, hyp, 1, "paraphrase", item.mr))
            for attempt in range(len(kinds)):
                kind = kinds[(turn + attempt) % len(kinds)]
                damaged = NEGATIVE_KINDS[kind](hyp, item, pool, rng)
                if damaged and damaged.strip() and damaged != hyp:
                    pairs.append(Pair(ref, damaged, 0, kind, item.mr))
                    turn = (turn + attempt + 1) % len(kinds)
                    break
    return pairs
