"""Blind validity of the judged kinds' variants against the judge's own estimate (mean ``p_valid``).

    python scripts/research/judged_kinds_blind.py [--labels data/judged_kinds_blind.jsonl]

The lines are every meaning-kept variant ``bench_perturbations.py --kind K --data D --texts N`` (seed 0) drew
with the judge deciding (TextFooler: 200 news and 300 WMT 2021 texts; the passive: 1,000 of each; the
adjective: 200 and 300), read by two readers who saw only the rubric (docs/validity.md) and the two texts,
never a score. The file keeps the labels, each variant's ``p_valid`` and SHA-256 hashes of the texts (WMT 2021
may not be redistributed). Prints, per kind and corpus: the lines, how many each reader and both found valid
(Wilson 95 %), the readers' agreement, and the mean ``p_valid``: how close the estimate came.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
LABELS = Path(__file__).resolve().parent / "data" / "judged_kinds_blind.jsonl"


def table(rows: list[dict], by: str | None = None) -> list[str]:
    """The table, a row per kind and corpus (and per value of the rows' field ``by``, when given)."""
    from reports.stats import wilson_interval

    groups: dict[tuple[str, ...], list[dict]] = defaultdict(list)
    for row in rows:
        extra = (str(row.get(by, "")),) if by else ()
        groups[(row["kind"], row["corpus"], *extra)].append(row)
        groups[(row["kind"], "all", *extra)].append(row)
    header = ["kind", "corpus", *([by] if by else []), "lines", "reader 1 valid", "reader 2 valid",
              "both valid [Wilson 95 %]", "agree", "mean p_valid (estimate)", "estimate − both"]
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for (kind, corpus, *extra), members in sorted(groups.items()):
        n = len(members)
        valid = [sum(r["labels"][k] == "valid" for r in members) for k in (0, 1)]
        both = sum(all(label == "valid" for label in r["labels"]) for r in members)
        low, high = wilson_interval(both, n)
        agree = sum((r["labels"][0] == "valid") == (r["labels"][1] == "valid") for r in members)
        estimate = sum(r["p_valid"] for r in members) / n
        out.append(f"| {kind} | {corpus} |{''.join(f' {e} |' for e in extra)} {n} | {valid[0]} | {valid[1]} | {both} ({both / n:.0%}) "
                   f"[{low:.0%}, {high:.0%}] | {agree}/{n} | {estimate:.2f} | {estimate - both / n:+.2f} |")
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--labels", type=Path, default=LABELS)
    ap.add_argument("--by", default=None, help="a field of the label rows to split each kind and corpus by "
                                               "(data/sense_share_probe.jsonl: also_default)")
    args = ap.parse_args(argv)
    rows = [json.loads(x) for x in args.labels.read_text(encoding="utf-8").splitlines() if x.strip()]
    print("\n".join(table(rows, args.by)))


if __name__ == "__main__":
    main()
