"""pidstat: real captures (tests/fixtures/pidstat, MANIFEST there) against their goldens and against a
naive reading of the raw text, the locales giving the same series, detection next to mpstat and sar,
cut files, midnight, older epoch times and the since-start single report."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from benchlens import importers
from benchlens.importers import pidstat
from tests import golden
from tests.conftest import (
    FIXTURES,
    assert_every_cut_is_a_prefix,
    fixture_files,
    head_of,
    parse_bytes,
    parse_series,
    sample_files,
)

PIDSTAT = FIXTURES / "pidstat"
# files of `Average:` rows only are refused (test_averages_only_are_refused_by_name); the others read
AVERAGES_ONLY = [p for p in fixture_files("pidstat") if "averages-only" in p.name]
FILES = [p for p in fixture_files("pidstat") if p not in AVERAGES_ONLY]
LOCALES = ("C", "en_US", "de_DE", "ISO")
# captured on 2026-11-26, side by side (MANIFEST): row times `10時47分59秒`, `10时47分59秒`, `10시 47분 59초`
CJK = ("ja_JP", "zh_CN", "ko_KR")
BANNER_DATES = {"C": "%m/%d/%y", "en_US": "%m/%d/%Y", "de_DE": "%d.%m.%Y", "ISO": "%Y-%m-%d"}
BANNER_DATES |= {"ja_JP": "%Y年%m月%d日", "zh_CN": "%Y年%m月%d日", "ko_KR": "%Y년 %m월 %d일"}
# day first with a two-digit year (tests/importers/test_day_first_short_years.py)
SHORT_YEARS = ("es_ES", "uk_UA")
BANNER_DATES |= {"es_ES": "%d/%m/%y", "uk_UA": "%d.%m.%y"}
CLOCKS = {"ja_JP": "%H時%M分%S秒", "zh_CN": "%H时%M分%S秒", "ko_KR": "%H시 %M분 %S초"}
IDENTITY = {"UID", "USER", "PID", "TGID", "TID", "CPU"}


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_fixture_matches_golden(path: Path) -> None:
    got = golden.check(pidstat, path)
    # run as nobody, pidstat cannot read root's tasks' I/O (-1.00): said once, where it starts
    nonroot = [
        "line 4: 3 rows print -1.00 for kB_rd/s kB_wr/s kB_ccwr/s: pidstat could not read those tasks' "
        "/proc/PID/io (not run as root?); no samples there"
    ]
    assert got["series"] and got["warnings"] == (nonroot if "nonroot" in path.name else []), path.name
    banner = next(line for line in path.read_text().splitlines() if line.startswith("Linux "))
    kernel = " ".join(banner.split()[:2])  # captures of several days and machines
    meta = {"cpus": 2, "host": "vm", "kernel": kernel}
    if path.name.startswith("pidstat_10."):  # RHEL 7, its collector's `date` line first (MANIFEST)
        meta |= {"cpus": 8, "host": "dl380g802-v02", "zone_abbrev": "PST"}
    assert got["meta"] == meta


def naive(path: Path) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """A deliberately simple reader: {(metric, entity): [(epoch, value)]}. The locale is in the file
    name; a header is the line ending in `Command`, a row a time and as many fields as the header
    (the command may hold spaces), summaries are skipped; a `-` TGID is the last process's."""
    locale = next(loc for loc in LOCALES + CJK + SHORT_YEARS if f"_{loc}_" in path.name)
    lines = path.read_text().splitlines()
    lines = lines[next(i for i, line in enumerate(lines) if line.startswith("Linux ")) :]  # a `date` line first
    date = lines[0].split("\t")[1].strip()
    layout = "%m/%d/%Y" if locale == "C" and len(date) == 10 else BANNER_DATES[locale]  # sysstat 10.x: 2017
    day = datetime.strptime(date, layout).replace(tzinfo=UTC)
    cols: list[str] = []
    tgid = ""
    out: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for line in lines[1:]:
        w = line.split()
        if not w or w[0].endswith(":"):
            continue
        k = 3 if locale == "ko_KR" and w[0] != "#" else 2 if w[1] in ("AM", "PM") else 1
        if w[-1] == "Command":
            cols = w[k:-1] if w[0] != "#" else w[2:-1]
            continue
        layout = CLOCKS.get(locale, "%I:%M:%S %p" if k == 2 else "%H:%M:%S")
        if w[0].isdigit():  # sysstat 10.x -h: epoch seconds
            t = float(w[0])
        else:
            clock = datetime.strptime(" ".join(w[:k]), layout)
            t = day.replace(hour=clock.hour, minute=clock.minute, second=clock.second).timestamp()
        fields = dict(zip(cols, w[k:], strict=False))
        command = " ".join(w[k + len(cols) :])
        if "PID" in fields:
            entity = f"{command} {fields['PID']}"
        elif fields["TGID"] != "-":
            tgid = fields["TGID"]
            entity = f"{command} {tgid}"
        else:
            entity = f"{command.removeprefix('|__')} {tgid}/{fields['TID']}"
        for c, v in fields.items():
            if c not in IDENTITY:
                x = float(v.replace(",", "."))
                not_available = c.startswith("kB_") and x == -1  # /proc/PID/io unreadable
                out.setdefault((c, entity), []).append((t, np.nan if not_available else x))
    return out


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_value_is_what_the_text_says(path: Path) -> None:
    got, _ = parse_series(pidstat, path.read_bytes())
    want = naive(path)
    assert set(got) == set(want)
    for key, pairs in want.items():
        wt, wv = np.array(pairs).T
        assert np.array_equal(got[key][0], wt), key
        assert np.array_equal(got[key][1], wv, equal_nan=True), key


