"""The ``rome`` command line: the application layer on top of every other layer.

Each sub-command lives in its own module exposing ``add_parser(subparsers)``; a module's
heavy imports happen inside its handler, so ``rome --help`` stays fast. Input problems
(:class:`InputError`, :class:`ResourceMissingError`) print one line and exit with code 2. ``kill PID``
(SIGTERM) stops a run as Ctrl+C does: its temporary files are removed, exit code 130.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import os
import signal
import sys
import threading
from collections.abc import Callable

from rome.core.errors import InputError, ResourceMissingError

#: sub-command modules, in the order ``rome --help`` lists them
COMMANDS = ("score", "perturb", "judge", "suite", "challenge", "validity", "report", "annotate", "bench", "cache")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rome", description="Robustness harness for NLG metrics.")
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"reports.cli.{name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"reports.cli.{name}":
                raise
            continue
        module.add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    parser = build_parser()
    args = parser.parse_args(argv)
    restore = _stop_on_sigterm()
    unraisable = sys.unraisablehook
    try:
        return int(args.handler(args) or 0)
    except (InputError, ResourceMissingError) as exc:
        print(f"rome {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:  # unwritable output, a directory given as a file, disk full ...
        where = f": {exc.filename}" if exc.filename else ""
        print(f"rome {args.command}: error: {exc.strerror or exc}{where}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"rome {args.command}: interrupted", file=sys.stderr)
        sys.unraisablehook = _quiet  # the traceback's objects are freed on leaving this block
        return 130
    finally:
        restore()
        if sys.unraisablehook is _quiet:  # interrupted: what the traceback held goes now, cycles included
            gc.collect()
        sys.unraisablehook = unraisable  # a caller's own process keeps its hook


def _quiet(unraisable: object) -> None:
    """An interrupt can land inside any library's constructor (a tqdm bar's, say); the half-built object's
    finalizer then fails with an "Exception ignored" traceback. The run already said it was interrupted,
    and is ending: that one line is all it prints."""


def _stop_on_sigterm() -> Callable[[], None]:
    """Make ``kill PID`` (``timeout``, a batch scheduler) stop a run as Ctrl+C does, so that its temporary
    files and staging folders are removed; returns what puts the handler it replaced back. Only the main
    thread can set one; a process forked from this one (a worker pool) keeps the default: it just ends."""
    if threading.current_thread() is not threading.main_thread():
        return lambda: None
    pid = os.getpid()

    def interrupt(signum: int, frame: object) -> None:
        if os.getpid() != pid:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    return lambda: signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
