"""The label lane: drops' and notes' labels in rows of their own above the top panel, never over
the curves (issue 24: with five runs three labels covered curves), at most a few of them, the rest
summarised ("+12 more drops", issues 23 and 24: a 4-hour log drew hundreds). Which labels show
and where is worked out here, in pixels, for the window (app/ui/marks.py) and the export
(app/render.py) alike. No Qt."""

from __future__ import annotations

import math
from dataclasses import dataclass

LANE_ROWS = 3  # rows of labels above the top panel at most (as many as the labels take)
LANE_MOST = 6  # labels shown at most: a reader takes in a few, a summary says how many more
GAP = 6.0  # px kept between two labels in a row


@dataclass(frozen=True)
class LaneLabel:
    x0: float  # where its span starts and ends, px along the lane (may lie outside it)
    x1: float
    width: float  # its text, px
    weight: float  # the order labels are placed in when not all fit: a note, then the longest


@dataclass(frozen=True)
class Placed:
    index: int  # into the labels given
    row: int
    left: float  # px


def weight(kind: str, x0: float, x1: float) -> float:
    """A note (the user's own words) before any drop, then the longest span first."""
    return math.inf if kind == "note" else x1 - x0


def lane_layout(
    labels: list[LaneLabel], left: float, right: float, more_width: float, rows: int = LANE_ROWS, most: int = LANE_MOST
) -> tuple[list[Placed], int]:
    """The labels shown, each at the visible start of its span (pulled left to stay in the lane),
    or as little right of it as it takes to overlap no label placed before it while still starting
    over its span, in the first row where that is so, by weight, at most `most`; and how
    many are left out. When some are, the last row keeps `more_width` at its right end for the
    summary that counts them."""
    placed = _place(labels, left, right, 0.0, rows, most)
    if len(placed) < len(labels):
        placed = _place(labels, left, right, more_width, rows, most)
    return placed, len(labels) - len(placed)


def _place(labels: list[LaneLabel], left: float, right: float, reserve: float, rows: int, most: int) -> list[Placed]:
    taken: list[list[tuple[float, float]]] = [[] for _ in range(rows)]
    placed: list[Placed] = []
    for i in sorted(range(len(labels)), key=lambda k: (-labels[k].weight, labels[k].x0)):
        if len(placed) >= most:
            break
        lb = labels[i]
        for row in range(rows):
            end = right - (reserve if row == rows - 1 else 0.0)
            a = _free(taken[row], max(left, min(lb.x0, end - lb.width)), lb.width)
            if a + lb.width <= end and a <= max(lb.x1, left):  # it still starts over its span
                taken[row].append((a, a + lb.width))
                placed.append(Placed(i, row, a))
                break
    return placed


def _free(taken: list[tuple[float, float]], a: float, width: float) -> float:
    """The first place at or right of `a` where a label `width` wide overlaps none in the row
    (several runs' drops at one moment sit side by side over their spans)."""
    for s, e in sorted(taken):
        if a + width + GAP > s and a < e + GAP:
            a = e + GAP
    return a


def bars(labels: list[LaneLabel], placed: list[Placed], left: float, right: float) -> list[tuple[float, float]]:
    """Per placed label, the stretch of the bar under it: its span, cut where the labels beside it
    in its row begin and end, so bars of one row never cover each other."""
    out = []
    for pl in placed:
        lb = labels[pl.index]
        row = [q.left for q in placed if q.row == pl.row and q is not pl]
        ends = [q.left + labels[q.index].width for q in placed if q.row == pl.row and q is not pl]
        a = max([left, lb.x0] + [e + GAP / 2 for e in ends if e <= pl.left])
        b = min([right, lb.x1] + [s - GAP / 2 for s in row if s > pl.left])
        out.append((a, max(b, a + 2.0)))
    return out


def more_text(hidden: int, kinds: list[str]) -> str:
    """The summary of the labels left out: '+12 more drops' ('labels' when notes are among them)."""
    if hidden <= 0:
        return ""
    noun = "label" if "note" in kinds else "drop"
    return f"+{hidden} more {noun}" + ("s" if hidden > 1 else "")
