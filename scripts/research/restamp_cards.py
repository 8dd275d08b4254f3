"""Re-stamp validity cards whose judged variants the current code still produces, byte for byte.

``python scripts/research/restamp_cards.py [--write]``: for every shipped corpus and suite's card, draw the card again
with the current code (:func:`reports.validity.draw_card`, the card's own seed and size) and compare
each judged line's (source id, text, variant, expectation) with the one drawn. A card whose lines
are all reproduced judged exactly what the code produces now, so only the way the fingerprint is
computed (or code that does not change these variants) changed: with ``--write`` its lines get the
current fingerprint. A card with any line not reproduced is left STALE and listed: it must be judged
again (docs/validity.md). Without ``--write`` nothing is written. With ``--carry`` such a card gets a
``<card>.todo.jsonl`` beside it: the card drawn again, its still-reproduced lines keeping their labels, the
new lines unlabelled for a reader (who sees only those).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the fingerprint of cards fully reproduced")
    parser.add_argument("--carry", action="store_true",
                        help="for a card not fully reproduced, write <card>.todo.jsonl: the card drawn again with its own "
                             "seed and size, lines identical to judged ones keeping their label, the rest to judge")
    parser.add_argument("--cards", type=Path, default=None, help="card folder (default: perturbations/cards)")
    parser.add_argument("--data", action="append", default=None,
                        help="corpus (a shipped name or a JSONL file); repeatable; default: every shipped corpus")
    args = parser.parse_args(argv)
    from reports.validity import CARD_SIZE, CURRENT, card_path, draw_card, load_card, suite_validity
    from rome.data.corpora import CORPORA
    from suites.harness.spec import available_suites, load_suite

    done: set[tuple[str, str]] = set()
    stale = 0
    for corpus in args.data or CORPORA:
        for suite_name in available_suites():
            suite = load_suite(suite_name)
            if suite.direct_cases:
                continue
            suite = suite.configured(data=corpus)
            name, fingerprint, statuses = suite_validity(suite, args.cards)
            path = card_path(name, suite.corpus, args.cards)
            if (corpus, name) in done or not path.is_file() or all(s.state == CURRENT for s in statuses.values()):
                continue
            done.add((corpus, name))
            lines = load_card(path)
            by_suite_seed = Counter((line["suite"], line["seed"]) for line in lines)
            per_expectation = "found" in lines[0] or len({line["expectation"] for line in lines}) > 1
            exhausted = any(line.get("exhausted") for line in lines)
            drawn, redrawn = {}, []
            for (card_suite, seed), count in by_suite_seed.items():
                size = max(Counter(line["expectation"] for line in lines).values()) if per_expectation else count
                size = max(size, CARD_SIZE) if exhausted else size  # an exhausted card took every variant
                for line in draw_card(load_suite(card_suite).configured(data=corpus), size, seed, per_expectation):
                    drawn[(card_suite, seed, line["source_id"], line["expectation"])] = line
                    redrawn.append(line)
            missing = [line["source_id"] for line in lines
                       if (d := drawn.get((line["suite"], line["seed"], line["source_id"], line["expectation"]))) is None
                       or (d["text"], d["variant"]) != (line["text"], line["variant"])]
            if missing:
                stale += 1
                print(f"{corpus}/{name}: {len(missing)} of {len(lines)} judged lines not reproduced (e.g. {missing[:3]}): judge again")
                if args.carry:
                    print("   " + carry_labels(lines, redrawn, path.with_suffix(".todo.jsonl")))
                continue
            print(f"{corpus}/{name}: all {len(lines)} judged lines reproduced; fingerprint -> {fingerprint}")
            if args.write:
                path.write_text("".join(json.dumps({**line, "fingerprint": fingerprint}, ensure_ascii=False) + "\n"
                                        for line in lines), encoding="utf-8")
    return 1 if stale else 0


def carry_labels(judged: list[dict], drawn: list[dict], todo) -> str:
    """Write ``todo``: the ``drawn`` lines in order, each keeping the label and note of the judged line with
    the same suite, seed, source, expectation, text and variant (it was judged blind already, and the code
    still produces it), every other line unlabelled. Only the new lines then need a reader."""
    key = lambda line: (line["suite"], line["seed"], line["source_id"], line["expectation"], line["text"],  # noqa: E731
                        line["variant"])
    labels = {key(line): (line["label"], line.get("note", "")) for line in judged}
    out, carried = [], 0
    for line in drawn:
        label, note = labels.get(key(line), ("", ""))
        carried += bool(label)
        out.append({**line, "label": label, "note": note})
    todo.write_text("".join(json.dumps(line, ensure_ascii=False) + "\n" for line in out), encoding="utf-8")
    return f"{todo}: {carried} of {len(out)} lines keep their label, {len(out) - carried} to judge"


if __name__ == "__main__":
    raise SystemExit(main())
