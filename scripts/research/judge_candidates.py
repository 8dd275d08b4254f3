"""Judged but not yet decided: each development-half text's best swap for the judge, accepted or not, for labels.

    python scripts/research/judge_candidates.py --kind adjective --data news --out FILE [--texts N]

The judge's points rest on few development lines near them (the adjective's on 77 pairs, 19 valid), so a
point set on them moves with every card added. This writes, for each text of the corpus's development half
(:func:`perturbations.halves.development_half`; the cards' test halves stay unseen), the swap the judge
would consider first (:func:`perturbations.judged.judged_singles`, the recipe's own ranking, with no pre-score
gate so that swaps below it are labelled too): the one with the highest ``p_valid`` kept, whether or not it
reaches the kind's point. TextFooler's words are the first ``max_words`` allowed in text order, not in the
seeded order of a run (they differ only in texts with more allowed words, one or two in 300). Readers then label a sample of them blind (``--band`` keeps those near the point), and the
labels are development data for the next refit. Nothing here reads a metric.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

KINDS = ("adjective", "textfooler")


def lines_kind():
    """What ``--out`` writes, so that a file already there is replaced only when it is such a file."""
    from rome.core.files import OutputKind

    return OutputKind("a file of judge_candidates lines", frozenset({"kind", "text", "variant", "p_valid", "accepted"}))


def candidates_of(kind: str, perturbation, parsed) -> dict[int, list]:
    """The kind's meaning-kept candidates per word, after its cheap constraints (the recipe's own steps)."""
    if kind == "adjective":
        from perturbations.adjective import SYNONYM

        found = perturbation.candidates(parsed, perturbation.adjectives(parsed))
        return {i: [c for c in cs if c.source == SYNONYM] for i, cs in found.items()}
    order = sorted(perturbation.allowed(parsed))
    return perturbation.proposals(parsed, order[: perturbation.max_words] if perturbation.max_words else order)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kind", choices=KINDS, required=True)
    ap.add_argument("--data", required=True, help="a shipped corpus (its development half is read)")
    ap.add_argument("--texts", type=int, default=None, help="at most this many development-half texts")
    ap.add_argument("--every-text", action="store_true",
                    help="read every text, not only the development half (a held-out corpus file, read to check a "
                         "point, never to set one)")
    ap.add_argument("--band", type=float, nargs=2, default=(0.0, 1.0), metavar=("LOW", "HIGH"),
                    help="keep only lines whose p_valid lies in [LOW, HIGH)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args(argv)

    from perturbations.halves import development_half
    from perturbations.judged import get_kind_judge, judged_singles
    from perturbations.registry import build_perturbation
    from rome.core.errors import InputError
    from rome.core.files import check_output, safe_output
    from rome.core.parsing import get_parser
    from suites.harness.data import resolve_data

    try:
        source = resolve_data(args.data)
        check_output(args.out, lines_kind(), flag="--out")  # refused now, not after the run
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    perturbation = build_perturbation(args.kind)
    judge = get_kind_judge(args.kind)
    pairs = [p for p in source.pairs(0) if args.every_text or development_half(source.corpus_name, p.source_id)]
    pairs = pairs[: args.texts] if args.texts else pairs
    parser = get_parser()
    lines = []
    for n, pair in enumerate(pairs, 1):
        parsed = parser.parse_one(pair.original)
        singles = judged_singles(args.kind, parsed, candidates_of(args.kind, perturbation, parsed), gate=-math.inf)
        if singles:
            p, _, text = singles[0]
            if args.band[0] <= p < args.band[1]:
                lines.append({"kind": args.kind, "corpus": source.corpus_name, "source_id": pair.source_id,
                              "text": pair.original, "variant": text, "p_valid": round(float(p), 4),
                              "accepted": bool(judge.accepts(p))})
        if n % 50 == 0:
            print(f"{n}/{len(pairs)} texts, {len(lines)} lines", file=sys.stderr)
    with safe_output(args.out, lines_kind(), flag="--out") as handle:
        handle.write("".join(json.dumps(line) + "\n" for line in lines))
    print(f"wrote {len(lines)} lines from {len(pairs)} texts to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
