"""Table rendering: every format keeps the cells and the provenance notes, with escaping."""

from __future__ import annotations

import csv
import io

from reports.tables import Table, to_csv, to_html_page, to_latex, to_markdown, write_all
from rome.core.numbers import fmt, signed

TABLE = Table("BAGEL ρ & τ", ["metric", "inf ρ"], [["bleu", "0.16* [0.07, 0.25]"], ["a|b_c", "–"]],
              ["Signature bleu: bleu|tok:13a", "variant − original < 5%"], label="t1")


def test_markdown_escapes_pipes_in_cells_and_keeps_notes():
    md = to_markdown(TABLE)
    assert "| a\\|b_c | – |" in md and "- Signature bleu: bleu|tok:13a" in md


def test_latex_is_booktabs_and_escaped():
    tex = to_latex(TABLE)
    assert r"\toprule" in tex and r"\midrule" in tex and r"\bottomrule" in tex
    assert r"a\textbar{}b\_c & --" in tex and r"BAGEL $\rho$ \& $\tau$" in tex
    assert r"variant $-$ original \textless{} 5\%" in tex and r"\label{t1}" in tex


def test_csv_round_trips_cells_and_appends_notes():
    rows = list(csv.reader(io.StringIO(to_csv(TABLE))))
    assert rows[0] == ["metric", "inf ρ"] and rows[2] == ["a|b_c", "–"]
    assert rows[3] == ["# Signature bleu: bleu|tok:13a"]


def test_html_escapes_and_links_images(tmp_path):
    page = to_html_page("x<y", [TABLE], images=["heatmap.png"])
    assert "<h1>x&lt;y</h1>" in page and "<img src='heatmap.png'" in page and "variant − original &lt; 5%" in page
    written = write_all(tmp_path, "r", "title", [TABLE])
    assert [p.name for p in written] == ["r.md", "r.tex", "r.html", "r-t1.csv"]


def test_fmt_marks_undefined_values():
    assert fmt(float("nan")) == "–" and fmt(None) == "–" and fmt(0.1234) == "0.12"
    assert fmt(-0.0004) == "0.00" and fmt(-0.004, 2) == "0.00" and fmt(-0.006) == "-0.01" and fmt(-0.0004, 3) == "0.000"


def test_signed_changes_keep_their_sign_unless_they_round_to_zero():
    assert signed(0.08) == "+0.08" and signed(-0.03) == "-0.03" and signed(-0.026, 1) == "0.0"
    assert signed(-0.004) == "0.00" and signed(0.004) == "0.00" and signed(-0.0004, 3) == "0.000"
    assert signed(-0.0006, 3) == "-0.001" and signed(12.34, 1) == "+12.3"
