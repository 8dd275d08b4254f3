"""``rome validity``: how valid each shipped perturbation is on each corpus, from its judged cards.

Prints, per corpus, suite and expectation, the share of a card's variants a careful reader judged to
do what the expectation says, with a Wilson 95 % interval and n, and whether the card is current
(judged under the code's perturbation fingerprint), STALE (the perturbation changed since: judge a
fresh sample) or UNMEASURED (no card for that corpus). ``rome validity --draw SUITE [--data CORPUS|FILE]``
writes an unlabelled card to judge (no metric runs) under the output folder (or ``--cards DIR``: the
shipped cards are only read); ``rome annotate --validity CARD`` judges it in the browser. See
docs/validity.md for the rubric.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rome.core.errors import InputError
from rome.core.files import check_output


def add_parser(sub: argparse._SubParsersAction) -> None:
    from reports.validity import CARD_SIZE

    p = sub.add_parser("validity", help="validity of each perturbation (judged cards, Wilson 95 %% CI)")
    p.add_argument("--cards", type=Path, default=None, help="card folder (default: the cards shipped in the package)")
    p.add_argument("--draw", metavar="SUITE", default=None,
                   help="write an unlabelled card for SUITE's perturbation instead (to judge by hand)")
    p.add_argument("--data", action="append", default=None, metavar="CORPUS|FILE",
                   help="corpus to report or draw from: a shipped corpus or a JSONL of {id, reference, original} "
                        "lines; repeatable (default: every shipped corpus; --draw: the suite's own)")
    p.add_argument("--n", type=int, default=CARD_SIZE, help=f"variants to draw (default {CARD_SIZE})")
    p.add_argument("--per-expectation", action="store_true",
                   help="--draw: the first N variants of each expectation (e.g. adjective synonyms and antonyms)")
    p.add_argument("--seed", type=int, default=2026, help="seed of the drawn sample (default 2026)")
    p.add_argument("--out", type=Path, default=None,
                   help="where --draw writes (default: <corpus>/<card>.todo.jsonl under --cards when given, "
                        "else under ROME_OUT/cards or ./rome-out/cards)")
    p.add_argument("--force", action="store_true",
                   help="--draw: replace an existing card at the output path (never a file that is not a card)")
    p.add_argument("--strict", action="store_true", help="exit 1 when a card is stale or missing")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from reports.tables import provenance
    from reports.validity import (
        CARD_OUTPUT,
        CURRENT,
        REDRAW_HINT,
        card_path,
        default_cards_dir,
        draw_card,
        shipped_validity,
        validity_markdown,
        write_card,
    )
    from rome.core.paths import output_dir

    cards = args.cards or default_cards_dir()
    if args.draw:
        from suites.harness.spec import load_suite

        if args.n < 1:
            raise InputError("--n must be at least 1")
        if args.data and len(args.data) > 1:
            raise InputError("--draw takes one --data")
        suite = load_suite(args.draw).configured(data=args.data[0] if args.data else None)
        # the corpus drawn from is an input: the card never goes over it (nor over anything but a card)
        inputs = [("the --data file", Path(args.data[0]))] if args.data else []
        if args.out is not None:
            check_output(args.out, CARD_OUTPUT, inputs=inputs, flag="--out", replace=args.force,
                         exists_hint=REDRAW_HINT)
        lines = draw_card(suite, args.n, args.seed, args.per_expectation)
        if not lines:
            raise InputError(f"suite {args.draw!r}: the perturbation changed none of the texts tried")
        drawn_to = args.cards or output_dir("cards")  # the shipped cards are read, never written
        out = write_card(lines, args.out or card_path(lines[0]["card"], suite.corpus, drawn_to).with_suffix(".todo.jsonl"),
                         inputs=inputs, replace=args.force)
        print(f"wrote {len(lines)} unlabelled variants to {out}; label each line (docs/validity.md)", file=sys.stderr)
        return 0
    if args.cards is not None and not args.cards.is_dir():
        raise InputError(f"{args.cards}: no such card folder")
    rows = shipped_validity(cards, data=args.data)
    print(validity_markdown(rows), end="")
    print(f"\nProduced by rome validity, {provenance()}")  # the code the figures were judged against
    if args.strict and any(status.state != CURRENT for *_, status in rows):
        return 1
    return 0

