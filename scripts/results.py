"""Write docs/results.md, the one page every figure of README and docs comes from.

    bash scripts/main_job.sh                 # writes rome-out/ (suites, tables, validity, DEMETR, bench)
    python scripts/results.py --from rome-out [--out docs/results.md]

The page states the code that made its outputs as each output recorded it (``Produced by rome ..., commit
H``), never the checkout the page is generated in; outputs of several commits are each named, and the page
says so. It then copies each output's table as the command wrote it, each under the command that regenerates it.
An output the run did not make is named as missing, never filled from an older page. Figures that do
not come from the main job (the context model's held-out accuracy) are read from the file the committed
command wrote (``baselines/context/weights/mlm_head.json``, written by ``python -m baselines.context.train``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: (section title, output file under --from, the command that made it)
SECTIONS: tuple[tuple[str, str, str], ...] = (
    ("Correlation with human judgments (BAGEL, SFHOTEL)", "correlation/correlation.md",
     "`rome report correlation --dataset bagel --dataset sfhotel --out rome-out/correlation`"),
    ("Robustness of the metrics to perturbations (rows \"(judged)\": the check on the cases a reader judged)",
     "robustness/robustness.md",
     "`rome suite SUITE --data CORPUS` (every suite, every shipped corpus), then `rome report robustness --from rome-out`"),
    ("Validity of the perturbations (cards judged blind)", "job/validity.md", "`rome validity`"),
    ("Validity on held-out corpora (cards outside the package)", "job/validity-heldout.md",
     "`rome validity --cards docs/heldout-cards --data FILE` (one per held-out corpus)"),
    ("DEMETR challenge set: accuracy per category", "challenge-demetr/accuracy.md",
     "`rome challenge demetr --metric all --out rome-out/challenge-demetr`"),
    ("Speed", "job/bench.md", "`rome bench --n 1000`"),
)

#: what a section says when its output is absent for a known reason (any other absence is "_missing_")
ABSENT: dict[str, str] = {
    "job/validity-heldout.md": (
        "_not run: no held-out corpus was named. The held-out corpora are not shipped (WMT 2021 may not be "
        "redistributed; the academic corpus is built from the seed papers beside a development checkout), so "
        "the main job reads their cards only with `ROME_HELDOUT=FILE` (docs/heldout-cards/README.md says how to build "
        "each); their last reading is quoted in docs/validity.md and docs/perturbations.md._"),
}

#: how an output records the code that made it (reports.tables.provenance): ``Produced by rome X, commit H``
#: from a source checkout (``+dirty`` when its tree had changes), ``rome-harness V`` from an installed package
RECORDED = re.compile(r"[Pp]roduced by rome [\w ]+?, (commit [0-9a-f]{4,40}(?:\+dirty)?|rome-harness [^,\s]+)")


def recorded_versions(markdown: str) -> list[str]:
    """Every code version an output recorded (``commit abc1234``, ``rome-harness 0.3``), in order, once each."""
    return list(dict.fromkeys(RECORDED.findall(markdown)))


def stamp_line(recorded: dict[str, list[str]]) -> str:
    """The page's statement of which code made its outputs, from what each output recorded, never from the
    checkout the page is generated in: one version, or each output's when they differ (said so plainly)."""
    versions = list(dict.fromkeys(v for found in recorded.values() for v in found))
    silent = [name for name, found in recorded.items() if not found]
    unrecorded = f" ({', '.join(silent)} recorded none)" if silent else ""
    if not versions:
        return f"No output recorded the code that made it{unrecorded}."
    if len(versions) == 1:
        return f"Every output that records its code was made by {_code(versions[0])}{unrecorded}."
    per_output = "; ".join(f"{name}: {', '.join(_code(v) for v in found)}" for name, found in recorded.items() if found)
    return (f"**These outputs come from {len(versions)} different code versions**, as each recorded: "
            f"{per_output}{unrecorded}.")


def _code(version: str) -> str:
    kind, _, value = version.partition(" ")
    return f"{kind} `{value}`"


def demote(markdown: str, levels: int = 2) -> str:
    """Headings pushed ``levels`` deeper, so an output's own title sits under this page's section; the
    output's image lines left out (the images stay in the output folder, not beside this page)."""
    markdown = re.sub(r"^\s*!\[[^\]]*\]\([^)]*\)\s*$\n?", "", markdown, flags=re.M)
    return re.sub(r"^(#+) ", lambda m: "#" * min(6, len(m.group(1)) + levels) + " ", markdown, flags=re.M)


