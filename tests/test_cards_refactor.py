"""Cards are judged text (issue "judged verdicts"): a refactor that keeps a perturbation's variants changes no card.

The edit is an unused private function added to ``perturbations/contractions/__init__.py`` and
``perturbations/random_word/__init__.py``, made to what the fingerprint reads of those modules
(:func:`rome.core.fingerprint.read_source`, replaced in memory): nothing committed is modified, the
perturbations' fingerprints change (so the case cache misses and every card is drawn again by the code
that runs), and ``rome validity`` must print the same table with nothing left to judge. Cards keyed by
that fingerprint, as before, all went STALE on this edit.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reports.cli import main
from rome.core import fingerprint

ROOT = Path(__file__).resolve().parents[1]
EDITED = {ROOT / "perturbations" / "contractions" / "__init__.py", ROOT / "perturbations" / "random_word" / "__init__.py"}
UNUSED = "\n\ndef _unused_helper_added_by_a_refactor(value):\n    return value\n"
#: the committed dialogue cards the fast test takes its texts and judgements from, and how many of each
FROM_CARDS = {"contractions": 3, "random_word": 3}


def _add_unused_functions(monkeypatch) -> None:
    real_read = fingerprint.read_source

    def read(path: Path) -> bytes:
        source = real_read(path)
        return source + UNUSED.encode() if Path(path).resolve() in EDITED else source

    monkeypatch.setattr(fingerprint, "read_source", read)
    for memo in ("_memo", "_source_memo", "_parse_memo"):
        monkeypatch.setattr(fingerprint, memo, {})


def _fingerprints() -> dict[str, str]:
    from perturbations.registry import build_perturbation
    from suites.harness.spec import perturbation_fingerprint

    return {kind: perturbation_fingerprint(build_perturbation(kind)) for kind in FROM_CARDS}


def _validity(capsys, args: list[str]) -> str:
    assert main(["validity", *args]) == 0
    return capsys.readouterr().out


@pytest.mark.slow
def test_an_unused_function_in_two_perturbations_changes_no_card(tmp_path, capsys, monkeypatch):
    """A corpus of a few texts of the committed dialogue cards, with their judged lines as cards: the same
    ``rome validity`` output before and after the edit, every line judged, though the fingerprints moved."""
    cards = tmp_path / "cards"
    data = []
    for card, count in FROM_CARDS.items():
        lines = [json.loads(x) for x in (ROOT / "perturbations" / "cards" / "dialogue" / f"{card}.jsonl").read_text(
            encoding="utf-8").splitlines()][:count]
        corpus = tmp_path / f"{card}_texts.jsonl"
        corpus.write_text("".join(json.dumps({"id": x["source_id"], "reference": x["text"], "original": x["text"]})
                                  + "\n" for x in lines), encoding="utf-8")
        (cards / corpus.stem).mkdir(parents=True)
        # the committed judgements, drawn from this corpus (every text it has: more asked for than there are)
        (cards / corpus.stem / f"{card}.jsonl").write_text("".join(
            json.dumps({**x, "corpus": corpus.stem, "n": 2 * count}) + "\n" for x in lines), encoding="utf-8")
        data += ["--data", str(corpus)]
    args = ["--cards", str(cards), *data, "--suite", "contractions", "--suite", "random_word"]
    before, prints = _validity(capsys, args), _fingerprints()
    judged = [row for row in before.splitlines() if "| current |" in row or "current, every variant" in row]
    assert len(judged) == 2 and "STALE" not in before and all("| 0 |" in row for row in judged), before
    _add_unused_functions(monkeypatch)
    after = _fingerprints()
    assert all(after[kind] != prints[kind] for kind in FROM_CARDS)  # the code changed: cached cases miss
    assert _validity(capsys, args) == before
