"""``rome annotate``: rate perturbed cases in the browser, export the ratings, measure agreement.

``rome annotate --cases CASES.jsonl --annotator NAME`` serves the annotation app on 127.0.0.1;
``rome annotate export`` writes the JSONL that ``rome report robustness --annotations`` reads;
``rome annotate agreement`` prints Cohen's / Fleiss' κ per criterion and the large disagreements.
``rome annotate --validity TODO_CARD.jsonl --annotator NAME`` serves the validity mode instead: judge a
card drawn by ``rome validity --draw`` against the rubric; the labelled card is written when every
line is judged (``rome annotate export-card`` writes it from a store).
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import signal
import sys
import threading
from pathlib import Path

from rome.core.errors import InputError
from rome.core.files import OutputKind
from rome.core.paths import writable_default

DEFAULT_PORT = 8765
STORE_NAME = "annotations.sqlite"
#: what ``rome annotate agreement --json`` writes: the only file it is written over
AGREEMENT_OUTPUT = OutputKind("an agreement report of rome annotate", frozenset({"annotators", "criteria"}),
                              jsonl=False)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "annotate", help="rate cases in the browser; export ratings; inter-annotator agreement",
        description="Without a sub-command: serve the annotation app (needs --cases or --validity, and "
                    "--annotator).")
    p.add_argument("--cases", type=Path, help="a suite's cases.jsonl, or JSONL with id, reference, hypothesis")
    p.add_argument("--validity", type=Path, default=None, metavar="TODO_CARD",
                   help="judge this unlabelled validity card (from `rome validity --draw`) instead of rating cases")
    p.add_argument("--out", dest="card_out", type=Path, default=None, metavar="CARD",
                   help="with --validity: where the labelled card goes (default: the todo path without .todo)")
    p.add_argument("--annotator", help="your name as stored with each rating")
    p.add_argument("--store", type=Path, default=None,
                   help=f"SQLite file for the ratings or judgements (default: {STORE_NAME} beside the input; "
                        "under ROME_OUT when the input is a file inside the installed package)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1; anything else exposes the app to the network)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free port)")
    p.set_defaults(handler=run)
    actions = p.add_subparsers(dest="annotate_action", metavar="{export,agreement,export-card}")

    e = actions.add_parser("export", help="write the ratings as JSONL (the robustness report's --annotations)")
    e.add_argument("--store", dest="stores", type=Path, action="append", required=True,
                   help="annotation store (repeat to merge stores from several machines)")
    e.add_argument("--out", type=Path, required=True, help="output JSONL file")

    a = actions.add_parser("agreement", help="Cohen's / Fleiss' kappa per criterion and large disagreements")
    a.add_argument("--store", dest="stores", type=Path, action="append", required=True,
                   help="annotation store (repeat to merge stores from several machines)")
    a.add_argument("--annotators", default=None, help="comma-separated subset of annotators (default: all)")
    a.add_argument("--min-spread", type=int, default=2,
                   help="flag a case when two ratings of a criterion differ by this much (default 2: 1 vs 3)")
    a.add_argument("--json", type=Path, default=None, help="also write the full report as JSON here")

    c = actions.add_parser("export-card", help="write the labelled validity card from a store's judgements")
    c.add_argument("--store", dest="judgement_store", type=Path, required=True, metavar="STORE", help="the judgements' SQLite file")
    c.add_argument("--validity", dest="todo", type=Path, required=True, metavar="TODO_CARD",
                   help="the unlabelled card that was judged")
    c.add_argument("--annotator", dest="judge", required=True, metavar="NAME", help="whose judgements to write")
    c.add_argument("--out", dest="card_out", type=Path, default=None, metavar="CARD",
                   help="the labelled card (default: the todo path without .todo)")


def run(args: argparse.Namespace) -> int:
    """No sub-command serves the app; ``export`` and ``agreement`` work on stores only."""
    handlers = {None: run_serve, "export": run_export, "agreement": run_agreement, "export-card": run_export_card}
    return handlers[args.annotate_action](args)


def _check_annotator(name: str | None) -> str:
    if name is None or not name.strip():
        raise InputError("--annotator NAME is required to serve the app")
    if len(name) > 100 or not name.isprintable():
        raise InputError("--annotator must be printable and at most 100 characters")
    return name.strip()


def _is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def run_serve(args: argparse.Namespace) -> int:
    from reports.annotate.app import LOOPBACK_HOSTS, create_app
    from reports.annotate.cases import load_cases
    from reports.annotate.store import AnnotationStore

    if args.cases is not None and args.validity is not None:
        raise InputError("give --cases (rate cases) or --validity (judge a card), not both")
    if args.validity is not None:
        return run_validity(args)
    if args.card_out is not None:
        raise InputError("--out goes with --validity (the labelled card); ratings are written by `export`")
    if args.cases is None:
        raise InputError("--cases CASES.jsonl (or --validity TODO_CARD.jsonl) is required to serve the app "
                         "(or use: export, agreement, export-card)")
    annotator = _check_annotator(args.annotator)
    _check_port(args.port)
    cases = load_cases(args.cases)
    store = AnnotationStore(args.store or writable_default(args.cases.parent / STORE_NAME, "annotate", STORE_NAME))
    known = {c.case_id: c.text_hash for c in cases}
    stale = [r for r in store.ratings(annotator) if r.case_id in known and r.text_hash != known[r.case_id]]
    if stale:
        print(f"warning: {len(stale)} of your ratings were made when those cases had other texts; "
              "they count as not rated here", file=sys.stderr)
    loopback = _warn_unless_loopback(args.host, "read the cases and post ratings")
    app = create_app(cases, store, annotator, trusted_hosts=LOOPBACK_HOSTS if loopback else None)
    return _serve_until_stopped(app, args.host, args.port, store,
                                f"annotating {len(cases)} cases as {annotator!r}; ratings go to {store.path}",
                                "every saved rating is already on disk")


def _check_port(port: int) -> None:
    if not 0 <= port <= 65535:
        raise InputError(f"--port must be 0-65535, got {port}")


def _warn_unless_loopback(host: str, exposed: str) -> bool:
    loopback = _is_loopback(host)
    if not loopback:
        print(f"warning: binding {host}: anyone who can reach this address can {exposed} under your name",
              file=sys.stderr)
    return loopback


def _serve_until_stopped(app, host: str, port: int, store, banner: str, saved: str) -> int:
    from reports.annotate.app import serve

    try:
        server = serve(app, host, port)
    except OSError as exc:
        store.close()
        raise InputError(f"cannot listen on {host}:{port} ({exc.strerror or exc})") from None
    shown = f"[{host}]" if ":" in host else host
    print(f"{banner}\nopen http://{shown}:{server.port}/  (Ctrl+C to stop; {saved})",
          file=sys.stderr, flush=True)
    main = threading.current_thread() is threading.main_thread()  # only there can a handler be set
    previous = signal.signal(signal.SIGTERM, _interrupt) if main else None  # ``kill PID`` stops it as Ctrl+C does
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
        server.server_close()
        store.close()
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def run_validity(args: argparse.Namespace) -> int:
    """Serve the validity mode: judge the todo card's lines; the labelled card goes to --out when complete."""
    from reports.annotate.app import LOOPBACK_HOSTS
    from reports.annotate.judgements import JudgementStore, default_card_out, load_todo_card
    from reports.annotate.validity import create_validity_app

    annotator = _check_annotator(args.annotator)
    _check_port(args.port)
    lines = load_todo_card(args.validity)
    out = _card_out(args.validity, args.card_out, default_card_out)
    store_path = args.store or writable_default(args.validity.parent / STORE_NAME, "cards",
                                                args.validity.parent.name, STORE_NAME)
    _check_card_out(out, args.validity, store_path)  # before the store is created: refused, nothing made
    store = JudgementStore(store_path)
    known = {line.key: line.text_hash for line in lines}
    stale = [j for j in store.judgements(annotator).values() if j.line_key in known and j.text_hash != known[j.line_key]]
    if stale:
        print(f"warning: {len(stale)} of your judgements were made when those lines had other texts; "
              "they count as not judged here", file=sys.stderr)
    loopback = _warn_unless_loopback(args.host, "read the card and post judgements")
    app = create_validity_app(lines, store, annotator, out, trusted_hosts=LOOPBACK_HOSTS if loopback else None)
    done = app.extensions["validity_session"].progress()["done"]
    return _serve_until_stopped(app, args.host, args.port, store,
                                f"judging card {lines[0].card!r} ({done} / {len(lines)} judged) as {annotator!r}; "
                                f"judgements go to {store.path}; the labelled card goes to {out} "
                                "once every line is judged", "every saved judgement is already on disk")