@pytest.mark.parametrize("report", ["u-d-r-w", "u-d-r-w-h"])
def test_locales_give_identical_series(report: str) -> None:
    """The captures of one report ran side by side under each locale (MANIFEST): the same tasks,
    names and times; the values are separate samplings, so close, and equal for memory sizes."""
    files = [p for loc in LOCALES if (p := PIDSTAT / f"pidstat_12.6.1_{loc}_{report}.txt").exists()]
    assert len(files) >= 2
    want, _ = parse_series(pidstat, files[0].read_bytes())
    for path in files[1:]:
        got, _ = parse_series(pidstat, path.read_bytes())
        assert set(got) == set(want), path.name
        for (metric, entity), (t, v) in want.items():
            assert np.array_equal(got[metric, entity][0], t), (path.name, metric, entity)
            if metric in ("VSZ", "RSS", "%MEM"):
                assert np.array_equal(got[metric, entity][1], v), (path.name, metric, entity)
    cpu = want[("%CPU", "yes 30291")][1]
    assert 30 < np.median(cpu) <= 100  # the busy loop shows by name


@pytest.mark.parametrize("report", ["u-d-r-w", "u-d-r-w-h"])
def test_cjk_locales_are_read_alike(report: str) -> None:
    """ja_JP, zh_CN and ko_KR print the banner's date as `2026年11月26日` / `2026년 11월 26일` and row
    times as `10時47分59秒`, `10时47分59秒`, `10시 47분 59초` (three words): a pidstat capture in them
    was "not a known format" (or "unreadable date in the banner" with -h). Captured side by side: the
    same tasks at the same times, the busy loop and the direct writer by name."""
    series = [parse_series(pidstat, (PIDSTAT / f"pidstat_12.6.1_{loc}_{report}.txt").read_bytes())[0] for loc in CJK]
    assert series[0] and all(set(s) == set(series[0]) for s in series)
    for key, (t, _) in series[0].items():
        assert all(np.array_equal(s[key][0], t) for s in series[1:]), key
    assert np.median(series[0][("%CPU", "yes 22222")][1]) > 30
    assert np.median(series[0][("kB_wr/s", "dd 22220")][1]) > 100_000


