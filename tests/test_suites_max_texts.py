"""A suite's bound on texts tried (``max_texts``): the sample stops there, says so, and a walk that stopped
short of its sample size serves a larger one from the cache (a card's draw reuses a suite's walk)."""

from __future__ import annotations

import pytest

from rome.core.cache import ScoreCache
from rome.core.errors import InputError
from suites.harness import CorpusSource, Invariant, Perturb, Suite
from suites.harness.cases import build_cases


def suite(**options) -> Suite:
    return Suite(name="bounded", data=CorpusSource("dialogue"), perturbation=Perturb("typos"),
                 checks=[Invariant()], seed=3, **options)


def test_the_walk_stops_at_max_texts_and_says_so():
    cases, stats = build_cases(suite(max_texts=7), 200)
    assert stats.texts_tried == 7 and len(cases) <= 7
    assert stats.as_dict()["stopped_at_max_texts"] == 7
    unbounded, again = build_cases(suite(), 5)
    assert again.stopped_at_max_texts is None and len(unbounded) == 5


def test_a_short_walk_serves_a_larger_sample_from_the_cache(tmp_path):
    cache = ScoreCache(tmp_path / "cache.sqlite")
    bounded = suite(max_texts=7)
    first, stats = build_cases(bounded, 200, cache=cache)
    assert not stats.from_cache
    again, stats = build_cases(bounded, 60, cache=cache)  # 60 > the 7 cases the walk found: the same walk
    assert stats.from_cache and again == first and stats.texts_tried == 7
    fewer, stats = build_cases(bounded, 3, cache=cache)  # fewer than it found: a walk of its own
    assert not stats.from_cache and fewer == first[:3]


@pytest.mark.parametrize("value", [0, -1, 1.5, True])
def test_max_texts_must_be_a_whole_number(value):
    with pytest.raises(InputError, match="max_texts"):
        suite(max_texts=value)


def test_rome_suite_takes_max_texts(tmp_path, capsys):
    from reports.cli import main

    out = tmp_path / "out"
    code = main(["suite", "contractions", "--data", "news", "--n", "200", "--max-texts", "60", "--metric", "chrf",
                 "--out", str(out), "--no-cache"])
    assert code in (0, 1, 3)
    if code != 3:
        assert "bound of 60 texts tried" in (out / "summary.md").read_text(encoding="utf-8")
    assert main(["suite", "contractions", "--max-texts", "0"]) == 2
    assert "--max-texts must be at least 1" in capsys.readouterr().err
