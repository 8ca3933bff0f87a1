"""The trend section of `benchlens report` (no Qt): one chart per group of comparable runs, a point
per run in the order the runs started, the steps between change points drawn as levels, each change
point marked where it happened and listed with its before, after, change, p-value and direction.

It draws plain data, the shape of `benchlens trend --json` (PRODUCT.md; fields may be missing):

    {"metric": "sysbench:tps", "stat": "median",
     "groups": [{"key": {...}, "points": [{"run": "n-041", "time": 1.79e9, "value": 1234.5, "tags": {...}}],
                 "changes": [{"run": "n-042", "index": 41, "before": 1234.5, "after": 1150.0,
                              "change": -0.069, "p": 0.0004, "kind": "regression"}]}]}

`index` is the place in `points` of the first run after the change. The SVG is written here,
its text as <text> elements (what the chart says stays text: searchable, copyable, read by screen
readers); a point's tooltip (<title>) names its run, value, time and tags. Values that are not
finite numbers are left out, never drawn at 0."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from benchlens.app.report_html import Col, esc, grid, number, paragraph, percent, when
from benchlens.app.ticks import value_ticks

W, H = 1200, 330  # the chart's viewBox
LEFT, RIGHT, TOP, BOTTOM = 78.0, 18.0, 34.0, 52.0
FONT = 12.0  # px, the size of axis labels (the page's text is 14)
LABEL_ROOM = 118.0  # px of axis a run name's tick label takes
CHAR_EM = 0.62  # a character's width in DejaVu Sans, in font sizes, at most (digits and lower case)
REGRESSION, IMPROVEMENT, LEVEL, POINT = "#b00020", "#00703c", "#202020", "#0072b2"


@dataclass(frozen=True)
class Point:
    index: int  # place in the group's points
    run: str
    time: float | None
    value: float
    tags: dict[str, str]


@dataclass(frozen=True)
class ChangePoint:
    index: int
    run: str
    before: float
    after: float
    change: float
    p: float
    kind: str  # "regression" or "improvement" (by what the metric means)


def _num(x: Any) -> float:
    """A finite float of a JSON value; NaN for anything else (null, text, infinity, bool)."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return math.nan
    return float(x) if math.isfinite(x) else math.nan


def points_of(group: Mapping[str, Any]) -> list[Point]:
    out = []
    for i, p in enumerate(group.get("points") or []):
        tags = p.get("tags") if isinstance(p.get("tags"), Mapping) else {}
        time = _num(p.get("time"))
        out.append(
            Point(
                i,
                str(p.get("run", "")),
                time if math.isfinite(time) else None,
                _num(p.get("value")),
                {str(k): str(v) for k, v in tags.items()},
            )
        )
    return out


def changes_of(group: Mapping[str, Any], n: int) -> list[ChangePoint]:
    """The group's change points inside its points (0 < index < n), in order."""
    out = []
    for c in group.get("changes") or []:
        index = c.get("index")
        if isinstance(index, int) and not isinstance(index, bool) and 0 < index < n:
            kind = str(c.get("kind", ""))
            before, after = _num(c.get("before")), _num(c.get("after"))
            change = _num(c.get("change"))
            if not math.isfinite(change) and math.isfinite(before) and before:
                change = (after - before) / abs(before)
            out.append(ChangePoint(index, str(c.get("run", "")), before, after, change, _num(c.get("p")), kind))
    return sorted(out, key=lambda c: c.index)


def key_text(key: Any) -> str:
    """A group's key as people read it: `sysbench oltp_read_write · threads=16 · host=db1`."""
    if isinstance(key, Mapping):
        return " · ".join(f"{k}={v}" for k, v in key.items()) or "all runs"
    return str(key) if key not in (None, "") else "all runs"


def section(trend: Mapping[str, Any]) -> str:
    """The trend section's markup: per group its chart and its change points."""
    metric = str(trend.get("metric") or "throughput")
    stat = str(trend.get("stat") or "median")
    what = f"{metric}, {stat} of each run's steady state"
    groups = [g for g in trend.get("groups") or [] if isinstance(g, Mapping)]
    if not groups:
        return paragraph("No run has a value to put on a trend.", "note")
    parts = [paragraph(f"One point per run, in the order the runs started: {what}.")]
    for g in groups:
        points = points_of(g)
        changes = changes_of(g, len(points))
        parts.append(f"<h3>{esc(key_text(g.get('key')))}</h3>")
        parts.append(f"<figure>{chart(points, changes, what)}</figure>")
        parts.append(change_table(points, changes))
    return "\n".join(parts)


def change_table(points: Sequence[Point], changes: Sequence[ChangePoint]) -> str:
    if not changes:
        return paragraph(f"No change point among these {len(points)} runs.", "note")
    cols = [Col("first run after"), Col("index", True), Col("before", True), Col("after", True)]
    cols += [Col("change", True), Col("p", True), Col("kind")]
    rows, classes = [], []
    for c in changes:
        run = c.run or points[c.index].run
        p = f"{c.p:.2g}" if math.isfinite(c.p) else "–"
        rows.append([run, str(c.index), number(c.before), number(c.after), percent(c.change), p, c.kind])
        tone = {"regression": "bad", "improvement": "good"}.get(c.kind, "")
        classes.append(["", "", "", "", tone, "", tone])
    return grid(cols, rows, classes)


@dataclass(frozen=True)
class _Axes:
    n: int
    lo: float
    hi: float

    def x(self, i: float) -> float:
        width = W - LEFT - RIGHT
        return LEFT + width / 2 if self.n < 2 else LEFT + i / (self.n - 1) * width

    def y(self, v: float) -> float:
        return H - BOTTOM - (v - self.lo) / (self.hi - self.lo) * (H - TOP - BOTTOM)


