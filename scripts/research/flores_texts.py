"""The English FLORES sentences of DEMETR, as a JSONL corpus for a held-out validity check.

    python scripts/research/flores_texts.py --out flores.jsonl [--demetr DIR]
    rome validity --cards docs/heldout-cards --draw passive_form --data flores.jsonl

DEMETR (Karpinska et al. 2022, MIT licence) pairs each of its 1,000 source sentences with a human English
translation (``eng_sent``); half come from FLORES-101 (Wikinews, Wikivoyage and Wikibooks: encyclopedic,
travel-guide and how-to prose), half from WMT news. The FLORES half is a genre no perturbation rule,
threshold or judge weight was written from or fitted on (the news corpus and WMT 2021 cover news), so a
card drawn on it after the rules were frozen is an independent figure. DEMETR ships with the package (a
challenge set for the metrics; no perturbation reads it), so the corpus needs no side folder. Each sentence is both
``reference`` and ``original`` (only the original is perturbed for a card); the same sentence appears in
every DEMETR file, and it is taken once, in the order of the items' ids.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from corpus_files import write_sentence_corpus

#: the DEMETR file read (every file holds the same ``eng_sent`` per id; this one is a control, never perturbed)
SOURCE_FILE = "base_id35_reference.json"


def flores_sentences(demetr: Path) -> list[tuple[int, str]]:
    """(DEMETR item id, English sentence) of every FLORES item, in id order, each sentence once."""
    items = json.loads((demetr / SOURCE_FILE).read_text(encoding="utf-8"))
    seen: dict[str, int] = {}
    for item in sorted(items, key=lambda item: int(item["id"])):
        if item["data_source"] == "FLORES":
            seen.setdefault(" ".join(item["eng_sent"].split()), int(item["id"]))
    return [(i, sentence) for sentence, i in seen.items()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--demetr", type=Path, default=None,
                        help="the folder of DEMETR's JSON files (default: the copy the package ships)")
    args = parser.parse_args(argv)
    from rome.data.challenge import demetr_dir

    args.demetr = args.demetr or demetr_dir()
    if not (args.demetr / SOURCE_FILE).is_file():
        parser.error(f"{args.demetr / SOURCE_FILE}: no such file (a folder of DEMETR's JSON files)")

    found = flores_sentences(args.demetr)
    write_sentence_corpus(parser, args.out, "FLORES sentences", ((f"flores-{i}", sentence) for i, sentence in found))
    print(f"{len(found)} sentences -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
