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
