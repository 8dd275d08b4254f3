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
