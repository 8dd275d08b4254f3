"""scripts/research/rome_dev.py's read-outs on a small hand-made development set (real suite checks)."""

from __future__ import annotations

import numpy as np
import pytest
from research_scripts import load_script


@pytest.fixture(scope="module")
def rome_dev():
    return load_script("rome_dev")


DATA = {
    # passive_form's invariance check, its tolerance read in the range unit: |variant - original| <= 0.1 passes
    "suites": {"passive_form": [("a", "invariant", "R", "o1", "v1"), ("b", "invariant", "R", "o2", "v2")]},
    # (id, category, severity, reference, good, bad); the base row is left out of the mean
    "demetr": [(1, "minor_x", "minor", "R", "g1", "b1"), (2, "minor_x", "minor", "R", "g2", "b2"),
               (1, "major_y", "major", "R", "g1", "b1"), (1, "base_z", "base", "R", "g1", "b1")],
    "train": [],
    "test": [("g1", "R", 1), ("b1", "R", 0), ("g2", "R", 1), ("b2", "R", 0)],
}
SCORES = {"o1": 0.9, "v1": 0.88, "o2": 0.9, "v2": 0.7, "g1": 0.8, "b1": 0.6, "g2": 0.5, "b2": 0.5}


def test_bench_reads_suites_demetr_and_auc(rome_dev):
    pairs = rome_dev.all_pairs(DATA)
    assert set(pairs) == {(h, "R") for h in SCORES}
    bench = rome_dev.Bench(DATA, pairs, np.array([SCORES[h] for h, _ in pairs]))
    assert bench.suite_rates() == {"passive_form:invariant": 0.5}
    # minor_x: 1 of 2 right (g2 ties b2: a tie is an error); major_y: 1 of 1 -> mean of categories 0.75
    assert bench.demetr() == pytest.approx(0.75)
    assert bench.demetr(parity=0) == pytest.approx(0.0)  # id 2 only
    assert bench.auc() == pytest.approx(0.625)  # 2 wins and a tie of 4 positive-negative pairs


def test_protocol_source_5_reads_only_the_valid_rows_per_corpus():
    """rome_protocol's source 5: source 2's checks on each corpus's cases, only the (corpus, suite,
    expectation) rows kept by the validity cards, keyed by corpus; the figure is the mean of the rows."""
    protocol = load_script("rome_protocol")
    # typos_in_word: 'noticed' (variant below original) and 'small_drop' (drop <= 0.1 in the range unit)
    cases = [("a", "decrease", "R", "o1", "v1"), ("b", "decrease", "R", "o2", "v2")]
    corpora = {"news": {"typos_in_word": cases}, "webnlg": {"typos_in_word": cases}}
    score = {("o1", "R"): 0.9, ("v1", "R"): 0.85, ("o2", "R"): 0.9, ("v2", "R"): 0.95}
    rows = {("news", "typos_in_word", "decrease")}
    out = {k: v for corpus, suites in corpora.items() for k, v in protocol.check_outcomes(
        suites, score, lambda s, e, corpus=corpus: (corpus, s, e) in rows, f"{corpus}/").items()}
    assert {k: v.tolist() for k, v in out.items()} == {"news/typos_in_word:noticed": [1.0, 0.0],
                                                        "news/typos_in_word:small_drop": [1.0, 1.0]}
    assert protocol.figure("corpora", out) == pytest.approx(0.75)
    # no row kept: every check is left out, not read as failed
    assert protocol.check_outcomes(corpora["news"], score, lambda s, e: False) == {}


def test_protocol_current_configuration_is_the_shipped_rome():
    """The bench's ``current`` features are the shipped RoMe's (F_sem, F_ted, F_g) and ``paper``'s are rome/paper's,
    so a candidate is judged against the code users run; a dropped candidate's name is refused."""
    from rome.metric import RoMe

    protocol = load_script("rome_protocol")
    pairs = [("The hotel is cheap.", "The hotel is inexpensive."), ("hotel the cheap is", "The hotel is cheap."),
             ("The keys are on the drawer.", "The keys are in the drawer.")]
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    out = protocol.compute(pairs, ["current", "paper"])
    np.testing.assert_allclose(out["current"], RoMe().features(hyps, refs), atol=1e-9)
    np.testing.assert_allclose(out["paper"], RoMe(variant="paper").features(hyps, refs), atol=1e-9)
    assert out["current"][0, 2] > out["current"][1, 2], "the scrambled hypothesis is less acceptable"
    with pytest.raises(SystemExit):
        protocol.main(["--store", "unused.pkl", "--candidate", "shared_layers"])
