"""The data layer: the shared Novikova files, the WebNLG 2017 CSV format, user JSONL, MR-as-text, splits.

``tests/fixtures/webnlg2017_human_synthetic.csv`` is SYNTHETIC (invented texts and ratings in
the organisers' format); the real file is not shipped.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rome.core.errors import InputError
from rome.data import judged as datasets
from rome.data.novikova import load_rows, mr_as_text, references_by_mr, sfrest_part

FIXTURE = Path(__file__).parent / "fixtures" / "webnlg2017_human_synthetic.csv"


@pytest.mark.parametrize("name,size", [("bagel", 404), ("sfhotel", 875), ("sfrest", 1181)])
def test_novikova_datasets_load_with_their_criteria(name, size):
    data = datasets.load_dataset(name)
    assert len(data.items) == size
    assert data.criteria == ("informativeness", "naturalness", "quality")
    first = data.items[0]
    assert first.dataset == name and first.references and first.mr
    assert set(first.human) == set(data.criteria)
    assert 1 <= first.human["quality"] <= 6


def test_bagel_systems_are_tgen_and_lols():
    assert datasets.load_dataset("bagel").systems == ["Dusek", "LOLS"]


@pytest.mark.parametrize("mr,text", [
    ("inform(name='hotel drisco',pricerange=pricey)", "inform name hotel drisco pricerange pricey"),
    ("inform(name=none,area=citycentre,near='X')", "inform name none area citycentre near X"),
    ("select(accepts_credit_cards='yes or no')", "select accepts credit cards yes or no"),
    ("request(area)", "request area"),
    ("reqmore()", "reqmore"),
    ("?confirm(area='cathedral hill, north')", "confirm area cathedral hill, north"),
    ("inform_no_match(area=haight)", "inform no match area haight"),
    ("not a dialogue act", "not a dialogue act"),
])
def test_one_mr_to_text_rule(mr, text):
    assert mr_as_text(mr) == text


def test_triples_as_text():
    mr = "Alan_Bean | occupation | Test_pilot<br>Aarhus_Airport | cityServed | Aarhus"
    assert datasets.triples_as_text(mr) == "Alan Bean occupation Test pilot . Aarhus Airport city served Aarhus"


def test_webnlg_loader_separates_references_and_keeps_empty_outputs():
    data = datasets.load_dataset("webnlg2017", FIXTURE)
    assert data.criteria == ("fluency", "grammar", "semantics")
    assert "webnlg" not in data.systems and data.systems == ["ADAPT", "melbourne", "tilburg"]
    assert len(data.items) == 12  # 16 rows minus 4 reference rows
    empty = [it for it in data.items if not it.hypothesis]
    assert [it.id for it in empty] == ["4", "9"]  # the literal null and the empty text
    assert data.notes["empty or null system texts (scored as empty)"] == 2
    bean = next(it for it in data.items if it.id == "7")
    assert len(bean.references) == 2 and bean.human["fluency"] == pytest.approx(2.8)
    assert "city served" in datasets.item_mr_as_text(data.items[0])


def test_items_without_human_reference_are_counted_not_dropped_silently():
    data = datasets.load_webnlg2017(FIXTURE)
    kept, refs, left_out = datasets.with_references(data.items, "human")
    assert left_out == 3 and len(kept) == 9 and all(refs)
    kept, refs, left_out = datasets.with_references(data.items, "mr")
    assert left_out == 0 and len(kept) == 12


def test_webnlg_needs_a_path_and_the_right_columns(tmp_path):
    with pytest.raises(InputError, match="--path"):
        datasets.load_dataset("webnlg2017")
    bad = tmp_path / "x.csv"
    bad.write_text("id,mr,text\n1,a,b\n")
    with pytest.raises(InputError, match="missing column 'team'"):
        datasets.load_dataset("webnlg2017", bad)


def test_user_jsonl_in_both_score_layouts(tmp_path):
    path = tmp_path / "mine.jsonl"
    rows = [{"id": "a", "system": "s1", "hypothesis": "a cat", "references": ["the cat"], "human": {"adequacy": 3}},
            {"id": "b", "system": "s2", "hypothesis": "", "reference": "the dog", "human": {"adequacy": 1}}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    data = datasets.load_dataset(str(path))
    assert data.criteria == ("adequacy",) and data.items[1].references == ("the dog",)
    assert data.notes == {"empty hypotheses (scored as empty)": 1}


@pytest.mark.parametrize("line,message", [
    ({"id": 1, "hypothesis": "x", "references": ["y"]}, "no human scores"),
    ({"id": 1, "hypothesis": "x", "references": ["y"], "human": {"q": "high"}}, "must be a finite number"),
    ({"id": 1, "hypothesis": "x", "references": ["y"], "quality": "4.0"}, "bad.jsonl:1: rating 'quality' .*string"),
    ({"id": 1, "hypothesis": "x", "references": ["y"], "quality": "NaN"}, "bad.jsonl:1: rating 'quality' must be a finite"),
    ({"id": 1, "hypothesis": "x", "references": ["y"], "human": {"q": float("inf")}}, "bad.jsonl:1: Infinity is not a JSON number"),
    ({"id": 1, "references": ["y"], "human": {"q": 1}}, "'hypothesis'"),
])
def test_user_jsonl_errors_are_one_line(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(line) + "\n")
    with pytest.raises(InputError, match=message):
        datasets.load_dataset(str(path))


def test_unknown_dataset_name():
    with pytest.raises(InputError, match="unknown dataset"):
        datasets.load_dataset("nosuch")


def test_string_ratings_in_a_later_line_are_refused_before_scoring(tmp_path):
    """Defect: a criterion given as strings was silently dropped; now the loader names file, line, field."""
    path = tmp_path / "ratings.jsonl"
    rows = [{"id": i, "hypothesis": "x", "references": ["y"], "quality": 4.0, "fluency": 3.0} for i in range(3)]
    rows[2]["fluency"] = "3.0"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(InputError, match=r"ratings.jsonl:3: rating 'fluency'"):
        datasets.load_dataset(str(path))


def test_infinity_in_json_is_refused(tmp_path):
    path = tmp_path / "inf.jsonl"
    path.write_text('{"id": 1, "hypothesis": "x", "references": ["y"], "quality": Infinity}\n')
    with pytest.raises(InputError, match=r"inf.jsonl:1: Infinity is not a JSON number"):
        datasets.load_dataset(str(path))


def test_sfrest_is_split_once_by_mr_and_both_sides_are_used():
    rows = load_rows("sfrest")
    train, heldout = load_rows("sfrest", part="train"), load_rows("sfrest", part="heldout")
    assert len(train) + len(heldout) == len(rows)
    assert not {r["mr"] for r in train} & {r["mr"] for r in heldout}
    assert 0.35 < len(train) / len(rows) < 0.65
    assert all(sfrest_part(r["mr"]) == "train" for r in train)
    assert sfrest_part(" inform(name='x') ") == sfrest_part("inform(name='x')")
    with pytest.raises(InputError):
        load_rows("bagel", part="train")


def test_no_corpus_pair_holds_a_text_the_scorer_trained_on():
    """The leak is closed in the data layer, across datasets: 27 SFHOTEL references are word for word
    SFREST references, some on the scorer's training side; no corpus may hand one to a suite."""
    from rome.data.corpora import CORPORA, learned_texts, normalise
    from suites.harness.data import Novikova

    train = {normalise(ref) for refs in references_by_mr("sfrest", part="train").values() for ref in refs}
    assert train == learned_texts() and len(train) > 500
    sfhotel = {normalise(ref) for refs in references_by_mr("sfhotel").values() for ref in refs}
    assert sfhotel & train, "the cross-dataset overlap this test guards against exists in the data"
    sources = [corpus.pairs(0) for corpus in CORPORA.values()]
    sources.append(Novikova(pairing=("paraphrase", "system", "self")).pairs(0))
    for pairs in sources:
        assert pairs
        assert not [p for p in pairs if normalise(p.original) in train or normalise(p.reference) in train]


