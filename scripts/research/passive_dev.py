"""Development lines for blind judging of the passive, so that its naturalness threshold can be set.

    python scripts/research/passive_dev.py --out ../_dev/passive            # about 200 lines, seed 2033
    python scripts/research/passive_dev.py --out DIR --lines 200 --seed 2033 --exact

On the DEVELOPMENT half of the three shipped corpora (a text of corpus C with source id S is in it iff
``int(sha256(f"{C}:{S}"), 16) % 2 == 0``; the WMT 2021 texts are never read), the passive runs with the
naturalness threshold OFF (``naturalness_delta=None``: the grammar alone), so the lines span the whole
range of the context model's naturalness reading. Each variant's rewritten sentences are then scored as the
perturbation scores them (:func:`perturbations.passive.naturalness.read`, the default spacing; with
``--exact`` also the exact pseudo-log-likelihood, one pass per piece).

Lines are drawn per corpus evenly over the quintiles of the reading (the lowest difference of a
variant's clauses, which is what decides whether the perturbation keeps it), then shuffled. When the
default settings give fewer lines than asked, clauses with a pronoun subject (``pronoun_agent="keep"``:
"... by me") fill up, flagged in scores.jsonl, so the readers' labels also measure that policy.

Writes under ``--out``: ``lines.jsonl`` (what the readers see: line, corpus, text, variant, expectation),
``scores.jsonl`` (per line: the reading, the clause facts, the settings) and ``README.md``.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from perturbations.halves import development_half
from perturbations.passive import PassiveVoice
from perturbations.passive.naturalness import PLL_SPACING, read
from perturbations.passive.naturalness import context_signature as signature

CORPORA = ("dialogue", "news", "webnlg")
#: the suites' seed: the corpus pairs are read as ``passive_form`` reads them
PAIRS_SEED = 0
BINS = 5


def development_texts(corpus_name: str) -> list[tuple[str, str]]:
    """(source id, original) of the development half, each distinct original once, in the corpus's order."""
    from rome.data.corpora import corpus

    seen, out = set(), []
    for pair in corpus(corpus_name).pairs(PAIRS_SEED):
        if development_half(corpus_name, pair.source_id) and pair.original not in seen:
            seen.add(pair.original)
            out.append((pair.source_id, pair.original))
    return out


def variants(texts: list[tuple[str, str]], perturbation: PassiveVoice) -> list[dict]:
    """The grammar's variant of each text that has one, with its rewritten sentences."""
    from perturbations.passive import sentence_pair
    from rome.core.parsing import get_parser

    get_parser().parse([t for _, t in texts])
    out = []
    for source_id, text in texts:
        parsed, found, _ = perturbation.candidates(text)
        if not found:
            continue
        result = perturbation.apply(text, 0)
        out.append({"source_id": source_id, "text": text, "variant": result.variants[0].text,
                    "pairs": [sentence_pair(text, facts["sentence"], edit) for edit, facts in found],
                    "clauses": [{k: v for k, v in facts.items() if k != "sentence"} for _, facts in found]})
    return out


def score(rows: list[dict], exact: bool) -> None:
    """Add the context model's reading of each clause (as the perturbation computes it) to ``rows``."""
    pairs = [pair for row in rows for pair in row["pairs"]]
    strided = read(pairs, spacing=PLL_SPACING)
    full = read(pairs, spacing=None) if exact else [None] * len(pairs)
    k = 0
    for row in rows:
        for clause in row["clauses"]:
            clause.update(strided[k].as_dict())
            if full[k] is not None:
                clause["exact"] = full[k].as_dict()
            k += 1
        row["decisive_difference"] = min(c["pll_difference"] for c in row["clauses"])


