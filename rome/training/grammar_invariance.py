"""Grammar-keeping rewrites for the grammar classifier's consistency loss (issue #12).

Why: RoMe's ``F_g`` moved by more than 0.1 on a fifth of the passive and entity suites' variants
(docs/rome.md): the CoLA classifier reacts to *which* name, number or noun a sentence has, not
only to its structure ("Chow serves comfort food." 0.41, "A 16 serves pizza food." 0.05). A
number swapped for another number, a name for another name, or a noun for another noun of the
same tag (singular / plural) keeps a sentence's grammar, so the classifier should give both
copies the same log-odds; :func:`invariant_pairs` makes such pairs from the same clean texts the
pre-training stage uses (WordNet usage examples and CoLA-train's acceptable sentences), and
``rome.training.grammar`` adds the squared difference of the two log-odds to its loss.

The rewrites are written here, not taken from the harness's ``perturbations/``: different code,
and texts no suite samples.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence

from rome.training.grammar_corruptions import Word, detokenize
from rome.training.grammar_corruptions import tag as tag_words

#: Penn tags whose words can be exchanged for another word of the same tag without breaking grammar
SWAPPABLE_TAGS = ("NNP", "NNPS", "NN", "NNS", "CD")
Tagged = list[tuple[str, str]]


def tag_fine(texts: Iterable[str]) -> list[Tagged]:
    """(word, Penn tag) of every token, from the same tagger as the pre-training damage."""
    return penn_tags(tag_words(texts))


def penn_tags(tagged: Iterable[Sequence[Word]]) -> list[Tagged]:
    return [[(w.text, w.tag) for w in words] for words in tagged]


def lexicon(tagged: Sequence[Tagged]) -> dict[str, list[str]]:
    """Alphabetic words of each swappable tag seen in the texts (sorted: the pairs are reproducible)."""
    words: dict[str, set[str]] = defaultdict(set)
    for sentence in tagged:
        for word, tag in sentence:
            if tag in SWAPPABLE_TAGS and tag != "CD" and word.isalpha():
                words[tag].add(word if tag.startswith("NNP") else word.lower())
    return {tag: sorted(ws) for tag, ws in words.items()}


def _replacement(word: str, tag: str, words: dict[str, list[str]], rng: random.Random) -> str | None:
    if tag == "CD":
        return str(rng.randint(2, 10 ** rng.randint(1, 6))) if word.isdigit() else None
    options = words.get(tag, [])
    if not options or not word.isalpha():
        return None
    new = rng.choice(options)
    return new.capitalize() if word[:1].isupper() else new


def swapped_copy(sentence: Tagged, words: dict[str, list[str]], rng: random.Random, k: int = 2) -> str | None:
    """The sentence with up to ``k`` swappable words exchanged for others of their tag, or ``None``."""
    spots = [i for i, (_, tag) in enumerate(sentence) if tag in SWAPPABLE_TAGS]
    out = [w for w, _ in sentence]
    for i in rng.sample(spots, min(k, len(spots))):
        new = _replacement(*sentence[i], words, rng)
        if new is not None:
            out[i] = new
    copy = detokenize(out)
    return None if copy == detokenize([w for w, _ in sentence]) else copy


def invariant_pairs(clean_texts: Sequence[str], seed: int) -> list[tuple[str, str]]:
    """(clean text, grammar-keeping copy) for every clean text that offers a swappable word."""
    return swap_pairs(tag_words(clean_texts), seed)


def swap_pairs(tagged_words: Sequence[Sequence[Word]], seed: int) -> list[tuple[str, str]]:
    """:func:`invariant_pairs` of texts already tagged (training tags its clean texts once)."""
    rng = random.Random(seed)
    tagged = penn_tags(tagged_words)
    words = lexicon(tagged)
    pairs = []
    for sentence in tagged:
        copy = swapped_copy(sentence, words, rng)
        if copy is not None:
            pairs.append((detokenize([w for w, _ in sentence]), copy))
    return pairs
