"""``rome perturb``: apply perturbations to texts from a JSONL file, reproducibly.

Each text gets its own generator seeded from ``--seed`` and the text's id
(:func:`perturbations.base.text_rng`, the one rule the suites use too: the same text, id and seed give
the same variant here and in ``rome suite``), so a line's variants do not depend on the order or the
number of lines around it. The output goes through the one safe writer (:mod:`rome.core.files`): written
to a temporary file and renamed when complete (a failed or killed run leaves no partial file), under a
lock (a second run on the same output is refused), never over the input, and with ``--force`` only over an
earlier output of ``rome perturb`` (never a device, a pipe or another file).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from rome.core.errors import InputError, ResourceMissingError
from rome.core.files import OutputKind
from rome.core.jsonl import dump_line, read_jsonl, require_text

PROGRESS_FROM = 200  # lines; shorter inputs finish before a bar would be useful
#: what ``rome perturb --output`` writes: the only file ``--force`` replaces
PERTURB_OUTPUT = OutputKind("an output of rome perturb", frozenset({"id", "text", "variants", "skipped"}))


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("perturb", help="perturb texts from a JSONL file (passive, adjective, repetition, ...)")
    p.add_argument("--kind", required=True, help="perturbation kind, or 'all' for every available kind")
    p.add_argument("--input", type=Path, required=True, help='JSONL: {"id", "text"} per line')
    p.add_argument("--output", type=Path, required=True,
                   help='JSONL: {"id", "text", "variants": [...], "skipped": reason or null}')
    p.add_argument("--seed", type=int, default=0, help="same seed, same variants (default 0)")
    p.add_argument("--force", action="store_true",
                   help="overwrite an existing --output (replaced only once the new output is complete)")
    p.set_defaults(handler=run)


def load_texts(path: Path) -> list[dict[str, Any]]:
    items, seen = [], set()
    for number, obj in read_jsonl(path):
        where = f"{path}:{number}"
        text = require_text(obj, "text", where)
        item_id = obj.get("id", number)
        if str(item_id) in seen:
            raise InputError(f"{where}: duplicate id {item_id!r}")
        seen.add(str(item_id))
        items.append({"id": item_id, "text": text})
    if not items:
        raise InputError(f"{path}: no texts to perturb")
    return items


def build(kind: str) -> dict[str, Any]:
    from perturbations.registry import available_perturbations, build_perturbation

    if kind != "all":
        return {kind: build_perturbation(kind)}
    built = {}
    for name in available_perturbations():
        try:
            built[name] = build_perturbation(name)
        except ResourceMissingError as exc:
            print(f"rome perturb: skipping kind {name!r}: {exc}", file=sys.stderr)
    if not built:
        raise ResourceMissingError("no perturbation could be built")
    return built


def perturb_item(item: dict[str, Any], perturbations: dict[str, Any], seed: int) -> dict[str, Any]:
    from perturbations.base import text_rng

    variants, reasons = [], []
    for kind, perturbation in perturbations.items():
        result = perturbation.apply(item["text"], text_rng(seed, str(item["id"])))
        variants.extend(v.to_dict() for v in result.variants)
        if not result.variants:
            reasons.append(f"{kind}: {result.skipped}" if len(perturbations) > 1 else str(result.skipped))
    return {"id": item["id"], "text": item["text"], "variants": variants,
            "skipped": None if variants else "; ".join(reasons)}


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from rome.core.files import check_output, safe_output

    where = {"inputs": [("the input file", args.input)], "replace": args.force}
    check_output(args.output, PERTURB_OUTPUT, **where)  # before any work; checked again under the lock
    items = load_texts(args.input)
    perturbations = build(args.kind)
    changed = 0
    with safe_output(args.output, PERTURB_OUTPUT, **where) as out:  # no partial output, an old one kept until then
        for item in tqdm(items, unit="text", disable=len(items) < PROGRESS_FROM, file=sys.stderr):
            row = perturb_item(item, perturbations, args.seed)
            changed += bool(row["variants"])
            out.write(dump_line(row))
    print(f"wrote {len(items)} texts ({changed} perturbed) with {', '.join(perturbations)} to {args.output}",
          file=sys.stderr)
    return 0
