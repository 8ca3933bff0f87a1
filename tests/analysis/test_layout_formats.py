"""The default layout with issue 13's formats, from the series real captures give (tests/fixtures):
HammerDB's throughput; CPU and disk from procstat, sar, dstat or diskstats when vmstat, mpstat and
iostat are absent (never beside them); at most one network panel (sar -n DEV, else dstat; the
busiest interface, not the loopback) and one per-process CPU panel (pidstat's top processes)."""

from __future__ import annotations

import re
from pathlib import Path
from types import ModuleType

import numpy as np

from benchlens.app.analysis.layout import (
    TOP_PROCESSES,
    command,
    default_panels,
    layout_for_runs,
    more_for_runs,
    more_panels,
    shortened,
)
from benchlens.app.model import SeriesRef
from benchlens.importers import diskstats, dstat, hammerdb, pidstat, sar, vmstat
from tests.conftest import FIXTURES, parse_bytes


def refs(fmt: ModuleType, path: Path) -> set[SeriesRef]:
    blocks, _ = parse_bytes(fmt, path.read_bytes())
    return {SeriesRef(fmt.name, m, b.entity) for b in blocks for m in b.values}


SAR_NET_DISK = refs(sar, FIXTURES / "sar" / "sar_12.6.1_C_d-p-n-DEV-EDEV.txt")
SAR_CPU = refs(sar, FIXTURES / "sar" / "sar_12.6.1_C_u-r-ALL-B-b-q-w-W-S.txt")
SAR_CPU_ALL = refs(sar, FIXTURES / "sar" / "sar_12.6.1_C_u-ALL-P-ALL.txt")
DSTAT = refs(dstat, FIXTURES / "dstat" / "dstat_0.7.4_C_t-C-D-N-lists.txt")
PIDSTAT = refs(pidstat, FIXTURES / "pidstat" / "pidstat_12.6.1_C_u-d-r-w.txt")
HAMMERDB = refs(hammerdb, FIXTURES / "hammerdb" / "hammerdb_4.x_C_tcount-timestamps-postgresql-handwritten.txt")
DISKSTATS = refs(diskstats, FIXTURES / "diskstats" / "diskstats_6.18.44_dd-direct-write.txt")
VMSTAT = refs(vmstat, FIXTURES / "vmstat" / "vmstat_4.0.2_C_plain.txt")  # named: glob order is the disk's


def titles(have: set[SeriesRef]) -> list[str]:
    return [p.title for p in default_panels(have)]


def panel(have: set[SeriesRef], title: str) -> list[SeriesRef]:
    return next(p.refs for p in default_panels(have) if p.title.startswith(title))


def test_hammerdb_is_throughput() -> None:
    assert panel(HAMMERDB, "Throughput") == [SeriesRef("hammerdb", "tps")]


def test_sar_gives_cpu_disk_and_network_without_vmstat_and_iostat() -> None:
    have = SAR_CPU | SAR_NET_DISK
    assert panel(have, "CPU") == [SeriesRef("sar", m, "all") for m in ("%user", "%system", "%iowait")]
    assert panel(SAR_CPU_ALL, "CPU") == [SeriesRef("sar", m, "all") for m in ("%usr", "%sys", "%iowait")]
    disk = panel(have, "Disk")
    assert {r.metric for r in disk} == {"%util"} and disk[0].format == "sar"
    net = panel(have, "Network")
    assert [r.metric for r in net] == ["rxkB/s", "txkB/s"] and net[0].entity != "lo"
    assert titles(have).count(next(t for t in titles(have) if t.startswith("Network"))) == 1


def test_dstat_gives_cpu_disk_and_network() -> None:
    assert panel(DSTAT, "CPU") == [SeriesRef("dstat", m, "total") for m in ("cpu.usr", "cpu.sys", "cpu.wai")]
    assert {r.metric for r in panel(DSTAT, "Disk")} == {"dsk.read", "dsk.writ"}
    net = panel(DSTAT, "Network")
    assert [r.metric for r in net] == ["net.recv", "net.send"] and net[0].entity not in ("lo", "")


def test_fallbacks_stay_out_when_the_first_sources_are_there() -> None:
    have = VMSTAT | DSTAT | SAR_CPU
    assert {r.format for r in panel(have, "CPU")} == {"vmstat"}
    assert {r.format for r in panel(SAR_NET_DISK | DSTAT, "Network")} == {"sar"}  # one network panel
    assert {r.format for r in panel(DISKSTATS | SAR_NET_DISK | DSTAT, "Disk")} == {"diskstats"}


