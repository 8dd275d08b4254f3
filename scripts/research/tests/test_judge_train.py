"""scripts/research/judge_train.py and judge_data.py: the judge's development data, its split and its writer.

That the committed weights follow from the committed rows is a product test (tests/test_judge.py); here: the
committed rows are exactly the pairs and labels the trainer's data gives, and the trainer writes only where
it may.
"""

from __future__ import annotations

import json

import pytest
from research_scripts import load_script

from rome.core.errors import InputError
from rome.core.paths import trained_dir

data = load_script("judge_data")  # before the trainer, which imports it by name
train = load_script("judge_train")


def test_swords_split_keeps_contexts_apart_and_no_test_split_is_kept():
    examples = data.swords()
    assert len(examples) > 900 and 0.1 < sum(e.valid for e in examples) / len(examples) < 0.3
    fit, held = train.split(examples, 0)
    assert not {e.group for e in fit} & {e.group for e in held}
    assert 0.2 < len({e.group for e in held}) / len({e.group for e in examples}) < 0.4
    assert not [p for p in data.SWORDS.parent.iterdir() if "test" in p.name.lower()]


def test_the_committed_rows_are_the_trainers_fit_pairs_in_order():
    weights = json.loads((train.ROWS.parents[3] / "perturbations" / "judge" / "weights.json").read_text())
    committed = json.loads(train.ROWS.read_text(encoding="utf-8"))["rows"]
    sets = train.examples(weights["seed"], weights["swords_share"], weights["labels_share"])
    mine = [{"model": name, "source": e.source, "group": e.group, "kind": e.kind, "text": e.text,
             "variant": e.variant, "valid": e.valid} for name, (fit, _) in sets.items() for e in fit]
    assert [{k: r[k] for k in mine[0]} for r in committed] == mine


def test_the_trainer_refits_the_committed_weights_and_writes_only_where_it_may(tmp_path):
    """--fit-only on the committed rows needs no model; the default output is the user's trained/ folder."""
    assert train.main(["--fit-only"]) == 0
    out = trained_dir("judge") / "weights.json"
    fresh = json.loads(out.read_text())
    committed = json.loads((train.ROWS.parents[3] / "perturbations" / "judge" / "weights.json").read_text())
    assert {k: v["threshold"] for k, v in fresh["kinds"].items()} == {k: v["threshold"] for k, v in committed["kinds"].items()}
    for name, model in committed["models"].items():
        assert fresh["models"][name]["coef"] == pytest.approx(model["coef"], rel=1e-4)
    assert train.main(["--fit-only"]) == 0  # its own output is replaced
    mine = tmp_path / "notes.json"
    mine.write_text('{"my": "notes"}\n')
    with pytest.raises(InputError, match="--out"):
        train.main(["--fit-only", "--out", str(mine), "--force"])
    assert mine.read_text() == '{"my": "notes"}\n'
    with pytest.raises(InputError, match="inside the installed rome-harness package"):
        train.main(["--fit-only", "--out", str(train.ROWS.parents[3] / "perturbations" / "judge" / "weights.json"),
                    "--force"])
