"""``rome score``: score (hypothesis, reference) pairs with any registered metrics.

Long inputs are scored in chunks and appended to the output as they finish, so an
interrupted run loses at most one chunk and ``--resume`` picks up after the last id written.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rome.core.errors import InputError
from rome.core.jsonl import dump_line, read_jsonl, require_text


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="score pairs from a JSONL file or one pair from the command line")
    src = p.add_argument_group("input (either --input or --hyp/--ref)")
    src.add_argument("--input", type=Path, help='JSONL: {"id", "hypothesis", "reference": str or [str]}')
    src.add_argument("--hyp", help="one hypothesis text")
    src.add_argument("--ref", action="append", help="one reference text (repeat for several)")
    p.add_argument("--metric", action="append", default=None, help="metric name, repeatable; 'all' for every metric")
    p.add_argument("--model", default=None, help="encoder for model-based metrics (HF name or local path)")
    p.add_argument("--output", type=Path, help="output JSONL (input line + 'scores')")
    p.add_argument("--resume", action="store_true", help="continue an interrupted run: skip ids already in --output")
    p.add_argument("--force", action="store_true", help="overwrite an existing --output")
    p.add_argument("--chunk-size", type=int, default=512, help="pairs scored and written per step")
    p.add_argument("--engine", choices=("local", "ray"), default="local",
                   help="local (default) or ray: same input and output, scored on Ray actors")
    p.add_argument("--ray-address", default=None, help="Ray cluster address (default: RAY_ADDRESS or a local instance)")
    p.add_argument("--workers", type=int, default=None, help="Ray actors to start (default: one per CPU)")
    p.set_defaults(handler=run)


def build_metrics(names: list[str] | None, model: str | None) -> dict[str, Any]:
    from rome.core.registry import build_metrics as build
    from rome.core.registry import expand_metric_names

    return build(expand_metric_names(names or ["all"]), model)


def run(args: argparse.Namespace) -> int:
    if args.input is None and args.hyp is None:
        raise InputError("give --input FILE, or --hyp TEXT with --ref TEXT")
    if args.input is not None and args.hyp is not None:
        raise InputError("give either --input or --hyp/--ref, not both")
    if args.chunk_size < 1:
        raise InputError("--chunk-size must be at least 1")
    if args.hyp is not None:
        return _score_single(args)
    return _score_file(args)


def _score_single(args: argparse.Namespace) -> int:
    if not args.ref:
        raise InputError("--hyp needs at least one --ref")
    refs: str | list[str] = args.ref[0] if len(args.ref) == 1 else args.ref
    metrics = build_metrics(args.metric, args.model)
    rows = []
    for name, metric in metrics.items():
        explain = getattr(metric, "explain", None)
        if callable(explain):  # metrics with components (RoMe) show them, as in the paper's Table 2
            for key, value in explain(args.hyp, refs).items():
                rows.append((key, value, ""))
        else:
            rows.append((name, metric.score_one(args.hyp, refs), str(metric.signature())))
    width = max(len(r[0]) for r in rows)
    for key, value, sig in rows:
        print(f"{key:<{width}}  {value:9.4f}  {sig}".rstrip())
    return 0


def _load_pairs(path: Path) -> list[dict[str, Any]]:
    items, seen = [], set()
    for number, obj in read_jsonl(path):
        where = f"{path}:{number}"
        obj.setdefault("id", number)
        require_text(obj, "hypothesis", where)
        require_text(obj, "reference", where, allow_list=True)
        key = str(obj["id"])
        if key in seen:
            raise InputError(f"{where}: duplicate id {obj['id']!r}")
        seen.add(key)
        items.append(obj)
    if not items:
        raise InputError(f"{path}: no pairs to score")
    return items


def _done_ids(path: Path) -> set[str]:
    return {str(obj.get("id")) for _, obj in read_jsonl(path)} if path.exists() else set()


def _score_file(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    if args.output is None:
        raise InputError("--input needs --output FILE")
    items = _load_pairs(args.input)
    if args.output.exists() and not (args.resume or args.force):
        raise InputError(f"{args.output} exists; pass --resume to continue it or --force to overwrite it")
    done = _done_ids(args.output) if args.resume else set()
    todo = [it for it in items if str(it["id"]) not in done]
    from rome.core.registry import expand_metric_names
    from rome.core.scoring import get_engine

    names = expand_metric_names(args.metric or ["all"])
    options = {"address": args.ray_address, "workers": args.workers} if args.engine == "ray" else {}
    engine = get_engine(args.engine, **options)
    if done:
        print(f"resuming: {len(items) - len(todo)} of {len(items)} pairs already in {args.output}", file=sys.stderr)
    mode = "a" if args.resume else "w"
    args.output.parent.mkdir(parents=True, exist_ok=True)
    with args.output.open(mode, encoding="utf-8") as out, tqdm(
        total=len(todo), unit="pair", disable=len(todo) < args.chunk_size, file=sys.stderr
    ) as bar:
        for scored in engine.run(todo, items, names, args.model, args.chunk_size):
            out.writelines(dump_line(row) for row in scored)
            out.flush()
            bar.update(len(scored))
    print(f"wrote {len(todo)} scored pairs to {args.output}", file=sys.stderr)
    return 0
