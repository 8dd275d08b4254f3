"""Development lines for blind readers: word swaps judged by the context model, thresholds off.

    python scripts/research/context_dev.py --out ../_dev/textfooler            # seeded; about 15 min on 2 CPUs

The thresholds of TextFooler and of the adjective swap (:mod:`perturbations.context_fit`: the fit
``delta``, the bigram ratio, the sense share) are set from blind labels, so the labelled swaps must span
every value they may take. This script draws texts of the DEVELOPMENT half of the three shipped corpora
(a text of corpus C with source id S is in it iff ``sha256(f"{C}:{S}")`` is even; a text that is also in
the test half under another id is left out), proposes candidates with every *structural* constraint on
and every *threshold* off, scores each candidate exactly as the perturbation does (the same seeded word
order, the same words masked together, :func:`perturbations.context_fit.slot_scores`), and draws lines
stratified over corpus, fit score and sense share, one swap per line:

* ``lines.jsonl``: what a reader sees, shuffled: ``{"line", "corpus", "text", "variant", "expectation"}``
  (``invariant`` for TextFooler and adjective synonyms, ``decrease`` for antonyms);
* ``scores.jsonl``: for each line every score and feature a threshold may use (fit, log-probabilities,
  bigram counts, wordfreq, SemCor sense features, what the former rules would have said);
* ``README.md``: what each file is.

WMT 2021 texts are never read here (the held-out corpus). Setting thresholds from the labels is a
separate step (phase 2 of the context issue).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

CORPORA = ("dialogue", "news", "webnlg")
#: fit-score bin edges (natural-log difference from the original); lines are spread evenly over the bins
FIT_EDGES = (-math.inf, -6.0, -4.0, -3.0, -2.0, -1.0, 0.0, 1.0, math.inf)
#: the sense-share split used to stratify (below it: a sense the word seldom has)
SHARE_SPLIT = 0.15
#: lines per kind: (kind, total, share of lines drawn from the high-sense-share stratum)
PLAN = (("textfooler", 300, 2 / 3), ("adjective-synonym", 120, 2 / 3), ("adjective-antonym", 60, None))
#: at most this many lines with the same (old, new) swap
MAX_SAME_SWAP = 2


def development_texts(name: str) -> list[tuple[str, str]]:
    """``(source_id, text)`` of the corpus's development half, distinct texts, leaving out any text that
    is also an original of the test half."""
    from perturbations.halves import development_half
    from rome.data.corpora import corpus

    pairs = corpus(name).pairs(0)
    test = {" ".join(p.original.split()) for p in pairs if not development_half(name, p.source_id)}
    seen, out = set(), []
    for p in sorted(pairs, key=lambda p: p.source_id):
        key = " ".join(p.original.split())
        if development_half(name, p.source_id) and key not in test and key not in seen:
            seen.add(key)
            out.append((p.source_id, p.original.strip()))
    return out


def fit_bin(fit: float) -> int:
    return next(k for k in range(len(FIT_EDGES) - 1) if FIT_EDGES[k] <= fit < FIT_EDGES[k + 1])


def features(parsed, c, original_logp: float, candidate_logp: float, rank: int, n_candidates: int,
             group_size: int) -> dict:
    """Every score and feature of one swap a threshold may use."""
    from perturbations.constraints import candidate_lemma
    from perturbations.context_fit import (
        MIN_BIGRAM_RATIO,
        bigram_features,
        collocation_kept,
    )
    from perturbations.language import senses
    from perturbations.language.phrases import verb_usage
    from rome.context.collocations import zipf

    tok = parsed.tokens[c.index]
    pos = senses.WORDNET_POS[tok.pos]
    lemma, new_lemma = tok.lemma.lower(), candidate_lemma(c)
    usage = verb_usage(tok, parsed.children(tok.i)) if pos == "v" else None
    bigrams = bigram_features(parsed, c)
    out = {"old": tok.text, "new": c.word, "lemma": lemma, "new_lemma": new_lemma, "pos": tok.pos, "tag": tok.tag,
           "dep": tok.dep, "synset": c.synset,
           "fit": round(candidate_logp - original_logp, 4), "logp_original": round(original_logp, 4),
           "logp_candidate": round(candidate_logp, 4), "fit_rank": rank, "candidates": n_candidates,
           "masked_together": group_size,
           "zipf_original": zipf(tok.text.lower()), "zipf_candidate": zipf(c.word.lower()),
           "bigrams": bigrams, "collocation_kept_at_default": collocation_kept(bigrams, MIN_BIGRAM_RATIO)}
    if c.source == "antonym":
        out["antonym_sense_share"] = round(senses.antonym_sense_share(lemma, new_lemma, pos), 4)
    else:
        out.update(senses.sense_features(lemma, new_lemma, pos, usage))
    return out


def textfooler_pool(name: str, source_id: str, parsed, tf, seed: int) -> list[dict]:
    """Every structurally acceptable candidate of the words TextFooler's search would judge, scored as the
    perturbation scores them (same order, same groups), none accepted so the search judges them all."""
    from perturbations.base import text_rng
    from perturbations.context_fit import slot_scores, words_per_pass
    from perturbations.recipe import acceptable_all
    from perturbations.textfooler import structure_constraints

    pool: list[dict] = []
    structure = structure_constraints()

    def record(batch: list[int]) -> dict:
        found = acceptable_all(parsed, {i: tf.transformation(parsed, i) for i in batch}, structure)
        scored = slot_scores(parsed, found)
        for i, cands in found.items():
            original, logps = scored[i]
            usable = [(c, lp) for c, lp in zip(cands, logps) if original is not None and lp is not None]
            usable.sort(key=lambda x: -x[1])
            for rank, (c, lp) in enumerate(usable):
                pool.append({"kind": "textfooler", "corpus": name, "source_id": source_id, "text": parsed.text,
                             "candidate": c, "features": features(parsed, c, original, lp, rank, len(usable),
                                                                  len(batch))})
        return {}

    tf.search(tf.allowed(parsed), record, text_rng(seed, source_id), words_per_pass(parsed))
    return pool


def adjective_pool(name: str, source_id: str, parsed, adj) -> list[dict]:
    """Every structurally acceptable synonym and antonym of every adjective the adjective swap may change,
    scored as the perturbation scores them."""
    from perturbations.context_fit import pass_groups, slot_scores, words_per_pass

    pool: list[dict] = []
    found = adj.candidates(parsed, adj.adjectives(parsed))
    for group in pass_groups(list(found), words_per_pass(parsed)):
        scored = slot_scores(parsed, {i: found[i] for i in group})
        for i in group:
            original, logps = scored[i]
            for relation in ("synonym", "antonym"):
                usable = sorted(((c, lp) for c, lp in zip(found[i], logps)
                                 if c.source == relation and original is not None and lp is not None),
                                key=lambda x: -x[1])
                for rank, (c, lp) in enumerate(usable):
                    pool.append({"kind": f"adjective-{relation}", "corpus": name, "source_id": source_id,
                                 "text": parsed.text, "candidate": c,
                                 "features": features(parsed, c, original, lp, rank, len(usable), len(group))})
    return pool


def variant_text(text: str, parsed, c) -> str:
    from perturbations.base import Edit, apply_edits
    from perturbations.language.articles import with_article_fixes

    tok = parsed.tokens[c.index]
    return apply_edits(text, with_article_fixes(text, [Edit(tok.idx, tok.idx + len(tok.text), tok.text, c.word)]))


def draw(pool: list[dict], total: int, high_share: float | None, rng: random.Random, used_texts: set,
         swaps: Counter) -> list[dict]:
    """``total`` entries spread evenly over corpora, then over the sense-share strata (``high_share`` of them
    at or above :data:`SHARE_SPLIT`; ``None``: one stratum), then round-robin over the fit bins; one line per
    text and kind, at most :data:`MAX_SAME_SWAP` lines per swap."""
    cells: dict[tuple, list[dict]] = defaultdict(list)
    for entry in pool:
        f = entry["features"]
        stratum = 0 if high_share is None else int(f.get("shared_sense_share", 0) >= SHARE_SPLIT)
        cells[(entry["corpus"], stratum, fit_bin(f["fit"]))].append(entry)
    for entries in cells.values():
        rng.shuffle(entries)
    chosen: list[dict] = []
    per_corpus = [total // len(CORPORA) + (k < total % len(CORPORA)) for k in range(len(CORPORA))]
    for name, quota in zip(CORPORA, per_corpus):
        strata = [(0, quota)] if high_share is None else [(1, round(quota * high_share)), (0, quota - round(quota * high_share))]
        spill = 0
        for stratum, want in strata:
            want += spill
            got = 0
            bins = [cells[(name, stratum, b)] for b in range(len(FIT_EDGES) - 1)]
            while got < want and any(bins):
                for entries in bins:
                    while entries and got < want:
                        entry = entries.pop()
                        key = (entry["kind"], entry["text"])
                        same = (entry["text"], entry["candidate"].index, entry["candidate"].word)
                        swap = (entry["features"]["old"].lower(), entry["features"]["new"].lower())
                        if key in used_texts or same in used_texts or swaps[swap] >= MAX_SAME_SWAP:
                            continue
                        used_texts.update({key, same})
                        swaps[swap] += 1
                        chosen.append(entry)
                        got += 1
                        break
            spill = want - got
    return chosen


README = """# Development lines for the context-judged word swaps (TextFooler, adjective)

