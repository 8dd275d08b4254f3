"""Validity of each card on the development and the test half of its corpus.

    python scripts/validity_halves.py [--cards perturbations/cards] [--card textfooler --card passive ...]

The judge-decided perturbations (TextFooler, adjective, passive) had their thresholds set by reading
variants of development-half texts only: a text of corpus C with source id S is in the development half
iff ``int(sha256(f"{C}:{S}").hexdigest(), 16) % 2 == 0``. Their cards are drawn over the whole corpus;
the figure that was not fitted is the test half's. This prints one Markdown row per (corpus, card,
expectation, half): validity with its Wilson 95 % interval and n. Nothing is written.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=Path, default=Path(__file__).resolve().parents[1] / "perturbations" / "cards")
    parser.add_argument("--card", action="append", default=None, help="card name(s) (default: every card)")
    args = parser.parse_args(argv)
    from perturbations.halves import development_half
    from reports.stats import wilson_interval
    from reports.validity import GOOD_LABEL, load_card

    print("| corpus | card | expectation | half | validity [Wilson 95 %] | n |\n|---|---|---|---|---|---|")
    for path in sorted(args.cards.glob("*/*.jsonl")):
        if path.name.endswith(".todo.jsonl") or (args.card and path.stem not in args.card):
            continue
        corpus = path.parent.name
        groups: dict[tuple[str, str], list[bool]] = {}
        for line in load_card(path):
            half = "development" if development_half(corpus, line["source_id"]) else "test"
            groups.setdefault((line["expectation"], half), []).append(line["label"] == GOOD_LABEL[line["expectation"]])
        for (expectation, half), valid in sorted(groups.items()):
            low, high = wilson_interval(sum(valid), len(valid))
            print(f"| {corpus} | {path.stem} | {expectation} | {half} | {sum(valid) / len(valid):.0%} "
                  f"[{low * 100:.0f}, {high * 100:.0f}] | {len(valid)} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
