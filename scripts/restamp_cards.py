"""Re-stamp validity cards whose judged variants the current code still produces, byte for byte.

``python scripts/restamp_cards.py [--write]``: for every shipped corpus and suite's card, draw the card again
with the current code (:func:`reports.validity.draw_card`, the card's own seed and size) and compare
each judged line's (source id, text, variant, expectation) with the one drawn. A card whose lines
are all reproduced judged exactly what the code produces now, so only the way the fingerprint is
computed (or code that does not change these variants) changed: with ``--write`` its lines get the
current fingerprint. A card with any line not reproduced is left STALE and listed: it must be judged
again (docs/validity.md). Without ``--write`` nothing is written.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the fingerprint of cards fully reproduced")
    args = parser.parse_args(argv)
    from reports.validity import CURRENT, card_path, draw_card, load_card, suite_validity
    from rome.data.corpora import CORPORA
    from suites.harness.spec import available_suites, load_suite

    done: set[tuple[str, str]] = set()
    stale = 0
    for corpus in CORPORA:
        for suite_name in available_suites():
            suite = load_suite(suite_name)
            if suite.direct_cases:
                continue
            suite = suite.configured(data=corpus)
            name, fingerprint, statuses = suite_validity(suite)
            path = card_path(name, corpus)
            if (corpus, name) in done or not path.is_file() or all(s.state == CURRENT for s in statuses.values()):
                continue
            done.add((corpus, name))
            lines = load_card(path)
            by_suite_seed = Counter((line["suite"], line["seed"]) for line in lines)
            drawn = {}
            for (card_suite, seed), count in by_suite_seed.items():
                for line in draw_card(load_suite(card_suite).configured(data=corpus), count, seed):
                    drawn[(card_suite, seed, line["source_id"], line["expectation"])] = line
            missing = [line["source_id"] for line in lines
                       if (d := drawn.get((line["suite"], line["seed"], line["source_id"], line["expectation"]))) is None
                       or (d["text"], d["variant"]) != (line["text"], line["variant"])]
            if missing:
                stale += 1
                print(f"{corpus}/{name}: {len(missing)} of {len(lines)} judged lines not reproduced (e.g. {missing[:3]}): judge again")
                continue
            print(f"{corpus}/{name}: all {len(lines)} judged lines reproduced; fingerprint -> {fingerprint}")
            if args.write:
                path.write_text("".join(json.dumps({**line, "fingerprint": fingerprint}, ensure_ascii=False) + "\n"
                                        for line in lines), encoding="utf-8")
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
