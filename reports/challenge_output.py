"""Write a challenge run: ``accuracy.csv`` (exact header), ``cells.csv``, Markdown, HTML, heatmap, items, summary.

Files in the output folder:

- ``accuracy.csv``: ``category,severity,metric,n,accuracy`` and nothing else (accuracy in [0, 1]).
  ``severity`` holds, for a category row, its items' severity (``a+b`` if they differ, empty if
  none is given); for an ``ALL:<severity>`` row that severity; for the ``ALL`` row ``all``.
- ``cells.csv``: the same rows plus ``ci_low, ci_high`` (95 % bootstrap), ``ties`` (counted as
  wrong) and ``sensitivity`` (empty where undefined).
- ``accuracy.md`` / ``accuracy.html``: accuracy with intervals, sensitivity, the inputs and
  their skips, metric signatures and the commit; ``accuracy.png``: the heatmap (rows x metrics).
- ``compare-A-B.csv`` (with ``--compare A B``): per row, both accuracies with Wilson intervals, the
  items only one metric gets right, the exact McNemar p, its Holm adjustment and the reading (a lead
  or a tie).
- ``items.jsonl``: per item its id, category, severity, and per metric the good, bad and "."
  scores and whether it was right; ``run.json``: inputs, skips, settings, signatures, timings.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import numpy as np

from reports import plots
from reports.challenge import ALL, CONTROL_TEXT, CSV_HEADER, ChallengeResult, paired_comparison
from reports.stats import holm, wilson_interval
from reports.tables import Table, provenance, to_html_page, to_markdown
from rome.core.numbers import fmt, signed


def _accuracy_cell(result: ChallengeResult, category: str, metric: str) -> str:
    cell = result.cell(category, metric)
    if cell is None:
        return "–"
    return f"{cell.accuracy:.3f} [{cell.ci_low:.2f}, {cell.ci_high:.2f}]"


def _rows(result: ChallengeResult, value) -> list[list[str]]:
    rows = []
    for category, severity in result.row_labels():
        n = result.cell(category, result.metrics[0]).n
        rows.append([category, severity, str(n), *(value(category, m) for m in result.metrics)])
    return rows


def accuracy_table(result: ChallengeResult, notes: list[str]) -> Table:
    return Table("Accuracy: good scored strictly above bad (95 % bootstrap interval)",
                 ["category", "severity", "n", *result.metrics],
                 _rows(result, lambda c, m: _accuracy_cell(result, c, m)), notes, label="accuracy")


def sensitivity_table(result: ChallengeResult) -> Table:
    def value(category: str, metric: str) -> str:
        cell = result.cell(category, metric)
        return fmt(cell.sensitivity if cell else None)

    return Table(f"Sensitivity: mean drop good → bad over mean drop good → \"{CONTROL_TEXT}\"",
                 ["category", "severity", "n", *result.metrics], _rows(result, value),
                 ["1 = the perturbation costs as much as deleting the translation; 0 = nothing; "
                  "– = undefined (the metric does not score \".\" below the good texts on average)"],
                 label="sensitivity")


def comparison_table(result: ChallengeResult, a: str, b: str, alpha: float = 0.05) -> Table:
    """``a`` against ``b`` on the same items, per row: exact McNemar, Holm-adjusted over the rows."""
    tested = paired_comparison(result, a, b)
    adjusted = holm([t.p_value for _, _, t in tested])
    rows = []
    for (label, severity, test), p_holm in zip(tested, adjusted):
        cells = []
        for right in (test.a_passes, test.b_passes):
            low, high = wilson_interval(right, test.n)
            cells.append(f"{right / test.n:.3f} [{low:.2f}, {high:.2f}]")
        rows.append([label, severity, str(test.n), *cells, signed(test.difference * 100, 1), str(test.a_only),
                     str(test.b_only), f"{test.p_value:.3g}", f"{p_holm:.3g}", test.reading(a, b, alpha, p_holm)])
    notes = [f"{a} only / {b} only: items one metric gets right and the other wrong; p: exact McNemar (two-sided "
             f"binomial test on those items); p (Holm): adjusted over the {len(rows)} rows (they overlap: ALL rows "
             f"pool the categories); reading: a lead only when p (Holm) < {alpha:g}, else a tie; accuracy "
             "intervals here are Wilson 95 %"]
    return Table(f"Paired comparison: {a} vs {b}", ["category", "severity", "n", a, b, "difference (points)",
                 f"{a} only", f"{b} only", "p", "p (Holm)", "reading"], rows, notes,
                 label=f"compare-{a}-{b}".replace("/", "_"))


def inputs_table(meta: dict[str, Any]) -> Table:
    rows = []
    for f in meta["files"]:
        skipped = ", ".join(f"{n} {why}" for why, n in f["skipped"].items() if n) or "none"
        rows.append([Path(f["path"]).name, f["format"] + (" (reversed)" if f.get("reversed") else ""),
                     str(f["records"]), str(f["items"]), skipped])
    notes = [f"Ignored (not read): {Path(path).name} ({why})" for path, why in meta.get("ignored", [])]
    if meta.get("sampled"):
        notes.append(meta["sampled"])
    return Table("Inputs: records read, usable items, items skipped and why",
                 ["file", "format", "records", "usable items", "skipped"], rows, notes, label="inputs")


def provenance_notes(meta: dict[str, Any]) -> list[str]:
    notes = ["Correct = score(good) > score(bad) in the metric's quality direction (TER flipped); ties "
             "(within 1e-6 of the range) are wrong; cells.csv counts them",
             "Rows: one per category; ALL:<severity> pools the items of that severity; ALL pools every item",
             f"Interval: percentile bootstrap over the cell's items ({meta.get('bootstrap', 1000)} resamples, "
             f"seed {meta.get('seed', 0)}, seeded per cell)"]
    notes += [f"Signature {m}: {s}" for m, s in meta.get("signatures", {}).items()]
    notes += [f"Left out {m}: {why}" for m, why in meta.get("unavailable", {}).items()]
    notes.append(f"Produced by rome challenge, {provenance()}")
    return notes


def write_accuracy_csv(result: ChallengeResult, path: Path) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow(CSV_HEADER)
        writer.writerows(cell.csv_row() for cell in result.cells)
    return path


def write_cells_csv(result: ChallengeResult, path: Path) -> Path:
    with path.open("w", encoding="utf-8", newline="") as handle:
        writer = csv.writer(handle, lineterminator="\n")
        writer.writerow([*CSV_HEADER, "ci_low", "ci_high", "ties", "sensitivity"])
        for c in result.cells:
            writer.writerow([*c.csv_row(), f"{c.ci_low:.6f}", f"{c.ci_high:.6f}", c.ties,
                             "" if c.sensitivity is None else f"{c.sensitivity:.6f}"])
    return path


def write_items(result: ChallengeResult, path: Path) -> Path:
    correct = {m: s.correct() for m, s in result.scores.items()}
    with path.open("w", encoding="utf-8") as handle:
        for i, item in enumerate(result.items):
            scores = {m: {"good": float(s.good[i]), "bad": float(s.bad[i]), "control": float(s.control[i]),
                          "correct": bool(correct[m][i])} for m, s in result.scores.items()}
            row = {"id": item.id, "category": item.category, "severity": item.severity,
                   "reference": list(item.reference), "good": item.good, "bad": item.bad, "scores": scores}
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    return path


def heatmap(result: ChallengeResult, path: Path, title: str) -> Path:
    """Rows (categories, then the summary rows) x metrics, coloured by accuracy (0 red .. 1 green)."""
    plt = plots._pyplot()
    labels = [c for c, _ in result.row_labels()]
    matrix = np.array([[result.cell(c, m).accuracy for m in result.metrics] for c in labels])
    fig, ax = plt.subplots(figsize=(1.1 * len(result.metrics) + 3.5, 0.32 * len(labels) + 1.6))
    image = ax.imshow(matrix, cmap="RdYlGn", vmin=0.0, vmax=1.0, aspect="auto")
    ax.set_xticks(range(len(result.metrics)), labels=result.metrics, rotation=30, ha="right", fontsize=8)
    ax.set_yticks(range(len(labels)), labels=labels, fontsize=7)
    for i in range(len(labels)):
        for j in range(len(result.metrics)):
            ax.text(j, i, f"{matrix[i, j]:.2f}", ha="center", va="center", fontsize=6.5,
                    color="white" if matrix[i, j] < 0.25 or matrix[i, j] > 0.85 else "black")
    first_summary = next((i for i, label in enumerate(labels) if label == ALL or label.startswith(ALL + ":")),
                         len(labels))
    ax.axhline(first_summary - 0.5, color="black", linewidth=1.5)  # categories above, summary rows below
    fig.colorbar(image, ax=ax, fraction=0.04, pad=0.02, label="accuracy")
    ax.set_title(title, fontsize=9)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


#: the fixed files of a challenge's output folder (checked before scoring; ``compare-*.csv`` at the end)
CHALLENGE_FILES = ("accuracy.csv", "cells.csv", "accuracy.md", "accuracy.html", "accuracy.png", "items.jsonl",
                   "run.json")


def write_outputs(result: ChallengeResult, out: Path, meta: dict[str, Any],
                  compare: list[tuple[str, str]] | None = None, alpha: float = 0.05,
                  into: Path | None = None) -> list[Path]:
    """Every file of the run, written with the one folder writer (:func:`rome.core.files.output_folder`), or
    into ``into``, the folder a caller's writer holds for ``out``."""
    from rome.core.files import writing

    title = "Challenge-set accuracy of the metrics"
    notes = provenance_notes(meta)
    paired = [comparison_table(result, a, b, alpha) for a, b in compare or []]
    tables = [accuracy_table(result, notes), sensitivity_table(result), *paired, inputs_table(meta)]
    intro = (f"{len(result.items)} minimal pairs from {len(meta['files'])} file(s); "
             f"{sum(sum(f['skipped'].values()) for f in meta['files'])} items skipped (see Inputs).")
    with writing(out, CHALLENGE_FILES, into) as folder:
        written = [write_accuracy_csv(result, folder / "accuracy.csv"), write_cells_csv(result, folder / "cells.csv")]
        for table in paired:
            written.append(folder / f"{table.label}.csv")
            with written[-1].open("w", encoding="utf-8", newline="") as handle:
                csv.writer(handle).writerows([table.columns, *table.rows])
        image = heatmap(result, folder / "accuracy.png", f"{title} ({len(result.items)} items)")
        md = (f"# {title}\n\n{intro}\n\n" + "\n".join(to_markdown(t) for t in tables)
              + f"\n![heatmap]({image.name})\n")
        (folder / "accuracy.md").write_text(md, encoding="utf-8")
        (folder / "accuracy.html").write_text(to_html_page(title, tables, [image.name], intro), encoding="utf-8")
        written += [folder / "accuracy.md", folder / "accuracy.html", image, write_items(result, folder / "items.jsonl")]
        (folder / "run.json").write_text(json.dumps(meta, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
        written.append(folder / "run.json")
    return [out / path.name for path in written]


def summary_markdown(result: ChallengeResult, rows: str = "all") -> str:
    """The accuracy table for the terminal: every row, or only the summary rows (``rows="summary"``)."""
    table = accuracy_table(result, [])
    if rows == "summary":
        table.rows = [r for r in table.rows if r[0] == ALL or r[0].startswith(ALL + ":")]
    return to_markdown(table, level=3)
