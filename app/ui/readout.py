"""The crosshair readout under the charts: every series drawn, read at the cursor with its own
source's sampling (a 1 s benchmark report, a 2 s status snapshot and a 10 s Performance Schema
dump all show where the cursor is inside their run), in human units like the axes."""

from __future__ import annotations

import html
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from benchlens.app.model import SeriesRef
from benchlens.app.ticks import format_ticks


@dataclass(frozen=True)
class Curve:
    """One series as drawn: its panel, run, reference, plotted x, values, unit and sampling step."""

    panel: int
    run: int
    ref: SeriesRef
    x: np.ndarray
    y: np.ndarray
    unit: str

    @classmethod
    def of(cls, panel: int, run: int, ref: SeriesRef, x: np.ndarray, y: np.ndarray, unit: str) -> Curve:
        return cls(panel, run, ref, x, y, unit)

    @cached_property
    def step(self) -> float:
        """Measured when the readout first needs it, not while the charts are built (a median
        over 86,400 gaps per series was a third of the first paint)."""
        return sampling_step(self.x)


def sampling_step(x: np.ndarray) -> float:
    """The series' usual spacing: the median gap between its samples (1 s with fewer than two)."""
    if len(x) < 2:
        return 1.0
    gaps = np.diff(x)
    gaps = gaps[gaps > 0]
    return float(np.median(gaps)) if len(gaps) else 1.0


def value_at(c: Curve, x: float) -> float | None:
    """The sample in force at x: the last one at or before it, if no more than one and a half of
    the series' own steps before (a gap in the capture shows as no value, not a stale one);
    None outside the series or where it has no value."""
    k = int(np.searchsorted(c.x, x, side="right")) - 1
    if k < 0 or x - c.x[k] > 1.5 * c.step:
        return None
    v = float(c.y[k])
    return v if np.isfinite(v) else None


def readout_html(curves: list[Curve], titles: list[str], colors: dict[int, str], x: float) -> str:
    """'Panel: series value, …' for every panel with a value at x, each value in its run's colour."""
    parts = []
    for i, title in enumerate(titles):
        cells = []
        for c in curves:
            v = value_at(c, x) if c.panel == i else None
            if v is not None:
                (text,) = format_ticks([v], c.unit) if c.unit else (f"{v:.4g}",)
                cells.append(
                    f'<span style="color:{colors[c.run]}">{html.escape(c.ref.label())} {html.escape(text)}</span>'
                )
        if cells:
            parts.append(f"<b>{html.escape(title)}</b>: " + ", ".join(cells))
    return " &nbsp;|&nbsp; ".join(parts)
