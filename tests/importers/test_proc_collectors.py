"""pt-stalk's /proc collectors (diskstats, procstat, meminfo, procvmstat): goldens of the real
captures, values recomputed by hand from the raw text, resets as gaps, and the diskstats metrics
checked against `iostat -x` run over the same seconds (tests/capture/pt_stalk_proc.sh)."""

from __future__ import annotations

import numpy as np
import pytest

from benchlens import importers
from benchlens.importers import diskstats, meminfo, procstat, procvmstat
from tests import golden
from tests.conftest import FIXTURES, fixture_files, head_of, parse_bytes

PROC = ("diskstats", "procstat", "meminfo", "procvmstat")
CASES = [(fmt, p) for fmt in PROC for p in fixture_files(fmt)]


def series(mod, raw: bytes) -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]:
    blocks, _ = parse_bytes(mod, raw)
    return {(b.entity, m): (b.t, v) for b in blocks for m, v in b.values.items()}


@pytest.mark.parametrize(("fmt", "path"), CASES, ids=[p.name for _, p in CASES])
def test_fixture_matches_golden_and_is_detected(fmt: str, path) -> None:
    got = golden.check(importers.by_name(fmt), path)
    assert got["series"] and not got["warnings"]
    picked = importers.detect(head_of(path))
    assert picked is not None and picked.name == fmt


# ---- diskstats ----------------------------------------------------------------------------------


def test_diskstats_by_hand_on_percona_toolkits_sample() -> None:
    """sda between the first two markers of pt-diskstats' own sample (2.6 kernel, 11 fields)."""
    s = series(diskstats, (FIXTURES / "diskstats" / "diskstats_2.6.x_percona-toolkit-small.txt").read_bytes())
    dt = 1327510178.635 - 1327510177.628
    t, w = s[("sda", "w/s")]
    assert t[0] == 1327510178.635
    assert w[0] == pytest.approx((534745448 - 534745383) / dt)
    assert s[("sda", "wkB/s")][1][0] == pytest.approx((11060948932 - 11060948316) / 2 / dt)
    assert s[("sda", "w_await")][1][0] == pytest.approx((2055733196 - 2055732382) / 65)
    assert s[("sda", "wareq-sz")][1][0] == pytest.approx((11060948932 - 11060948316) / 2 / 65)
    assert s[("sda", "%wrqm")][1][0] == pytest.approx((846485919 - 846485907) / (12 + 65) * 100)
    assert s[("sda", "%util")][1][0] == pytest.approx((545004122 - 545004107) / dt / 10)
    assert s[("sda", "aqu-sz")][1][0] == pytest.approx((197929059 - 197928245) / dt / 1000)
    assert s[("sda", "r_await")][1][0] == 0.0  # no reads: iostat prints 0.00
    # a 4-field partition line: reads, sectors read, writes, sectors written
    assert s[("sda5", "w/s")][1][0] == pytest.approx((462827377 - 462827300) / dt)
    assert s[("sda5", "wkB/s")][1][0] == pytest.approx((3707259120 - 3707258504) / 2 / dt)
    assert {m for e, m in s if e == "sda5"} == {"r/s", "rkB/s", "w/s", "wkB/s"}
    assert not any(e.startswith(("ram", "fd0", "md0")) for e, _ in s)  # never did I/O: hidden like iostat


def test_diskstats_matches_iostat_over_the_same_seconds() -> None:
    """The diskstats loop read when iostat read (each iostat time line triggers it): same intervals,
    so the same w/s, wkB/s, %util, w_await … to rounding (iostat prints 2 decimals and times its
    intervals with /proc/uptime's 10 ms ticks, the loop with microsecond markers a few ms later)."""
    ours = series(diskstats, (FIXTURES / "diskstats" / "diskstats_6.18.44_iostat-synced.txt").read_bytes())
    theirs = series(importers.iostat, (FIXTURES / "diskstats" / "iostat_12.6.1_C_x-t_synced.iostat.log").read_bytes())
    t_ours, t_theirs = ours[("vda", "w/s")][0], theirs[("vda", "w/s")][0]
    assert len(t_ours) == len(t_theirs) == 25  # iostat's since-boot report dropped, the loop's first marker too
    assert np.all((t_ours - t_theirs > 0) & (t_ours - t_theirs < 1))  # iostat -t prints whole seconds
    ratios = ("w_await", "r_await", "wareq-sz", "rareq-sz")  # no interval in them: equal to print rounding
    for m in ratios:
        np.testing.assert_allclose(ours[("vda", m)][1], theirs[("vda", m)][1], rtol=0.002, atol=0.0051, err_msg=m)
    for m in ("w/s", "wkB/s", "r/s", "rkB/s", "%util", "aqu-sz", "d/s"):
        a, b = ours[("vda", m)][1], theirs[("vda", m)][1]
        np.testing.assert_allclose(a, b, rtol=0.03, atol=0.02, err_msg=m)
        assert abs(a.mean() - b.mean()) <= 0.01 * abs(b.mean()) + 0.01, m  # over the window: within 1 %
    assert set(ours) >= {(e, m) for e, m in theirs if e == "vda"}  # every iostat -x column of vda


