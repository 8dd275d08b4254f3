"""scripts/research/rome_triples.py: the sanity set is well formed and a lower-is-better metric is read the right way."""

from __future__ import annotations

import re

import pytest
from research_scripts import load_script


@pytest.fixture(scope="module")
def triples():
    return load_script("rome_triples")


def test_thirty_distinct_triples_of_three_different_texts(triples):
    assert len(triples.TRIPLES) == 30 and len({t[0] for t in triples.TRIPLES}) == 30
    assert all(len(set(t)) == 3 and all(s.strip() for s in t) for t in triples.TRIPLES)


def test_ter_counts_a_lower_score_as_better(triples, capsys):
    from rome.core.registry import build_metric

    refs = [t[0] for t in triples.TRIPLES]
    ter = build_metric("ter")
    kept = ter.score([t[1] for t in triples.TRIPLES], refs)
    changed = ter.score([t[2] for t in triples.TRIPLES], refs)
    expected = sum(k < c for k, c in zip(kept, changed))
    assert expected != sum(k > c for k, c in zip(kept, changed))  # the direction matters here
    assert triples.main(["ter"]) == 0
    right = int(re.search(r"(\d+)/30", capsys.readouterr().out).group(1))
    assert right == expected
