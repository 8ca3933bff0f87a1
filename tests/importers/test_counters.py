"""Cumulative counters become rates; a reset is never a negative rate."""

from __future__ import annotations

import numpy as np

from benchlens.app.clock import FolderClock
from benchlens.importers._counters import Snapshots
from benchlens.importers._types import Context


def test_rates_resets_and_rows_that_appear() -> None:
    ctx = Context(FolderClock(None, "test"))
    s = Snapshots(absent_is_zero=True)
    s.add(0.0, {("buf0buf.c:1180", "os_waits"): 10.0})
    s.add(10.0, {("buf0buf.c:1180", "os_waits"): 30.0, ("log0log.c:775", "os_waits"): 5.0})
    s.add(20.0, {("buf0buf.c:1180", "os_waits"): 4.0, ("log0log.c:775", "os_waits"): 25.0})  # restart
    blocks = {b.entity: b for b in s.rates(ctx, {"os_waits": "1/s"})}
    buf = blocks["buf0buf.c:1180"]
    assert list(buf.t) == [10.0, 20.0]
    assert buf.values["os_waits"][0] == 2.0 and np.isnan(buf.values["os_waits"][1])
    assert list(blocks["log0log.c:775"].values["os_waits"]) == [0.5, 2.0]  # absent = 0 before it appeared
    assert any("reset" in w.text for w in ctx.warnings)
    assert ctx.units["os_waits"] == "1/s"


def test_a_single_snapshot_has_no_rate_but_keeps_totals() -> None:
    ctx = Context(FolderClock(None, "test"))
    s = Snapshots()
    s.add(5.0, {("", "Com_select"): 100.0})
    assert list(s.rates(ctx, {})) == []
    (b,) = s.totals(ctx, {"Com_select": ""})
    assert list(b.values["Com_select"]) == [100.0]
