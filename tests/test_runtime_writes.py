"""Defaults write only where the user said (ROME_OUT, --out, --cards), never into the package; the code's
version stamp does not depend on a source checkout."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from reports.annotate.judgements import default_card_out
from reports.cli import main
from reports.validity import default_cards_dir
from rome.core.paths import inside_package, output_dir, package_dirs, writable_default
from rome.core.version import code_version, source_commit


def _listing(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(folder)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts}


def test_draw_writes_its_todo_card_under_the_output_folder_not_beside_the_shipped_cards(capsys):
    cards = default_cards_dir()
    before = _listing(cards)
    assert main(["validity", "--draw", "repetition", "--n", "3", "--seed", "7"]) == 0
    drawn = output_dir("cards", "dialogue", "repetition.todo.jsonl")
    assert drawn.is_file() and len(drawn.read_text(encoding="utf-8").splitlines()) == 3
    assert str(drawn) in capsys.readouterr().err
    assert _listing(cards) == before  # the shipped cards are read, never written


def test_draw_writes_beside_the_cards_a_user_names(tmp_path):
    cards = tmp_path / "cards"
    cards.mkdir()
    assert main(["validity", "--draw", "repetition", "--n", "2", "--seed", "7", "--cards", str(cards)]) == 0
    assert (cards / "dialogue" / "repetition.todo.jsonl").is_file()


def test_a_default_inside_the_package_goes_to_the_output_folder(tmp_path):
    shipped = default_cards_dir() / "dialogue" / "passive.todo.jsonl"
    assert inside_package(shipped) and not inside_package(tmp_path / "x.todo.jsonl")
    assert default_card_out(shipped) == output_dir("cards", "dialogue", "passive.jsonl")
    assert default_card_out(tmp_path / "dialogue" / "x.todo.jsonl") == tmp_path / "dialogue" / "x.jsonl"
    assert writable_default(shipped.parent / "annotations.sqlite", "annotate", "annotations.sqlite") == \
        output_dir("annotate", "annotations.sqlite")
    assert {p.name for p in package_dirs()} == {"rome", "perturbations", "baselines", "suites", "reports"}


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=cwd, check=True,
                   capture_output=True, env={**os.environ, "GIT_CONFIG_NOSYSTEM": "1"})


def test_a_commit_is_stamped_only_for_the_top_of_a_git_checkout(tmp_path):
    assert source_commit(tmp_path) is None  # no repository at all
    repo = tmp_path / "repo"
    (repo / "venv" / "site-packages").mkdir(parents=True)
    (repo / "file.txt").write_text("x")
    _git(repo, "init", "-q")
    _git(repo, "add", "file.txt")
    _git(repo, "commit", "-q", "-m", "c")
    assert source_commit(repo) and len(source_commit(repo)) >= 7
    # an install inside somebody else's repository is not that repository's code
    assert source_commit(repo / "venv" / "site-packages") is None


def test_outside_a_checkout_the_package_version_is_stamped(monkeypatch):
    import rome.core.version as version

    monkeypatch.setattr(version, "source_commit", lambda root=None: None)
    assert code_version().startswith("rome-harness ") and "commit" not in code_version()