def test_diskstats_counter_going_down_is_a_gap_with_a_warning() -> None:
    raw = (
        b"TS 1000000000.0 x\n 8 0 sda 10 0 80 5 10 0 80 5 0 10 10\n"
        b"TS 1000000001.0 x\n 8 0 sda 20 0 160 10 20 0 160 10 0 20 20\n"
        b"TS 1000000002.0 x\n 8 0 sda 1 0 8 1 1 0 8 1 0 1 1\n"  # reboot
        b"TS 1000000003.0 x\n 8 0 sda 3 0 24 2 3 0 24 2 0 3 3\n"
    )
    blocks, ctx = parse_bytes(diskstats, raw)
    (b,) = blocks
    np.testing.assert_array_equal(b.values["r/s"], [10.0, np.nan, 2.0])
    assert [w.kind for w in ctx.warnings] == ["counter_reset"] and ctx.warnings[0].line == 6


def test_diskstats_lines_before_the_first_marker_are_skipped_with_a_warning() -> None:
    raw = b" 8 0 sda 1 0 8 1 1 0 8 1 0 1 1\nTS 1000000000.0\n 8 0 sda 1 0 8 1 1 0 8 1 0 1 1\n"
    blocks, ctx = parse_bytes(diskstats, raw)
    assert not blocks and {w.kind for w in ctx.warnings} == {"time", "format"}


# ---- procstat -----------------------------------------------------------------------------------

PROCSTAT = b"""TS 1000000000.5 2001-09-09 01:46:40
cpu  100 10 50 800 20 0 5 15 30 0
cpu0 50 5 25 400 10 0 5 15 30 0
intr 1000 1 2 3
ctxt 5000
processes 300
procs_running 3
procs_blocked 1
TS 1000000002.5 2001-09-09 01:46:42
cpu  260 10 90 1000 40 0 15 25 90 0
cpu0 50 5 25 400 9 0 5 15 30 0
intr 1600 1 2 3
ctxt 6000
processes 310
procs_running 2
procs_blocked 0
"""


def test_procstat_is_mpstat_arithmetic() -> None:
    s = series(procstat, PROCSTAT)
    # all: user 160 (guest 60 in it), system 40, idle 200, iowait 20, softirq 10, steal 10 -> 440 ticks
    total = 160 + 0 + 40 + 200 + 20 + 0 + 10 + 10
    assert s[("all", "%usr")][1][0] == pytest.approx((160 - 60) / total * 100)
    assert s[("all", "%guest")][1][0] == pytest.approx(60 / total * 100)
    assert s[("all", "%idle")][1][0] == pytest.approx(200 / total * 100)
    assert s[("all", "%steal")][1][0] == pytest.approx(10 / total * 100)
    # cpu0 did nothing and its iowait went down (tickless): 0, and an idle CPU is 100 % idle like mpstat
    assert s[("0", "%iowait")][1][0] == 0.0 and s[("0", "%idle")][1][0] == 100.0
    assert s[("", "cswch/s")][1][0] == 500.0 and s[("", "intr/s")][1][0] == 300.0 and s[("", "proc/s")][1][0] == 5.0
    assert s[("", "procs_running")][1][0] == 2.0
    assert s[("all", "%usr")][0][0] == 1000000002.5


def test_procstat_capture_percentages_add_up() -> None:
    s = series(procstat, (FIXTURES / "procstat" / "procstat_6.18.44_busy-loop.txt").read_bytes())
    parts = ("%usr", "%nice", "%sys", "%iowait", "%irq", "%soft", "%steal", "%guest", "%idle")
    for cpu in ("all", "0", "1"):
        np.testing.assert_allclose(sum(s[(cpu, m)][1] for m in parts), 100.0)
    assert np.nanmean(s[("all", "%idle")][1]) < 50  # the busy loop ran


# ---- meminfo, procvmstat ------------------------------------------------------------------------


def test_meminfo_keeps_the_printed_kb() -> None:
    raw = (FIXTURES / "meminfo" / "meminfo_6.18.44_dd-direct-write.txt").read_bytes()
    blocks, ctx = parse_bytes(meminfo, raw)
    (b,) = blocks
    first = raw.decode().split("\n")
    assert b.values["MemTotal"][0] == float(first[1].split()[1]) and ctx.units["MemTotal"] == "kB"
    assert ctx.units["HugePages_Total"] == "" and len(b.t) == 25
    assert {"MemFree", "Cached", "Dirty", "Writeback", "Active(file)", "Committed_AS"} <= set(b.values)


def test_procvmstat_rates_and_gauges() -> None:
    raw = (
        b"TS 1000000000.0 a\nnr_free_pages 100\nnr_dirtied 10\npgpgin 1000\npgfault 5\nworkingset_nodes 7\n"
        b"TS 1000000002.0 a\nnr_free_pages 90\nnr_dirtied 30\npgpgin 3000\npgfault 1\nworkingset_nodes 8\n"
    )
    s = series(procvmstat, raw)
    _, ctx = parse_bytes(procvmstat, raw)
    assert s[("", "nr_free_pages")][1].tolist() == [100.0, 90.0]
    assert s[("", "workingset_nodes")][1].tolist() == [7.0, 8.0]
    assert s[("", "nr_dirtied/s")][1].tolist() == [10.0]
    assert s[("", "pgpgin/s")][1].tolist() == [1000.0] and ctx.units["pgpgin/s"] == "kB/s"
    assert np.isnan(s[("", "pgfault/s")][1][0])  # went down: a gap
    assert [w.kind for w in ctx.warnings] == ["counter_reset"]
