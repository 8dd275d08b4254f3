"""Reading challenge sets: DEMETR slices of the shipped files, the generic JSONL format, and bad input."""

from __future__ import annotations

import json

import pytest
from challenge_samples import CONTROLS, GENERIC, demetr_records, demetr_slice, write_jsonl

from rome.core.errors import InputError
from rome.data.challenge import (
    SKIP_EMPTY,
    SKIP_PERT_CHECK,
    SKIP_SAME,
    category_severity,
    demetr_dir,
    load_challenge,
    read_demetr,
    read_file,
    sample_per_category,
    sample_total,
)


def test_demetr_slice_maps_fields_and_reverses_the_reference_control(tmp_path):
    folder = demetr_slice(tmp_path / "d", (*CONTROLS, "critical_id20_shuffled"), n=4)
    data = load_challenge([folder])
    assert len(data.items) == 16 and [f.format for f in data.files] == ["demetr"] * 4
    empty = next(i for i in data.items if i.category == "base_id33_empty")
    row = demetr_records("base_id33_empty")[0]
    assert (empty.reference, empty.good, empty.bad) == ((row["eng_sent"],), row["mt_sent"], ".")
    assert empty.id == f"base_id33_empty:{row['id']}" and empty.severity == "base" and empty.group == str(row["id"])
    reference = [i for i in data.items if i.category == "base_id35_reference"]
    assert all(i.good == i.reference[0] for i in reference)  # the perturbed text (= reference) must win
    assert [f.reversed for f in data.files] == [False, False, True, False]


def test_pert_check_false_items_are_left_out_and_counted():
    rows = demetr_records("critical_id10_numbers_replaced")
    info, items = read_file(demetr_dir() / "critical_id10_numbers_replaced.json")
    assert len(items) == sum(r["pert_check"] for r in rows) == 372
    assert info.skipped[SKIP_PERT_CHECK] == 1000 - 372 and info.records == 1000


def test_good_equal_to_bad_is_a_stated_skip_in_the_shipped_reference_control():
    info, items = read_file(demetr_dir() / "base_id35_reference.json")
    assert info.skipped[SKIP_SAME] == 6 and len(items) == 994
    assert all(i.good.strip() != i.bad.strip() for i in items)


def test_an_unknown_demetr_category_and_severity_are_read_as_they_are(tmp_path):
    rows = demetr_records("minor_id2_repeat4")[:3]
    for r in rows:
        r["severity"] = "cosmetic"
    rows[2]["severity"] = None
    path = tmp_path / "new_id99_something.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    items = list(read_demetr(path))
    assert {i.category for i in items} == {"new_id99_something"} and [i.severity for i in items] == ["cosmetic"] * 2 + [""]


def test_a_demetr_file_in_json_lines_is_read_too(tmp_path):
    rows = demetr_records("minor_id15_case")[:10]
    path = write_jsonl(tmp_path / "minor_id15_case.jsonl", rows)
    info, items = read_file(path)
    assert info.format == "demetr" and len(items) == sum(r["pert_check"] for r in rows)


def test_generic_format_multi_reference_unicode_and_optional_severity(tmp_path):
    path = write_jsonl(tmp_path / "mine.jsonl", GENERIC)
    info, items = read_file(path)
    assert info.format == "generic" and len(items) == 5
    by_id = {i.id: i for i in items}
    assert by_id["mine:n2"].reference == ("Zoë bought three apples.", "Zoë purchased three apples.")
    assert by_id["mine:3"].good.startswith("Il pleut à Paris")
    assert by_id["mine:n4"].severity == "" and by_id["mine:n5"].severity == "severe-ish"
    assert category_severity([by_id["mine:n1"], by_id["mine:3"]]) == "major"
    assert category_severity([by_id["mine:n1"], by_id["mine:n2"]]) == "major+critical"


def test_a_generic_json_array_is_read_like_json_lines(tmp_path):
    path = tmp_path / "mine.json"
    path.write_text(json.dumps(GENERIC, ensure_ascii=False), encoding="utf-8")
    assert len(read_file(path)[1]) == 5