Written by `python scripts/research/context_dev.py --out {out} --texts {texts} --adjective-texts {adjective_texts}
--seed {seed}` (rome-harness,
context model `{model}`). Texts: the DEVELOPMENT half of the shipped corpora dialogue, news and webnlg
(`sha256(f"{{corpus}}:{{source_id}}")` even; never WMT 2021). Candidates: WordNet synonyms (every sense)
and, for adjectives, direct antonyms, with the structural constraints on and every threshold OFF, so the
lines span the whole range of the context model's scores; one swap per line.

- `lines.jsonl` ({n} lines, shuffled): what the blind readers see and label, nothing else:
  `{{"line", "corpus", "text", "variant", "expectation"}}`. `expectation` is `invariant` (TextFooler,
  adjective synonym: label `valid` / `meaning_changed` / `ungrammatical` / `awkward`) or `decrease`
  (adjective antonym: `intended` / `not_changed` / `broken`), the rubric of docs/validity.md. Readers
  must not see `scores.jsonl`.
- `scores.jsonl`: per line (same `line` number) the kind (`textfooler`, `adjective-synonym`,
  `adjective-antonym`), corpus, source id and every score and feature a threshold may use: `fit`
  (= `logp_candidate` - `logp_original`, natural log, the candidate and the original in the same masked
  slot), `fit_rank` among the word's candidates, `masked_together` (words masked in the pass),
  Google Books `bigrams` with the left/right neighbour and `collocation_kept_at_default`, wordfreq
  `zipf_*`, SemCor sense features (`shared_sense_share`, `shared_sense_rank`, `shared_sense_count`,
  `uses`, `candidate_uses`; antonyms: `antonym_sense_share`), the part of speech, the swap and its synset.
