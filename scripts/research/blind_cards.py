"""Hand the unlabelled lines of validity cards to blind readers, and write their labels back.

    python scripts/research/blind_cards.py export TODO... --out DIR [--batch 120] [--seed 0]
    python scripts/research/blind_cards.py import TODO... --from DIR

``export`` gathers every unlabelled line of the given ``*.todo.jsonl`` cards, shuffles them across
cards (seeded) and writes ``DIR/batch_<k>.jsonl`` files for readers: each line holds only a key, the
kind of text, the expectation (``invariant`` or ``decrease``), for a decrease the damage the kind
promises (the rubric needs it), the original and the variant. Never the card's name, the rule that
made the variant, its edits or any score. The keys' meaning stays in ``DIR/.keys.json``.

A reader writes ``DIR/labels_<k>.jsonl``: one ``{"key", "label", "note"}`` per line of ``batch_<k>``,
with a label of the rubric (docs/validity.md). ``import`` checks every label against the line's
expectation and writes it into its todo card; a todo card whose lines are all labelled becomes the
card (``<card>.jsonl`` beside it, replacing the one it was drawn to replace) and the todo is removed.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

from reports.validity import write_card
from rome.core.errors import InputError

INVARIANT_LABELS = ("valid", "meaning_changed", "ungrammatical", "awkward")
DECREASE_LABELS = ("intended", "not_changed", "broken")
#: what each corpus's texts are, as the rubric lets a reader know
GENRES = {"dialogue": "dialogue-system turns about restaurants and hotels (tokenised, lower-cased)",
          "news": "news sentences (machine-translated into English)",
          "webnlg": "encyclopedic data-to-text sentences (WebNLG)",
          "wmt21_pairs": "news sentences (professional translations into English)",
          "academic": "academic prose",
          "flores": "encyclopedic, travel-guide and how-to sentences (Wikinews, Wikivoyage, Wikibooks)"}
#: the damage a decrease kind promises (the rubric's "intended")
PROMISES = {"random_word": "some content words replaced by the token AAA",
            "repetition": "a word or phrase of the sentence repeated",
            "typos": "a visible typing slip in a word (two letters swapped, or a letter and a space)",
            "entity": "a named entity replaced by a different entity of a sensible type",
            "adjective": "an adjective replaced by its antonym (the property reversed)"}


def read_lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def write_lines(path: Path, lines: list[dict]) -> None:
    path.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines), encoding="utf-8")


def line_key(path: Path, index: int) -> str:
    return hashlib.sha256(f"{path.resolve()}:{index}".encode()).hexdigest()[:12]


def export(todos: list[Path], out: Path, batch: int, seed: int) -> int:
    items, keys = [], {}
    for todo in todos:
        for index, line in enumerate(read_lines(todo)):
            if line.get("label"):
                continue
            key = line_key(todo, index)
            keys[key] = [str(todo), index]
            item = {"key": key, "text_kind": GENRES.get(line["corpus"], line["corpus"]),
                    "expectation": line["expectation"]}
            if line["expectation"] == "decrease":
                item["promised_damage"] = next((promise for kind, promise in PROMISES.items()
                                                if line["card"].startswith(kind)), line["card"])
            items.append({**item, "original": line["text"], "variant": line["variant"]})
    random.Random(seed).shuffle(items)
    from rome.core.files import output_folder

    names = [f"batch_{k // batch + 1}.jsonl" for k in range(0, len(items), batch)]
    with output_folder(out, names=[*names, ".keys.json"], inputs=[("a todo card", t) for t in todos]) as folder:
        for k, name in enumerate(names):
            write_lines(folder / name, items[k * batch : (k + 1) * batch])
        (folder / ".keys.json").write_text(json.dumps(keys), encoding="utf-8")
    print(f"{len(items)} unlabelled lines from {len(todos)} cards in {-(-len(items) // batch)} batches under {out}",
          file=sys.stderr)
    return 0


def import_labels(todos: list[Path], source: Path) -> int:
    keys = json.loads((source / ".keys.json").read_text(encoding="utf-8"))
    labels: dict[str, dict] = {}
    for path in sorted(source.glob("labels_*.jsonl")):
        for row in read_lines(path):
            labels[row["key"]] = row
    cards = {str(t): read_lines(t) for t in todos}
    bad = 0
    for key, row in labels.items():
        if key not in keys or keys[key][0] not in cards:
            continue
        todo, index = keys[key]
        line = cards[todo][index]
        allowed = INVARIANT_LABELS if line["expectation"] == "invariant" else DECREASE_LABELS
        if row.get("label") not in allowed:
            print(f"{key}: label {row.get('label')!r} is not one of {allowed}", file=sys.stderr)
            bad += 1
            continue
        line["label"], line["note"] = row["label"], row.get("note", "")
    for todo, lines in cards.items():
        path = Path(todo)
        left = sum(not line.get("label") for line in lines)
        try:
            # the project's card writer: locked, atomic, and never over anything but a card
            if left:
                write_card(lines, path, flag="import")
                print(f"{path}: {left} of {len(lines)} lines still unlabelled", file=sys.stderr)
            else:
                final = path.with_name(path.name.replace(".todo.jsonl", ".jsonl"))
                # a finished card never replaces one already there: that one holds someone's judgements
                write_card(lines, final, inputs=[("the card being labelled", path)], replace=False, flag="import")
                path.unlink()
                print(f"{final}: complete ({len(lines)} lines)", file=sys.stderr)
        except InputError as error:
            print(f"blind_cards.py: {error}", file=sys.stderr)
            bad += 1
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    e = sub.add_parser("export")
    e.add_argument("todos", type=Path, nargs="+")
    e.add_argument("--out", type=Path, required=True)
    e.add_argument("--batch", type=int, default=120)
    e.add_argument("--seed", type=int, default=0)
    i = sub.add_parser("import")
    i.add_argument("todos", type=Path, nargs="+")
    i.add_argument("--from", dest="source", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "export":
        try:
            return export(args.todos, args.out, args.batch, args.seed)
        except InputError as error:  # the folder writer's refusal: one line, nothing written
            parser.error(str(error))
    return import_labels(args.todos, args.source)


if __name__ == "__main__":
    sys.exit(main())
