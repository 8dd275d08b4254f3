"""``rome cache``: where the score cache is, how big, what it holds; ``rome cache prune`` bounds it.

Every command shares one SQLite score cache (:mod:`rome.core.cache`; ``ROME_CACHE_DIR``, else
``~/.cache/rome-harness``). It grows with every new text, metric setting and code change, since an
edited metric signs anew and its old entries are never served again. ``rome cache`` lists the
entries per signature with their last use and whether a metric installed now still has that
signature; ``rome cache prune`` drops entries not used for ``--older-than DAYS``, the scores of
signatures no current metric has (``--keep-signatures current``) and the least recently used entries
down to ``--max-mb``, then compacts the file. ``--dry-run`` says what it would drop. ``--max-mb inf``
(or any value too large for a float) sets no size limit: the other rules still apply.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

from rome.core.errors import InputError, ResourceMissingError

MB = 1_000_000


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("cache", help="report the score cache (location, size, entries per signature) or prune it")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    actions = p.add_subparsers(dest="action", metavar="{info,prune}")
    info = actions.add_parser("info", help="the report (the default)")
    info.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print the report as JSON")
    prune = actions.add_parser("prune", help="drop old, stale or least recently used entries, then compact the file")
    prune.add_argument("--older-than", type=float, default=None, metavar="DAYS",
                       help="drop scores and suite cases not used (written or read) for DAYS days")
    prune.add_argument("--keep-signatures", choices=["current"], default=None,
                       help="'current': drop the scores of every signature no metric installed now has (its code, "
                            "weights or harness version changed since; a metric that cannot be built here keeps its "
                            "entries)")
    prune.add_argument("--max-mb", type=float, default=None, metavar="N",
                       help="then drop the least recently used entries until the file holds at most N MB (inf: no size limit)")
    prune.add_argument("--dry-run", action="store_true", help="say what would be dropped; change nothing")
    p.set_defaults(handler=run)


def _max_bytes(max_mb: float | None) -> int | None:
    """``--max-mb`` in bytes; ``None`` (no size limit) for none or one whose bytes no float holds ("inf", "1e400",
    "1e308")."""
    size = None if max_mb is None else max_mb * MB
    return None if size is None or math.isinf(size) else int(size)


def run(args: argparse.Namespace) -> int:
    from rome.core.cache import default_cache_path

    path = default_cache_path()
    if args.action == "prune":
        _check_prune(args)
    if not path.is_file():
        print(f"no score cache at {path} yet (nothing cached); ROME_CACHE_DIR sets its folder")
        return 0
    return _prune(path, args) if args.action == "prune" else _info(path, args.json)


def _check_prune(args: argparse.Namespace) -> None:
    if args.older_than is None and args.keep_signatures is None and args.max_mb is None:
        raise InputError("prune needs --older-than DAYS, --keep-signatures current and/or --max-mb N")
    if args.older_than is not None and not args.older_than >= 0:
        raise InputError("--older-than must be a number of days, 0 or more")
    if args.max_mb is not None and not args.max_mb > 0:
        raise InputError("--max-mb must be more than 0")


def signature_identity(signature: str) -> tuple[str, str | None, str | None]:
    """(metric name, harness version, code fingerprint) of a signature as cached (``name|k:v|...``)."""
    name, *fields = signature.split("|")
    values = dict(field.split(":", 1) for field in fields if ":" in field)
    return name, values.get("harness"), values.get("code")


def current_signatures() -> tuple[set[tuple[str, str | None, str | None]], set[str]]:
    """The (name, harness, code) of every registered metric built with its default options, and the names
    of those that cannot be built here (whose entries cannot be judged, so are kept)."""
    from rome.core.registry import available_metrics, build_metric

    current, unknown = set(), set()
    for name in available_metrics():
        try:
            current.add(signature_identity(str(build_metric(name).signature())))
        except (InputError, ResourceMissingError, ImportError, OSError):
            unknown.add(name)
    return current, unknown


def is_current(signature: str, current: set, unknown: set[str]) -> bool | None:
    """Whether a metric installed now signs this way (``None``: its metric cannot be built here)."""
    identity = signature_identity(signature)
    if identity in current:
        return True
    return None if identity[0] in unknown else False


def _open(path: Path):
    from rome.core.cache import ScoreCache

    return ScoreCache(path)


def _when(at: int | None) -> str | None:
    return None if at is None else time.strftime("%Y-%m-%d %H:%M", time.localtime(at))


def _info(path: Path, as_json: bool) -> int:
    cache = _open(path)
    try:
        usage, cases, size = cache.usage(), cache.payload_count(), cache.disk_bytes()
    finally:
        cache.close()
    current, unknown = current_signatures()
    total_raw = sum(u.payload_bytes for u in usage) or 1
    rows = [{"signature": u.signature, "entries": u.entries, "approx_bytes": int(size * u.payload_bytes / total_raw),
             "last_used": _when(u.last_used), "current": is_current(u.signature, current, unknown)} for u in usage]
    if as_json:
        print(json.dumps({"path": str(path), "bytes": size, "scores": sum(u.entries for u in usage),
                          "suite_cases": cases, "signatures": rows}, indent=2))
        return 0
    stale = sum(1 for row in rows if row["current"] is False)
    print(f"score cache: {path}, {size / MB:.1f} MB")
    print(f"{sum(u.entries for u in usage):,} scores under {len(usage)} signature(s), {stale} not current"
          f"{' (rome cache prune --keep-signatures current drops them)' if stale else ''}; "
          f"{cases:,} set(s) of built suite cases")
    if rows:
        print(f"{'entries':>10} {'~MB':>8}  {'last used':<16}  {'current':<7}  signature")
        for row in rows:
            mark = {True: "yes", False: "no", None: "?"}[row["current"]]
            print(f"{row['entries']:>10,} {row['approx_bytes'] / MB:>8.2f}  {row['last_used'] or 'not yet dated':<16}  "
                  f"{mark:<7}  {row['signature']}")
    return 0


def _prune(path: Path, args: argparse.Namespace) -> int:
    keep = None
    if args.keep_signatures == "current":
        current, unknown = current_signatures()
        keep = lambda signature: is_current(signature, current, unknown) is not False  # noqa: E731
    cache = _open(path)
    try:
        result = cache.prune(older_than_s=None if args.older_than is None else args.older_than * 86400,
                             keep_signature=keep, max_bytes=_max_bytes(args.max_mb),
                             dry_run=args.dry_run)
    finally:
        cache.close()
    verb = "would drop" if args.dry_run else "dropped"
    print(f"{verb} {result.scores:,} scores and {result.cases:,} set(s) of built suite cases from {path}: "
          f"{result.bytes_before / MB:.1f} MB -> {'~' if args.dry_run else ''}{result.bytes_after / MB:.1f} MB")
    for signature in result.signatures:
        print(f"  not current: {signature}")
    return 0
