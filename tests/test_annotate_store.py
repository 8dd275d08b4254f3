"""Annotation storage, case loading and export (the format the robustness report reads)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from reports.annotate.cases import load_cases
from reports.annotate.store import AnnotationStore, export_jsonl, load_ratings, validate_scores
from reports.robustness import load_annotations
from rome.core.errors import InputError

GOOD = {"fluency": 3, "semantics": 2, "grammar": 1}


def write_jsonl(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_rating_replaces_and_skip_never_erases(tmp_path):
    with AnnotationStore(tmp_path / "s.sqlite") as store:
        store.save_rating("c1", "alice", GOOD, "h1")
        store.save_rating("c1", "alice", {"fluency": 1, "semantics": 1, "grammar": 2}, "h1")
        store.save_skip("c1", "alice", "h1")  # a skip must not wipe a rating
        store.save_skip("c2", "alice", "h2")
        store.save_rating("c1", "bob", GOOD, "h1")
        rows = store.ratings()
        assert [(r.case_id, r.annotator, r.skipped) for r in rows] == [
            ("c1", "alice", False), ("c1", "bob", False), ("c2", "alice", True)]
        assert dict(rows[0].scores) == {"fluency": 1, "semantics": 1, "grammar": 2}
        assert rows[2].scores == {}
        store.save_rating("c2", "alice", GOOD, "h2")  # rating a skipped case replaces the skip
        assert not store.ratings("alice")[1].skipped
        assert store.annotators() == ["alice", "bob"]


def test_ratings_survive_reopening(tmp_path):
    with AnnotationStore(tmp_path / "s.sqlite") as store:
        store.save_rating("c1", "alice", GOOD, "h1")
    with AnnotationStore(tmp_path / "s.sqlite", create=False) as store:
        assert dict(store.ratings()[0].scores) == GOOD


@pytest.mark.parametrize("scores, message", [
    ({"fluency": 4, "semantics": 2, "grammar": 1}, "fluency must be an integer from 1 to 3"),
    ({"fluency": 0, "semantics": 2, "grammar": 1}, "from 1 to 3"),
    ({"fluency": 2.0, "semantics": 2, "grammar": 1}, "integer"),
    ({"fluency": "2", "semantics": 2, "grammar": 1}, "integer"),
    ({"fluency": True, "semantics": 2, "grammar": 1}, "integer"),
    ({"fluency": None, "semantics": 2, "grammar": 1}, "integer"),
    ({"fluency": 2, "semantics": 2}, "missing rating for grammar"),
    ({**GOOD, "style": 2}, "unknown criterion 'style'"),
    ([3, 2, 1], "must be an object"),
])
def test_invalid_scores_rejected_before_writing(tmp_path, scores, message):
    with AnnotationStore(tmp_path / "s.sqlite") as store:
        with pytest.raises(InputError, match=message):
            store.save_rating("c1", "alice", scores, "h")
        assert store.ratings() == []


def test_table_constraints_guard_direct_writes(tmp_path):
    AnnotationStore(tmp_path / "s.sqlite").close()
    conn = sqlite3.connect(tmp_path / "s.sqlite")
    with pytest.raises(sqlite3.IntegrityError):
        conn.execute("INSERT INTO ratings VALUES ('c', 'a', 5, 1, 1, 0, 'h', 't')")
    with pytest.raises(sqlite3.IntegrityError):  # a rated row needs all three criteria
        conn.execute("INSERT INTO ratings VALUES ('c', 'a', 2, NULL, 1, 0, 'h', 't')")
    conn.close()


def test_opening_something_else_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="no such annotation store"):
        AnnotationStore(tmp_path / "missing.sqlite", create=False)
    junk = tmp_path / "junk.sqlite"
    junk.write_text("not a database at all, just text " * 50)
    with pytest.raises(InputError, match="not an annotation store"):
        AnnotationStore(junk, create=False)
    other = tmp_path / "other.sqlite"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.commit()
    with pytest.raises(InputError, match="no ratings table"):
        AnnotationStore(other, create=False)
    assert validate_scores(GOOD) == GOOD


def test_export_is_the_format_the_robustness_report_reads(tmp_path):
    with AnnotationStore(tmp_path / "s.sqlite") as store:
        store.save_rating("typos-0001", "bob", {"fluency": 1, "semantics": 3, "grammar": 2}, "h")
        store.save_rating("typos-0001", "alice", {"fluency": 3, "semantics": 3, "grammar": 2}, "h")
        store.save_rating("typos-0000", "alice", GOOD, "h")
        store.save_skip("typos-0002", "alice", "h")
    out = tmp_path / "out" / "annotations.jsonl"
    count = export_jsonl(load_ratings([tmp_path / "s.sqlite"]), out)
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert count == 3 and lines == [
        {"case_id": "typos-0000", "annotator": "alice", "fluency": 3, "semantics": 2, "grammar": 1},
        {"case_id": "typos-0001", "annotator": "alice", "fluency": 3, "semantics": 3, "grammar": 2},
        {"case_id": "typos-0001", "annotator": "bob", "fluency": 1, "semantics": 3, "grammar": 2},
    ]
    assert not out.with_name("annotations.jsonl.tmp").exists()
    averaged = load_annotations(out)  # the robustness report's reader averages annotators
    assert averaged["typos-0001"] == {"fluency": 2.0, "semantics": 3.0, "grammar": 2.0}
    assert "typos-0002" not in averaged


def test_merging_stores_from_two_machines(tmp_path):
    with AnnotationStore(tmp_path / "a.sqlite") as a, AnnotationStore(tmp_path / "b.sqlite") as b:
        a.save_rating("c1", "alice", GOOD, "h")
        b.save_rating("c1", "bob", GOOD, "h")
        b.save_rating("c1", "alice", GOOD, "h")  # the same rating copied over: fine
    rows = load_ratings([tmp_path / "a.sqlite", tmp_path / "b.sqlite"])
    assert [(r.case_id, r.annotator) for r in rows] == [("c1", "alice"), ("c1", "bob")]
    with AnnotationStore(tmp_path / "b.sqlite") as b:
        b.save_rating("c1", "alice", {**GOOD, "grammar": 3}, "h")
    with pytest.raises(InputError, match="rated differently"):
        load_ratings([tmp_path / "a.sqlite", tmp_path / "b.sqlite"])


def test_cases_from_suite_output_and_plain_jsonl(tmp_path):
    suite = load_cases("tests/fixtures/suite_out/typos/cases.jsonl")
    assert suite[0].case_id == "typos/typos-0000"  # the suite names the case: suites reuse ids
    assert suite[0].references == ("the hotel drisco is pricey .",)
    assert suite[0].hypothesis == "teh hotel drisco is pricey ."
    plain = load_cases(write_jsonl(tmp_path / "p.jsonl", [
        {"id": 7, "reference": ["r one", "r two"], "hypothesis": "h"},
        {"id": "x", "reference": "r", "hypothesis": "h2"}]))
    assert [(c.case_id, c.references) for c in plain] == [("7", ("r one", "r two")), ("x", ("r",))]
    assert plain[0].text_hash != plain[1].text_hash


@pytest.mark.parametrize("rows, message", [
    ([], "no cases"),
    ([{"id": "a", "reference": "r"}], "expected fields"),
    ([{"id": "a", "reference": 3, "hypothesis": "h"}], "field 'reference'"),
    ([{"id": "", "reference": "r", "hypothesis": "h"}], "non-empty"),
    ([{"id": "a", "reference": "r", "hypothesis": "h"}, {"id": "a", "reference": "r", "hypothesis": "g"}],
     "duplicate id 'a'"),
])
def test_bad_case_files(tmp_path, rows, message):
    with pytest.raises(InputError, match=message):
        load_cases(write_jsonl(tmp_path / "c.jsonl", rows))


def test_suite_cases_with_the_same_id_keep_their_own_ratings(tmp_path):
    """Real suite ids are the source sentence's (``bagel-0003-0``) in every suite: export and
    the robustness report must not give one suite's rating to another suite's case."""
    from reports.robustness import annotation_key

    def case(suite):
        return {"case_id": "bagel-0003-0", "suite": suite, "reference": "r", "variant": f"v {suite}"}

    passive = load_cases(write_jsonl(tmp_path / "p.jsonl", [case("passive_form")]))[0]
    typos = load_cases(write_jsonl(tmp_path / "t.jsonl", [case("typos")]))[0]
    assert passive.case_id != typos.case_id
    with AnnotationStore(tmp_path / "s.sqlite") as store:
        store.save_rating(passive.case_id, "alice", {"fluency": 3, "semantics": 3, "grammar": 3}, passive.text_hash)
        store.save_rating(typos.case_id, "alice", {"fluency": 1, "semantics": 2, "grammar": 1}, typos.text_hash)
    export_jsonl(load_ratings([tmp_path / "s.sqlite"]), tmp_path / "a.jsonl")
    loaded = load_annotations(tmp_path / "a.jsonl")
    assert loaded[annotation_key("bagel-0003-0", "passive_form")]["fluency"] == 3
    assert loaded[annotation_key("bagel-0003-0", "typos")]["fluency"] == 1
    assert "bagel-0003-0" not in loaded
    with pytest.raises(InputError, match="suite"):
        load_cases(write_jsonl(tmp_path / "bad.jsonl", [{**case("x"), "suite": 3}]))
