"""Bad-input defects of the issue "ground" (part 6): each test reproduces one before its fix.

The item numbers in the docstrings are the issue's table rows.
"""

from __future__ import annotations

import argparse

import pytest

from reports.cli import build_parser, main


def _subparsers(parser: argparse.ArgumentParser):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield sub
                yield from _subparsers(sub)


def test_help_of_rome_and_of_every_sub_command_prints(capsys):
    """#15: ``rome --help`` (the first command a newcomer types) raised ValueError on a '%' in a help string."""
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    assert "validity" in capsys.readouterr().out
    subs = list(_subparsers(build_parser()))
    assert len(subs) >= 8
    for sub in subs:
        assert sub.format_help().startswith("usage:")


@pytest.mark.parametrize(("source", "fragment"), [
    ("from suites.harness.spec import Suite\nSUITE = Suite(\n", "does not parse"),
    ("import a_module_that_is_not_there\n", "No module named 'a_module_that_is_not_there'"),
    ("raise RuntimeError('boom')\n", "RuntimeError: boom"),
])
def test_suite_file_that_fails_to_import_is_a_one_line_error(tmp_path, capsys, source, fragment):
    """#6: a suite file that fails to import gave a traceback and exit 1, the code of "a check failed"."""
    path = tmp_path / "broken_suite.py"
    path.write_text(source, encoding="utf-8")
    assert main(["suite", str(path)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert str(path) in err and fragment in err


def _write_lines(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return path


def test_duplicate_id_message_says_the_first_line_had_no_id(tmp_path, capsys):
    """#14: a line without an id then one with ``"id": 1`` said only "line 3: duplicate id 1"."""
    pairs = _write_lines(tmp_path / "pairs.jsonl", [
        '{"hypothesis": "a", "reference": "x"}', '{"id": 7, "hypothesis": "b", "reference": "y"}',
        '{"id": 1, "hypothesis": "c", "reference": "z"}'])
    assert main(["score", "--input", str(pairs), "--output", str(tmp_path / "o.jsonl"), "--metric", "bleu"]) == 2
    err = capsys.readouterr().err
    assert "pairs.jsonl:3: duplicate id 1" in err and "line 1" in err and "no 'id'" in err


def test_a_directory_given_as_input_is_named_a_directory(tmp_path, capsys):
    """#14: ``--input .`` said "no such file" of a directory that exists."""
    assert main(["score", "--input", str(tmp_path), "--output", str(tmp_path / "o.jsonl"), "--metric", "bleu"]) == 2
    err = capsys.readouterr().err
    assert "is a directory" in err and "no such file" not in err


def test_a_model_directory_that_holds_no_model_is_named_by_its_whole_path(tmp_path, capsys):
    """#14: ``--model DIR`` with a directory that is not a model cut the path to its last part."""
    folder = tmp_path / "some" / "notes"
    folder.mkdir(parents=True)
    (folder / "readme.txt").write_text("not a model", encoding="utf-8")
    assert main(["score", "--hyp", "a cat", "--ref", "a cat", "--metric", "bertscore", "--model", str(folder)]) == 2
    err = capsys.readouterr().err
    assert str(folder.resolve()) in err and "not a Hugging Face model" in err
    assert len(err.strip().splitlines()) == 1


METRICS = ["bleu", "chrf", "ter", "meteor", "bertscore", "moverscore", "rome"]
INVISIBLE = ["", "  ", "\u200b", "\ufeff", "\x00", "\u00ad", "\u0301"]


@pytest.mark.parametrize("name", METRICS)
def test_every_metric_gives_its_worst_score_to_text_that_shows_nothing(name):
    """#4 / #13: RoMe crashed or made NaN on invisible-only text; MoverScore gave a blank reference -0.41
    (its worst is -1) and a one-pair input with blank references +0.09. Either side, every metric: its worst."""
    from rome.core.registry import build_metric

    metric = build_metric(name)
    good = "The hotel is cheap and near the station."
    hyps = [*INVISIBLE, *[good] * len(INVISIBLE), good]
    refs = [*[good] * len(INVISIBLE), *INVISIBLE, good]
    scores = metric.score(hyps, refs)
    assert scores[:-1].tolist() == [metric.worst_score] * (2 * len(INVISIBLE))
    assert scores[-1] != metric.worst_score
    assert metric.score([good], [""]).tolist() == [metric.worst_score]  # a one-pair input, blank reference


@pytest.mark.parametrize(("hyp", "ref"), [("\u200b", "The hotel is cheap."), ("The hotel is cheap.", "\ufeff")])
def test_rome_on_one_invisible_pair_from_the_command_line(capsys, hyp, ref):
    """#4: ``rome score --hyp $'\\u200b' --ref ... --metric rome`` ended in a TypeError traceback."""
    assert main(["score", "--hyp", hyp, "--ref", ref, "--metric", "rome"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1].split()[:2] == ["rome", "0.0000"]


def test_challenge_with_an_invisible_text_runs_to_the_end(tmp_path, capsys):
    """#4: in ``rome challenge`` one item whose damaged text was invisible-only aborted the run."""
    import json

    rows = [{"id": i, "reference": "The hotel is cheap.", "good": "The hotel is cheap.", "bad": bad, "category": "c"}
            for i, bad in enumerate(["The hotel is dear.", "\u200b", "\u00ad\u0301"])]
    data = _write_lines(tmp_path / "set.jsonl", [json.dumps(r) for r in rows])
    assert main(["challenge", str(data), "--metric", "rome", "--workers", "1", "--no-cache", "--bootstrap", "10",
                 "--out", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err
    assert "1 usable items" in err and "2 empty text" in err


# -- #1, #1b, #2: --resume never mixes stale rows with fresh ones ------------------------------------
def _score(tmp_path, src, out, *extra):
    return main(["score", "--input", str(src), "--output", str(out), *extra])


def _rows(path):
    import json

    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _pairs(path, hyps, ids=True):
    import json

    lines = [json.dumps({**({"id": f"p{i}"} if ids else {}), "hypothesis": h, "reference": "the hotel is cheap"})
             for i, h in enumerate(hyps)]
    return _write_lines(path, lines)


HYPS = ["the hotel is cheap", "the hotel is dear", "a hotel that is cheap", "cheap is the hotel"]


def test_rows_record_what_they_were_scored_from_and_with(tmp_path, capsys):
    """#1 / #2: rows carried no trace of their input or metric signature, so staleness went unseen."""
    from rome.core.registry import build_metric

    src, out = _pairs(tmp_path / "pairs.jsonl", HYPS), tmp_path / "out.jsonl"
    assert _score(tmp_path, src, out, "--metric", "bleu") == 0
    rows = _rows(out)
    assert {r["scored_with"]["signatures"]["bleu"] for r in rows} == {str(build_metric("bleu").signature())}
    assert len({r["scored_with"]["input"] for r in rows}) == len(HYPS)


@pytest.mark.parametrize("more", [[], ["--metric", "chrf"]])
def test_resume_refuses_rows_whose_input_changed(tmp_path, capsys, more):
    """#1: after one hypothesis was edited, --resume kept the old text and score ("already scored"), and an
    added metric was computed on the new text and written into the row holding the old text and BLEU."""
    src, out = _pairs(tmp_path / "pairs.jsonl", HYPS), tmp_path / "out.jsonl"
    assert _score(tmp_path, src, out, "--metric", "bleu") == 0
    before = out.read_bytes()
    _pairs(src, [HYPS[0], "the hotel is very dear", *HYPS[2:]])
    capsys.readouterr()
    assert _score(tmp_path, src, out, "--metric", "bleu", *more, "--resume") == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "'p1'" in err and "changed" in err and "--force" in err
    assert out.read_bytes() == before


def test_resume_refuses_when_lines_without_ids_moved(tmp_path, capsys):
    """#1b: with no ids, a blank line inserted at the top shifted every id: 5 rows for 4 inputs."""
    src, out = _pairs(tmp_path / "pairs.jsonl", HYPS, ids=False), tmp_path / "out.jsonl"
    assert _score(tmp_path, src, out, "--metric", "bleu") == 0
    before = out.read_bytes()
    src.write_text("\n" + src.read_text(encoding="utf-8"), encoding="utf-8")
    capsys.readouterr()
    assert _score(tmp_path, src, out, "--metric", "bleu", "--resume") == 2
    assert "no longer match" in capsys.readouterr().err
    assert out.read_bytes() == before
    assert _score(tmp_path, src, out, "--metric", "bleu", "--force") == 0
    assert [r["id"] for r in _rows(out)] == [2, 3, 4, 5] and [r["hypothesis"] for r in _rows(out)] == HYPS


class _Versioned:
    """A tiny registered metric whose signature carries a setting, as --model or a code change would."""

    @staticmethod
    def make(version: str):
        import numpy as np

        from rome.core.contract import Metric

        class Length(Metric):
            name = "length_for_test"
            score_range = (0.0, float("inf"))
            worst_score = 0.0

            def _score_pairs(self, hypotheses, references):
                return np.array([len(h.split()) * (2.0 if version == "v2" else 1.0) for h in hypotheses])

            def _signature_fields(self):
                return [("version", version)]

        return Length


def test_resume_refuses_a_metric_whose_signature_changed(tmp_path, capsys):
    """#2: --resume kept the old model's scores (and a partial run mixed two models in one file)."""
    from rome.core.registry import register, unregister

    src, out = _pairs(tmp_path / "pairs.jsonl", HYPS), tmp_path / "out.jsonl"
    register("length_for_test")(_Versioned.make("v1"))
    try:
        assert _score(tmp_path, src, out, "--metric", "length_for_test") == 0
        out.write_text("".join(line + "\n" for line in out.read_text().splitlines()[:2]))  # interrupted
        before = out.read_bytes()
        unregister("length_for_test")
        register("length_for_test")(_Versioned.make("v2"))
        capsys.readouterr()
        assert _score(tmp_path, src, out, "--metric", "length_for_test", "--resume") == 2
        err = capsys.readouterr().err
        assert "length_for_test" in err and "signature" in err and "version:v1" in err and "version:v2" in err
        assert out.read_bytes() == before
    finally:
        unregister("length_for_test")


def test_resume_refuses_rows_that_record_nothing(tmp_path, capsys):
    """#2: rows written before rows recorded their signature cannot be checked, so they are not trusted."""
    import json

    src, out = _pairs(tmp_path / "pairs.jsonl", HYPS), tmp_path / "out.jsonl"
    assert _score(tmp_path, src, out, "--metric", "bleu") == 0
    old = [{k: v for k, v in row.items() if k != "scored_with"} for row in _rows(out)]
    _write_lines(out, [json.dumps(row) for row in old[:2]])
    capsys.readouterr()
    assert _score(tmp_path, src, out, "--metric", "bleu", "--resume") == 2
    assert "scored_with" in capsys.readouterr().err
