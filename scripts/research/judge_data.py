"""The judge's development data: every labelled (original, variant) pair it may be fitted on.

* **SWORDS development split** (``scripts/research/data/swords/``, CC-BY-3.0-US; not shipped in the
  package, only the trainer reads it): one-word substitutions judged by 3-10 raters; a substitute is
  *acceptable* when at least half said TRUE. Kept: candidates that are WordNet synonyms of the target in
  any sense (what TextFooler and the adjective swaps propose), single words, targets used in their base
  form (the substitutes are lemmas), the target's sentence cut out of its passage. The SWORDS test split is
  never read.
* **The project's development-half labels**: TextFooler and adjective-synonym candidates labelled by the
  developer (``context_labels.jsonl``), the passive's development lines
  (``tests/fixtures/passive_dev_labels.jsonl``, read blind by two readers: valid when both say so; the
  developer's own labels, kept beside them, called a fifth of the readers' rejections valid), and the development halves of the judged cards
  (:func:`perturbations.halves.development_half`; valid when the card's reader and, where there is one, its
  second reader say so).
  Never a test half, never WMT 2021.

A maintainer's module, read from a checkout: the installed package never reads it.
"""

from __future__ import annotations

import gzip
import json
import re
from dataclasses import dataclass
from pathlib import Path

from perturbations.halves import development_half

RESEARCH = Path(__file__).resolve().parent
ROOT = RESEARCH.parents[1]
SWORDS = RESEARCH / "data" / "swords" / "swords-v1.1_dev.json.gz"
WN_POS = {"NOUN": "n", "VERB": "v", "ADJ": "a", "ADV": "r"}
CONTEXT_LABELS = RESEARCH / "context_labels.jsonl"
PASSIVE_LABELS = ROOT / "tests" / "fixtures" / "passive_dev_labels.jsonl"
PASSIVE_GOLD = ROOT / "tests" / "fixtures" / "passive_gold.jsonl"
CARDS = ROOT / "perturbations" / "cards"


@dataclass(frozen=True)
class LabelledPair:
    """One (original, variant) pair with a reader's verdict, and what a split must keep together."""

    source: str  # swords / labels / cards / gold
    group: str  # what a split keeps together (a SWORDS context, a text)
    kind: str  # textfooler / adjective / passive
    text: str
    variant: str
    valid: bool


def _sentence(passage: str, offset: int, target: str) -> tuple[str, int]:
    """The sentence of ``passage`` holding the target at ``offset``, whitespace collapsed, and the target's
    offset in it."""
    starts = [0] + [m.end() for m in re.finditer(r"[.!?][\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])", passage)]
    start = max(s for s in starts if s <= offset)
    ends = [m.end() for m in re.finditer(r"[.!?][\"')\]]*(?=\s|$)", passage) if m.end() > offset + len(target)]
    end = min(ends) if ends else len(passage)
    before, after = passage[start:offset], passage[offset + len(target):end]
    before = re.sub(r"\s+", " ", before).lstrip()
    after = re.sub(r"\s+", " ", after).rstrip()
    return before + target + after, len(before)


def swords(limit_words: int = 1) -> list[LabelledPair]:
    """The SWORDS development candidates the judge is fitted on (see the module docstring)."""
    from perturbations.language.senses import _synsets, wordnet

    wn = wordnet()
    with gzip.open(SWORDS, "rt", encoding="utf-8") as handle:
        data = json.load(handle)
    by_target: dict[str, list[tuple[str, bool]]] = {}
    for sid, sub in data["substitutes"].items():
        labels = data["substitute_labels"].get(sid) or []
        if not labels:
            continue
        valid = sum(x == "TRUE" for x in labels) * 2 >= len(labels)
        by_target.setdefault(sub["target_id"], []).append((sub["substitute"], valid))
    out = []
    for tid, subs in sorted(by_target.items()):
        target = data["targets"][tid]
        pos = WN_POS.get(target["pos"])
        word = target["target"]
        if pos is None or " " in word or wn.morphy(word.lower(), pos) != word.lower():
            continue
        synonyms = {lemma.name().lower().replace("_", " ") for s in _synsets(word.lower(), pos) for lemma in s.lemmas()}
        context = data["contexts"][target["context_id"]]["context"]
        around = context[max(0, target["offset"] - 1):target["offset"]] + context[target["offset"] + len(word):][:1]
        if re.search(r"[\w-]", around):  # part of a longer word ("high-performance"): no one-word swap
            continue
        text, at = _sentence(context, target["offset"], word)
        seen = set()
        for substitute, valid in subs:
            new = substitute.strip()
            if (len(new.split()) > limit_words or "-" in new or new.lower() == word.lower() or new.lower() not in synonyms
                    or new.lower() in seen):
                continue
            seen.add(new.lower())
            if word[:1].isupper() and not word.isupper():
                new = new[:1].upper() + new[1:]
            variant = text[:at] + new + text[at + len(word):]
            kind = "adjective" if pos == "a" else "textfooler"
            out.append(LabelledPair("swords", target["context_id"], kind, text, variant, valid))
    return out


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def context_labels() -> list[LabelledPair]:
    """The developer's TextFooler and adjective-synonym labels (development halves only)."""
    kinds = {"textfooler": "textfooler", "adjective-synonym": "adjective"}
    return [LabelledPair("labels", f"{r['corpus']}:{r['source_id']}", kinds[r["kind"]], r["text"], r["variant"],
                    r["label"] == "valid")
            for r in _jsonl(CONTEXT_LABELS) if r["kind"] in kinds and development_half(r["corpus"], r["source_id"])]


def cards(kinds: tuple[str, ...] = ("textfooler", "adjective", "passive")) -> list[LabelledPair]:
    """The meaning-kept lines of the judged cards' development halves (valid: every reader of the line says so)."""
    out = []
    for path in sorted(CARDS.glob("*/*.jsonl")):
        corpus, kind = path.parent.name, path.stem
        if kind not in kinds:
            continue
        second = path.parent / "second_reader" / path.name
        others = {(r["text"], r["variant"]): r["label"] for r in _jsonl(second)} if second.exists() else {}
        for r in _jsonl(path):
            if r.get("expectation") != "invariant" or not r.get("label") or not development_half(corpus, r["source_id"]):
                continue
            valid = r["label"] == "valid" and others.get((r["text"], r["variant"]), "valid") == "valid"
            out.append(LabelledPair("cards", f"{corpus}:{r['source_id']}", kind, r["text"], r["variant"], valid))
    return out


def passive() -> list[LabelledPair]:
    """The passive's development lines (valid: both blind readers say so).

    The gold set's expected passives (:func:`gold_passives`) are not fitted on: short textbook clauses, all
    valid by construction, they made the model's ``p_valid`` an estimate for textbook English and let its
    operating point, set where most lines are valid, accept what readers reject on real text. The gold set
    stays the recall check of the judged passive (tests/test_perturbations_passive_gold.py)."""
    return [LabelledPair("labels", f"{r['corpus']}:{r['source_id']}", "passive", r["text"], r["variant"],
                         all(reader["label"] == "valid" for reader in r["readers"]))
            for r in _jsonl(PASSIVE_LABELS) if development_half(r["corpus"], r["source_id"])]


def gold_passives() -> list[LabelledPair]:
    """The gold set's first expected passive of each sentence that has one (valid by construction)."""
    return [LabelledPair("gold", f"gold:{r['text']}", "passive", r["text"], r["expected"][0], True)
            for r in _jsonl(PASSIVE_GOLD) if r["expected"]]