def context_model_section() -> str:
    card_path = ROOT / "baselines" / "context" / "weights" / "mlm_head.json"
    if not card_path.is_file():
        return "_missing: baselines/context/weights/mlm_head.json_\n"
    card = json.loads(card_path.read_text(encoding="utf-8"))
    lines = [f"`{card['command']}` (layer {card['layer']}, seed {card['seed']}, {card['epochs']} epochs, "
             f"{card['training_texts']:,} training texts, {card['training_pieces']:,} masked pieces; "
             f"trained on {card['trained_on']}).", "",
             "Masked word-piece accuracy on held-out text, against always guessing the training set's most "
             "frequent pieces:", "",
             "| held-out text | pieces | top-1 | top-5 | unigram top-1 | unigram top-5 |", "|---|---|---|---|---|---|"]
    for name, r in card["held_out"].items():
        lines.append(f"| {name} | {r.get('pieces', '')} | {r['top1']:.3f} | {r['top5']:.3f} | "
                     f"{r['unigram_top1']:.3f} | {r['unigram_top5']:.3f} |")
    return "\n".join(lines) + "\n"


def halves_section() -> str:
    """The judge-decided kinds' validity on the development and the test half (scripts/validity_halves.py)."""
    import contextlib
    import io
    import runpy

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        module = runpy.run_path(str(ROOT / "scripts" / "validity_halves.py"))
        module["main"](["--card", "textfooler", "--card", "adjective", "--card", "passive"])
    return buffer.getvalue()


class _ResultsPage:
    """The results page as an output kind of the project's writer: a file whose first line is the page's title."""

    description = "a results page of scripts/results.py"
    fields = frozenset({"# Results"})
    jsonl = False

    @staticmethod
    def recognises(path: Path) -> bool:
        with open(path, encoding="utf-8", errors="replace") as handle:
            return handle.readline().rstrip("\n") in ("# Results", "")


RESULTS_PAGE = _ResultsPage()


def build_page(source: Path, note: str = "") -> str:
    now = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    sections, recorded = [], {}
    for title, relative, command in SECTIONS:
        sections += [f"## {title}", "", f"Command: {command}", ""]
        path = source / relative
        if path.is_file():
            text = path.read_text(encoding="utf-8").strip()
            recorded[relative] = recorded_versions(text)
            sections.append(demote(text))
        else:
            sections.append(ABSENT.get(relative, f"_missing: {relative} was not produced by this run_"))
        sections.append("")
    parts = ["# Results", "",
             f"Generated by `python scripts/results.py --from {source.name}` on {now} from the outputs of "
             f"`bash scripts/main_job.sh`. {stamp_line(recorded)} Every figure in README and the docs "
             "comes from this page; regenerate it rather than editing it.", ""]
    if note:
        parts += [note, ""]
    parts += sections
    parts += ["## Validity of the judge-decided kinds by half of each corpus", "",
              "Command: `python scripts/validity_halves.py --card textfooler --card adjective --card passive`. "
              "Their thresholds were set from development-half texts only (except the passive's sentence-opening "
              "proper-noun rule, read off blind-judged news lines of both halves: docs/perturbations.md); the "
              "test half's figure is the one no threshold saw.", "", halves_section()]
    parts += ["## The context model (GRUEN's likelihood)", "", context_model_section()]
    return "\n".join(parts).rstrip() + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--from", dest="source", type=Path, default=Path("rome-out"),
                        help="the main job's output folder (default: rome-out)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "results.md")
    parser.add_argument("--note", default="", help="a sentence under the stamp (e.g. how the outputs were made)")
    args = parser.parse_args(argv)
    if not args.source.is_dir():
        print(f"results.py: {args.source}: no such folder; run bash scripts/main_job.sh first", file=sys.stderr)
        return 2
    from rome.core.errors import InputError
    from rome.core.files import safe_output

    page = build_page(args.source, args.note)
    try:  # the project's writer: locked, atomic, and only over a results page this script wrote
        with safe_output(args.out, RESULTS_PAGE, inputs=[("the --from folder", args.source)], flag="--out") as handle:
            handle.write(page)
    except InputError as error:
        print(f"results.py: {error}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