def test_a_directory_reads_json_and_jsonl_and_states_what_it_ignored(tmp_path):
    demetr_slice(tmp_path, ("minor_id28_final_punc_removed",), n=3)
    write_jsonl(tmp_path / "mine.jsonl", GENERIC)
    (tmp_path / "LICENSE").write_text("MIT", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    data = load_challenge([tmp_path])
    assert len(data.items) == 8 and sorted(f.format for f in data.files) == ["demetr", "generic"]
    assert sorted(why for _, why in data.ignored) == ["a directory (not searched)", "not a .json or .jsonl file"]


@pytest.mark.parametrize(("content", "message"), [
    ('{"text": "hello", "label": 1}\n', "neither a DEMETR file nor the generic challenge format"),
    ('[{"id": 1, "eng_sent": "a", "mt_sent": "b", "pert_sent": "c", "severity": "minor"}]',
     "closest is DEMETR, which also needs pert_check"),
    ('{"id": 1, "reference": "a", "good": "b", "category": "x"}\n', "closest is generic challenge, which also needs bad"),
    ("", "the file is empty"),
    ("not json at all\n", "expected a DEMETR JSON file or a JSONL challenge file"),
    ('[{"id": 1,', "malformed JSON array"),
    ("[1, 2]", "record 1 is a int, not a JSON object"),
])
def test_a_file_in_neither_format_is_a_one_line_error(tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message) as info:
        load_challenge([path])
    assert "\n" not in str(info.value)


@pytest.mark.parametrize(("name", "content", "where"), [
    ("pairs.jsonl", '{"id": "a", "reference": "The cat sat.", "good": "The cat sat.", "bad": "The \\ud800 sat.", '
                    '"category": "x"}\n', "pairs.jsonl:1: field 'bad'"),
    ("demetr.json", '[{"id": 1, "eng_sent": "a", "mt_sent": "b", "pert_sent": "c\\udfff", "pert_check": true, '
                    '"severity": "minor"}]', "demetr.json: record 1: field 'pert_sent'"),
])
def test_a_lone_surrogate_is_a_one_line_error(tmp_path, name, content, where):
    """Valid JSON, invalid Unicode: refused when read, as ``rome score`` does, not a traceback when hashed."""
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=f"{where} holds a lone surrogate") as info:
        load_challenge([path])
    assert "\n" not in str(info.value)


def test_not_utf8_and_missing_paths_are_one_line_errors(tmp_path):
    path = tmp_path / "latin1.jsonl"
    path.write_bytes('{"id": "é"}'.encode("latin-1"))
    with pytest.raises(InputError, match="not UTF-8"):
        load_challenge([path])
    with pytest.raises(InputError, match="no such file or directory"):
        load_challenge([tmp_path / "nope.jsonl"])
    (tmp_path / "empty_dir").mkdir()
    with pytest.raises(InputError, match="no .json or .jsonl files"):
        load_challenge([tmp_path / "empty_dir"])


def _generic_error(tmp_path, rows):
    with pytest.raises(InputError) as info:
        load_challenge([write_jsonl(tmp_path / "mine.jsonl", rows)])
    assert "\n" not in str(info.value)
    return str(info.value)


def test_missing_and_mistyped_fields_name_the_line(tmp_path):
    second = {k: v for k, v in GENERIC[1].items() if k != "good"}
    assert "mine.jsonl:2: missing field(s) good" in _generic_error(tmp_path, [GENERIC[0], second])
    assert "'reference' must be a string or a non-empty list" in _generic_error(
        tmp_path, [{**GENERIC[0], "reference": []}])
    assert "'bad' must be a string (got int)" in _generic_error(tmp_path, [{**GENERIC[0], "bad": 3}])
    assert "'category' must be a non-empty string" in _generic_error(tmp_path, [{**GENERIC[0], "category": " "}])
    assert "reserved for the summary rows" in _generic_error(tmp_path, [{**GENERIC[0], "category": "ALL"}])
    assert "'id' must be a non-empty string or an integer" in _generic_error(tmp_path, [{**GENERIC[0], "id": None}])


