"""Corpora a robustness suite can run on: (reference, original) pairs from three domains or the user's file.

A suite compares score(reference, perturbed original) with score(reference, original). Whether
its verdict holds beyond one domain can only be seen by running it on texts of another, so the
data layer ships three corpora of English written for different purposes, all read here once:

* ``dialogue``: restaurant and hotel dialogue (Novikova et al. 2017: BAGEL, SFHOTEL and SFREST's
  held-out side); the original is another human reference of the same MR, or a system output;
* ``news``: news and Wikipedia-style sentences (DEMETR, Karpinska et al. 2022): the English human
  translation is the reference, the edited machine translation of the same source the original
  (never DEMETR's perturbed sentences, which are the challenge set's damage);
* ``webnlg``: data-to-text over many DBpedia domains (WebNLG+ 2020): each human reference of an input
  as the original against another reference of the same input, and the 16 systems' outputs.

Every corpus drops a pair holding a text a learned part of RoMe trained on
(:func:`learned_texts`), so no suite case can contain a scorer training text, whichever
dataset it came from (27 SFHOTEL references are word for word SFREST references).
Each corpus names the files it reads (``Corpus.files``), whose hash keys the cases built from them. A user's JSONL (``{"id"?, "reference", "original"}`` per line) is a corpus too
(:func:`jsonl_pairs`); its name is the file's stem.
"""

from __future__ import annotations

import functools
import json
import random
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from rome.core.errors import InputError
from rome.core.jsonl import read_jsonl
from rome.data.challenge import demetr_files
from rome.data.novikova import NOVIKOVA_DATASETS, load_rows, novikova_path, references_by_mr
from rome.data.webnlg2020 import GENERATED, load_webnlg2020, webnlg_dir

PAIRINGS = ("paraphrase", "self", "system")


@dataclass(frozen=True)
class TextPair:
    """One candidate for a case: the reference and the original hypothesis to perturb."""

    source_id: str
    reference: str
    original: str


@dataclass(frozen=True)
class Corpus:
    """A shipped corpus: its name, domain, where it comes from, and how to read its pairs."""

    name: str
    domain: str
    source: str
    pairs: Callable[[int], list[TextPair]]
    files: Callable[[], list[Path]]


def normalise(text: str) -> str:
    return " ".join(text.lower().split())


@functools.lru_cache(maxsize=1)
def learned_texts() -> frozenset[str]:
    """Texts a learned part of RoMe trained on (lower-cased, spaces collapsed): SFREST's train-side
    references trained its scorer (:mod:`rome.training.scorer`); its grammar classifier trained on
    CoLA, which no corpus here draws from."""
    return frozenset(normalise(ref) for refs in references_by_mr("sfrest", part="train").values() for ref in refs)


def without_learned_texts(pairs: Iterable[TextPair]) -> list[TextPair]:
    """``pairs`` less every pair whose reference or original is a text a learned part trained on."""
    learned = learned_texts()
    return [p for p in pairs if normalise(p.reference) not in learned and normalise(p.original) not in learned]


def paired(groups: Iterable[tuple[str, list[str], list[tuple[str, str]]]], pairings: Iterable[str],
           rng: random.Random) -> list[TextPair]:
    """Candidates from (group id, references, [(output id, output)]) groups of one meaning.

    ``paraphrase``: every reference of a group with two or more, against another picked with ``rng``;
    ``self``: the reference against itself; ``system``: each output against a reference picked with ``rng``.
    """
    out: list[TextPair] = []
    groups = list(groups)
    for pairing in pairings:
        if pairing not in PAIRINGS:
            raise InputError(f"unknown pairing {pairing!r}; choose from {', '.join(PAIRINGS)}")
        for group_id, refs, outputs in groups:
            if not refs:
                continue
            if pairing == "system":
                out += [TextPair(oid, rng.choice(refs), text) for oid, text in outputs if text.strip()]
            elif pairing == "self":
                out += [TextPair(f"{group_id}-r{j}", ref, ref) for j, ref in enumerate(refs)]
            elif len(refs) >= 2:
                out += [TextPair(f"{group_id}-r{j}", rng.choice(refs[:j] + refs[j + 1:]), original)
                        for j, original in enumerate(refs)]
    return out


def shuffled(pairs: list[TextPair], rng: random.Random) -> list[TextPair]:
    rng.shuffle(pairs)
    return pairs


