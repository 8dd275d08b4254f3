"""``rome validity``: how valid each shipped perturbation is on each corpus, from its judged cards.

A card is judged text (:mod:`suites.harness.validity`): the command draws the current code's variants
with each card's seed and prints, per corpus, suite and expectation, the judged lines it reproduces, the
share of them a careful reader judged to do what the expectation says (Wilson 95 % interval), and the
lines the code now makes that no reader judged (to judge next). ``rome validity --draw SUITE [--data
CORPUS|FILE]`` writes exactly those unjudged lines (or, for a corpus without a card, a fresh sample of
``--n`` with ``--seed``) as a todo card under the output folder (or ``--out``; the shipped cards are only
read); ``rome annotate --validity CARD`` judges it in the browser. See docs/validity.md for the rubric.
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
    p.add_argument("--cards", type=Path, default=None,
                   help="card folder (default: the cards shipped in the package, with the user's under ROME_OUT/cards)")
    p.add_argument("--draw", metavar="SUITE", default=None,
                   help="write the lines SUITE's perturbation draws that no reader judged, as a todo card to judge by hand")
    p.add_argument("--data", action="append", default=None, metavar="CORPUS|FILE",
                   help="corpus to report or draw from: a shipped corpus or a JSONL of {id, reference, original} "
                        "lines; repeatable (default: every shipped corpus; --draw: the suite's own)")
    p.add_argument("--suite", action="append", default=None, metavar="SUITE",
                   help="report only this suite; repeatable (default: every shipped suite)")
    p.add_argument("--n", type=int, default=None,
                   help=f"--draw: a fresh sample of N variants instead of the card's own draws (default {CARD_SIZE} "
                        "where the corpus has no card)")
    p.add_argument("--per-expectation", action="store_true",
                   help="--draw: the first N variants of each expectation (e.g. adjective synonyms and antonyms)")
    p.add_argument("--seed", type=int, default=None,
                   help="--draw: seed of a fresh sample (default: the suite's own, so the card holds the first cases "
                        "of the suite's default run)")
    p.add_argument("--out", type=Path, default=None,
                   help="where --draw writes (default: <corpus>/<card>.todo.jsonl under --cards when given, "
                        "else under ROME_OUT/cards or ./rome-out/cards)")
    p.add_argument("--force", action="store_true",
                   help="--draw: replace an existing card at the output path (never a file that is not a card)")
    p.add_argument("--strict", action="store_true", help="exit 1 when a card has lines to judge or is missing")
    p.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from reports.tables import provenance
    from reports.validity import (
        CARD_OUTPUT,
        CARD_SIZE,
        CURRENT,
        REDRAW_HINT,
        Draw,
        card_path,
        match_card,
        shipped_validity,
        validity_markdown,
        write_card,
    )
    from rome.core.paths import output_dir
    from suites.harness.validity import card_folders

    if args.cards is not None and not args.cards.is_dir():
        raise InputError(f"{args.cards}: no such card folder")
    folders = [args.cards] if args.cards else card_folders()
    if args.draw:
        from suites.harness.spec import load_suite

        if args.n is not None and args.n < 1:
            raise InputError("--n must be at least 1")
        if args.data and len(args.data) > 1:
            raise InputError("--draw takes one --data")
        suite = load_suite(args.draw).configured(data=args.data[0] if args.data else None)
        # the corpus drawn from is an input: the card never goes over it (nor over anything but a card)
        inputs = [("the --data file", Path(args.data[0]))] if args.data else []
        if args.out is not None:
            check_output(args.out, CARD_OUTPUT, inputs=inputs, flag="--out", replace=args.force,
                         exists_hint=REDRAW_HINT)
        fresh = args.n is not None or args.seed is not None or args.per_expectation
        draws = [Draw(suite.name, suite.seed if args.seed is None else args.seed, args.n or CARD_SIZE,
                      args.per_expectation)] if fresh else None
        match = match_card(suite, folders, draws)
        if draws is None and not match.drawn:  # no card on this corpus: a fresh sample
            match = match_card(suite, folders, [Draw(suite.name, suite.seed, CARD_SIZE, False)])
        lines = match.unjudged(suite)
        if not lines:
            if not match.drawn:
                raise InputError(f"suite {args.draw!r}: the perturbation changed none of the texts tried")
            print(f"nothing to judge: every line the code draws for card {match.card} on {suite.corpus} is judged",
                  file=sys.stderr)
            return 0
        drawn_to = args.cards or output_dir("cards")  # the shipped cards are read, never written
        out = write_card(lines, args.out or card_path(match.card, suite.corpus, drawn_to).with_suffix(".todo.jsonl"),
                         inputs=inputs, replace=args.force)
        print(f"wrote {len(lines)} unlabelled variants (of {len(match.drawn)} drawn) to {out}; label each line "
              "(docs/validity.md)", file=sys.stderr)
        return 0
    rows = shipped_validity(folders, data=args.data, suites=args.suite)
    print(validity_markdown(rows), end="")
    print(f"\nProduced by rome validity, {provenance()}")  # the code the figures were judged against
    if args.strict and any(status.state != CURRENT for *_, status in rows):
        return 1
    return 0
