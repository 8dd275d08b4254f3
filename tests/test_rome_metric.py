"""RoMe through the contract, the registry and the CLI, and the paper's qualitative cases (Tables 2, 3)."""

from __future__ import annotations

import numpy as np
import pytest

from rome.core.errors import InputError, ResourceMissingError
from rome.core.registry import available_metrics, build_metric
from rome.metric import RoMe
from rome.metric.scorer import load_scorer

PARAPHRASE = ("Munich is located at the southern part of Germany.", "Munich is situated in the south of Germany.")
PASSIVE = ("Tesla motors is founded by Elon Musk.", "Elon Musk has founded Tesla Motors.")
REPETITION = ("Elon musk has founded tesla motors.", "Elon elon elon elon elon founded tesla tesla tesla.")
UNRELATED = (
    "James Craig Watson, who died from peritonitis, discovered 101 Helena.",
    "The Polish Academy of Science is regionserved.",
)
CASES = [PARAPHRASE, PASSIVE, REPETITION, UNRELATED]


@pytest.fixture(scope="module")
def scores():
    """Every metric compared, built here: RoMe's grammar classifier, BERTScore and MoverScore ship with the
    package, so one that cannot be built is a broken install and fails the tests that need it (never a skip)."""
    refs, hyps = [c[0] for c in CASES], [c[1] for c in CASES]
    return {name: build_metric(name).score(hyps, refs) for name in ("rome/ted", "rome/soft", "bertscore", "moverscore", "rome")}


@pytest.mark.parametrize("name", ["rome/ted", "rome"])
def test_paraphrase_and_passive_score_above_repetition_and_unrelated(scores, name):
    """Tables 2 and 3 of the paper as orderings: a paraphrase and a passive rewrite above a repetition and an
    unrelated text (how far above is a measurement, docs/rome.md)."""
    para, passive, rep, unrelated = scores[name]
    assert min(para, passive) > max(rep, unrelated)


def test_rome_is_lower_than_bertscore_on_repetition(scores):
    """Table 3: BERTScore rates the repetitive text high, RoMe low (MiniLM, no baseline rescaling)."""
    assert scores["rome/ted"][2] < scores["bertscore"][2]
    assert scores["rome"][2] < scores["bertscore"][2]


def test_rome_separates_bad_cases_from_paraphrase_more_than_the_baselines(scores):
    """Scales differ (MoverScore goes negative), so compare each metric with its own paraphrase score.

    The full RoMe (its grammar feature is what catches repetition): ``rome/ted`` alone is level
    with MoverScore here (repetition / paraphrase 0.26 vs 0.26, docs/rome.md).
    """
    rome = scores["rome"]
    for name in ("bertscore", "moverscore"):
        other = scores[name]
        assert rome[2] / rome[0] < other[2] / other[0], name


def test_the_ablations_order_as_their_definitions_say():
    """From the definitions, pair by pair: the hard alignment and the soft penalty only raise transport distances
    (an aligned pair's ``1 - cos * factor`` with a factor <= 1, every other pair 1, against ``1 - cos``), so
    ``rome/align`` and ``rome/soft`` never score above ``rome/emd_std``, and the repetition, whose repeated words
    cannot all align, strictly below it; the scorers read ``rome/emd_std``'s F_sem and only subtract penalties,
    so ``rome/ted`` and ``rome`` never score above it either; a copy scores 1 without the grammar feature."""
    hyps, refs = [c[1] for c in CASES] + [c[0] for c in CASES], [c[0] for c in CASES] * 2
    plain = build_metric("rome/emd_std").score(hyps, refs)
    for name in ("rome/align", "rome/soft", "rome/ted", "rome"):
        other = build_metric(name).score(hyps, refs)
        assert ((other >= 0) & (other <= 1)).all() and (other <= plain + 1e-9).all(), name
        if name in ("rome/align", "rome/soft"):
            assert other[2] < plain[2], name
    for name in ("rome/emd_std", "rome/ted"):
        assert build_metric(name).score(refs[:4], refs[:4]).tolist() == pytest.approx([1.0] * 4, abs=1e-9)


def test_variants_are_registered_and_left_out_of_all():
    names = available_metrics()
    for variant in ("rome", "rome/emd_std", "rome/align", "rome/soft", "rome/ted", "rome/grammar"):
        assert variant in names
    assert "rome/ted" not in available_metrics(include_variants=False)
    metric = build_metric("rome/ted")
    assert metric.name == "rome/ted"
    sig = str(metric.signature())
    assert "theta:0.65" in sig and "delta:0.6" in sig and "scorer:ted:" in sig


def test_contract_edges():
    metric = RoMe(variant="ted")
    out = metric.score(["", PARAPHRASE[1]], [PARAPHRASE[0], [UNRELATED[0], PARAPHRASE[0]]])
    assert out[0] == 0.0
    assert out[1] == pytest.approx(metric.score_one(PARAPHRASE[1], PARAPHRASE[0]))
    assert metric.score_one("!!!", "A sentence.") >= 0.0  # punctuation only: no NaN


