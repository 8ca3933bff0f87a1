"""Every system collector's column has the class of the resource it measures (issue #23 part 3):
sar's disk and network reports, pidstat's per-process I/O, /proc/vmstat's page-out and dstat's
plugin groups were all "workload" before. The series are those the real fixtures give."""

from __future__ import annotations

import json

import pytest

from benchlens.app.analysis.relevance import class_of
from benchlens.app.model import SeriesRef
from tests.conftest import FIXTURES


def _metrics(fmt: str) -> set[tuple[str, str]]:
    """(metric, entity) of every series the fixtures' goldens of a format hold."""
    out: set[tuple[str, str]] = set()
    for golden in (FIXTURES / fmt).glob("*.json"):
        for key in json.loads(golden.read_text()).get("series", {}):
            if "|" in key:
                metric, entity = key.split("|", 1)
                out.add((metric, entity))
    return out


@pytest.mark.parametrize(
    ("fmt", "metric", "want"),
    [
        ("sar", "%util", "disk"),
        ("sar", "wkB/s", "disk"),
        ("sar", "bwrtn/s", "disk"),
        ("sar", "pgpgout/s", "disk"),
        ("sar", "rxkB/s", "network"),
        ("sar", "retrans/s", "network"),
        ("sar", "iseg/s", "network"),
        ("sar", "kbmemfree", "memory"),
        ("sar", "majflt/s", "memory"),
        ("sar", "runq-sz", "cpu"),
        ("sar", "%soft", "cpu"),
        ("sar", "%iowait", "disk"),
        ("pidstat", "kB_wr/s", "disk"),
        ("pidstat", "%CPU", "cpu"),
        ("pidstat", "RSS", "memory"),
        ("procstat", "procs_blocked", "disk"),
        ("procstat", "procs_running", "cpu"),
        ("procvmstat", "pgpgout/s", "disk"),
        ("procvmstat", "pgmajfault/s", "memory"),
        ("dstat", "dsk.writ", "disk"),
        ("dstat", "net.send", "network"),
        ("dstat", "paging.out", "memory"),
        ("dstat", "cpu.wai", "disk"),
        ("dstat", "cpu.usr", "cpu"),
        ("dstat", "procs.blk", "disk"),
    ],
)
def test_a_collectors_column_has_its_resource(fmt: str, metric: str, want: str) -> None:
    seen = {m for m, _ in _metrics(fmt)}
    assert metric in seen, f"{fmt} fixtures give no {metric}"  # a real column, not a guess
    assert class_of(SeriesRef(fmt, metric, "x")) == want


def test_no_sar_column_is_left_as_workload_but_the_kernel_tables() -> None:
    left = sorted(m for m, e in _metrics("sar") if class_of(SeriesRef("sar", m, e)) == "workload")
    assert left and set(left) <= {
        "dentunusd",
        "file-nr",
        "inode-nr",
        "pty-nr",
        "rcvin/s",
        "xmtin/s",
        "framerr/s",
        "prtyerr/s",
        "brk/s",
        "ovrun/s",
    }


@pytest.mark.parametrize(
    ("metric", "want"),
    [
        ("mysql5_all.reads", "buffer_pool"),
        ("mysql5_all.dirty", "flushing"),
        ("mysql5_all.comm", "workload"),
        ("mysql5_locks.Locks", "locks"),
        ("mysql5_conn.Act", "workload"),
    ],
)
def test_dbpas_dool_plugins_have_their_resource(metric: str, want: str) -> None:
    """The columns of DBPA's dool captures (tests/importers/test_dstat_dbpa.py reads them)."""
    assert class_of(SeriesRef("dstat", metric)) == want


def test_one_quantity_whichever_collector_printed_it() -> None:
    """The write bandwidth of the disks, as seven collectors print it, is one row of an explanation
    (issue #23 part 3): vmstat, iostat, sar -d, sar -b, sar -B, pt-stalk's diskstats and vmstat
    loops, dstat. Their names are those of the real fixtures."""
    from benchlens.app.analysis.explain import quantity

    writes = [("vmstat", "bo"), ("iostat", "wkB/s"), ("sar", "wkB/s"), ("sar", "bwrtn/s"), ("sar", "pgpgout/s")]
    writes += [("diskstats", "wkB/s"), ("procvmstat", "pgpgout/s"), ("dstat", "dsk.writ")]
    for fmt, metric in writes:
        assert metric in {m for m, _ in _metrics(fmt)}, (fmt, metric)
    assert {quantity(SeriesRef(f, m, "vda")) for f, m in writes} == {"disk writes"}
    assert quantity(SeriesRef("sar", "%user", "all")) == quantity(SeriesRef("vmstat", "us")) == "cpu user"
    assert quantity(SeriesRef("dstat", "net.send", "eth0")) == quantity(SeriesRef("sar", "txkB/s", "eth0"))