def test_a_foreign_writer_and_threads_show_by_name() -> None:
    got, ctx = parse_series(pidstat, (PIDSTAT / "pidstat_12.6.1_C_u-d-r-w-t-h.txt").read_bytes())
    assert {"threads (-t)", "one line per task (-h)"} <= set(ctx.variant)
    assert np.median(got[("kB_wr/s", "dd 30295")][1]) > 10_000  # dd oflag=direct
    assert ("%CPU", "hog 30293/30297") in got and ("%CPU", "dd 30295/30295") in got
    assert ctx.units["kB_wr/s"] == "kB/s" and ctx.units["RSS"] == "kB" and ctx.units["%CPU"] == "%"
    assert ctx.units["cswch/s"] == "1/s" and "CPU" not in ctx.units and "TGID" not in ctx.units


def test_a_command_line_with_spaces_is_one_entity() -> None:
    got, _ = parse_series(pidstat, (PIDSTAT / "pidstat_12.6.1_C_u-l.txt").read_bytes())
    assert got[("%CPU", "./hog hog.py --label two words 31293")][1].tolist() == [92.0, 100.0, 100.0]


def test_every_capture_is_claimed_by_pidstat_only() -> None:
    for path in FILES:
        assert importers.detect(head_of(path)) is pidstat, path.name
    others = [f.name for f in importers.FORMATS if f.name != "pidstat"]
    for fmt in others:
        for path in fixture_files(fmt) + sample_files(fmt):
            assert pidstat.sniff(head_of(path)) == 0.0, path.name


def test_a_cut_capture_reads_a_prefix() -> None:
    assert_every_cut_is_a_prefix(pidstat, (PIDSTAT / "pidstat_12.6.1_de_DE_u-d-r-w.txt").read_bytes())
    assert_every_cut_is_a_prefix(pidstat, (PIDSTAT / "pidstat_12.6.1_C_u-t.txt").read_bytes())


# Real: `LC_ALL=C pidstat -u -p PID` (no interval) -- the averages since the task started.
SINCE_START = b"""Linux 6.18.44-fc-v782 (vm) \t11/23/26 \t_x86_64_\t(2 CPU)

16:58:54      UID       PID    %usr %system  %guest   %wait    %CPU   CPU  Command
16:58:54        0     31293    0.05    0.00    0.00    0.00    0.05     1  hog
"""


def test_a_single_report_without_interval_is_dropped() -> None:
    blocks, ctx = parse_bytes(pidstat, SINCE_START)
    assert not blocks and [w.kind for w in ctx.warnings] == ["since_boot"]
    # the first report of an interval capture (timed a second after its header) is kept, even cut
    first = b"".join((PIDSTAT / "pidstat_12.6.1_C_u-d-r-w.txt").read_bytes().splitlines(True)[:6])
    got, ctx = parse_series(pidstat, first)
    assert got[("%CPU", "yes 30291")][1].tolist() == [64.15] and not ctx.warnings


# Hand-written (labelled): the 12.6.1 layout across midnight, and sysstat 10.x's `-h` rows, which
# print the time as epoch seconds (no older sysstat is packaged here).
MIDNIGHT = b"""Linux 6.1.0 (db1) \t11/23/26 \t_x86_64_\t(4 CPU)

23:59:59      UID       PID    %usr %system  %guest   %wait    %CPU   CPU  Command
00:00:00      999      1234   50.00    1.00    0.00    0.00   51.00     2  mysqld

00:00:00      UID       PID    %usr %system  %guest   %wait    %CPU   CPU  Command
00:00:01      999      1234   60.00    2,00    0.00    0.00   62.00     2  mysqld

00:00:01      UID       PID    %usr %system  %guest   %wait    %CPU   CPU  Command
00:00:02      999      1234   70.00    3.00    0.00    0.00   73.00     2  mysqld
"""
EPOCH_H = b"""Linux 3.10.0 (db1) \t03/05/18 \t_x86_64_\t(4 CPU)

#      Time   UID       PID    %usr %system  %guest    %CPU   CPU   kB_rd/s   kB_wr/s kB_ccwr/s  Command
 1520256296   999      1234   10.00    2.00    0.00   12.00     1      0.00    120.00      0.00  mysqld
 1520256297   999      1234   11.00    2.00    0.00   13.00     1      0.00    130.00      0.00  mysqld
"""


