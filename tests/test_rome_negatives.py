"""The scorer's self-supervised pairs: reproducible, labelled, built from references only."""

from __future__ import annotations

import random

from rome.training.negatives import NEGATIVE_KINDS, Item, build_pairs, parse_slots
from rome.training.scorer import load_items, split_items


def test_parse_slots_keeps_multi_word_values():
    assert parse_slots("inform(name='little russia',food=thai,area=dont_care)") == {
        "name": "little russia", "food": "thai",
    }


def test_pairs_are_seeded_and_split_by_mr():
    from rome.data.novikova import sfrest_part

    items = load_items()
    assert len(items) > 140 and all(len(it.references) >= 2 for it in items)
    assert all(sfrest_part(it.mr) == "train" for it in items), "the scorer trains on the train side only"
    train, test = split_items(items, random.Random(0))
    assert not {it.mr for it in train} & {it.mr for it in test}
    first = build_pairs(train[:40], train, random.Random(1))
    again = build_pairs(train[:40], train, random.Random(1))
    assert first == again
    kinds = {p.kind for p in first}
    assert "paraphrase" in kinds and len(kinds - {"paraphrase"}) >= 5
    for pair in first:
        assert pair.label == (1 if pair.kind == "paraphrase" else 0)
        assert pair.hypothesis != pair.reference


def test_each_negative_changes_the_text():
    item = Item("inform(name='x bar',food=thai)", ("x bar serves cheap thai food .", "the x bar is cheap ."),
                {"name": "x bar", "food": "thai"})
    other = Item("inform(name='y cafe',food=french)", ("y cafe serves expensive french food .",),
                 {"name": "y cafe", "food": "french"})
    for kind, make in NEGATIVE_KINDS.items():
        out = make(item.references[0], item, [item, other], random.Random(3))
        if out is not None:
            assert out != item.references[0], kind
    assert NEGATIVE_KINDS["antonym_swap"]("x bar serves cheap thai food .", item, [other], random.Random(0)) \
        == "x bar serves expensive thai food ."
