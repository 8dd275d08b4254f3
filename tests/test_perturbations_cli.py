"""The perturbation registry and ``rome perturb``: kinds, options, JSONL in and out, errors (exit 2)."""

from __future__ import annotations

import json

import pytest

from perturbations.adjective import AdjectiveSwap
from perturbations.base import Perturbation, Result
from perturbations.registry import available_perturbations, build_perturbation, register, unregister
from reports.cli import main
from rome.core.errors import InputError

SHIPPED_KINDS = {"passive", "adjective", "repetition", "entity", "random_word", "textfooler", "typos", "contractions",
                 "spelling", "optional_that"}


def test_every_shipped_kind_is_an_entry_point():
    from importlib.metadata import entry_points

    assert {ep.name for ep in entry_points(group="rome_harness.perturbations")} >= SHIPPED_KINDS
    assert set(available_perturbations()) >= SHIPPED_KINDS


def test_a_perturbation_registered_at_run_time_is_built_like_the_shipped_ones():
    class Shout(Perturbation):
        kind = "shout"

        def _apply(self, text, rng):
            return Result(text, ())

    register("shout")(Shout)
    try:
        assert "shout" in available_perturbations()
        assert isinstance(build_perturbation("shout"), Shout)
    finally:
        unregister("shout")
    assert "shout" not in available_perturbations()


def test_registry_builds_part_a_kinds_with_options():
    swap = build_perturbation("adjective", require_both=True)
    assert isinstance(swap, AdjectiveSwap) and swap.require_both
    assert build_perturbation("repetition", min_repeats=1, max_repeats=1).apply("Elon", 0).variants[0].text == "Elon elon"


@pytest.mark.parametrize(("kind", "options", "message"), [
    ("nope", {}, "unknown perturbation 'nope'"),
    ("passive", {"colour": "red"}, "perturbation 'passive'"),
    ("passive", {"parser": "stanza"}, "needs a spaCy parser"),
    ("adjective", {"parser": "stanza"}, "needs a spaCy parser"),
])
def test_registry_errors_are_one_line(kind, options, message):
    with pytest.raises(InputError, match=message):
        build_perturbation(kind, **options)


def write_lines(path, rows):
    path.write_text("".join(r if isinstance(r, str) else json.dumps(r) + "\n" for r in rows), encoding="utf-8")


def read_lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_perturb_file(tmp_path):
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_lines(src, [{"id": "a", "text": "The dog bit the man."}, {"id": 7, "text": "X is a cheap restaurant."},
                      {"text": "Close the door."}])
    assert main(["perturb", "--kind", "passive", "--input", str(src), "--output", str(out)]) == 0
    rows = read_lines(out)
    assert [r["id"] for r in rows] == ["a", 7, 3]
    assert rows[0]["variants"][0]["text"] == "The man was bitten by the dog."
    assert rows[0]["variants"][0]["expectation"] == "invariant" and rows[0]["skipped"] is None
    assert rows[1]["variants"] == [] and rows[1]["skipped"] == "copular clause"
    assert rows[2]["skipped"].startswith("no subject")


def test_perturb_all_kinds_is_reproducible(tmp_path):
    src = tmp_path / "in.jsonl"
    write_lines(src, [{"id": 1, "text": "The dog bit the cheap man."}, {"id": 2, "text": "..."}])
    outputs = []
    for name in ("one", "two"):
        out = tmp_path / f"{name}.jsonl"
        argv = ["perturb", "--kind", "all", "--input", str(src), "--output", str(out), "--seed", "3"]
        assert main(argv) == 0
        outputs.append(out.read_text(encoding="utf-8"))
    assert outputs[0] == outputs[1]
    first, second = read_lines(tmp_path / "one.jsonl")
    kinds = {v["kind"] for v in first["variants"]}
    assert {"passive", "adjective", "repetition"} <= kinds
    assert second["variants"] == [] and "passive: " in second["skipped"]


@pytest.mark.parametrize(("rows", "message"), [
    (["{not json\n"], "malformed JSON"),
    ([{"id": 1}], "field 'text' must be a string"),
    ([{"id": 1, "text": 5}], "field 'text' must be a string"),
    ([{"id": 1, "text": "a"}, {"id": 1, "text": "b"}], "duplicate id"),
    ([], "no texts"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, capsys, rows, message):
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_lines(src, rows)
    assert main(["perturb", "--kind", "repetition", "--input", str(src), "--output", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_refuses_to_overwrite_and_unknown_kind(tmp_path, capsys):
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    write_lines(src, [{"id": 1, "text": "Elon"}])
    earlier = '{"id": 1, "text": "Elon", "variants": [], "skipped": "no change"}\n'  # an earlier rome perturb output
    out.write_text(earlier)
    assert main(["perturb", "--kind", "repetition", "--input", str(src), "--output", str(out)]) == 2
    assert out.read_text() == earlier
    assert main(["perturb", "--kind", "nope", "--input", str(src), "--output", str(out), "--force"]) == 2
    assert "unknown perturbation" in capsys.readouterr().err
    assert main(["perturb", "--kind", "repetition", "--input", str(tmp_path / "missing.jsonl"),
                 "--output", str(out)]) == 2