def _card_out(todo: Path, out: Path | None, default) -> Path:
    out = out or default(todo)
    if out.resolve() == todo.resolve():
        raise InputError(f"--out {out} is the card being judged; write the labelled card elsewhere")
    return out


def _check_card_out(out: Path, todo: Path, store: Path) -> None:
    """The labelled card may go to ``out``: not the todo card nor the store (as files, whatever the spelling),
    not a device or another file, only a card (one judged before is replaced, as the app does on every save)."""
    from reports.validity import CARD_OUTPUT
    from rome.core.files import check_output

    if store.resolve() == out.resolve():
        raise InputError(f"--out {out} is the judgement store {store}; write the labelled card elsewhere")
    check_output(out, CARD_OUTPUT, inputs=[("the card being judged", todo), ("the judgement store", store)],
                 flag="--out")


def run_export_card(args: argparse.Namespace) -> int:
    from reports.annotate.judgements import (
        JudgementStore,
        default_card_out,
        load_todo_card,
        write_labelled_card,
    )

    lines = load_todo_card(args.todo)
    out = _card_out(args.todo, args.card_out, default_card_out)
    _check_card_out(out, args.todo, args.judgement_store)
    with JudgementStore(args.judgement_store, create=False) as store:
        judged = store.current(lines, args.judge)
    write_labelled_card(lines, judged, out, [("the card being judged", args.todo),
                                             ("the judgement store", args.judgement_store)])
    print(f"wrote {len(lines)} judged lines of card {lines[0].card!r} by {args.judge!r} to {out}", file=sys.stderr)
    return 0