- Counts per kind and corpus: {counts}
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, type=Path, help="folder for lines.jsonl, scores.jsonl, README.md")
    ap.add_argument("--texts", type=int, default=300, help="development texts per corpus for TextFooler's lines")
    ap.add_argument("--adjective-texts", type=int, default=1200,
                    help="development texts per corpus for the adjective lines (adjectives with antonyms are rarer)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    from perturbations.adjective import AdjectiveSwap
    from perturbations.context_fit import model_signature
    from perturbations.textfooler import TextFoolerSwap
    from rome.core.parsing import get_parser

    rng = random.Random(args.seed)
    tf = TextFoolerSwap(n_words=1)
    adj = AdjectiveSwap(min_bigram_ratio=0.0, min_sense_share=0.0)
    pools: dict[str, list[dict]] = defaultdict(list)
    started = time.time()
    for name in CORPORA:
        texts = development_texts(name)
        sample = random.Random(f"{args.seed}:{name}").sample(texts, min(max(args.texts, args.adjective_texts), len(texts)))
        get_parser().parse([t for _, t in sample])  # one batched parse; each parse_one below reads its cache
        for k, (source_id, text) in enumerate(sample):
            parsed = get_parser().parse_one(text)
            if k < args.texts:
                pools["textfooler"] += textfooler_pool(name, source_id, parsed, tf, args.seed)
            if k < args.adjective_texts:
                for entry in adjective_pool(name, source_id, parsed, adj):
                    pools[entry["kind"]].append(entry)
        print(f"{name}: {len(sample)} of {len(texts)} development texts, pools so far "
              f"{ {k: len(v) for k, v in pools.items()} } ({time.time() - started:.0f} s)", file=sys.stderr)
    used_texts: set = set()
    swaps: Counter = Counter()
    chosen: list[dict] = []
    for kind, total, high in PLAN:
        chosen += draw(pools[kind], total, high, rng, used_texts, swaps)
    rng.shuffle(chosen)
    args.out.mkdir(parents=True, exist_ok=True)
    counts: Counter = Counter()
    with (args.out / "lines.jsonl").open("w", encoding="utf-8") as lines, \
            (args.out / "scores.jsonl").open("w", encoding="utf-8") as scores:
        for n, entry in enumerate(chosen, 1):
            parsed = get_parser().parse_one(entry["text"])
            variant = variant_text(entry["text"], parsed, entry["candidate"])
            expectation = "decrease" if entry["kind"] == "adjective-antonym" else "invariant"
            counts[(entry["kind"], entry["corpus"])] += 1
            lines.write(json.dumps({"line": n, "corpus": entry["corpus"], "text": entry["text"], "variant": variant,
                                    "expectation": expectation}, ensure_ascii=False) + "\n")
            scores.write(json.dumps({"line": n, "kind": entry["kind"], "corpus": entry["corpus"],
                                     "source_id": entry["source_id"], **entry["features"]}, ensure_ascii=False) + "\n")
    (args.out / "README.md").write_text(README.format(
        out=args.out, texts=args.texts, adjective_texts=args.adjective_texts, seed=args.seed, model=model_signature(), n=len(chosen),
        counts=", ".join(f"{k} {c}: {v}" for (k, c), v in sorted(counts.items()))), encoding="utf-8")
    print(f"{len(chosen)} lines in {args.out} ({time.time() - started:.0f} s): {dict(counts)}", file=sys.stderr)


if __name__ == "__main__":
    main()
