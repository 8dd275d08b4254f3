"""``rome judge``: the perturbations' judge on (text, variant) pairs from a JSONL file.

Input lines ``{"id", "text", "variant"}``; output lines ``{"id", "valid", "p_valid"}`` in input order:
``p_valid`` is the calibrated probability that a careful reader finds the variant valid (same meaning,
natural English), ``valid`` whether it reaches the kind's operating point
(:mod:`perturbations.judge`, docs/perturbations.md#judge). The same code path as the perturbations:
the changed words are found by diffing the two texts. Written through the one safe writer
(:mod:`rome.core.files`): complete or not at all, never over the input, with ``--force`` only over an
earlier output of ``rome judge``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from perturbations.judge import KINDS
from rome.core.errors import InputError
from rome.core.files import OutputKind
from rome.core.jsonl import dump_line, read_jsonl, require_text, unique_id

JUDGE_OUTPUT = OutputKind("an output of rome judge", frozenset({"id", "valid", "p_valid"}))
#: pairs scored per call (a progress step; the judge batches within it by original)
CHUNK = 64


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("judge", help="judge (text, variant) pairs: calibrated P(valid) and the verdict")
    p.add_argument("--kind", required=True, choices=KINDS, help="the perturbation kind whose operating point decides")
    p.add_argument("--input", type=Path, required=True, help='JSONL: {"id", "text", "variant"} per line')
    p.add_argument("--output", type=Path, required=True, help='JSONL: {"id", "valid", "p_valid"} per line, in input order')
    p.add_argument("--force", action="store_true",
                   help="overwrite an existing --output (replaced only once the new output is complete)")
    p.set_defaults(handler=run)


def load_pairs(path: Path) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    seen: dict[str, tuple[int, bool]] = {}
    for number, obj in read_jsonl(path):
        where = f"{path}:{number}"
        if "id" not in obj:
            raise InputError(f"{where}: field 'id' is missing")
        unique_id(obj, number, seen, where)
        text = require_text(obj, "text", where)
        variant = require_text(obj, "variant", where)
        if not text.strip() or not variant.strip():
            raise InputError(f"{where}: 'text' and 'variant' must not be empty")
        items.append({"id": obj["id"], "text": text, "variant": variant})
    if not items:
        raise InputError(f"{path}: no pairs to judge")
    return items


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from perturbations.judge import get_judge
    from rome.core.files import check_output, safe_output

    where = {"inputs": [("the input file", args.input)], "replace": args.force}
    check_output(args.output, JUDGE_OUTPUT, **where)  # before any work; checked again under the lock
    items = load_pairs(args.input)
    judge = get_judge(args.kind)
    probabilities: list[float] = []
    with tqdm(total=len(items), unit="pair", disable=len(items) < CHUNK, file=sys.stderr) as bar:
        for start in range(0, len(items), CHUNK):
            chunk = items[start:start + CHUNK]
            probabilities += judge.p_valid([(x["text"], x["variant"]) for x in chunk])
            bar.update(len(chunk))
    accepted = 0
    with safe_output(args.output, JUDGE_OUTPUT, **where) as out:
        for item, p in zip(items, probabilities):
            valid = judge.accepts(p)
            accepted += valid
            out.write(dump_line({"id": item["id"], "valid": valid, "p_valid": round(p, 6)}))
    print(f"judged {len(items)} pairs ({accepted} valid at {args.kind}'s threshold {judge.threshold}) "
          f"to {args.output}", file=sys.stderr)
    return 0
