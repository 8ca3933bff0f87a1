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
FILES = fixture_files("pidstat")
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
    assert got["series"] and not got["warnings"], path.name
    kernel = " ".join(path.read_text().split()[:2])  # the banner's: captures of two days
    assert got["meta"] == {"cpus": 2, "host": "vm", "kernel": kernel}


def naive(path: Path) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """A deliberately simple reader: {(metric, entity): [(epoch, value)]}. The locale is in the file
    name; a header is the line ending in `Command`, a row a time and as many fields as the header
    (the command may hold spaces), summaries are skipped; a `-` TGID is the last process's."""
    locale = next(loc for loc in LOCALES + CJK + SHORT_YEARS if f"_{loc}_" in path.name)
    lines = path.read_text().splitlines()
    day = datetime.strptime(lines[0].split("\t")[1].strip(), BANNER_DATES[locale]).replace(tzinfo=UTC)
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
                out.setdefault((c, entity), []).append((t, float(v.replace(",", "."))))
    return out


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_value_is_what_the_text_says(path: Path) -> None:
    got, _ = parse_series(pidstat, path.read_bytes())
    want = naive(path)
    assert set(got) == set(want)
    for key, pairs in want.items():
        wt, wv = np.array(pairs).T
        assert np.array_equal(got[key][0], wt), key
        assert np.array_equal(got[key][1], wv), key


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
