"""How the judge's operating points transfer across genres, from the committed fit rows (no model run).

    python scripts/research/judge_genres.py [--rows FILE] [--seed 0] [--out FILE.md]

Reads the fit rows the committed weights were fitted on (``data/judge_features.json``, written by
``judge_train.py --rows``) and, per kind (textfooler, adjective, passive):

1. the committed weights and threshold (``perturbations/judge/weights.json``) applied to each genre's rows:
   n, valid, accepted, the accepted lines' precision with its Wilson 95 % interval, their mean p_valid.
   These rows were fitted on, so this is in-sample;
2. leave one genre out: the kind's model (one lexical model over textfooler + adjective, one sentence model
   for the passive, as the trainer fits them) refitted on the other genres' rows with
   :func:`perturbations.judge.fit.fit_set` (the trainer's folds, seed and out-of-fold operating point at
   :data:`perturbations.judge.fit.TARGET`, the threshold rounded to 4 places as the shipped weights are),
   then applied to the held-out genre: the same figures and the AUC there. Only these rows measure transfer.

A row's genre: ``cards`` and ``labels`` rows by their group's corpus (``dialogue:...``, ``news:...``,
``webnlg:...``), the SWORDS rows (``swords``) and the passive's gold set (``gold``) each one genre of its own.
All of it is development data: nothing here is a test-half figure.

Prints the markdown report, or writes it to ``--out`` with the project's safe writer (only over a report of
this script).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import judge_train as T
import numpy as np

from perturbations.judge import KINDS, load_weights
from perturbations.judge.fit import TARGET, fit_set, predict
from reports.stats import wilson_interval
from rome.core.errors import InputError
from rome.core.files import OutputKind, safe_output

TITLE = "# The judge's operating points across genres"
#: the corpora a ``cards`` / ``labels`` row's group names before its ":"
CORPORA = ("dialogue", "news", "webnlg")
#: sources that are one genre each
OWN_GENRE = ("swords", "gold")
GENRES = (*CORPORA, *OWN_GENRE)


@dataclass(frozen=True)
class _Report(OutputKind):
    """A report of this script, recognised by its first line (it is markdown, not JSON)."""

    def recognises(self, path: Path) -> bool:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.readline().rstrip("\n") in (TITLE, "")


REPORT_OUTPUT = _Report("a report of scripts/research/judge_genres.py",
                        frozenset({f"the title line {TITLE!r}"}), jsonl=False)


def genre(row: dict[str, Any]) -> str:
    """A row's genre; an unknown source or corpus is an error, not a genre of its own."""
    if row["source"] in OWN_GENRE:
        return row["source"]
    if row["source"] in ("cards", "labels"):
        corpus = row["group"].split(":", 1)[0]
        if ":" in row["group"] and corpus in CORPORA:
            return corpus
        raise InputError(f"a {row['source']} row's group {row['group']!r} names none of {', '.join(CORPORA)}")
    raise InputError(f"a row of unknown source {row['source']!r} (known: cards, labels, {', '.join(OWN_GENRE)})")


def load_rows(path: Path, weights: dict[str, Any]) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("gguf_sha256") != weights["gguf_sha256"] or data.get("window") != weights.get("window"):
        raise InputError(f"{path}: its features are of another model or window than the committed weights")
    return data["rows"]


def figures(p: np.ndarray, y: np.ndarray, threshold: float) -> dict[str, Any]:
    """The trainer's measurement (:func:`judge_train.measure`) at ``threshold``, with the Wilson interval."""
    m = T.measure(p, y, threshold)
    hits = int(y[p >= threshold].sum())
    return {"n": m["n"], "valid": m["valid"], "accepted": m["accepted"], "accepted_valid": hits,
            "precision": m["precision_accepted"], "interval": wilson_interval(hits, m["accepted"]) if m["accepted"]
            else None, "mean_p": m["mean_p_accepted"], "auc": m["auc"], "threshold": threshold}


def report(rows: list[dict[str, Any]], weights: dict[str, Any], seed: int) -> dict[str, Any]:
    """Per kind: ``committed`` and ``leave_one_out`` figures by genre (``all`` too for the committed), the row
    counts by source and genre, and the thresholds a refit on every row gives (the trainer's, as a check)."""
    genres = [genre(r) for r in rows]
    out: dict[str, Any] = {"counts": Counter((r["source"], g) for r, g in zip(rows, genres)),
                           "refit_thresholds": {}, "kinds": {}}
    by_model: dict[str, tuple[list[dict], np.ndarray, np.ndarray, np.ndarray]] = {}
    logo: dict[tuple[str, str], tuple[dict, dict]] = {}  # (model, left-out genre) -> (model, thresholds)
    for name in weights["models"]:
        mine = [(r, g) for r, g in zip(rows, genres) if r["model"] == name]
        fit_rows = [r for r, _ in mine]
        X = np.array([r["features"] for r in fit_rows], dtype=float)
        y = np.array([r["valid"] for r in fit_rows], dtype=int)
        at = np.array([g for _, g in mine])
        by_model[name] = fit_rows, X, y, at
        for left_out in (None, *sorted(set(at), key=GENRES.index)):
            keep = at != left_out
            fitted, thresholds, _ = fit_set(X[keep], y[keep],
                                            [f"{r['source']}:{r['group']}" for r, k in zip(fit_rows, keep) if k],
                                            [r["kind"] for r, k in zip(fit_rows, keep) if k], seed)
            thresholds = {k: round(v, 4) for k, v in thresholds.items()}
            if left_out is None:
                out["refit_thresholds"].update(thresholds)
            else:
                logo[name, left_out] = fitted, thresholds
    for kind in KINDS:
        entry = weights["kinds"][kind]
        fit_rows, X_model, y_model, at_model = by_model[entry["model"]]
        pick = np.array([r["kind"] == kind for r in fit_rows])
        X, y, kind_genres = X_model[pick], y_model[pick], at_model[pick]
        p = predict(weights["models"][entry["model"]], X)
        committed = {g: figures(p[kind_genres == g], y[kind_genres == g], entry["threshold"])
                     for g in GENRES if (kind_genres == g).any()}
        committed["all"] = figures(p, y, entry["threshold"])
        moved = {}
        for g in committed:
            if g == "all":
                continue
            fitted, thresholds = logo[entry["model"], g]
            at = kind_genres == g
            moved[g] = figures(predict(fitted, X[at]), y[at], thresholds.get(kind, 1.0))
        out["kinds"][kind] = {"model": entry["model"], "threshold": entry["threshold"], "rows": int(pick.sum()),
                              "committed": committed, "leave_one_out": moved}
    return out


