"""``rome annotate``: rate perturbed cases in the browser, export the ratings, measure agreement.

``rome annotate --cases CASES.jsonl --annotator NAME`` serves the annotation app on 127.0.0.1;
``rome annotate export`` writes the JSONL that ``rome report robustness --annotations`` reads;
``rome annotate agreement`` prints Cohen's / Fleiss' κ per criterion and the large disagreements.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import sys
from pathlib import Path

from rome.core.errors import InputError

DEFAULT_PORT = 8765
STORE_NAME = "annotations.sqlite"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "annotate", help="rate cases in the browser; export ratings; inter-annotator agreement",
        description="Without a sub-command: serve the annotation app (needs --cases and --annotator).")
    p.add_argument("--cases", type=Path, help="a suite's cases.jsonl, or JSONL with id, reference, hypothesis")
    p.add_argument("--annotator", help="your name as stored with each rating")
    p.add_argument("--store", type=Path, default=None,
                   help=f"SQLite file for the ratings (default: {STORE_NAME} beside the cases file)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to bind (default 127.0.0.1; anything else exposes the app to the network)")
    p.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0: any free port)")
    p.set_defaults(handler=run)
    actions = p.add_subparsers(dest="annotate_action", metavar="{export,agreement}")

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


def run(args: argparse.Namespace) -> int:
    """No sub-command serves the app; ``export`` and ``agreement`` work on stores only."""
    handlers = {None: run_serve, "export": run_export, "agreement": run_agreement}
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
    from reports.annotate.app import LOOPBACK_HOSTS, create_app, serve
    from reports.annotate.cases import load_cases
    from reports.annotate.store import AnnotationStore

    if args.cases is None:
        raise InputError("--cases CASES.jsonl is required to serve the app (or use: export, agreement)")
    annotator = _check_annotator(args.annotator)
    if not 0 <= args.port <= 65535:
        raise InputError(f"--port must be 0-65535, got {args.port}")
    cases = load_cases(args.cases)
    store = AnnotationStore(args.store or args.cases.parent / STORE_NAME)
    known = {c.case_id: c.text_hash for c in cases}
    stale = [r for r in store.ratings(annotator) if r.case_id in known and r.text_hash != known[r.case_id]]
    if stale:
        print(f"warning: {len(stale)} of your ratings were made when those cases had other texts; "
              "they count as not rated here", file=sys.stderr)
    loopback = _is_loopback(args.host)
    if not loopback:
        print(f"warning: binding {args.host}: anyone who can reach this address can read the cases and "
              "post ratings under your name", file=sys.stderr)
    app = create_app(cases, store, annotator, trusted_hosts=LOOPBACK_HOSTS if loopback else None)
    try:
        server = serve(app, args.host, args.port)
    except OSError as exc:
        raise InputError(f"cannot listen on {args.host}:{args.port} ({exc.strerror or exc})") from None
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"annotating {len(cases)} cases as {annotator!r}; ratings go to {store.path}\n"
          f"open http://{shown}:{server.port}/  (Ctrl+C to stop; every saved rating is already on disk)",
          file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        server.server_close()
        store.close()
    return 0


def run_export(args: argparse.Namespace) -> int:
    from reports.annotate.store import export_jsonl, load_ratings

    rows = load_ratings(args.stores)
    count = export_jsonl(rows, args.out)
    annotators = sorted({r.annotator for r in rows})
    print(f"wrote {count} ratings ({len({r.case_id for r in rows})} cases, annotators: "
          f"{', '.join(annotators) or 'none'}) to {args.out}", file=sys.stderr)
    return 0


def run_agreement(args: argparse.Namespace) -> int:
    from reports.annotate.agreement import agreement, format_report
    from reports.annotate.store import load_ratings

    chosen = [a.strip() for a in args.annotators.split(",") if a.strip()] if args.annotators else None
    report = agreement(load_ratings(args.stores), chosen, args.min_spread)
    print(format_report(report), end="")
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(report.to_json(), ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return 0
