"""Cards of the older format, converted by ``scripts/research/convert_cards.py``, count as they always did."""

from __future__ import annotations

from research_scripts import load_script

from reports.validity import CURRENT, Draw, load_card, match_card, write_card
from suites.harness.spec import load_suite


def test_an_old_format_card_converts_to_the_draw_it_came_from(tmp_path):
    """Old lines (a ``fingerprint``, no draw size): their size is their count per (suite, seed), and after
    the conversion the card is current with every line counted."""
    suite = load_suite("repetition").configured(data="dialogue")
    drawn = match_card(suite, [tmp_path / "none"], [Draw("repetition", 2026, 20, False)], cache=None).unjudged(suite)
    old = [{**{k: v for k, v in line.items() if k not in ("n", "per_expectation", "rubric")}, "label": "intended",
            "fingerprint": "{}|src:0123456789abcdef"} for line in drawn]
    path = write_card(old, tmp_path / "cards" / "dialogue" / "repetition.jsonl")
    assert load_script("convert_cards").main([str(path), "--out", str(tmp_path / "converted")]) == 0
    lines = load_card(tmp_path / "converted" / "dialogue" / "repetition.jsonl")
    assert all(line["n"] == 20 and line["rubric"] == 1 and "fingerprint" not in line for line in lines)
    status = match_card(suite, [tmp_path / "converted"], cache=None).statuses["decrease"]
    assert (status.state, status.n, status.to_judge) == (CURRENT, 20, 0)
