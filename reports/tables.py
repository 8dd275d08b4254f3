"""One small table model rendered four ways: Markdown, CSV, LaTeX (booktabs) and static HTML.

Every table carries ``notes`` (the data it came from, the metric signatures, the commit), and
each renderer prints them, so no output loses its provenance. Written here because the
tables are simple string grids; pandas' renderers would add a dependency for no gain.
"""

from __future__ import annotations

import csv
import functools
import html
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from rome.core.version import code_version


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list[str]]
    notes: list[str] = field(default_factory=list)
    label: str = ""


@functools.lru_cache(maxsize=1)
def provenance() -> str:
    """``<code version>, <UTC time>``: which code produced a table (:func:`code_version`), and when."""
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    return f"{code_version()}, {stamp}"


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|")


def to_markdown(table: Table, level: int = 2) -> str:
    lines = [f"{'#' * level} {table.title}", ""]
    lines.append("| " + " | ".join(_md_cell(c) for c in table.columns) + " |")
    lines.append("|" + "|".join("---" for _ in table.columns) + "|")
    lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in table.rows]
    if table.notes:
        lines += [""] + [f"- {n}" for n in table.notes]
    return "\n".join(lines) + "\n"


def to_csv(table: Table) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(table.columns)
    writer.writerows(table.rows)
    for note in table.notes:
        writer.writerow([f"# {note}"])
    return buffer.getvalue()


_LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}",
                  "ρ": r"$\rho$", "τ": r"$\tau$", "Δ": r"$\Delta$", "–": "--", "±": r"$\pm$",
                  "|": r"\textbar{}", "−": "$-$", "×": r"$\times$", "<": r"\textless{}", ">": r"\textgreater{}"}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in text)


def to_latex(table: Table) -> str:
    """A booktabs ``table`` environment (needs ``\\usepackage{booktabs}``)."""
    spec = "l" + "r" * (len(table.columns) - 1)
    lines = [r"\begin{table}[t]", r"\centering", r"\small", rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
             " & ".join(latex_escape(c) for c in table.columns) + r" \\", r"\midrule"]
    lines += [" & ".join(latex_escape(c) for c in row) + r" \\" for row in table.rows]
    lines.append(r"\bottomrule")
    lines.append(r"\end{tabular}")
    caption = latex_escape(table.title)
    if table.notes:
        caption += r" \\ \footnotesize " + "; ".join(latex_escape(n) for n in table.notes)
    lines.append(rf"\caption{{{caption}}}")
    if table.label:
        lines.append(rf"\label{{{table.label}}}")
    lines.append(r"\end{table}")
    return "\n".join(lines) + "\n"


def to_html_fragment(table: Table) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in table.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in table.rows)
    notes = "".join(f"<li>{html.escape(n)}</li>" for n in table.notes)
    return (f"<section><h2>{html.escape(table.title)}</h2><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table><ul class='notes'>{notes}</ul></section>")


_STYLE = ("body{font-family:sans-serif;margin:2em;max-width:80em}table{border-collapse:collapse;margin:1em 0}"
          "th,td{padding:.25em .6em;text-align:right;border-bottom:1px solid #ddd}"
          "th:first-child,td:first-child{text-align:left}thead th{border-bottom:2px solid #333}"
          ".notes{font-size:.85em;color:#444}img{max-width:100%}")


def to_html_page(title: str, tables: Sequence[Table], images: Sequence[str] = (), intro: str = "") -> str:
    """A self-contained static page (images are referenced by relative path)."""
    parts = [f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>",
             f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>"]
    if intro:
        parts.append(f"<p>{html.escape(intro)}</p>")
    parts += [to_html_fragment(t) for t in tables]
    parts += [f"<figure><img src='{html.escape(src)}' alt='{html.escape(src)}'></figure>" for src in images]
    parts.append("</body></html>\n")
    return "".join(parts)


def write_all(out: Path, stem: str, title: str, tables: Sequence[Table], images: Sequence[str] = (),
              intro: str = "", into: Path | None = None) -> list[Path]:
    """``<stem>.md``, ``<stem>.tex``, ``<stem>.html`` and one ``<stem>-<label>.csv`` per table, written with
    the one folder writer (:func:`rome.core.files.output_folder`), or into ``into``, the folder a caller's
    writer holds for ``out`` (:func:`rome.core.files.writing`)."""
    from rome.core.files import writing

    md = f"# {title}\n\n" + (f"{intro}\n\n" if intro else "") + "\n".join(to_markdown(t) for t in tables)
    md += "".join(f"\n![{Path(src).stem}]({src})\n" for src in images)
    texts = {f"{stem}.md": md, f"{stem}.tex": "\n".join(to_latex(t) for t in tables),
             f"{stem}.html": to_html_page(title, tables, images, intro)}
    texts.update({f"{stem}-{table.label or index}.csv": to_csv(table) for index, table in enumerate(tables)})
    with writing(out, texts, into) as folder:
        for name, text in texts.items():
            (folder / name).write_text(text, encoding="utf-8")
    return [out / name for name in texts]
