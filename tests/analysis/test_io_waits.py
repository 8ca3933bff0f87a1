"""I/O waits without more bytes (causes.io_waits): the CPUs waited on I/O more while the disks
moved no more, read from whichever collector measured them (quantities.quantity)."""

from __future__ import annotations

from benchlens.app.analysis.evidence import Change
from benchlens.app.analysis.explain import Explanation
from benchlens.app.analysis.verdict import classes, verdict
from benchlens.app.model import SeriesRef


def _levels(*rows: tuple[str, str, str, float, float, float]) -> Explanation:
    """(format, metric, entity, before, during, effect in robust sigmas) of each series measured."""
    changes = {SeriesRef(f, m, e): Change(SeriesRef(f, m, e), z, b, d) for f, m, e, b, d, z in rows}
    return Explanation([], changes)


# DBPA io_saturation case-002's levels (dool, 32 CPUs: `stress-ng -i 4`, sync() in a loop)
DOOL = (
    ("dstat", "cpu.wai", "total", 1.21, 1.87, 10.8),
    ("dstat", "procs.blk", "", 1.0, 2.0, 20.0),
    ("dstat", "dsk.writ", "total", 2.67e6, 1.98e6, -2.7),
    ("dstat", "procs.run", "", 0.0, 1.43, float("inf")),
)


def test_iowait_up_with_fewer_bytes_is_the_disk_whichever_collector_said_it() -> None:
    ev = _levels(*DOOL)
    assert verdict(ev) == (
        "CPU time waiting on I/O 1.21 → 1.87 % (processes blocked 1 → 2) while the disks moved "
        "2.67 → 1.98 MB/s: I/O slowed without more bytes (other syncs or small writes, or a slower device)"
    )
    assert classes(ev)[0] == "disk"
    # vmstat's names for the same quantities (wa %, b, bo kB/s) say the same
    vm = _levels(
        ("vmstat", "wa", "", 1.21, 1.87, 10.8), ("vmstat", "b", "", 1, 2, 20), ("vmstat", "bo", "", 2608, 1934, -3)
    )
    assert verdict(vm).startswith(
        "CPU time waiting on I/O 1.21 → 1.87 % (processes blocked 1 → 2) while the disks moved 2.67"
    )


def test_iowait_that_follows_more_bytes_or_is_not_certain_is_not_this_cause() -> None:
    more_bytes = _levels(("vmstat", "wa", "", 2, 6, 12), ("vmstat", "bo", "", 4000, 9000, 8))  # the work grew
    assert "waiting on I/O" not in verdict(more_bytes)
    unsure = _levels(("vmstat", "wa", "", 1.02, 1.28, 4.9))  # under EXTRA_EFFECT sigmas
    assert "waiting on I/O" not in verdict(unsure)
    slight = _levels(("vmstat", "wa", "", 10, 11, 30))  # certain, but 1.1x: not material
    assert "waiting on I/O" not in verdict(slight)
    # one CPU's iowait is not the machine's
    one_cpu = _levels(("mpstat", "%iowait", "3", 1, 9, 40))
    assert "waiting on I/O" not in verdict(one_cpu)