def draw(rows: list[dict], n: int, rng: random.Random) -> list[dict]:
    """``n`` rows spread evenly over the quintiles of the decisive difference."""
    if len(rows) <= n:
        return list(rows)
    ordered = sorted(rows, key=lambda r: (r["decisive_difference"], r["source_id"]))
    bins = [ordered[len(ordered) * b // BINS : len(ordered) * (b + 1) // BINS] for b in range(BINS)]
    out = []
    for b, members in enumerate(bins):
        take = n // BINS + (1 if b < n % BINS else 0)
        out += rng.sample(members, min(take, len(members)))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", required=True, help="folder to write lines.jsonl, scores.jsonl, README.md")
    ap.add_argument("--lines", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2033)
    ap.add_argument("--exact", action="store_true", help="also score with the exact pseudo-log-likelihood")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    default = PassiveVoice(naturalness_delta=None)
    keep = PassiveVoice(naturalness_delta=None, pronoun_agent="keep")
    per_corpus = {name: args.lines // len(CORPORA) + (1 if k < args.lines % len(CORPORA) else 0)
                  for k, name in enumerate(CORPORA)}
    chosen: list[dict] = []
    available = {}
    for name in CORPORA:
        texts = development_texts(name)
        rows = variants(texts, default)
        for row in rows:
            row.update(corpus=name, pronoun_agent="drop")
        if len(rows) < per_corpus[name]:  # fill up with pronoun agents, flagged
            have = {r["text"] for r in rows}
            extra = [r for r in variants([t for t in texts if t[1] not in have], keep)
                     if any(c["agent"] == "pronoun" for c in r["clauses"])]
            for row in extra:
                row.update(corpus=name, pronoun_agent="keep")
            rows += rng.sample(extra, min(len(extra), per_corpus[name] - len(rows)))
        available[name] = {"development_texts": len(texts), "variants": len(rows)}
        score(rows, args.exact)
        chosen += draw(rows, per_corpus[name], rng)
    rng.shuffle(chosen)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    settings = {"seed": args.seed, "pairs_seed": PAIRS_SEED, "pll_spacing": PLL_SPACING,
                "context_model": signature(), "describe": default.describe()}
    with (out / "lines.jsonl").open("w", encoding="utf-8") as lines, \
            (out / "scores.jsonl").open("w", encoding="utf-8") as scores:
        for n, row in enumerate(chosen, 1):
            lines.write(json.dumps({"line": n, "corpus": row["corpus"], "text": row["text"],
                                    "variant": row["variant"], "expectation": "invariant"},
                                   ensure_ascii=False) + "\n")
            scores.write(json.dumps({"line": n, "corpus": row["corpus"], "source_id": row["source_id"],
                                     "pronoun_agent": row["pronoun_agent"],
                                     "decisive_difference": row["decisive_difference"],
                                     "clauses": row["clauses"], "settings": settings},
                                    ensure_ascii=False) + "\n")
    (out / "README.md").write_text(readme(chosen, available, settings), encoding="utf-8")
    print(f"{len(chosen)} lines -> {out}")
    return 0


def readme(chosen: list[dict], available: dict, settings: dict) -> str:
    counts = {name: sum(1 for r in chosen if r["corpus"] == name) for name in CORPORA}
    keep = sum(1 for r in chosen if r["pronoun_agent"] == "keep")
    return f"""# Passive voice: development lines for blind judging

Written by `python scripts/research/passive_dev.py` (seed {settings['seed']}; corpus pairs of seed
{settings['pairs_seed']}; context model `{settings['context_model']}`). Development half of the three
shipped corpora only (`int(sha256(f"{{corpus}}:{{source_id}}"), 16) % 2 == 0`); the WMT 2021 texts are not read.

## Files

- `lines.jsonl` — what the readers see, shuffled: `line`, `corpus`, `text` (the original), `variant`,
  `expectation` (`invariant`). Judge each with the rubric of docs/validity.md ("Rubric", invariant labels:
  valid / meaning_changed / ungrammatical / awkward). The readers never see scores.jsonl.
- `scores.jsonl` — per line: `decisive_difference` (the lowest `pll_difference` of the variant's clauses:
  the perturbation keeps a variant only if every rewritten clause passes), and per clause `clause`
  (main/ccomp/advcl/conj), `shape` (transitive/phrasal/ditransitive/predicative/complement), `tense`,
  `agent` (phrase/pronoun/dropped), `pll_original`/`pieces_original`, `pll_variant`/`pieces_variant` and
  `pll_difference` = mean log-probability per word piece of the rewritten sentence minus the original's
  (pieces {settings['pll_spacing']} apart masked together, as the perturbation scores), `exact` (one
  piece per pass) when written with
  `--exact`; `pronoun_agent`: `drop` (the default settings) or `keep` (a pronoun subject kept as the
  agent, "... by me": not produced by default; drawn only to fill a corpus up to its share).
- Settings: `{json.dumps(settings['describe'])}`.

## Lines

{len(chosen)} lines: dialogue {counts['dialogue']}, news {counts['news']}, webnlg {counts['webnlg']}
({keep} of them with a kept pronoun agent). Available on the development half (variants / distinct
texts): {', '.join(f"{k} {v['variants']} / {v['development_texts']}" for k, v in available.items())}.
Per corpus, lines were drawn evenly over the quintiles of `decisive_difference` (all of them where a
corpus has fewer variants than its share), so the threshold can be read off the whole range.

## Phase 2: setting the threshold

Label each line (`label`: valid / awkward / ungrammatical / meaning_changed) with its `corpus`,
`source_id`, `pronoun_agent`, `text` and `variant` in tests/fixtures/passive_dev_labels.jsonl, then run
`python scripts/research/passive_threshold.py`: it re-reads every line with the context model now loaded and
prints `NATURALNESS_DELTA` (perturbations/passive/naturalness.py) by its rule. Re-run it whenever the
context model's head changes.
"""


if __name__ == "__main__":
    raise SystemExit(main())
