"""The development protocol's bench (docs/rome.md, "Development protocol"): one candidate against the
current code on every development source, with paired bootstrap intervals.

``python scripts/research/rome_protocol.py --store protocol.pkl --candidate NAME [--candidate NAME ...]``

A candidate is a configuration of :data:`CONFIGS`: a change to RoMe's features adds its own entry (the
options of the two steps it switches) for its run; once judged, the switch is either the shipped code
(kept) or removed again (dropped), and its figures stay in docs/rome.md.

Sources: (1) DEMETR's 26 shipped files, non-base accuracy (mean of categories); (2) the shipped
dialogue suites, mean pass rate of their case checks; (3) ``sfrest-heldout`` and (4) ``webnlg2020``
ratings, mean Spearman ρ of their criteria (human references, best over them); (5) the suites on the
corpora of :data:`CORPORA` (``rome suite NAME --data CORPUS``), only the (corpus, suite, expectation)
rows whose validity card is current with validity >= 0.85 when the store is built, read as source 2
(mean pass rate of the rows' case checks, cases resampled within each). Every pair's
``F_sem`` and ``F_ted`` are computed once per configuration (``current`` and each candidate, see
:data:`CONFIGS`) from one encoding and parse of each text, ``F_g`` once per hypothesis; the scorer
of each configuration is retrained by the committed recipe (``train_penalty``, seed 0) on the
SFREST train-side pairs' features, as ``python -m rome.training.scorer`` would. The store keeps
the features, so a second run only prints. No BAGEL or SFHOTEL rating is read.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np
from scipy.stats import rankdata

sys.path.insert(0, str(Path(__file__).resolve().parent))
from rome_dev import INFO, development_data, suite_cases, suite_pairs  # noqa: E402

from rome.core.files import replaced_path_when_complete  # noqa: E402
from rome.data.judged import load_dataset, with_references  # noqa: E402
from suites.harness.checks import RANGE, CaseScores  # noqa: E402
from suites.harness.pairwise import prefers  # noqa: E402

RATINGS = {"sfrest-heldout": ("informativeness", "naturalness", "quality"),
           "webnlg2020": ("overall_adequacy", "overall_fluency")}
RESAMPLES, SEED = 1000, 0
#: source 5's corpora: those of the corpora issue other than ``dialogue``, which source 2 already is
CORPORA = ("news", "webnlg")
#: sources whose units are per-check arrays of case outcomes (resampled within each check)
CASE_SOURCES = ("demetr", "suites", "corpora")


def _features(mode: str = "std", semantic: dict | None = None, ted: dict | None = None):
    """A configuration: ``(ref Words, hyp Words, idf) -> (F_sem, F_ted)`` with these options of the two steps."""

    def features(ref, hyp, idf):
        from rome.metric.semantic import semantic_similarity
        from rome.metric.tree_edit import ted_similarity

        return (semantic_similarity(ref, hyp, mode, idf=idf, **(semantic or {})).f_sem,
                ted_similarity(ref, hyp, **(ted or {})))

    return features


#: configuration name -> (ref Words, hyp Words, idf) -> (F_sem, F_ted): ``current`` is the shipped code (with
#: the kept changes 3 and 5); ``paper`` is rome/paper, scored by its committed network (reported beside the
#: shipped code, never a candidate for it). The dropped candidates' switches (changes 1, 2, 4 and 6) are
#: gone from the code; their configuration names and figures are in docs/rome.md.
CONFIGS = {
    "current": _features(),
    "paper": _features("soft", semantic={"rules": False}, ted={"rules": False}),
}


def sources(per_category: int | None = None, max_rated: int | None = None) -> dict:
    """Every source's units; ``per_category`` / ``max_rated``: a seeded sample of DEMETR's non-base items
    per category and of each rating set's outputs (when the machine cannot afford all of them)."""
    import random

    data = development_data()
    rng = random.Random(SEED)
    if per_category is not None:
        by_category = defaultdict(list)
        for item in data["demetr"]:
            if item[2] != "base":
                by_category[item[1]].append(item)
        data["demetr"] = [it for c in sorted(by_category) for it in
                          rng.sample(by_category[c], min(per_category, len(by_category[c])))]
    for name in RATINGS:
        items, refs, _ = with_references(load_dataset(name).items, "human")
        rows = [(it.hypothesis, tuple(r), {c: it.human[c] for c in RATINGS[name]}) for it, r in zip(items, refs)]
        data[name] = rows if max_rated is None or len(rows) <= max_rated else rng.sample(rows, max_rated)
    data["corpus_rows"] = valid_rows()
    data["corpora"] = {corpus: suite_cases(corpus, sorted({s for c, s, _ in data["corpus_rows"] if c == corpus}))
                       for corpus in CORPORA}
    return data