@pytest.mark.parametrize(("field", "value", "message"), [
    ("severity", 3, "'severity' must be a string (got 3)"),
    ("severity", 2.5, "'severity' must be a string (got 2.5)"),
    ("severity", "all", "severity 'all' is reserved"),
    ("severity", "ALL", "severity 'ALL' is reserved"),
    ("severity", "minor\nmajor", "control or invisible character"),
    ("category", "noun\nremoved", "control or invisible character"),
    ("category", "noun\tremoved", "control or invisible character"),
])
def test_category_and_severity_must_be_printable_text_not_a_summary_row(tmp_path, field, value, message):
    """Issue "ground" #10: ``"severity": 3`` was read as "3"; a newline in a category broke accuracy.md; a
    severity "all" made an ``ALL:all`` row that collided with ``ALL``."""
    assert message in _generic_error(tmp_path, [{**GENERIC[0], field: value}])


def test_duplicate_ids_are_errors_in_both_formats(tmp_path):
    assert "duplicate id 'n1' (first at" in _generic_error(tmp_path, [GENERIC[0], GENERIC[0]])
    rows = demetr_records("minor_id29_punc_addition")[:3]
    rows[2]["id"] = rows[0]["id"]
    path = tmp_path / "minor_id29_punc_addition.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    with pytest.raises(InputError, match="record 3: duplicate id"):
        load_challenge([path])


def test_same_named_files_in_two_folders_are_an_error_not_a_silent_merge(tmp_path):
    write_jsonl(tmp_path / "a" / "mine.jsonl", GENERIC)
    write_jsonl(tmp_path / "b" / "mine.jsonl", GENERIC)
    with pytest.raises(InputError, match="also in"):
        load_challenge([tmp_path / "a", tmp_path / "b"])


def test_good_equal_bad_and_empty_texts_are_counted_skips(tmp_path):
    rows = [GENERIC[0], {**GENERIC[1], "bad": GENERIC[1]["good"] + "  "}, {**GENERIC[2], "good": "   "},
            {**GENERIC[3], "reference": ["", " "]}, {**GENERIC[4], "bad": ""}]
    data = load_challenge([write_jsonl(tmp_path / "mine.jsonl", rows)])
    assert len(data.items) == 1 and data.skipped == {SKIP_SAME: 1, SKIP_EMPTY: 3}


def test_a_demetr_file_with_every_pert_check_false_is_stated_not_silent(tmp_path):
    rows = demetr_records("minor_id13_pos_shift")[:5]
    for r in rows:
        r["pert_check"] = False
    path = tmp_path / "minor_id13_pos_shift.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    with pytest.raises(InputError, match=r"no usable items in 1 file\(s\): all skipped \(5 pert_check false\)"):
        load_challenge([path])
    demetr_slice(tmp_path, ("minor_id31_full_lower",), n=2)  # beside a usable file: read, and said
    data = load_challenge([tmp_path])
    assert [(f.path.name, f.items, dict(f.skipped)) for f in data.files] == [
        ("minor_id13_pos_shift.json", 0, {SKIP_PERT_CHECK: 5}), ("minor_id31_full_lower.json", 2, {})]


def test_pert_check_must_be_a_boolean(tmp_path):
    rows = demetr_records("minor_id13_pos_shift")[:2]
    rows[1]["pert_check"] = "maybe"
    path = tmp_path / "x.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    with pytest.raises(InputError, match="record 2: field 'pert_check' must be true or false"):
        load_challenge([path])


def test_sampling_is_seeded_shares_groups_across_categories_and_ignores_input_order(tmp_path):
    folder = demetr_slice(tmp_path, ("minor_id2_repeat4", "minor_id27_char_removed", "critical_id20_shuffled"), n=40)
    items = load_challenge([folder]).items
    picked = sample_per_category(items, 5, seed=3)
    assert len(picked) == 15 and len({i.group for i in picked}) == 5  # the same 5 sentences in each file
    assert {i.id for i in sample_per_category(list(reversed(items)), 5, seed=3)} == {i.id for i in picked}
    assert {i.id for i in sample_per_category(items, 5, seed=4)} != {i.id for i in picked}
    spread = sample_total(items, 7, seed=0)
    assert len(spread) == 7 and len({i.category for i in spread}) == 3
    with pytest.raises(InputError, match="at least 1"):
        sample_per_category(items, 0)
