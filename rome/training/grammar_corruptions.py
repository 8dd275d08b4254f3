"""Self-supervised pre-training data for the grammar classifier: clean texts and damaged copies.

Why: all-MiniLM-L6-v2 was tuned for sentence similarity, which blunts its sense of syntax;
fine-tuned on CoLA alone it stays near the majority baseline out of domain (see
``docs/grammar.md``). One epoch of "is this text intact or damaged?" on ~41k texts (each
clean text and one damaged copy) before the CoLA epochs makes it attend to word order, agreement and missing words again, and lifts the
out-of-domain MCC by about 0.1. This is the ELECTRA idea at sentence level, with damage that
usually breaks grammar: swap two neighbours, delete a function or head word, insert a function
word or a duplicate, re-inflect a verb or noun (lemminflect), move a word two or more places,
or stutter a word two to four more times (without it, the consistency loss taught the
classifier that a name may be any name, it read the paper's "Elon elon elon elon elon founded
tesla tesla tesla." as one long name, F_g 0.72; no damage showed it a word said over and over).

Clean texts: WordNet 3.0's usage examples (Debian's copy, read through nltk) and the
acceptable sentences of CoLA's training split. No CoLA dev sentence and no human rating of any
evaluation set is used. Clean and damaged texts are detokenised by the same rule, so spacing
and capitals are never a cue.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

#: words inserted by the "insert" damage: frequent function words
FUNCTION_WORDS = ("the", "a", "of", "to", "is", "was", "that", "which", "been", "has", "in", "by", "it",
                  "they", "will")
#: parts of speech whose deletion almost always breaks a sentence (adjectives and adverbs do not)
DELETABLE_POS = frozenset({"VERB", "AUX", "ADP", "DET", "NOUN", "PRON", "PART", "SCONJ", "CCONJ"})
INFLECTABLE_POS = frozenset({"VERB", "AUX", "NOUN"})
DAMAGES = ("swap", "delete", "insert", "inflect", "move", "repeat")
_NO_SPACE_BEFORE = re.compile(r" (?=[.,!?;:%)\]]|'s\b|n't\b|'m\b|'re\b|'ve\b|'ll\b|'d\b)")
_NO_SPACE_AFTER = re.compile(r"([(\[$]) ")


@dataclass(frozen=True)
class Word:
    text: str
    pos: str  # universal POS
    lemma: str
    tag: str = ""  # Penn tag (the grammar-keeping swaps of ``grammar_invariance`` need it)


def detokenize(words: Sequence[str]) -> str:
    """One spacing rule for clean and damaged texts; first letter upper-cased."""
    out = _NO_SPACE_AFTER.sub(r"\1", _NO_SPACE_BEFORE.sub("", " ".join(words)))
    return out[:1].upper() + out[1:]


def other_inflections(word: Word) -> list[str]:
    """Every other inflected form of the word's lemma (lemminflect's tables, offline)."""
    from lemminflect import getAllInflections, getAllLemmas

    lemmas = [word.lemma.lower()]
    if not any(getAllInflections(lemmas[0]).values()):
        lemmas = [forms[0] for forms in getAllLemmas(word.text.lower()).values()]
    forms = {f for lemma in lemmas for group in getAllInflections(lemma).values() for f in group}
    forms.discard(word.text.lower())
    return sorted(forms)


def _is_word(word: Word) -> bool:
    return word.pos not in ("PUNCT", "SYM", "SPACE")


def _damage(words: list[Word], kind: str, rng: random.Random) -> list[str] | None:
    """The words after one damage of ``kind``, or ``None`` when the text offers no place for it."""
    out = [w.text for w in words]
    n = len(words)
    if kind == "swap":
        spots = [i for i in range(n - 1) if _is_word(words[i]) and _is_word(words[i + 1])
                 and words[i].text.lower() != words[i + 1].text.lower()]
        if not spots:
            return None
        i = rng.choice(spots)
        out[i], out[i + 1] = out[i + 1], out[i]
    elif kind == "delete":
        spots = [i for i in range(n) if words[i].pos in DELETABLE_POS]
        if not spots:
            return None
        del out[rng.choice(spots)]
    elif kind == "insert":
        i = rng.randrange(n)
        out.insert(i, rng.choice(FUNCTION_WORDS) if rng.random() < 0.5 else words[i].text.lower())
    elif kind == "inflect":
        spots = [(i, forms) for i in range(n) if words[i].pos in INFLECTABLE_POS
                 for forms in [other_inflections(words[i])] if forms]
        if not spots:
            return None
        i, forms = rng.choice(spots)
        new = rng.choice(forms)
        out[i] = new.capitalize() if words[i].text[:1].isupper() else new
    elif kind == "move":
        spots = [i for i in range(n) if _is_word(words[i])]
        if len(spots) < 3:
            return None
        i = rng.choice(spots)
        moved = out.pop(i)
        targets = [k for k in range(len(out)) if abs(k - i) >= 2]
        if not targets:
            return None
        out.insert(rng.choice(targets), moved)
    elif kind == "repeat":
        spots = [i for i in range(n) if _is_word(words[i])]
        if not spots:
            return None
        i = rng.choice(spots)
        out[i + 1 : i + 1] = [words[i].text.lower()] * rng.randint(2, 4)
    else:
        raise ValueError(f"unknown damage {kind!r}")
    return out


def damage(words: Sequence[Word], rng: random.Random) -> str | None:
    """The text with one random damage (kinds tried in a random order), ``None`` if none applies."""
    words = list(words)
    if len(words) < 3:
        return None
    first = words[0]
    if first.pos != "PROPN" and first.text != "I":  # a moved first word must not keep its capital
        words[0] = Word(first.text[:1].lower() + first.text[1:], first.pos, first.lemma)
    clean = detokenize([w.text for w in words]).lower()
    for kind in rng.sample(DAMAGES, len(DAMAGES)):
        damaged = _damage(words, kind, rng)
        if damaged is not None and detokenize(damaged).lower() != clean:
            return detokenize(damaged)
    return None


def tag(texts: Iterable[str]) -> list[list[Word]]:
    """POS tags, Penn tags and lemmas from the embedded spaCy model (tagger only: no parse needed)."""
    import spacy

    from rome.core.parsing import DEFAULT_SPACY_MODEL

    nlp = spacy.load(DEFAULT_SPACY_MODEL, disable=["parser", "ner"])
    return [[Word(t.text, t.pos_, t.lemma_, t.tag_) for t in doc if t.text.strip()]
            for doc in nlp.pipe(texts, batch_size=512)]


def wordnet_examples(min_words: int = 4) -> list[str]:
    """WordNet 3.0's usage examples with at least ``min_words`` words, sorted, de-duplicated."""
    from rome.core.nltk_data import wordnet

    wn = wordnet()
    return sorted({e.strip() for s in wn.all_synsets() for e in s.examples() if len(e.split()) >= min_words})


def corruption_pairs(clean_texts: Sequence[str], seed: int) -> tuple[list[str], list[int]]:
    """Each clean text (label 1), detokenised, followed by one damaged copy (label 0)."""
    return damaged_pairs(tag(clean_texts), seed)


def damaged_pairs(tagged: Sequence[Sequence[Word]], seed: int) -> tuple[list[str], list[int]]:
    """:func:`corruption_pairs` of texts already tagged (training tags its clean texts once)."""
    rng = random.Random(seed)
    texts: list[str] = []
    labels: list[int] = []
    for words in tagged:
        bad = damage(words, rng)
        if bad is not None:
            texts += [detokenize([w.text for w in words]), bad]
            labels += [1, 0]
    return texts, labels