def valid_rows() -> list[tuple[str, str, str]]:
    """Source 5's (corpus, suite, expectation) rows: a current validity card with validity >= 0.85 (as
    ``rome validity --data news --data webnlg`` reads them now); a STALE or UNMEASURED card is left out."""
    from reports.validity import CURRENT, INFORMATIVE, shipped_validity

    rows = [(corpus, suite, status.expectation) for corpus, suite, _, status in shipped_validity(data=list(CORPORA))
            if status.state == CURRENT and status.rate is not None and status.rate >= INFORMATIVE]
    print("source 5 rows: " + ", ".join(f"{c}/{s}/{e}" for c, s, e in rows), flush=True)
    return rows


def all_pairs(data: dict) -> list[tuple[str, str]]:
    from rome_dev import all_pairs as dev_pairs

    pairs = set(dev_pairs(data))
    pairs |= {(h, r) for name in RATINGS for h, refs, _ in data[name] for r in refs}
    for cases in data["corpora"].values():
        pairs |= suite_pairs(cases)
    return sorted(pairs)


def compute(pairs: list[tuple[str, str]], configs: list[str], batch: int = 1024) -> dict[str, np.ndarray]:
    from rome.core.encoder import get_encoder
    from rome.core.parsing import get_parser
    from rome.metric import load_grammar
    from rome.metric.semantic import IdfTable
    from rome.metric.words import analyse

    encoder, parser, idf, start = get_encoder(None), get_parser(None, entities=False), IdfTable.general(), time.time()
    out = {c: np.zeros((len(pairs), 3)) for c in configs}
    for i in range(0, len(pairs), batch):
        chunk = pairs[i : i + batch]
        words = analyse([t for p in chunk for t in p], encoder, parser)
        for c in configs:
            out[c][i : i + batch, :2] = [CONFIGS[c](words[r], words[h], idf) for h, r in chunk]
        print(f"features {min(i + batch, len(pairs))}/{len(pairs)} ({time.time() - start:.0f} s)", flush=True)
    hyps = list(dict.fromkeys(h for h, _ in pairs))
    probs = dict(zip(hyps, np.asarray(load_grammar().prob_acceptable(hyps), dtype=np.float64)))
    for c in configs:
        out[c][:, 2] = [probs[h] for h, _ in pairs]
    print(f"grammar done ({time.time() - start:.0f} s)", flush=True)
    return out


def scores_of(data: dict, pairs: list, features: np.ndarray, config: str = "current") -> dict:
    from rome.metric.scorer import load_scorer
    from rome.training.scorer import train_penalty

    if config == "paper":
        return dict(zip(pairs, load_scorer("paper")(features).tolist()))
    if config.endswith(":f_sem"):
        return dict(zip(pairs, features[:, 0].tolist()))

    row = {p: i for i, p in enumerate(pairs)}
    x = np.array([features[row[(h, r)]] for h, r, _ in data["train"]])
    y = np.array([label for _, _, label in data["train"]], dtype=np.float64)
    scorer = train_penalty(x, y, ("f_sem", "f_ted", "f_g"), seed=0)
    print(f"  scorer: thresholds {scorer.thresholds.round(4).tolist()} slopes {scorer.slopes.round(4).tolist()}")
    return dict(zip(pairs, scorer(features).tolist()))


def check_outcomes(suites: dict[str, list[tuple]], score: dict, kept=None, prefix: str = "") -> dict[str, np.ndarray]:
    """``"<prefix><suite>:<check>"`` -> each case's pass (1) or fail (0) under every case check of the suites
    (sources 2 and 5); ``kept(suite, expectation)``: only the checks of the rows it accepts."""
    from suites.harness.spec import load_suite

    out = {}
    for name, cases in suites.items():
        # the declared thresholds read in the range unit, as scripts/research/rome_dev.py does: the suites' own scale-free
        # units need each case's control text, which the bench does not score (a one-metric comparison is fair)
        for check in (dataclasses.replace(c, unit=RANGE) for c in load_suite(name).case_checks):
            if kept is not None and not kept(name, check.expectation):
                continue
            passed = [check.case_passes(INFO, CaseScores(c[0], score[(c[3], c[2])], score[(c[4], c[2])]))
                      for c in cases if check.applies_to(c[1])]
            if passed:
                out[f"{prefix}{name}:{check.name}"] = np.array(passed, float)
    return out


def per_unit(data: dict, score: dict) -> dict[str, object]:
    """Each source's per-unit outcomes, from which its figure is computed (and resampled)."""
    demetr = defaultdict(list)
    for _, category, severity, ref, good, bad in data["demetr"]:
        if severity != "base":
            demetr[category].append(prefers(INFO, score[(good, ref)], score[(bad, ref)]))
    out = {"demetr": {k: np.array(v, float) for k, v in demetr.items()},
           "suites": check_outcomes(data["suites"], score)}
    for name, criteria in RATINGS.items():
        best = np.array([max(score[(h, r)] for r in refs) for h, refs, _ in data[name]])
        human = np.array([[hum[c] for c in criteria] for _, _, hum in data[name]])
        out[name] = (best, human)
    rows = set(data["corpus_rows"])
    out["corpora"] = {k: v for corpus, suites in data["corpora"].items() for k, v in check_outcomes(
        suites, score, lambda suite, expectation, corpus=corpus: (corpus, suite, expectation) in rows,
        f"{corpus}/").items()}
    return out


