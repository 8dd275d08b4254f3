"""Novikova et al. (2017)'s word-based metrics (baselines/novikova.py) against their released scores.

``emnlp_data_medians.csv`` holds the authors' own per-output BLEU-1..4, ROUGE_L and CIDEr (the
MS-COCO caption toolkit's). The shared data's references are not exactly the authors' for every
output (docs/baselines.md, "Novikova et al. 2017's metrics"): the exact check is therefore made
where the references must be the same, i.e. where all four BLEU columns agree, and ROUGE-L,
which the BLEU columns do not determine, must then agree too.
"""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest

from baselines.novikova import CocoBLEU, CocoCIDEr, CocoROUGEL, coco_tokens
from rome.core.paths import data_path
from rome.core.registry import build_metric, expand_metric_names

TOLERANCE = 1e-4  # the CSV prints 9 significant digits; the toolkit's own rounding is far below this


@pytest.fixture(scope="module")
def released():
    with data_path("novikova2017", "emnlp_data_medians.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    items = []
    for name in ("bagel", "sfhotel", "sfrest"):
        items += [json.loads(line) for line in data_path("novikova2017", f"{name}.jsonl").open()]
    assert [coco_tokens(r["sys_ref"]) for r in rows[:3]] == [coco_tokens(i["hypothesis"]) for i in items[:3]]
    return rows, [i["hypothesis"] for i in items], [i["references"] for i in items]


def _column(rows, name: str) -> np.ndarray:
    return np.array([float(r[name]) for r in rows])


@pytest.mark.slow
def test_rouge_l_equals_the_csv_wherever_the_bleu_columns_show_the_same_references(released):
    rows, hyps, refs = released
    same_refs = np.ones(len(rows), dtype=bool)
    for n in range(1, 5):
        same_refs &= np.abs(CocoBLEU(n).score(hyps, refs) - _column(rows, f"Bleu_{n}")) <= TOLERANCE
    assert same_refs.sum() >= 950  # measured: 965 of 2,460 (BAGEL 78 %)
    rouge = np.abs(CocoROUGEL().score(hyps, refs) - _column(rows, "ROUGE_L")) <= TOLERANCE
    assert rouge[same_refs].mean() >= 0.95  # measured: 927 of 965 (96.1 %)


@pytest.mark.slow
def test_where_the_csv_differs_its_references_were_fewer(released):
    rows, hyps, refs = released
    diff = CocoBLEU(1).score(hyps, refs) - _column(rows, "Bleu_1")
    off = np.abs(diff) > TOLERANCE
    assert (diff[off] > 0).mean() >= 0.95  # measured 1,347 of 1,369: ours higher (more references)


def test_cider_is_the_toolkit_s_and_a_prepared_corpus_scores_the_same_in_chunks(released):
    from pycocoevalcap.cider.cider import Cider

    _, hyps, refs = released
    hyps, refs = hyps[:120], refs[:120]
    gts = {i: [coco_tokens(r) for r in group] for i, group in enumerate(refs)}
    res = {i: [coco_tokens(h)] for i, h in enumerate(hyps)}
    _, package = Cider().compute_score(gts, res)
    whole = CocoCIDEr().score(hyps, refs)
    np.testing.assert_allclose(whole, package, rtol=0, atol=1e-12)
    prepared = CocoCIDEr()
    prepared.prepare(hyps, refs)
    chunks = np.concatenate([prepared.score(hyps[i : i + 25], refs[i : i + 25]) for i in range(0, 120, 25)])
    np.testing.assert_allclose(chunks, package, rtol=0, atol=1e-12)
    assert not np.allclose(CocoCIDEr().score(hyps[:25], refs[:25]), package[:25])  # idf is the corpus's


def test_toolkit_tokens_drop_punctuation_and_lower_case():
    assert coco_tokens("Hotel majestic , phone number is 4154411100 .") == "hotel majestic phone number is 4154411100"
    assert coco_tokens("I'm near X.") == "i 'm near x"


def test_named_group_left_out_of_all_and_scores_in_range():
    names = [f"novikova/{m}" for m in ("bleu1", "bleu2", "bleu3", "bleu4", "rouge_l", "cider", "nist")]
    assert not set(names) & set(expand_metric_names(["all"]))
    hyps = ["the hotel is cheap"] * 2
    refs = [["the hotel is cheap", "a cheap hotel is here"], ["a dog barked loudly", "the cat sat"]]
    # two pairs: CIDEr's idf is zero on a one-text corpus; two references each: nltk's sentence NIST
    # weighs n-grams by their counts in the sentence's own references, zero for a lone reference
    for name in names:
        same, other = build_metric(name).score(hyps, refs)
        assert same > other >= 0.0, name
        assert build_metric(name).score(["", "the hotel"], refs)[0] == 0.0
