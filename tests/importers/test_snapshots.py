"""Marker lines split repeated snapshots and say when each was taken."""

from __future__ import annotations

import io
from datetime import UTC

from benchlens.app.clock import FolderClock
from benchlens.importers._read import chunks
from benchlens.importers._snapshots import snapshots
from benchlens.importers._types import Context

TEXT = b"""TS 1520256295.003814653 2018-03-05 13:24:55
a 1
b 2
2026-11-22T02:09:24+0100
a 3
2026-11-22 02:09:25
a 4
Sun Nov 22 02:09:26 UTC 2026
a 5
"""


def test_markers_of_every_kind_give_epochs() -> None:
    ctx = Context(FolderClock(UTC, "UTC"))
    snaps = list(snapshots(chunks(io.BytesIO(TEXT)), ctx))
    assert [s.t for s in snaps] == [1520256295.003814653, 1795309764.0, 1795313365.0, 1795313366.0]
    assert [s.lines for s in snaps] == [["a 1", "b 2"], ["a 3"], ["a 4"], ["a 5"]]
    assert snaps[1].first_line == 5
    assert ctx.meta.utc_offset == 3600.0 and ctx.meta.zone_abbrev == "UTC"


def test_text_without_markers_is_one_untimed_snapshot() -> None:
    ctx = Context(FolderClock(UTC, "UTC"))
    (s,) = snapshots(chunks(io.BytesIO(b"x\ny\n")), ctx)
    assert s.t is None and s.lines == ["x", "y"]
