"""Recurring stalls: dips that come back at a regular interval are one finding, not hundreds.

A tpcc-mysql run with a large redo log stalls every ~25 s for 6-10 s, for hours: listed one by one
that is hundreds of drops and, drawn, a soup of overlapping labels. Here the dips of a run that
recur at a near-constant interval are grouped into one `Recurring` finding ("periodic stalls: 36
dips of −35…−49% lasting 6–10 s, every ~25 s") that still holds each dip, so each can be listed,
drawn as one band of markers with one label, and explained. Dips that do not fit the rhythm stay
drops of their own.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchlens.app.analysis.drops import Drop


@dataclass(frozen=True)
class PatternParams:
    # dips needed to call them recurring: the four disturbances of tests/fixtures/diagnosis,
    # injected 28-31 s apart, are four separate events; chosen by hand, not measured
    min_count: int = 5
    # a gap between two dips' starts belongs to the rhythm within this factor of the typical gap
    # (0.6-1.6: flush cycles drift by a third of their period); chosen by hand, not measured
    low: float = 0.6
    high: float = 1.6
    # a recurring dip is shorter than this fraction of the period (a drop lasting most of the
    # interval is a level, not a dip); chosen by hand, not measured
    max_duty: float = 0.8


PATTERN = PatternParams()


@dataclass(frozen=True)
class Recurring:
    """Dips that recur about every `period_s` seconds, from the first's start to the last's end."""

    members: tuple[Drop, ...]
    period_s: float

    @property
    def start(self) -> float:
        return self.members[0].start

    @property
    def end(self) -> float:
        return self.members[-1].end

    @property
    def count(self) -> int:
        return len(self.members)

    def depth_range(self) -> tuple[float, float]:
        d = [m.depth for m in self.members]
        return min(d), max(d)

    def duration_range(self) -> tuple[float, float]:
        d = [m.duration for m in self.members]
        return min(d), max(d)

    def label(self) -> str:
        """One label for the whole band, e.g. "periodic stalls: 36 dips of −35…−49% lasting 6–10 s,
        every ~25 s"."""
        d0, d1 = (round(x * 100) for x in self.depth_range())
        s0, s1 = (round(x) for x in self.duration_range())
        depth = f"\u2212{d0}%" if d0 == d1 else f"\u2212{d0}\u2026\u2212{d1}%"
        lasting = f"{s0} s" if s0 == s1 else f"{s0}\u2013{s1} s"
        return f"periodic stalls: {self.count} dips of {depth} lasting {lasting}, every ~{self.period_s:.0f} s"

    def as_json(self) -> dict[str, object]:
        d0, d1 = self.depth_range()
        s0, s1 = self.duration_range()
        return {
            "kind": "recurring",
            "start": self.start,
            "end": self.end,
            "count": self.count,
            "period_s": self.period_s,
            "depth_min": d0,
            "depth_max": d1,
            "duration_min": s0,
            "duration_max": s1,
            "label": self.label(),
        }


def recurring(drops: list[Drop], params: PatternParams = PATTERN) -> tuple[list[Recurring], list[Drop]]:
    """(the recurring groups, the drops that belong to none), each in time order."""
    dips = sorted(drops, key=lambda d: d.start)
    if len(dips) < params.min_count:
        return [], dips
    starts = np.array([d.start for d in dips])
    period = float(np.median(np.diff(starts)))
    if period <= 0:
        return [], dips
    groups: list[list[int]] = []
    for k in range(len(dips)):
        fits = dips[k].duration < params.max_duty * period
        if fits and groups and _in_rhythm(starts[k] - starts[groups[-1][-1]], period, params):
            groups[-1].append(k)
        elif fits:
            groups.append([k])
    found, used = [], set()
    for g in groups:
        if len(g) >= params.min_count:
            members = tuple(dips[k] for k in g)
            found.append(Recurring(members, float(np.median(np.diff(starts[g])))))
            used.update(g)
    return found, [d for k, d in enumerate(dips) if k not in used]


def _in_rhythm(gap: float, period: float, params: PatternParams) -> bool:
    return params.low * period <= gap <= params.high * period