def run_export(args: argparse.Namespace) -> int:
    from reports.annotate.store import export_jsonl, load_ratings

    rows = load_ratings(args.stores)
    count = export_jsonl(rows, args.out, args.stores)
    annotators = sorted({r.annotator for r in rows})
    print(f"wrote {count} ratings ({len({r.case_id for r in rows})} cases, annotators: "
          f"{', '.join(annotators) or 'none'}) to {args.out}", file=sys.stderr)
    return 0


def run_agreement(args: argparse.Namespace) -> int:
    from reports.annotate.agreement import agreement, format_report
    from reports.annotate.store import load_ratings
    from rome.core.files import check_output, safe_output

    where = {"inputs": [("the annotation store", store) for store in args.stores], "flag": "--json"}
    if args.json is not None:  # refused before the agreement is computed and printed
        check_output(args.json, AGREEMENT_OUTPUT, **where)
    chosen = [a.strip() for a in args.annotators.split(",") if a.strip()] if args.annotators else None
    report = agreement(load_ratings(args.stores), chosen, args.min_spread)
    print(format_report(report), end="")
    if args.json is not None:
        with safe_output(args.json, AGREEMENT_OUTPUT, **where) as handle:
            handle.write(json.dumps(report.to_json(), ensure_ascii=False, indent=2) + "\n")
    return 0