def test_top_processes_by_cpu() -> None:
    cpu = [SeriesRef("pidstat", "%CPU", command(r.entity)) for r in PIDSTAT if r.metric == "%CPU"]
    assert len(cpu) > 1
    load = {r: float(k) for k, r in enumerate(sorted(cpu, key=lambda r: r.entity))}
    got = next(p.refs for p in default_panels(PIDSTAT, lambda r: load.get(r, 0.0)) if p.title.startswith("Top proc"))
    assert got == sorted(cpu, key=lambda r: -load[r])[:TOP_PROCESSES]  # by command: matched across runs


def test_a_folder_of_everything_tells_the_story_once() -> None:
    have = HAMMERDB | SAR_CPU | SAR_NET_DISK | PIDSTAT | DSTAT
    shown = titles(have)
    assert [t.split()[0] for t in shown] == ["Throughput", "CPU", "Disk", "Network", "Top"]
    assert not any(p.title.startswith(("Network", "Top")) for p in more_panels(have))


def test_top_processes_are_those_that_used_most_cpu_over_the_run() -> None:
    """A process seen once at a high %CPU (a short-lived compiler, another session's python) does
    not push out the benchmark client that used a core all along."""
    blocks, _ = parse_bytes(pidstat, (FIXTURES / "pidstat" / "pidstat_12.6.1_C_u-d-r-w.txt").read_bytes())
    series = {(b.entity, m): (b.t, b.values[m]) for b in blocks for m in b.values if m == "%CPU"}
    short = ("flash 1", "%CPU")
    t0 = min(float(t[0]) for t, _ in series.values())
    series[short] = (np.array([t0]), np.array([99.0]))  # once, at 99 %
    have = {SeriesRef("pidstat", m, e) for e, m in series}

    def data(_run: int, ref: SeriesRef):  # one process per command here: a command is its process
        return next((d for (e, m), d in series.items() if command(e) == ref.entity and m == ref.metric), None)

    (top,) = [p for p in layout_for_runs([1], lambda _r: have, data) if p.title.startswith("Top proc")]
    used = {command(e): float(np.nansum(v)) for (e, _), (_, v) in series.items()}
    assert [r.entity for r in top.refs] == sorted(used, key=lambda e: -used[e])[:TOP_PROCESSES]
    means = {command(e): float(np.nanmean(v)) for (e, _), (_, v) in series.items()}
    assert max(means, key=means.get) == "flash" and top.refs[0].entity != "flash"  # the highest mean, not first


def test_processes_are_named_by_their_command_unless_two_share_it() -> None:
    """A legend of processes by command alone (`sysbench`): with the PID too, a 1200 px export cut
    each entry to `…nch 20465` (the all-sources folder's screenshot); two `mysqld` keep their PIDs."""
    from benchlens.app.analysis.layout import Panel

    def legend(*entities: str) -> list[str]:
        return Panel("Top processes", [SeriesRef("pidstat", "%CPU", e) for e in entities]).legend()

    assert legend("sysbench 20465", "benchlens 20451", "kdamond.0 77") == ["sysbench", "benchlens", "kdamond.0"]
    assert legend("mysqld 1234", "mysqld 1300", "dd 77") == ["mysqld 1234", "mysqld 1300", "dd 77"]
    assert legend("mysqld 1234", "mysqld 1234/1250") == ["mysqld 1234", "mysqld 1234/1250"]
    assert legend("wait/io/file/innodb/innodb_data_file", "idle") == ["wait/io/file/innodb/innodb_data_file", "idle"]


def test_long_legend_labels_lose_whole_leading_segments_first() -> None:
    """The Top waits legend of a recorded flushing stall (bench/drop_quality/runs/flushing-long-writes)
    was cut mid-word from the front (`…odb_data_file`, `…f_dblwr_mutex`): whole path segments go
    first, a last segment still too long is cut inside."""
    assert shortened("wait/io/table/sql/handler", 20) == "…/table/sql/handler"
    assert shortened("wait/io/table/sql/handler", 14) == "…/sql/handler"
    assert shortened("wait/io/file/innodb/innodb_data_file", 20) == "…/innodb_data_file"
    assert shortened("wait/synch/mutex/innodb/buf_dblwr_mutex", 20) == "…/buf_dblwr_mutex"
    assert shortened("wait/io/file/innodb/innodb_data_file", 14) == "…odb_data_file"
    assert shortened("mysqld 1234", 10) == "…sqld 1234"
    assert shortened("sysbench:tps", 20) == "sysbench:tps"


