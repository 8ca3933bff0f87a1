"""The table model of summaries and its renderings: plain text (aligned columns), Markdown
(GitHub tables, `|` escaped) and CSV (one table: header and rows; several: each after a row with
its title, an empty line between). Numbers are shown to a few significant digits in text and
Markdown and to 12 in CSV; a missing value is an en dash, or empty in CSV."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# ---- the table model -------------------------------------------------------------------------
Cell = str | int | float | None


@dataclass(frozen=True)
class Column:
    name: str
    kind: str = "num"  # num | pct (a change) | share (a part, %) | int | text


@dataclass
class Table:
    key: str  # stats | diff | waits:<source> | steps | steps-diff
    title: str
    columns: list[Column]
    rows: list[list[Cell]]
    note: str = ""

    def as_json(self) -> dict[str, Any]:
        names = [c.name for c in self.columns]
        return {
            "key": self.key,
            "title": self.title,
            "note": self.note,
            "columns": names,
            "rows": [{n: finite(v) for n, v in zip(names, row, strict=True)} for row in self.rows],
        }


def finite(x: Any) -> Any:
    """JSON has no NaN: a missing value is null."""
    return None if isinstance(x, float) and not math.isfinite(x) else x


# ---- renderers -------------------------------------------------------------------------------
def fmt(value: Cell, kind: str) -> str:
    """A cell as people read it; missing values are an en dash."""
    if value is None or (isinstance(value, float) and not math.isfinite(value)):
        return "–"
    if isinstance(value, str):
        return value
    if kind == "pct":
        return f"{value:+.1f} %"
    if kind == "share":
        return f"{value:.1f} %"
    if kind == "int" or isinstance(value, int):
        return str(value)
    a = abs(value)
    if a == 0:
        return "0"
    if a >= 1e5:
        return f"{value:.0f}"
    if a >= 100:
        return f"{value:.1f}"
    if a >= 1:
        return f"{value:.2f}"
    return f"{value:#.3g}"  # three significant digits, trailing zeros kept: 0.500, 0.490


def to_text(tables: Sequence[Table]) -> str:
    parts = []
    for t in tables:
        cells = [[fmt(v, c.kind) for v, c in zip(row, t.columns, strict=True)] for row in t.rows]
        widths = [max([len(c.name)] + [len(r[i]) for r in cells]) for i, c in enumerate(t.columns)]
        lines = [t.title, _text_line([c.name for c in t.columns], t.columns, widths)]
        lines.append("  ".join("-" * w for w in widths))
        lines += [_text_line(r, t.columns, widths) for r in cells] or ["(no data in the window)"]
        if t.note:
            lines.append(t.note)
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def _text_line(values: list[str], columns: list[Column], widths: list[int]) -> str:
    """Text left-aligned, numbers right-aligned, two spaces between columns."""
    out = [v.ljust(w) if c.kind == "text" else v.rjust(w) for v, c, w in zip(values, columns, widths, strict=True)]
    return "  ".join(out).rstrip()


def _md(text: str) -> str:
    return text.replace("\\", "\\\\").replace("|", "\\|")


def to_markdown(tables: Sequence[Table]) -> str:
    parts = []
    for t in tables:
        lines = [f"**{_md(t.title)}**", ""]
        lines.append("| " + " | ".join(_md(c.name) for c in t.columns) + " |")
        lines.append("|" + "|".join(":---" if c.kind == "text" else "---:" for c in t.columns) + "|")
        for row in t.rows:
            lines.append("| " + " | ".join(_md(fmt(v, c.kind)) for v, c in zip(row, t.columns, strict=True)) + " |")
        if t.note:
            lines += ["", f"*{_md(t.note)}*"]
        parts.append("\n".join(lines))
    return "\n\n".join(parts) + "\n"


def to_csv(tables: Sequence[Table]) -> str:
    """One table: a header row and the rows. Several: each preceded by a row holding its title,
    separated by an empty line. Numbers to 12 significant digits, missing values empty."""
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    for k, t in enumerate(tables):
        if len(tables) > 1:
            if k:
                buf.write("\n")
            w.writerow([t.title])
        w.writerow([c.name for c in t.columns])
        for row in t.rows:
            w.writerow([_csv_cell(v) for v in row])
    return buf.getvalue()


def _csv_cell(v: Cell) -> str:
    if v is None or (isinstance(v, float) and not math.isfinite(v)):
        return ""
    if isinstance(v, float):
        return f"{v:.12g}"  # 12 digits: 1563.53, not 1563.5300000000002 (float noise of a mean)
    return str(v)