def test_midnight_rolls_over_and_a_bad_value_is_warned() -> None:
    got, ctx = parse_series(pidstat, MIDNIGHT)
    day = datetime(2026, 11, 24, tzinfo=UTC).timestamp()
    assert got[("%usr", "mysqld 1234")][0].tolist() == [day, day + 2]  # the second row's `2,00`: no sample
    assert [w.line for w in ctx.warnings] == [7]


def test_older_epoch_times() -> None:
    got, ctx = parse_series(pidstat, EPOCH_H)
    assert got[("kB_wr/s", "mysqld 1234")][0].tolist() == [1520256296.0, 1520256297.0]
    assert got[("kB_wr/s", "mysqld 1234")][1].tolist() == [120.0, 130.0] and not ctx.warnings


def test_sysstat_10_h_header_with_spaces_and_epoch_times() -> None:
    """sysstat 10.x prints the -h header as `#      Time` (spaces after `#`) and the time as epoch
    seconds: such a capture was "not a known format". Real (microsoft/SqlNexus, RHEL 7, MANIFEST):
    a `date` line, the banner, two reports 10 s apart; a task printed in one report only has one
    sample there."""
    path = PIDSTAT / "pidstat_10.1.5_C_u-r-d-w-h.txt"
    assert importers.detect(head_of(path)) is pidstat
    got, ctx = parse_series(pidstat, path.read_bytes())
    assert not ctx.warnings and "one line per task (-h)" in ctx.variant
    assert got[("RSS", "sqlservr 19176")][1].tolist() == [2599300.0, 2599292.0]
    assert got[("kB_rd/s", "iotop 23577")][0].tolist() == [1484168290.0, 1484168300.0]  # 20:58:10 UTC
    assert got[("kB_rd/s", "iotop 23577")][1].tolist() == [234.03, 0.0]
    assert got[("%CPU", "migration/0 7")][0].tolist() == [1484168290.0]
    assert got[("cswch/s", "tuned 1518")][0].tolist() == [1484168300.0]
    assert ctx.meta.zone_abbrev == "PST"  # the collector's `date` line: evidence of the machine's zone


@pytest.mark.parametrize("name", ["pidstat_12.6.1_C_d-nonroot.txt", "pidstat_12.6.1_C_u-d-h-nonroot.txt"])
def test_io_not_available_is_a_gap(name: str) -> None:
    """pidstat prints -1.00 kB/s for a task whose /proc/PID/io it cannot read (real: run as nobody,
    root's dd beside nobody's own dd): a gap, warned once; it was read as -1 kB/s. The columns it
    could read for that task (iodelay, %CPU) and the other task's I/O stay."""
    got, ctx = parse_series(pidstat, (PIDSTAT / name).read_bytes())
    for m in ("kB_rd/s", "kB_wr/s", "kB_ccwr/s"):
        assert np.isnan(got[(m, "dd 8496")][1]).all() and len(got[(m, "dd 8496")][1]) == 3
    assert got[("iodelay", "dd 8496")][1].tolist() == [0.0, 0.0, 0.0]
    assert np.median(got[("kB_wr/s", "dd 10752")][1]) > 50_000  # nobody's own direct writer
    assert [(w.line, w.kind) for w in ctx.warnings] == [(4, "unreadable")]
    assert "-1.00" in ctx.warnings[0].text and "/proc/PID/io" in ctx.warnings[0].text


@pytest.mark.parametrize("path", AVERAGES_ONLY, ids=[p.name for p in AVERAGES_ONLY])
def test_averages_only_are_refused_by_name(path: Path) -> None:
    """`pidstat 2 1 | grep Average` and a capture cut down to its summary (`Durchschn.:`, with its
    banner) have no timed sample: claimed by pidstat and refused in words that say what they are,
    where they were "not a known format"."""
    assert importers.detect(head_of(path)) is pidstat
    got = golden.check(pidstat, path)
    assert not got["series"]
    assert got["warnings"] == ["pidstat averages only (`Average:` rows, no timed samples): nothing to place in time"]