def _precision(f: dict[str, Any]) -> str:
    if not f["accepted"]:
        return "— (none accepted)"
    low, high = f["interval"]
    return f"{f['accepted_valid']}/{f['accepted']} = {f['precision']:.2f} [{low:.2f}, {high:.2f}]"


def _number(x: float | None) -> str:
    return "—" if x is None else f"{x:.3f}"


def render(result: dict[str, Any], rows_path: Path, seed: int) -> str:
    counts = result["counts"]
    sources = sorted({s for s, _ in counts})
    lines = [TITLE, "",
             f"Rows: `{rows_path.name}`, the judge's **fit rows** (development data, {sum(counts.values())} rows), "
             "read with the committed `perturbations/judge/weights.json`; no language model is run.",
             "",
             "- **Committed weights** tables: the committed model and threshold on the rows it was fitted on "
             "(its threshold was set on these rows' out-of-fold probabilities): **in-sample**, not a transfer "
             "measure.",
             f"- **Leave one genre out** tables: the kind's model refitted (`perturbations.judge.fit.fit_set`, seed "
             f"{seed}, target precision {TARGET:.2f}, threshold rounded to 4 places as shipped) on the other genres' "
             "rows of the same model (textfooler and adjective share the lexical model), applied to the left-out "
             "genre (every genre with rows of the kind). **Only these measure transfer**, and on small samples: read the "
             "intervals.",
             "- A threshold of 1.0 means no out-of-fold operating point reached the target on the rows fitted: "
             "the judge would accept nothing.",
             "- Precision: valid among the accepted, Wilson 95 % interval. Mean p: mean p_valid of the accepted. "
             "AUC: — where the genre's rows are all valid or all invalid.",
             "",
             "## Rows by source and genre", "",
             "| source | " + " | ".join(GENRES) + " |", "|---|" + "---|" * len(GENRES)]
    for s in sources:
        lines.append(f"| {s} | " + " | ".join(str(counts.get((s, g), 0) or "") for g in GENRES) + " |")
    lines += ["", "Refit on all fit rows (the trainer's procedure, nothing left out): thresholds "
              + ", ".join(f"{k} {v}" for k, v in result["refit_thresholds"].items()) + "; committed: "
              + ", ".join(f"{k} {v['threshold']}" for k, v in result["kinds"].items()) + "."]
    for kind, k in result["kinds"].items():
        lines += ["", f"## {kind} ({k['model']} model, {k['rows']} rows, committed threshold {k['threshold']})", "",
                  "Committed weights (in-sample):", "",
                  "| genre | n | valid | accepted | precision [Wilson 95 %] | mean p | AUC (in-sample) |",
                  "|---|---|---|---|---|---|---|"]
        for g, f in k["committed"].items():
            lines.append(f"| {g} | {f['n']} | {f['valid']} | {f['accepted']} | {_precision(f)} | "
                         f"{_number(f['mean_p'])} | {_number(f['auc'])} |")
        lines += ["", "Leave one genre out (refit on the others, applied to the genre):", "",
                  "| left out | n | valid | threshold | accepted | precision [Wilson 95 %] | mean p | AUC |",
                  "|---|---|---|---|---|---|---|---|"]
        for g, f in k["leave_one_out"].items():
            lines.append(f"| {g} | {f['n']} | {f['valid']} | {f['threshold']} | {f['accepted']} | {_precision(f)} | "
                         f"{_number(f['mean_p'])} | {_number(f['auc'])} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=Path, default=T.ROWS, help=f"fit rows (default: the committed {T.ROWS.name})")
    parser.add_argument("--seed", type=int, default=0, help="the refits' seed (folds; the committed weights used 0)")
    parser.add_argument("--out", type=Path, default=None, help="write the markdown report here (default: stdout)")
    args = parser.parse_args(argv)
    weights = load_weights()
    rows = load_rows(args.rows, weights)
    page = render(report(rows, weights, args.seed), args.rows, args.seed)
    if args.out is None:
        sys.stdout.write(page)
        return 0
    with safe_output(args.out, REPORT_OUTPUT, flag="--out", inputs=[("the rows file", args.rows)]) as handle:
        handle.write(page)
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except InputError as error:
        print(f"judge_genres.py: {error}", file=sys.stderr)
        raise SystemExit(2) from None