def test_a_user_corpus_drops_scorer_training_texts_and_refuses_duplicate_ids(tmp_path):
    from rome.data.corpora import jsonl_pairs, learned_texts

    leaked = sorted(learned_texts())[0]
    path = tmp_path / "mine.jsonl"
    path.write_text(json.dumps({"id": "a", "reference": "The hotel is cheap.", "original": "It is cheap."}) + "\n"
                    + json.dumps({"id": "b", "reference": leaked, "original": "Something else ."}) + "\n")
    assert [p.source_id for p in jsonl_pairs(path, 0)] == ["a"]
    path.write_text(path.read_text() + json.dumps({"id": "a", "reference": "x", "original": "y"}) + "\n")
    with pytest.raises(InputError, match=":3: id 'a' already used on line 1"):
        jsonl_pairs(path, 0)


def test_the_sfrest_sides_are_datasets_and_say_what_they_were_used_for():
    """``sfrest-heldout`` is the development rating set: it must be exactly the side no learned part saw."""
    whole = datasets.load_dataset("sfrest")
    heldout, train = datasets.load_dataset("sfrest-heldout"), datasets.load_dataset("SFREST-train")
    assert {it.id for it in heldout.items} | {it.id for it in train.items} == {it.id for it in whole.items}
    assert not {it.id for it in heldout.items} & {it.id for it in train.items}
    assert all(sfrest_part(it.mr) == "heldout" for it in heldout.items)
    assert heldout.name == "sfrest-heldout" and heldout.criteria == whole.criteria
    assert "development" in heldout.notes["split"] and "trained RoMe" in train.notes["split"]
    assert "trained RoMe" in whole.notes["split"]
    assert "sfrest-heldout" in heldout.describe()


def test_webnlg2020_is_a_development_rating_set_with_human_references_only():
    """WebNLG+ 2020 (``--dataset webnlg2020``): every output, its references and seven mean criteria."""
    data = datasets.load_dataset("WebNLG2020")
    assert data.name == "webnlg2020" and len(data.items) == 2847 and len(data.systems) == 16
    assert data.notes["outputs without human scores (left out)"] == 1  # one shared row has no ratings
    assert {"overall_adequacy", "overall_fluency", "correctness", "fluency"} <= set(data.criteria)
    assert len({it.id for it in data.items}) == 2847
    assert all(it.references and set(it.human) == set(data.criteria) for it in data.items)
    assert all(0 <= it.human["overall_adequacy"] <= 100 for it in data.items)
    assert "development" in data.describe()
    kept, refs, left_out = datasets.with_references(data.items, "human")
    assert len(kept) == 2847 and left_out == 0 and refs[0] == list(data.items[0].references)
    with pytest.raises(InputError, match="no meaning representation"):
        datasets.with_references(data.items, "mr")  # the shared files hold no input triples
