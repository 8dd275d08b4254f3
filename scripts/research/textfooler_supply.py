"""Where TextFooler's supply of swaps ends, before its judge: words the word constraints allow per text, words
with a candidate left by the candidate constraints, and texts with more allowed words than ``MAX_WORDS``.

No language model runs (the judge comes after these counts). Prints one JSON line per corpus::

    python scripts/research/textfooler_supply.py --data news --data /path/wmt21_pairs.jsonl --texts 300
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))


def supply(data: str, texts: int, seed: int) -> dict:
    """The counts over the first ``texts`` originals of ``data`` in the seeded order the suites use."""
    from perturbations.textfooler import MAX_WORDS, TextFoolerSwap
    from rome.core.parsing import get_parser
    from suites.harness.data import resolve_data

    perturbation = TextFoolerSwap()
    parsed = get_parser().parse([pair.original for pair in resolve_data(data).pairs(seed)[:texts]])
    allowed = [sorted(perturbation.allowed(p)) for p in parsed]
    with_candidates = [sum(1 for found in perturbation.proposals(p, words).values() if found)
                       for p, words in zip(parsed, allowed)]
    n = max(1, len(parsed))
    return {"data": data, "texts": len(parsed), "seed": seed,
            "allowed_words_per_text": round(sum(map(len, allowed)) / n, 2),
            "words_with_candidates_per_text": round(sum(with_candidates) / n, 2),
            "texts_with_a_candidate": sum(1 for c in with_candidates if c),
            f"texts_over_max_words_{MAX_WORDS}": sum(1 for words in allowed if len(words) > MAX_WORDS)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", action="append", required=True, help="a shipped corpus or a JSONL of pairs")
    ap.add_argument("--texts", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    from rome.core.errors import InputError

    for data in args.data:
        try:
            print(json.dumps(supply(data, args.texts, args.seed)))
        except InputError as error:  # an unknown corpus or a bad file: one line, exit 2
            ap.error(str(error))


if __name__ == "__main__":
    main()