def blocks_data(*files: tuple[ModuleType, Path]):
    """`layout_for_runs`' `available` and `data` over the real series of these captures (one run)."""
    series = {}
    for fmt, path in files:
        blocks, _ = parse_bytes(fmt, path.read_bytes())
        series.update({SeriesRef(fmt.name, m, b.entity): (b.t, b.values[m]) for b in blocks for m in b.values})
    return (lambda _run: set(series)), (lambda _run, ref: series.get(ref))


def test_a_flat_panel_never_enters_the_default_layout() -> None:
    """Issue 24: every recorded comparison showed a "Network eth0" panel whose series were all 0
    (an axis of -250..250 B/s) among its first five. sar's capture has every interface at 0."""
    have, data = blocks_data(
        (sar, FIXTURES / "sar" / "sar_12.6.1_C_d-p-n-DEV-EDEV.txt"),
        (vmstat, FIXTURES / "vmstat" / "vmstat_4.0.2_C_plain.txt"),
    )
    assert any(r.metric == "rxkB/s" for r in have(1))
    shown = [p.title for p in layout_for_runs([1], have, data)]
    assert shown and not any(t.startswith("Network") for t in shown)
    assert any(p.title.startswith("Network") for p in more_for_runs([1], have, data))


def test_the_panel_that_explains_the_drops_comes_in_the_first_four() -> None:
    """A CPU hog's top processes were the sixth panel (under CPU, disk and network), below the fold
    at 1366x768; a lock hold's top waits come right under throughput."""
    have = HAMMERDB | VMSTAT | SAR_NET_DISK | PIDSTAT
    cpu = [p.title.split()[0] for p in default_panels(have, explains=lambda c: 1.0 if c == "cpu" else 0.0)]
    assert cpu[:3] == ["Throughput", "CPU", "Top"] and "Network" in cpu[3:]
    waits = HAMMERDB | VMSTAT | SAR_NET_DISK | PIDSTAT | {SeriesRef("perfschema", "SUM_TIMER_WAIT", "wait/lock/x")}
    locks = [p.title.split()[0] for p in default_panels(waits, explains=lambda c: 1.0 if c == "locks" else 0.0)]
    assert locks[:2] == ["Throughput", "Top"] and locks[1:2] != ["Top processes"]
    assert default_panels(waits, explains=lambda c: 1.0 if c == "locks" else 0.0)[1].title.startswith("Top waits")


def test_processes_are_matched_by_command_across_runs(tmp_path: Path) -> None:
    """Issue 24: top processes were keyed by PID, so each run's `mariadbd` was an entry of its own
    and with five runs one was left out. Two runs of the same capture under other PIDs: one
    entry per command, each run's data that command's processes (their %CPU summed)."""
    from benchlens.app.ingest import import_path
    from benchlens.app.rundata import LibraryRunData
    from benchlens.app.store import Library

    text = (FIXTURES / "pidstat" / "pidstat_12.6.1_C_u-d-r-w.txt").read_text()
    for name, shift in (("a", 0), ("b", 7)):
        (tmp_path / name).mkdir()
        renumbered = re.sub(r"\b(3029[135])\b", lambda m, k=shift: str(int(m.group(1)) + k), text)
        (tmp_path / name / "pidstat.txt").write_text(renumbered)
    with Library(tmp_path / "lib.sqlite") as lib:
        runs = [import_path(lib, tmp_path / n).id for n in ("a", "b")]
        data = LibraryRunData(lib)
        assert {r.entity for r in data.available(runs[1]) if r.metric == "%CPU"} == {
            "dd 30302",
            "hog 30300",
            "yes 30298",
        }
        (top,) = [p for p in layout_for_runs(runs, data.available, data.data) if p.title.startswith("Top proc")]
        assert sorted(r.entity for r in top.refs) == ["dd", "hog", "yes"]
        for run in runs:
            (pid,) = [r for r in data.available(run) if r.metric == "%CPU" and command(r.entity) == "hog"]
            _, v = data.data(run, SeriesRef("pidstat", "%CPU", "hog"))
            assert np.array_equal(v, data.data(run, pid)[1]) and data.unit(run, top.refs[0]) == "%"
            assert data.commands[(run, SeriesRef("pidstat", "%CPU", "hog"))] == pid.entity  # the PID, for a tooltip
