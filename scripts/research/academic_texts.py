"""Sentences of academic prose from the seed papers, as a JSONL corpus for a held-out validity check.

    python scripts/research/academic_texts.py --out academic.jsonl [--shared ../shared]
    rome validity --draw passive_form --data academic.jsonl --seed 2027 --out CARD.todo.jsonl

The three shipped corpora (dialogue, news, WebNLG) are where the perturbations' constraints were
checked and their failures read; a card drawn on text of another genre, judged once after the rules
were frozen, is the independent figure. The seed papers (``../shared/seeds`` beside the checkout; they
are not shipped) are English academic prose no constraint was written from. Each
sentence is both ``reference`` and ``original`` (only the original is perturbed for a card). Filters, fixed before any draw: the review
copies' three-digit line numbers removed, 8-35 words, ending with a period, at least 85 % alphabetic
words, no formulas, links, brackets or percentages.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from corpus_files import write_sentence_corpus

MIN_WORDS, MAX_WORDS = 8, 35
ALPHABETIC_SHARE = 0.85
EXCLUDED = ("=", "http", "[", "{", "|", "\\", "@", "%")
#: the project's development material (the seed papers are not part of the package): beside the checkout
DEFAULT_SHARED = Path(__file__).resolve().parents[3] / "shared"


def sentences(text: str) -> list[str]:
    text = re.sub(r"(?<=\s)\d{3}(?=\s)", " ", text)  # line numbers of the review copies
    text = re.sub(r"-\s*\n\s*", "", text)
    text = re.sub(r"\s+", " ", text)
    out = []
    for sentence in re.split(r"(?<=[.!?])\s+(?=[A-Z])", text):
        sentence, words = sentence.strip(), sentence.split()
        if not MIN_WORDS <= len(words) <= MAX_WORDS or not sentence.endswith("."):
            continue
        if any(x in sentence for x in EXCLUDED):
            continue
        if sum(w.strip(".,;:()").isalpha() for w in words) / len(words) < ALPHABETIC_SHARE:
            continue
        out.append(sentence)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--shared", type=Path, default=DEFAULT_SHARED,
                        help="the folder holding seeds/ (default: ../shared beside the checkout)")
    args = parser.parse_args(argv)
    seeds = args.shared / "seeds"
    if not seeds.is_dir():
        parser.error(f"{seeds}: no such folder (the seed papers are development material, not shipped)")
    seen: dict[str, None] = {}
    for path in sorted(seeds.glob("*.txt")):
        for sentence in sentences(path.read_text(encoding="utf-8")):
            seen.setdefault(sentence)
    write_sentence_corpus(parser, args.out, "academic sentences",
                          ((f"academic-{i}", sentence) for i, sentence in enumerate(seen)))
    print(f"{len(seen)} sentences -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
