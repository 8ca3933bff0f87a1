"""Cumulative counters (SHOW ENGINE INNODB MUTEX waits, Performance Schema COUNT_STAR, SHOW GLOBAL
STATUS Com_*, InnoDB LSN ...) turned into per-second rates between consecutive snapshots.

A counter that goes down between two snapshots was reset (server restart, FLUSH STATUS, TRUNCATE
of a Performance Schema table): that interval's rate is NaN (a gap in the chart) with a warning,
never a negative rate. A name that appears in a later snapshot was at zero
before (monitors omit zero rows): its first rate is counted from 0 only when the snapshot before
it exists and the name is known to be omitted when zero (`absent_is_zero`). Where a listed row
never goes away by itself (`persistent`: a Performance Schema summary by event name, unlike SHOW
ENGINE INNODB MUTEX, whose rows go with the mutex instances) the snapshots may be a partial view:
a cumulative counter never goes back to zero without a reset, so a name seen above zero that is
missing from a later snapshot was left out (`ORDER BY ... LIMIT 5`, a filter
on a changing value), and in such a loop a missing row is unknown, before its first appearance too:
counted from 0, an event entering a top five was given its whole total since start as one
interval's rate.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from benchlens.importers._types import Block, Context


class Snapshots:
    """Collects (time, {(entity, metric): value}) snapshots, then yields rate blocks."""

    def __init__(self, absent_is_zero: bool = False, persistent: bool = False) -> None:
        self.times: list[float] = []
        self.values: list[dict[tuple[str, str], float]] = []
        self.absent_is_zero = absent_is_zero
        self.persistent = persistent
        self._partial: bool | None = None

    def add(self, t: float, values: dict[tuple[str, str], float]) -> None:
        self.times.append(t)
        self.values.append(values)
        self._partial = None

    def __len__(self) -> int:
        return len(self.times)

    def keys(self) -> list[tuple[str, str]]:
        seen: dict[tuple[str, str], None] = {}
        for v in self.values:
            seen.update(dict.fromkeys(v))
        return list(seen)

    def matrix(self, key: tuple[str, str]) -> np.ndarray:
        default = 0.0 if self.absent_is_zero and not self.partial() else np.nan
        return np.array([v.get(key, default) for v in self.values], np.float64)

    def partial(self) -> bool:
        """Whether a name seen above zero is missing from a later snapshot (a top-N loop) of
        rows that never go away by themselves."""
        if not self.persistent:
            return False
        if self._partial is None:
            seen: set[tuple[str, str]] = set()
            self._partial = False
            for v in self.values:
                if not seen <= v.keys():
                    self._partial = True
                    break
                seen.update(k for k, x in v.items() if x > 0)
        return self._partial

    def totals(self, ctx: Context, units: dict[str, str]) -> Iterable[Block]:
        """The values as they are (gauges, or a single snapshot kept as totals)."""
        t = np.array(self.times)
        for entity, group in _by_entity(self.keys()).items():
            vals = {m: self.matrix((entity, m)) for m in group}
            for m in group:
                ctx.units.setdefault(m, units.get(m, ""))
            yield Block(entity, t, vals)

    def rates(self, ctx: Context, units: dict[str, str], suffix: str = "") -> Iterable[Block]:
        """Per-second rates between consecutive snapshots, at the later snapshot's time.
        `units` maps a metric to its rate unit; the metric is renamed metric + suffix."""
        t = np.array(self.times)
        if len(t) < 2:
            return
        dt = np.diff(t)
        bad_dt = ~(dt > 0)
        if bad_dt.any():
            ctx.warn(
                None, f"{int(bad_dt.sum())} snapshot(s) not later than the one before; no rate for them", kind="time"
            )
        if self.absent_is_zero and self.partial():
            ctx.warn(
                None,
                "rows come and go between snapshots (a top-N select, or a filter on a changing value): "
                "no rate where a row is missing or was missing before",
                kind="counter_reset",
            )
        resets = 0
        for entity, group in _by_entity(self.keys()).items():
            vals = {}
            keep = ~bad_dt
            for m in group:
                v = self.matrix((entity, m))
                d = np.diff(v)
                reset = d < 0
                resets += int(reset.sum())
                with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
                    rate = np.where(reset | bad_dt, np.nan, d / np.where(dt > 0, dt, 1.0))
                vals[m + suffix] = rate
                ctx.units.setdefault(m + suffix, units.get(m, "1/s"))
            yield Block(entity, t[1:][keep], {m: r[keep] for m, r in vals.items()})
        if resets:
            ctx.warn(
                None,
                f"{resets} counter reset(s) (restart, FLUSH or TRUNCATE): no rate for those intervals",
                kind="counter_reset",
            )


def _by_entity(keys: list[tuple[str, str]]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for entity, metric in keys:
        out.setdefault(entity, []).append(metric)
    return out
