"""Convert validity cards of the older format to the one format (run once; kept for cards a user drew then).

    python scripts/research/convert_cards.py CARD.jsonl [CARD.jsonl ...] --out DIR

Writes each converted card under ``DIR`` at its path below the ``cards`` folder (``DIR/news/spelling.jsonl``):
the shipped cards live inside the package, which rome never writes; a maintainer copies them in.

A line of the older format names the code it was drawn with (``fingerprint``) and not the size of its draw.
The size is what the older reader inferred: per (suite, seed) group, the count of its lines (per expectation
when the group holds both sides or says what it ``found``), at least :data:`CARD_SIZE` when the draw took every
variant there was (``exhausted``). Each line gets ``n``, ``per_expectation`` and ``rubric``; ``fingerprint``
and ``exhausted`` go. Labels, texts and notes are unchanged; a card of the current format is left as it is.
"""

from __future__ import annotations

import argparse
from collections import Counter
from pathlib import Path

from reports.validity import CARD_SIZE, RUBRIC, load_card, write_card

OLD_ONLY = ("fingerprint", "exhausted", "found")


def convert(lines: list[dict]) -> list[dict]:
    groups: dict[tuple[str, int], list[dict]] = {}
    for line in lines:
        if not isinstance(line.get("n"), int):
            groups.setdefault((str(line.get("suite")), int(line.get("seed", 0))), []).append(line)
    for group in groups.values():
        per_expectation = "found" in group[0] or len({line["expectation"] for line in group}) > 1
        size = max(Counter(line["expectation"] for line in group).values()) if per_expectation else len(group)
        if any(line.get("exhausted") for line in group):
            size = max(size, CARD_SIZE)
        for line in group:
            line.update(n=size, per_expectation=per_expectation, rubric=RUBRIC)
    return [{k: v for k, v in line.items() if k not in OLD_ONLY} for line in lines]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cards", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True, help="folder to write the converted cards under")
    args = parser.parse_args(argv)
    for path in args.cards:
        lines = load_card(path)
        converted = convert([dict(line) for line in lines])
        if converted != lines:
            parts = path.resolve().parts
            below = Path(*parts[parts.index("cards") + 1:]) if "cards" in parts else Path(path.name)
            out = write_card(converted, args.out / below, inputs=[("the card converted", path)])
            print(f"converted {path} ({len(lines)} lines): {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