def dialogue_pairs(seed: int, datasets: Iterable[str] = NOVIKOVA_DATASETS,
                   pairings: Iterable[str] = ("paraphrase",)) -> list[TextPair]:
    """Novikova et al. (2017) MRs as groups; SFREST contributes only the held-out side of the data
    layer's split (:func:`rome.data.novikova.sfrest_part`)."""
    rng = random.Random(seed)
    groups: dict[tuple[str, str], tuple[str, list[str], list[tuple[str, str]]]] = {}
    for dataset in datasets:
        for row in load_rows(dataset, part="heldout" if dataset == "sfrest" else None):
            key = (dataset, row["mr"])
            if key not in groups:
                groups[key] = (row["id"], [r for r in dict.fromkeys(row["references"]) if r.strip()], [])
            groups[key][2].append((row["id"], row["hypothesis"]))
    return shuffled(without_learned_texts(paired(groups.values(), pairings, rng)), rng)


@functools.lru_cache(maxsize=1)
def _news_rows() -> tuple[tuple[str, str, str], ...]:
    """(id, English reference, machine translation) per DEMETR item: the pair most files agree on
    (a few items differ in spacing between files), never a perturbed sentence."""
    votes: dict[str, Counter] = {}
    for path in demetr_files():
        try:
            items = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise InputError(f"{path}: cannot read DEMETR file ({exc})") from None
        for item in items if isinstance(items, list) else []:
            ref, mt = item.get("eng_sent"), item.get("mt_sent")
            if isinstance(ref, str) and isinstance(mt, str) and ref.strip() and mt.strip():
                votes.setdefault(str(item.get("id")), Counter())[(ref.strip(), mt.strip())] += 1
    return tuple((item_id, *counts.most_common(1)[0][0]) for item_id, counts in votes.items())


def news_pairs(seed: int) -> list[TextPair]:
    rows = [TextPair(f"news-{item_id}", ref, mt) for item_id, ref, mt in _news_rows() if ref != mt]
    return shuffled(without_learned_texts(rows), random.Random(seed))


def webnlg_pairs(seed: int, pairings: Iterable[str] = ("paraphrase", "system")) -> list[TextPair]:
    rng = random.Random(seed)
    groups: dict[str, tuple[str, list[str], list[tuple[str, str]]]] = {}
    for row in load_webnlg2020():
        group_id = f"webnlg-{row.instance_id}"
        if group_id not in groups:
            groups[group_id] = (group_id, list(dict.fromkeys(r.strip() for r in row.references)), [])
        groups[group_id][2].append((row.id, row.hypothesis))
    return shuffled(without_learned_texts(paired(groups.values(), pairings, rng)), rng)


CORPORA: dict[str, Corpus] = {
    "dialogue": Corpus(
        "dialogue", "restaurant and hotel dialogue",
        "Novikova et al. 2017 (BAGEL, SFHOTEL, SFREST held-out side): a reference against another of the same MR",
        lambda seed: dialogue_pairs(seed, pairings=("paraphrase", "system")),
        lambda: [Path(novikova_path(d)) for d in NOVIKOVA_DATASETS]),
    "news": Corpus(
        "news", "news and encyclopedic text (WMT, FLORES sources)",
        "DEMETR (Karpinska et al. 2022): the human translation against the edited MT of the same source",
        news_pairs, demetr_files),
    "webnlg": Corpus(
        "webnlg", "data-to-text over DBpedia domains",
        "WebNLG+ 2020 (Castro Ferreira et al. 2020): references of one input against each other, and the systems' outputs",
        webnlg_pairs, lambda: [webnlg_dir() / GENERATED]),
}


def corpus(name: str) -> Corpus:
    if name not in CORPORA:
        raise InputError(f"unknown corpus {name!r}; shipped corpora: {', '.join(CORPORA)} (or give a JSONL file)")
    return CORPORA[name]


def jsonl_pairs(path: str | Path, seed: int) -> list[TextPair]:
    """A user's JSONL: ``{"id"?, "reference", "original"}`` per line, shuffled with ``seed``.

    Ids must be unique (a line without one gets ``line-N``); a pair holding a text a learned part
    of RoMe trained on is dropped like in the shipped corpora."""
    rows: list[TextPair] = []
    seen: dict[str, int] = {}
    for number, obj in read_jsonl(Path(path)):
        where = f"{path}:{number}"
        for key in ("reference", "original"):
            if not isinstance(obj.get(key), str) or not obj[key].strip():
                raise InputError(f"{where}: {key!r} must be a non-empty string")
        if "id" in obj and (not isinstance(obj["id"], str | int) or isinstance(obj["id"], bool) or str(obj["id"]) == ""):
            raise InputError(f"{where}: 'id' must be a non-empty string or an integer")
        text_id = str(obj["id"]) if "id" in obj else f"line-{number}"
        if text_id in seen:
            raise InputError(f"{where}: id {text_id!r} already used on line {seen[text_id]}; ids must be unique")
        seen[text_id] = number
        rows.append(TextPair(text_id, obj["reference"], obj["original"]))
    if not rows:
        raise InputError(f"{path}: no pairs (each line needs 'reference' and 'original')")
    return shuffled(without_learned_texts(rows), random.Random(seed))