def test_components_and_explain():
    metric = RoMe(variant="ted")
    parts = metric.components(PASSIVE[1], PASSIVE[0])
    assert 0 < parts.f_sem < 1 and 0 < parts.f_ted < 1 and parts.f_g is None
    assert parts.score == pytest.approx(metric.score_one(PASSIVE[1], PASSIVE[0]))
    shown = metric.explain(PASSIVE[1], PASSIVE[0])
    assert list(shown) == ["rome/ted.F_sem (EMD)", "rome/ted.F_ted (TED-SE)", "rome/ted"]


def test_full_rome_says_when_the_grammar_classifier_is_missing(tmp_path):
    """Both branches every run (it used to test whichever one the install happened to take)."""
    absent = RoMe(grammar=str(tmp_path / "no_such_grammar.safetensors"))
    with pytest.raises(ResourceMissingError, match="grammar classifier"):
        absent.score([PARAPHRASE[1]], [PARAPHRASE[0]])
    parts = RoMe().components(PARAPHRASE[1], PARAPHRASE[0])
    assert parts.f_g is not None and 0.0 <= parts.f_g <= 1.0


def test_cli_prints_the_components(capsys):
    from reports.cli import main

    assert main(["score", "--hyp", REPETITION[1], "--ref", REPETITION[0], "--metric", "rome/ted"]) == 0
    out = capsys.readouterr().out
    assert "F_sem (EMD)" in out and "F_ted (TED-SE)" in out


def test_scorer_weights_are_monotone_in_each_feature():
    net = load_scorer("ted")
    grid = np.linspace(0, 1, 11)
    table = np.array([[net(np.array([[a, b]]))[0] for b in grid] for a in grid])
    assert ((table >= 0) & (table <= 1)).all()
    assert (np.diff(table, axis=0) >= -1e-9).all() and (np.diff(table, axis=1) >= -1e-9).all()
    assert net.meta["test"]["auc"] > 0.8


def test_idf_from_a_user_corpus_changes_the_weights_and_the_signature():
    corpus = ["Munich is a city.", "Germany is a country.", "The south of Germany is sunny."] * 3
    plain, fitted, pair = RoMe(variant="soft"), RoMe(variant="soft", idf_corpus=corpus), RoMe(variant="soft", idf="pair")
    assert "idf:corpus:9" in str(fitted.signature()) and "idf:wordnet" in str(plain.signature())
    assert "idf:pair" in str(pair.signature())
    a = plain.score_one(PARAPHRASE[1], PARAPHRASE[0])
    b = fitted.score_one(PARAPHRASE[1], PARAPHRASE[0])
    c = pair.score_one(PARAPHRASE[1], PARAPHRASE[0])
    assert 0 < b < 1 and a != pytest.approx(b) and a != pytest.approx(c)


def test_unknown_idf_is_a_clear_error():
    with pytest.raises(InputError, match="idf"):
        RoMe(idf="corpus")


def test_signature_is_the_same_before_and_after_the_grammar_classifier_loads():
    """The cache key of a pair must not depend on whether F_g was computed yet in this process."""
    metric = RoMe()
    before = str(metric.signature())
    metric.score([PARAPHRASE[1]], [PARAPHRASE[0]])
    assert str(metric.signature()) == before and "grammar:user:" not in before


def test_networks_read_the_plain_emd_and_training_families_are_recorded():
    assert RoMe().mode == "std" and RoMe(variant="ted").mode == "std" and RoMe(variant="soft").mode == "soft"
    ted = set(RoMe(variant="ted").trained_on_families())
    assert {"adjective", "entity", "random_word", "repetition"} <= ted  # the scorer's harness kinds
    assert "shuffle" in ted and "insert" not in ted  # a scorer negative; no grammar classifier here
    assert RoMe(variant="soft").trained_on_families() == []


def test_a_grammar_classifier_on_the_encoders_layer_reads_what_a_pass_of_its_own_gives():
    """Grammar weights trained with ``--layers k < 6`` start from the shared encoder's layer 6 - k: inside
    RoMe (whose encoder has the texts cached at its last layer) the classifier gives what it gives on a
    fresh encoder (to float noise). Untrained top layers: only the plumbing is under test, not the weights."""
    from rome.core.encoder import Encoder
    from rome.metric.grammar import GrammarClassifier, top_layers_from

    encoder = Encoder()
    hyps = ["  the hotel is cheap .", "It is near the park."]
    refs = ["The hotel is inexpensive.", "It is close to the park."]
    grammar = GrammarClassifier(top_layers_from(encoder.model, 3), 3, encoder=encoder)
    metric = RoMe(grammar=grammar)
    metric.encoder = encoder
    shared = metric.features(hyps, refs)[:, 2]
    alone = GrammarClassifier(grammar.module, 3, encoder=Encoder()).prob_acceptable(hyps)
    np.testing.assert_allclose(shared, alone, atol=1e-5)