def _spearman_mean(metric: np.ndarray, human: np.ndarray) -> float:
    rm = rankdata(metric)
    return float(np.mean([np.corrcoef(rm, rankdata(human[:, k]))[0, 1] for k in range(human.shape[1])]))


def figure(source: str, units, index=None) -> float:
    """The source's figure, on a bootstrap resample when ``index`` is given."""
    if source in CASE_SOURCES:
        return float(np.mean([np.mean(v if index is None else v[index[k]]) for k, v in units.items()]))
    metric, human = units
    if index is not None:
        metric, human = metric[index], human[index]
    return _spearman_mean(metric, human)


def compare(old: dict, new: dict) -> dict[str, tuple[float, float, float, float]]:
    """source -> (old figure, new figure, interval low, high of the paired change)."""
    rng = np.random.default_rng(SEED)
    out = {}
    for source in old:
        a, b = old[source], new[source]
        diffs = []
        for _ in range(RESAMPLES):
            if source in CASE_SOURCES:
                index = {k: rng.integers(0, len(v), len(v)) for k, v in a.items()}
            else:
                n = len(a[0])
                index = rng.integers(0, n, n)
            diffs.append(figure(source, b, index) - figure(source, a, index))
        low, high = np.percentile(diffs, [2.5, 97.5])
        out[source] = (figure(source, a), figure(source, b), float(low), float(high))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--store", type=Path, required=True)
    parser.add_argument("--candidate", action="append", required=True, choices=[c for c in CONFIGS if c != "current"])
    parser.add_argument("--f-sem", action="store_true", help="also each configuration's F_sem alone (ablation)")
    parser.add_argument("--demetr-per-category", type=int, default=None, help="seeded sample of non-base items")
    parser.add_argument("--max-rated", type=int, default=None, help="seeded sample of each rating set's outputs")
    args = parser.parse_args(argv)
    configs = ["current", *args.candidate]
    stored = pickle.loads(args.store.read_bytes()) if args.store.exists() else {}
    if "data" in stored and "corpora" not in stored["data"]:
        parser.error(f"{args.store} was built before source 5 (the corpora): give a new --store")
    if "data" not in stored:
        stored["data"] = sources(args.demetr_per_category, args.max_rated)
        print({k: len(v) for k, v in stored["data"].items() if k not in ("suites", "corpora")},
              {k: len(v) for k, v in stored["data"]["suites"].items()},
              {f"{c}/{k}": len(v) for c, s in stored["data"]["corpora"].items() for k, v in s.items()}, flush=True)
        stored["pairs"] = all_pairs(stored["data"])
        stored["features"] = {}
    missing = [c for c in configs if c not in stored["features"]]
    if missing:
        stored["features"].update(compute(stored["pairs"], missing))
        with replaced_path_when_complete(args.store) as tmp:  # an interrupted run keeps the old store
            tmp.write_bytes(pickle.dumps(stored))
    data, pairs = stored["data"], stored["pairs"]
    units = {}
    for c in configs:
        print(c)
        units[c] = per_unit(data, scores_of(data, pairs, stored["features"][c], c))
        if args.f_sem:
            units[f"{c}:f_sem"] = per_unit(data, scores_of(data, pairs, stored["features"][c], f"{c}:f_sem"))
    for c, u in units.items():
        print(f"{c}: DEMETR by category " + ", ".join(f"{k.split('_', 1)[1]} {np.mean(v):.3f}"
                                                      for k, v in sorted(u["demetr"].items())))
        print(f"{c}: suites " + ", ".join(f"{k} {np.mean(v):.3f}" for k, v in u["suites"].items()))
        print(f"{c}: corpora " + ", ".join(f"{k} {np.mean(v):.3f}" for k, v in u["corpora"].items()))
        for name in RATINGS:
            metric, human = u[name]
            rho = [_spearman_mean(metric, human[:, [k]]) for k in range(human.shape[1])]
            print(f"{c}: {name} " + " / ".join(f"{r:.3f}" for r in rho))
    for c in [*args.candidate, *(f"{c}:f_sem" for c in configs if args.f_sem)]:
        print(f"\n{c} against current: source, current, candidate, paired 95 % interval of the change")
        better = 0
        for source, (old, new, low, high) in compare(units["current"], units[c]).items():
            better += new > old
            flag = " WORSE than its interval" if high < 0 else ""
            print(f"  {source:15s} {old:.4f} {new:.4f} [{low:+.4f}, {high:+.4f}]{flag}")
        print(f"  better on {better} of {len(units[c])} sources")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