def _axes(points: Sequence[Point], changes: Sequence[ChangePoint]) -> _Axes:
    values = [p.value for p in points] + [v for c in changes for v in (c.before, c.after)]
    finite = [v for v in values if math.isfinite(v)]
    lo, hi = (min(finite), max(finite)) if finite else (0.0, 1.0)
    if hi <= lo:
        lo, hi = lo - max(abs(lo) * 0.05, 0.5), hi + max(abs(hi) * 0.05, 0.5)
    pad = (hi - lo) * 0.08
    return _Axes(len(points), lo - pad, hi + pad)


def _text(x: float, y: float, text: str, anchor: str = "middle", fill: str = LEVEL, extra: str = "") -> str:
    return f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" fill="{fill}"{extra}>{esc(text)}</text>'


def chart(points: Sequence[Point], changes: Sequence[ChangePoint], what: str) -> str:
    """The group's chart as an inline SVG element."""
    ax = _axes(points, changes)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {W} {H}" width="{W}" height="{H}" role="img" '
        f'font-family="DejaVu Sans, Helvetica, Arial, sans-serif" font-size="{FONT:g}">',
        f"<title>{esc(what)}</title>",
        f'<rect x="0" y="0" width="{W}" height="{H}" fill="#ffffff"/>',
    ]
    out += _grid(ax, what)
    out += _levels(ax, points, changes)
    out += _points(ax, points)
    out += _change_marks(ax, points, changes)
    out.append("</svg>")
    return "\n".join(out)


def _grid(ax: _Axes, what: str) -> list[str]:
    out = []
    for v, label in value_ticks(ax.lo, ax.hi, H - TOP - BOTTOM, FONT * 1.3, ""):
        y = ax.y(v)
        out.append(f'<line x1="{LEFT}" y1="{y:.1f}" x2="{W - RIGHT}" y2="{y:.1f}" stroke="#e6e6e6"/>')
        out.append(_text(LEFT - 6, y + FONT * 0.35, label, "end"))
    out.append(
        f'<rect x="{LEFT}" y="{TOP}" width="{W - LEFT - RIGHT}" height="{H - TOP - BOTTOM}" fill="none" '
        'stroke="#808080"/>'
    )
    out.append(_text(LEFT, TOP - 10, what, "start", extra=' font-weight="bold"'))
    out.append(_text(LEFT + (W - LEFT - RIGHT) / 2, H - 8, "runs, in the order they started"))
    return out


def _levels(ax: _Axes, points: Sequence[Point], changes: Sequence[ChangePoint]) -> list[str]:
    """The line through the points, and each stretch between change points at its level."""
    xs = [(ax.x(p.index), ax.y(p.value)) for p in points if math.isfinite(p.value)]
    out = []
    if len(xs) > 1:
        coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in xs)
        out.append(f'<polyline points="{coords}" fill="none" stroke="#9ab8d6" stroke-width="1.2"/>')
    bounds = [0, *(c.index for c in changes), len(points)]
    for k in range(len(bounds) - 1):
        # a stretch's level: what the change after it says it was, else what the one before says it became
        level = changes[k].before if k < len(changes) else math.nan
        if not math.isfinite(level) and k > 0:
            level = changes[k - 1].after
        if math.isfinite(level):
            x0, x1 = ax.x(max(bounds[k] - 0.5, 0)), ax.x(min(bounds[k + 1] - 0.5, len(points) - 1))
            y = f"{ax.y(level):.1f}"
            out.append(f'<line x1="{x0:.1f}" y1="{y}" x2="{x1:.1f}" y2="{y}" stroke="{LEVEL}" stroke-width="2"/>')
    return out


def _points(ax: _Axes, points: Sequence[Point]) -> list[str]:
    out = []
    for p in points:
        if not math.isfinite(p.value):
            continue
        tip = [f"{p.run}: {number(p.value)}", when(p.time) + " UTC" if p.time is not None else ""]
        tip += [f"{k}={v}" for k, v in p.tags.items()]
        out.append(
            f'<circle cx="{ax.x(p.index):.1f}" cy="{ax.y(p.value):.1f}" r="3.2" fill="{POINT}">'
            f"<title>{esc(chr(10).join(t for t in tip if t))}</title></circle>"
        )
    room = max(1, int((W - LEFT - RIGHT) // LABEL_ROOM))
    step = max(1, math.ceil(len(points) / room))
    for p in points[::step]:
        name = p.run if len(p.run) <= 16 else p.run[:7] + "…" + p.run[-7:]
        half = len(name) * FONT * CHAR_EM / 2  # kept inside the chart: the last run's name at its right edge
        out.append(_text(min(max(ax.x(p.index), half + 2), W - half - 2), H - BOTTOM + FONT * 1.4, name))
    return out


def _change_marks(ax: _Axes, points: Sequence[Point], changes: Sequence[ChangePoint]) -> list[str]:
    out = []
    for k, c in enumerate(changes):
        x = ax.x(c.index - 0.5)
        color = REGRESSION if c.kind == "regression" else IMPROVEMENT if c.kind == "improvement" else LEVEL
        out.append(
            f'<line x1="{x:.1f}" y1="{TOP}" x2="{x:.1f}" y2="{H - BOTTOM}" stroke="{color}" '
            'stroke-width="1.5" stroke-dasharray="5 4"/>'
        )
        label = f"{percent(c.change)} {c.kind}".strip()
        anchor = "start" if x < W - RIGHT - 160 else "end"
        dx = 4 if anchor == "start" else -4
        halo = ' font-weight="bold" stroke="#ffffff" stroke-width="3" paint-order="stroke"'  # readable over points
        out.append(_text(x + dx, TOP + FONT * (1.3 + 1.2 * (k % 3)), label, anchor, color, halo))
    return out
