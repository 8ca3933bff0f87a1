"""The page of `benchlens report` (no Qt): one self-contained HTML document, its style inline, its
charts inline SVG, no script and nothing fetched, so a colleague opens it in any browser, offline.

Everything taken from a run folder or the library (run, series, setting and host names, values,
verdicts, tags) is untrusted: it reaches the page only through `esc` (text and attribute values),
so a run named `<script>…` reads as that text and runs nothing. The helpers here take text and
escape it themselves; arguments named `html` are markup made by these helpers (or by Qt's SVG
writer, which escapes its text too) and are inserted as they are."""

from __future__ import annotations

import html as _html
import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from benchlens.app.analysis.tables import Table, fmt

STYLE = """
:root { color-scheme: light; --ink: #202020; --soft: #5a5a5a; --rule: #d8d8d8; --band: #f4f6f8;
  --bad: #b00020; --good: #00703c; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1260px; padding: 18px 22px 60px; color: var(--ink); background: #fff;
  font: 14px/1.45 "DejaVu Sans", "Segoe UI", Helvetica, Arial, sans-serif; }
h1 { font-size: 24px; margin: 6px 0 2px; }
h2 { font-size: 19px; margin: 34px 0 8px; padding-top: 8px; border-top: 2px solid var(--rule); }
h3 { font-size: 16px; margin: 22px 0 6px; }
h4 { font-size: 14px; margin: 14px 0 4px; }
p, li { max-width: 980px; }
.sub, .note { color: var(--soft); }
.note { font-size: 12.5px; margin: 4px 0 10px; }
nav ol { margin: 6px 0 0; padding-left: 22px; columns: 2; max-width: 720px; }
nav li { break-inside: avoid; }
figure { margin: 8px 0 14px; }
figure svg { display: block; width: 100%; height: auto; border: 1px solid var(--rule); }
table { border-collapse: collapse; margin: 6px 0 10px; font-size: 12.5px; }
th, td { padding: 3px 8px; border-bottom: 1px solid var(--rule); vertical-align: top; }
th { text-align: left; background: var(--band); font-weight: 600; }
td.n, th.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tbody tr:nth-child(even) td { background: #fafbfc; }
.wrap { overflow-x: auto; }
.bad { color: var(--bad); font-weight: 600; }
.good { color: var(--good); font-weight: 600; }
.verdict { margin: 2px 0 4px; }
.finding { margin: 10px 0 14px; padding: 6px 10px; border-left: 4px solid var(--rule); }
.finding.drop { border-left-color: #d55e00; }
.finding.latency { border-left-color: #cc79a7; }
.finding.recurring { border-left-color: #e69f00; }
code, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
details { margin: 6px 0 10px; }
summary { cursor: pointer; color: var(--soft); }
@media print { h2 { break-before: auto; } details { display: block; } }
"""


def esc(x: object) -> str:
    """Text as HTML: safe in element content and in quoted attribute values."""
    return _html.escape(str(x), quote=True)


def when(t: float | None) -> str:
    """An epoch as a reader reads it, in UTC; a dash when unknown."""
    if t is None or not math.isfinite(t):
        return "–"
    return datetime.fromtimestamp(t, UTC).strftime("%Y-%m-%d %H:%M:%S")


def span(seconds: float | None) -> str:
    """A duration: 75 s, 12 min, 1 h 05 min."""
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return "–"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{int(seconds // 3600)} h {int(seconds % 3600 // 60):02d} min"


def number(x: float) -> str:
    """A measured value to a few significant digits, as the summary tables write it."""
    return fmt(x, "num")


def percent(change: float) -> str:
    """A relative change (0.069 is +6.9 %); a dash when undefined."""
    return fmt(change * 100 if math.isfinite(change) else None, "pct")


@dataclass(frozen=True)
class Section:
    key: str  # the anchor: letters, digits and dashes only (made here, never from a run folder)
    title: str  # text
    html: str  # the body, markup


def page(title: str, subtitle: str, sections: Sequence[Section]) -> str:
    """The whole document: title, a contents list, the sections in order."""
    nav = "".join(f'<li><a href="#{s.key}">{esc(s.title)}</a></li>' for s in sections)
    body = "\n".join(f'<section id="{s.key}">\n<h2>{esc(s.title)}</h2>\n{s.html}\n</section>' for s in sections)
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        # nothing may be fetched or run: a report is read offline, and its data is untrusted
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
        '<meta name="generator" content="benchlens">\n'
        f"<title>{esc(title)}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n"
        f'<header>\n<h1>{esc(title)}</h1>\n<p class="sub">{esc(subtitle)}</p>\n'
        f"<nav><ol>{nav}</ol></nav>\n</header>\n{body}\n</body>\n</html>\n"
    )


def paragraph(text: str, cls: str = "") -> str:
    attr = f' class="{cls}"' if cls else ""
    return f"<p{attr}>{esc(text)}</p>"


def folded(label: str, html: str) -> str:
    """Markup shown on demand (long tables): a <details> element, no script."""
    return f"<details><summary>{esc(label)}</summary>\n{html}\n</details>"


@dataclass(frozen=True)
class Col:
    name: str
    numeric: bool = False


def grid(columns: Sequence[Col], rows: Sequence[Sequence[str]], classes: Sequence[Sequence[str]] = ()) -> str:
    """A table of text cells (escaped here); `classes`, when given, a CSS class per cell."""
    head = "".join(f'<th class="n">{esc(c.name)}</th>' if c.numeric else f"<th>{esc(c.name)}</th>" for c in columns)
    out = []
    for i, row in enumerate(rows):
        cells = []
        for j, (cell, col) in enumerate(zip(row, columns, strict=True)):
            names = ["n"] if col.numeric else []
            if classes and classes[i][j]:
                names.append(classes[i][j])
            attr = f' class="{" ".join(names)}"' if names else ""
            cells.append(f"<td{attr}>{esc(cell)}</td>")
        out.append(f"<tr>{''.join(cells)}</tr>")
    return f'<div class="wrap"><table><thead><tr>{head}</tr></thead><tbody>{"".join(out)}</tbody></table></div>'


def summary_table(t: Table, heading: bool = True) -> str:
    """A table of the summaries (app/analysis/tables.py), its cells as the text output writes them."""
    columns = [Col(c.name, c.kind != "text") for c in t.columns]
    rows = [[fmt(v, c.kind) for v, c in zip(row, t.columns, strict=True)] for row in t.rows]
    parts = [f"<h4>{esc(t.title)}</h4>"] if heading else []
    parts.append(grid(columns, rows) if rows else paragraph("(no data)", "note"))
    if t.note:
        parts.append(paragraph(t.note, "note"))
    return "\n".join(parts)
