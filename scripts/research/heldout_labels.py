"""Judged cards of a corpus whose text may not be redistributed, kept as labels without the text.

    python scripts/research/heldout_labels.py redact CARDS/<corpus> --out docs/heldout-cards/<corpus>.labels.jsonl
    python scripts/research/heldout_labels.py restore docs/heldout-cards/<corpus>.labels.jsonl --data FILE --out CARDS

The WMT 2021 news texts carry no licence (research use only), so their judged cards stay outside the
repository. ``redact`` writes one line per judged variant with everything but the texts: card, suite,
source id, expectation, label, note, the draw (seed, size, per expectation), the rubric version, and the
SHA-256 of the original and of the variant. ``restore`` draws each card again from ``--data`` with the
current code (the card's own draws, :func:`suites.harness.validity.draw_cases`) and puts back the label
of every line whose texts hash as recorded; a line the code no longer produces is reported and left out,
and a line it now makes that no reader judged shows as "to judge next" in ``rome validity``. ``rome validity --cards CARDS --data FILE`` then reads the figures.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

KEPT = ("card", "suite", "corpus", "source_id", "expectation", "label", "note", "seed", "n", "per_expectation", "rubric")


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def redact(folder: Path, out: Path) -> int:
    rows, cards = [], [p for p in sorted(folder.glob("*.jsonl")) if not p.name.endswith(".todo.jsonl")]
    for path in cards:
        for line in path.read_text(encoding="utf-8").splitlines():
            obj = json.loads(line)
            rows.append({**{k: obj[k] for k in KEPT if k in obj}, "text_sha256": digest(obj["text"]),
                         "variant_sha256": digest(obj["variant"])})
    from rome.core.files import OutputKind, safe_output

    kind = OutputKind("a file of redacted card labels", frozenset({"card", "text_sha256", "variant_sha256"}))
    with safe_output(out, kind, flag="--out", inputs=[("a card", p) for p in cards]) as handle:
        handle.write("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    print(f"{len(rows)} labels from {folder} -> {out}", file=sys.stderr)
    return 0


def restore(labels_path: Path, data: str, out: Path) -> int:
    from suites.harness.spec import load_suite
    from suites.harness.validity import card_line, draw_cases, draws_of, write_card

    labels = [json.loads(line) for line in labels_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    by_card: dict[str, list[dict]] = {}
    for row in labels:
        by_card.setdefault(row["card"], []).append(row)
    missing = 0
    for card, rows in by_card.items():
        known = {(r["expectation"], r["text_sha256"], r["variant_sha256"]): r for r in rows}
        kept, seen = [], set()
        for draw in draws_of(rows):
            suite = load_suite(draw.suite).configured(data=data)
            cases, _, _ = draw_cases(suite, draw)
            for case in cases:
                key = (case.expectation, digest(case.original), digest(case.variant))
                row = known.get(key)
                if row is not None and key not in seen:
                    seen.add(key)
                    kept.append({**card_line(card, suite, case, draw), "label": row["label"], "note": row.get("note", "")})
        missing += len(rows) - len(kept)
        path = out / suite.corpus / f"{card}.jsonl"
        path.parent.mkdir(parents=True, exist_ok=True)
        write_card(kept, path)
        print(f"{path}: {len(kept)} of {len(rows)} judged lines restored", file=sys.stderr)
    return 1 if missing else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("redact")
    r.add_argument("folder", type=Path)
    r.add_argument("--out", type=Path, required=True)
    s = sub.add_parser("restore")
    s.add_argument("labels", type=Path)
    s.add_argument("--data", required=True)
    s.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if args.command == "redact":
        from rome.core.errors import InputError

        try:
            return redact(args.folder, args.out)
        except InputError as error:  # the writer's refusal: one line, nothing written
            parser.error(str(error))
    return restore(args.labels, args.data, args.out)


if __name__ == "__main__":
    sys.exit(main())
