"""RoMe's steps one by one, on the real encoder and parser: pooling, weights, alignment, EMD, TED-SE."""

from __future__ import annotations

import random

import numpy as np
import pytest
from require_extras import import_or_missing

from rome.core.encoder import get_encoder
from rome.core.parsing import get_parser
from rome.metric.semantic import (
    IdfTable,
    alignment_scores,
    distance_matrix,
    emd,
    hard_alignment,
    relative_position,
    semantic_similarity,
    tfidf_weights,
)
from rome.metric.tree_edit import active_tree, node_equality, ted_similarity, tree_edit_distance
from rome.metric.words import Words, analyse, pool_pieces


@pytest.fixture(scope="module")
def words():
    texts = [
        "Elon Musk has founded Tesla Motors unbelievably.",
        "Tesla motors is founded by Elon Musk.",
        "Elon elon elon elon elon founded tesla tesla tesla.",
        "Elon musk has founded tesla motors.",
        "The film was great.",
        "The movie was great.",
        "It rained. The streets were wet.",
        "Tesla Motors has founded Elon Musk.",
        "Elon Musk has founded Tesla Motors.",
    ]
    return analyse(texts, get_encoder(), get_parser())


def test_pool_pieces_means_the_pieces_of_each_span():
    offsets = [(0, 0), (0, 2), (2, 4), (5, 8), (0, 0)]
    vectors = np.arange(10, dtype=np.float32).reshape(5, 2)
    pooled = pool_pieces(offsets, vectors, [(0, 4), (5, 8)])
    np.testing.assert_allclose(pooled, [[3.0, 4.0], [6.0, 7.0]])


def test_a_word_split_into_pieces_gets_the_mean_of_its_pieces(words):
    text = "Elon Musk has founded Tesla Motors unbelievably."
    emb = get_encoder().encode([text])[0]
    pieces = [k for k, (s, e) in enumerate(emb.offsets) if e > s and s >= text.index("unbelievably")]
    pieces = [k for k in pieces if emb.offsets[k][1] <= text.index(".")]
    assert len(pieces) > 1  # the word really splits (un ##bel ##ie ##va ##bly)
    w = words[text]
    assert w.words[-1] == "unbelievably"  # punctuation is not a word
    np.testing.assert_allclose(w.vectors[-1], emb.vectors[pieces].mean(axis=0), rtol=1e-5, atol=1e-6)
    # the word after a split is not shifted onto a piece of the previous word
    assert w.words.index("Tesla") == 4
    assert len(w) == 7 and w.heads.count(-1) == 1


def test_tfidf_weights_are_a_distribution_and_repeats_share_their_term():
    idf = IdfTable([["tesla", "tesla", "founded"], ["elon", "founded"]])
    weights = tfidf_weights(["tesla", "tesla", "founded"], idf)
    assert weights.sum() == pytest.approx(1.0)
    assert weights[0] == weights[1]
    assert idf["founded"] == pytest.approx(1.0) and idf["tesla"] > idf["founded"]


def test_general_idf_weighs_function_words_low_and_rare_words_high():
    general = IdfTable.general()
    assert general.n_docs > 100_000
    assert general["the"] < general["by"] < general["restaurant"] < general["4157758160"]
    weights = tfidf_weights(["internet", "is", "provided", "by", "the", "inn"], general)
    assert weights[0] > 2 * weights[3] and weights[5] > 2 * weights[4]


def test_an_added_or_missing_word_costs_and_a_repeated_word_is_not_free(words):
    ref, hyp = words["Elon musk has founded tesla motors."], words["Elon Musk has founded Tesla Motors unbelievably."]
    assert semantic_similarity(ref, hyp).f_sem < 0.99 and semantic_similarity(hyp, ref).f_sem < 0.99
    repeated = words["Elon elon elon elon elon founded tesla tesla tesla."]
    assert semantic_similarity(ref, repeated).f_sem < semantic_similarity(ref, hyp).f_sem - 0.2


def test_relative_position_matches_figure_3():
    # founded is word 3 of 7 in the reference and word 2 of 5 in the hypothesis: 1/35
    assert relative_position(7, 5)[3, 2] == pytest.approx(1 / 35)
    assert alignment_scores(np.ones((7, 5)))[3, 2] == pytest.approx(0.971, abs=1e-3)


def test_hard_constraint_aligns_each_word_at_most_once(words):
    ref, hyp = words["Elon musk has founded tesla motors."], words["Elon elon elon elon elon founded tesla tesla tesla."]
    cos = ref.unit @ hyp.unit.T
    mask = hard_alignment(alignment_scores(cos))
    assert mask.sum(axis=0).max() == 1 and mask.sum(axis=1).max() == 1
    d = distance_matrix(cos, "soft")
    elon_cols = [j for j, w in enumerate(hyp.words) if w.lower() == "elon"]
    assert (d[:, elon_cols] < 1).sum() <= 1  # five "elon"s, at most one transported cheaply


def test_emd_is_the_partial_transport_of_equation_2():
    rng = np.random.default_rng(0)
    for _ in range(20):
        m, n = rng.random(5), rng.random(4)
        d = np.ones((5, 4))
        rows, cols = rng.permutation(5)[:3], rng.permutation(4)[:3]
        d[rows, cols] = rng.random(3)
        mass = min(m.sum(), n.sum())
        # with one-to-one cheap pairs, the optimum ships min(m_i, n_j) over each of them
        saved = sum((1 - d[i, j]) * min(m[i], n[j]) for i, j in zip(rows, cols))
        assert emd(m, n, d) == pytest.approx(1 - saved / mass, abs=1e-9)


