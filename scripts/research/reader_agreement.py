"""A second reader's labels of the validity cards beside the cards': validity by each reader, agreement, κ.

``python scripts/research/reader_agreement.py [--cards DIR]`` reads every ``<corpus>/second_reader/<card>.jsonl``
under the card folder (default ``perturbations/cards``): lines of ``<corpus>/<card>.jsonl`` relabelled by
another reader, blind to the card's labels and to every score (docs/validity.md, "A second reader").
It prints one Markdown row per (corpus, card, expectation): n compared, validity by the card's reader
and by the second (Wilson 95 %), the share of lines both call valid, verdict agreement, same-label
agreement and Cohen's κ of the valid / not-valid verdicts. Nothing is written.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def agreement_rows(cards_dir: Path) -> list[str]:
    from reports.validity import load_card, reader_agreement

    rows = ["| corpus | card | expectation | n | card's reader | second reader [Wilson 95 %] | verdicts agree | same label | κ |",
            "|---|---|---|---|---|---|---|---|---|"]
    for second_path in sorted(cards_dir.glob("*/second_reader/*.jsonl")):
        corpus, card = second_path.parent.parent.name, second_path.stem
        first = load_card(second_path.parent.parent / f"{card}.jsonl")
        for expectation, a in reader_agreement(first, load_card(second_path)).items():
            low, high = a.second_interval
            kappa = "–" if a.kappa is None else f"{a.kappa:.2f}"
            rows.append(f"| {corpus} | {card} | {expectation} | {a.n} | {a.first_valid / a.n:.0%} | "
                        f"{a.second_valid / a.n:.0%} [{low * 100:.0f}, {high * 100:.0f}] | {a.agreed / a.n:.0%} | "
                        f"{a.same_label / a.n:.0%} | {kappa} |")
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=Path, default=None, help="card folder (default: perturbations/cards)")
    args = parser.parse_args(argv)
    from reports.validity import default_cards_dir

    print("\n".join(agreement_rows(args.cards or default_cards_dir())))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