def test_identical_sentence_scores_one_in_every_mode(words):
    w = words["Tesla motors is founded by Elon Musk."]
    for mode in ("std", "align", "soft"):
        assert semantic_similarity(w, w, mode).f_sem == pytest.approx(1.0, abs=1e-6)
    assert ted_similarity(w, w) == 1.0 and tree_edit_distance(w, w) == 0.0


def test_soft_penalty_helps_the_passive_form(words):
    ref, hyp = words["Tesla motors is founded by Elon Musk."], words["Elon Musk has founded Tesla Motors unbelievably."]
    assert semantic_similarity(ref, hyp, "soft").f_sem > semantic_similarity(ref, hyp, "align").f_sem


def test_delta_is_used(words):
    ref, hyp = words["The film was great."], words["The movie was great."]
    assert semantic_similarity(ref, hyp, "soft", delta=0.99).f_sem < semantic_similarity(ref, hyp, "soft").f_sem


def test_ted_se_theta_lets_synonyms_match(words):
    ref, hyp = words["The film was great."], words["The movie was great."]
    equal = node_equality(ref, hyp, 0.65)
    assert equal[ref.lemmas.index("film"), hyp.lemmas.index("movie")]
    assert tree_edit_distance(ref, hyp, theta=0.65) == 0.0
    assert tree_edit_distance(ref, hyp, theta=1.01) == 1.0  # only lemma equality: one change


def test_ted_se_of_different_trees(words):
    ref, hyp = words["Tesla motors is founded by Elon Musk."], words["Elon elon elon elon elon founded tesla tesla tesla."]
    assert 0.0 < ted_similarity(ref, hyp) < ted_similarity(ref, ref) == 1.0
    several = words["It rained. The streets were wet."]  # two parser roots under one w_0
    assert 0.0 <= ted_similarity(several, ref) < 1.0


def test_ted_se_compares_a_passive_as_its_active_but_sees_swapped_roles(words):
    active, passive = words["Elon Musk has founded Tesla Motors."], words["Tesla motors is founded by Elon Musk."]
    swapped = words["Tesla Motors has founded Elon Musk."]
    # is / by leave the tree, Elon Musk takes the subject's place: one node apart (has)
    assert tree_edit_distance(active, passive) == 1.0
    assert ted_similarity(active, passive) > 0.9
    assert ted_similarity(active, swapped) < 0.7  # who founded what still counts


def test_active_tree_with_universal_dependencies_labels():
    """Stanza's labels: nsubj:pass, aux:pass, obl:agent with its *by* as a case child."""
    #        0 Dogs   1 are   2 allowed  3 by   4 the  5 inn
    heads = (2, 2, -1, 5, 5, 2)
    deps = ("nsubj:pass", "aux:pass", "root", "case", "det", "obl:agent")
    lemmas = ("dog", "be", "allow", "by", "the", "inn")
    vectors = np.eye(6, dtype=np.float32)
    tree, keys = active_tree(Words("x", lemmas, lemmas, heads, vectors, vectors, deps))
    assert tree == {0: 2, 2: -1, 4: 5, 5: 2}  # are and by gone
    assert sorted([0, 5], key=keys.__getitem__) == [5, 0]  # the agent first, then the object
    plain, _ = active_tree(Words("x", lemmas, lemmas, heads, vectors, vectors))  # no labels: as parsed
    assert plain == dict(enumerate(heads))


def _random_words(rng: random.Random, n: int) -> Words:
    heads = [-1 if i == 0 or rng.random() < 0.1 else rng.randrange(i) for i in range(n)]
    lemmas = tuple(rng.choice("abcde") for _ in range(n))
    vectors = np.eye(5, dtype=np.float32)[["abcde".index(x) for x in lemmas]]
    return Words("x", lemmas, lemmas, tuple(heads), vectors, vectors)


def test_zhang_shasha_equals_the_zss_package():
    zss = import_or_missing("zss", "the tree-edit oracle needs zss (pip install zss==1.2.0)")
    rng = random.Random(0)

    def as_zss(w: Words):
        nodes = {-1: zss.Node("ROOT"), **{i: zss.Node(lemma) for i, lemma in enumerate(w.lemmas)}}
        for i, head in enumerate(w.heads):
            nodes[head].addkid(nodes[i])
        return nodes[-1]

    for _ in range(150):
        a, b = _random_words(rng, rng.randint(1, 10)), _random_words(rng, rng.randint(1, 10))
        expected = zss.simple_distance(as_zss(a), as_zss(b), label_dist=lambda x, y: int(x != y))
        assert tree_edit_distance(a, b) == expected


def test_rome_parses_without_entities_and_gets_the_same_trees():
    """RoMe's parser skips spaCy's entity recogniser (half the parse time); nothing it reads changes."""
    from rome.metric import RoMe

    texts = ["Elon Musk has founded Tesla Motors in California.", "The Eagle serves cheap food near Burger King."]
    plain, with_entities = RoMe(variant="ted").parser, get_parser()
    assert plain is not with_entities and "ner" not in plain.nlp.pipe_names
    assert plain.name == with_entities.name  # same parses, so the same signature
    for a, b in zip(plain.parse(texts), with_entities.parse(texts)):
        assert [(t.text, t.lemma, t.pos, t.dep, t.head) for t in a.tokens] == \
               [(t.text, t.lemma, t.pos, t.dep, t.head) for t in b.tokens]
        assert not a.entities and b.entities
