"""The dstats people run today (tests/fixtures/dstat, MANIFEST there): pcp-dstat 6.0.3 (Debian's
`dstat`), whose first row is blank where a rate needs two samples and whose CSV prints KiB and one
empty cell for a group with nothing to show; dool 1.3's CSV (its lower-case banner, `Nov-27` times,
MySQL and InnoDB plugins with their units), its terminal text (box characters) with a `missed N
ticks` row; and the interval taken from the command's own words."""

from __future__ import annotations

import csv
import re
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from benchlens import importers
from benchlens.importers import _dstat_reader, dstat
from benchlens.importers._dstat_layout import pcp_row
from tests.conftest import FIXTURES, head_of, parse_series

DSTAT = FIXTURES / "dstat"
PCP = "pcp-dstat_6.0.3"
PCP_TEXTS = [p for p in sorted(DSTAT.glob(f"{PCP}_*.txt")) if "_T-" not in p.name]  # -T: against its CSV
SUFFIX = {"": 0, "B": 0, "k": 1, "M": 2, "G": 3}


@pytest.fixture(autouse=True)
def _capture_year(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_dstat_reader, "latest_year", lambda month, day: 2026)


def _stamp(text: str) -> float:
    """`27-11 00:24:10` of the captures (2026, read as UTC)."""
    day, month, hh, mm, ss = map(int, re.split(r"[- :]", text))
    return datetime(2026, month, day, hh, mm, ss, tzinfo=UTC).timestamp()


def _pcp_text(path: Path) -> tuple[list[float], dict[tuple[str, str], list[float]]]:
    """Every row's time and the values under each title by hand: groups split on `|`/`:`, a blank
    group no value, suffixes in 1024s for the byte groups."""
    lines = path.read_text().splitlines()
    titles = lines[0].split()[1:]
    nicks = [part.split() for part in re.split(r"[|:]", lines[1][15:])]
    times: list[float] = []
    out: dict[tuple[str, str], list[float]] = {}
    for row in lines[2:]:
        times.append(_stamp(row[:14]))
        for title, names, part in zip(titles, nicks, re.split(r"[|:]", row[15:]), strict=True):
            group = title.strip("-").replace("-", " ") if "/" not in title else title.strip("-")
            kind, _, entity = group.partition("/")
            prefix = {"total usage": "cpu", "memory usage": "memory", "load avg": "load"}.get(kind, kind)
            entity = "total" if prefix == "cpu" else entity
            words = part.split() or [""] * len(names)
            if len(words) < len(names):  # a blank column inside a group: fixed widths
                w = (len(part) - len(names) + 1) // len(names)
                words = [part[k * (w + 1) : k * (w + 1) + w].strip() for k in range(len(names))]
            for nick, word in zip(names, words, strict=True):
                m = re.fullmatch(r"([\d.]+)([BkMG]?)", word)
                base = 1024 if prefix in ("dsk", "net", "memory") else 1000
                value = float(m[1]) * base ** SUFFIX[m[2]] if m else float("nan")
                out.setdefault((f"{prefix}.{nick}", entity), []).append(value)
    return times, out


@pytest.mark.parametrize("path", PCP_TEXTS, ids=[p.name for p in PCP_TEXTS])
def test_pcp_text_first_row_is_a_sample_not_since_boot(path: Path) -> None:
    got, ctx = parse_series(dstat, path.read_bytes())
    times, want = _pcp_text(path)
    assert not [w for w in ctx.warnings if w.kind == "since_boot"]
    assert ctx.meta.launch == times[0]
    for key, values in want.items():
        if np.isnan(values).all():  # a group blank in every row (swap without a swap device)
            assert key not in got
            continue
        t, v = got[key]
        start = len(times) - len(t)  # a first row of rates only is no sample (its time is the launch)
        assert t.tolist() == times[start:], key
        assert np.array_equal(v, values[start:], equal_nan=True), key
    rows = len(path.read_text().splitlines()) - 2
    gauges = any(k[0].startswith(("memory.", "load.")) for k in want)
    assert len(got[("cpu.usr", "total")][0]) == (rows if gauges else rows - 1)


def test_pcp_text_and_csv_of_one_run_agree() -> None:
    """The CSV prints PCP's KiB for disks and memory, the text bytes: both read as bytes; same times."""
    for stem in ("tcdngy-output", "T-C-D-N-lists", "tcmsdn-load-io-proc"):
        text, _ = parse_series(dstat, (DSTAT / f"{PCP}_C_{stem}.txt").read_bytes())
        table, ctx = parse_series(dstat, (DSTAT / f"{PCP}_C_{stem}.csv").read_bytes())
        assert ctx.meta.tool_version == "pcp-dstat 6.0.3" and ctx.meta.interval == 1.0
        assert not [w for w in ctx.warnings if w.kind == "since_boot"] and set(text) == set(table)
        for key, (t, v) in table.items():
            assert np.array_equal(text[key][0], t), key
            ok = np.isfinite(v)
            assert np.array_equal(ok, np.isfinite(text[key][1])), key
            if key[0].split(".")[0] in ("cpu", "dsk", "net", "memory"):  # the groups printed in KiB or bytes
                scale = np.maximum(np.abs(v[ok]), 1.0)
                assert np.all(np.abs(text[key][1][ok] - v[ok]) <= 0.06 * scale + 0.5), key  # 4 digits + suffix


def test_pcp_csv_values_are_its_numbers_in_bytes() -> None:
    path = DSTAT / f"{PCP}_C_tcmsdn-load-io-proc.csv"
    rows = list(csv.reader(path.read_text().splitlines()))
    got, _ = parse_series(dstat, path.read_bytes())
    data = [r for r in rows[6:] if len(r) == 23]  # every row but the first: the swap group one cell
    assert len(data) == 8
    assert got[("dsk.read", "total")][1][1:].tolist() == [float(r[11]) * 1024 for r in data]
    assert got[("memory.used", "")][1].tolist() == [float(rows[6][2]) * 1024] + [float(r[6]) * 1024 for r in data]
    assert got[("procs.new", "")][1][1:].tolist() == [float(r[-1]) for r in data]
    # the first row: rates one empty cell per instance group, memory/load/procs in full
    first = rows[6]
    aligned = pcp_row(first, [1, 5, 4, 2, 2, 2, 3, 2, 3])  # time cpu memory swap dsk net load io procs
    assert aligned is not None and len(first) == 17
    assert aligned[:16] == [first[0], *[""] * 5, *first[2:6], *[""] * 6]
    assert aligned[16:] == ["6.570", "2.390", "0.890", "", "", "4", "0", ""]


def test_pcp_de_de_prints_as_c() -> None:
    got, ctx = parse_series(dstat, (DSTAT / f"{PCP}_de_DE_tcdngy-load.txt").read_bytes())
    assert got[("load.1m", "")][1].tolist()[:2] == [6.02, 5.90] and ctx.units["dsk.read"] == "B/s"


def test_new_banners_and_texts_are_dstat() -> None:
    for path in sorted(DSTAT.glob("pcp-dstat_*")) + sorted(DSTAT.glob("dool_*")):
        if path.suffix in (".txt", ".csv"):
            assert importers.detect(head_of(path)) is dstat, path.name


def test_dool_csv_times_and_plugins() -> None:
    got, ctx = parse_series(dstat, (DSTAT / "dool_1.3.8_C_tcdngy-output.csv").read_bytes())
    assert ctx.meta.tool_version == "dool 1.3.8" and ctx.meta.interval == 1.0
    assert got[("cpu.usr", "total")][0][0] == _stamp("27-11 00:26:19")  # `Nov-27 00:26:19`, since boot dropped
    path = DSTAT / "dool_1.3.8_C_t-mysql-innodb-plugins.csv"
    rows = list(csv.reader(path.read_text().splitlines()))
    got, ctx = parse_series(dstat, path.read_bytes())
    units = {m: ctx.units[m] for m in ("mysql5_cmds.sel", "mysql5_io.sent", "mysql5_conn.%Con", "innodb_pool.wri")}
    assert units == {
        "mysql5_cmds.sel": "1/s",
        "mysql5_io.sent": "B/s",
        "mysql5_conn.%Con": "%",
        "innodb_pool.wri": "1/s",
    }
    assert got[("mysql5_cmds.sel", "")][1].tolist() == [float(r[4]) for r in rows[7:]]
    assert got[("innodb_io_ops.syn", "")][1].tolist() == [
        float(r[17]) for r in rows[7:]
    ]  # `innodb io ops ` (dool's space)
    got, ctx = parse_series(dstat, (DSTAT / "dool_1.3.8_C_T-mysql-innodb-full.csv").read_bytes())
    assert ctx.units["MySQL_InnoDB_full.%dirty"] == "%" and ctx.units["MySQL_InnoDB_full.qps"] == "1/s"
    assert got[("MySQL_InnoDB_full.qps", "")][0][0] == 1795739587.883  # the epoch column, milliseconds kept


def test_interval_from_the_commands_words() -> None:
    for name, want in (
        (f"{PCP}_C_cdn-no-count-delay-5.csv", 5.0),  # `dstat -cdn --output F.csv 5`: no count
        ("dool_1.3.8_C_T-noupdate-delay-3.csv", 3.0),  # `dool ... --noupdate --output F.csv 3 5`
        (f"{PCP}_C_T-C-D-N-lists.csv", 1.0),  # `-C 0,1,total -D vda,total ...`: lists are no delay
    ):
        _, ctx = parse_series(dstat, (DSTAT / name).read_bytes())
        assert ctx.meta.interval == want, name
    for command, want in (
        ("dstat -tcdn --output x.csv 5", 5.0),
        ("dstat 5 --output x.csv", 5.0),
        ("dool --noupdate 5 -a --output dool.csv", 5.0),
        ("dstat -tcD sda,sdb --output=x.csv 2 10", 2.0),
        ("dstat -tc -C 0 --output 2022.csv", None),  # numbers that are an option's argument
        ("dstat -tcdn --output x.csv", None),
        ("dstat -tcdn 'unclosed", None),
    ):
        assert _dstat_reader.interval_of(command) == want, command
    # the Date row's year is never an interval, whatever the command holds
    line = '"Cmdline:","dstat -tcdn --output x.csv",,,,"Date:","03 Dec 2022 14:10:38 CST"\n'
    raw = f'"Dstat 0.7.2 CSV output"\n{line}"system","total cpu usage"\n"time","usr"\n03-12 14:10:38,1\n'
    _, ctx = parse_series(dstat, raw.encode())
    assert ctx.meta.interval is None


def test_a_missed_ticks_row_keeps_its_values_and_time() -> None:
    path = DSTAT / "dool_1.3.8_C_tcdn-missed-ticks.txt"
    got, ctx = parse_series(dstat, path.read_bytes())
    t, read = got[("dsk.read", "total")]
    rows = [x for x in path.read_text().splitlines() if x[:3] == "Nov"]
    assert len(t) == len(rows) - 1  # every row but the since-boot one
    k = next(i for i, x in enumerate(rows) if "missed 3 ticks" in x) - 1
    assert read[k] == 3222 * 1024**2 and t[k] == _stamp("27-11 00:26:54") == t[k + 1]  # dool printed both in :54
    assert t[k - 1] == _stamp("27-11 00:26:50")  # the gap of the stop, not re-spaced
    (w,) = [w for w in ctx.warnings if w.line is not None]
    assert w.line == 9 and w.kind == "time" and "missed 2 report(s)" in w.text


def test_a_missed_ticks_row_without_times_takes_its_report_number() -> None:
    """The same capture with its time group cut off (as `dool -cdn` prints it): the row after
    the stop is report 7, not 5 (dool skipped two), and the rows after it follow it."""
    path = DSTAT / "dool_1.3.8_C_tcdn-missed-ticks.txt"
    lines = [dstat._plain(x)[16:] for x in path.read_text().splitlines() if dstat._plain(x).strip()]
    got, ctx = parse_series(dstat, ("\n".join(lines) + "\n").encode())
    t, read = got[("dsk.read", "total")]
    assert t.tolist() == [1, 2, 3, 4, 7, 8, 9, 10, 11]
    assert read[4] == 3222 * 1024**2 and ctx.meta.timing.name == "INDEX"


def test_pcp_dstat_5_0_3_public_csv() -> None:
    """pcp-dstat 5.0.3's CSV as published in a public repository (MANIFEST): no time column, a
    first row with values (pcp-dstat has no since-boot row), disks in KiB, no delay in the command."""
    path = DSTAT / "pcp-dstat_5.0.3_public_cdn-no-time.csv"
    got, ctx = parse_series(dstat, path.read_bytes())
    assert importers.detect(head_of(path)) is dstat and ctx.meta.tool_version == "pcp-dstat 5.0.3"
    assert ctx.meta.interval is None and ctx.meta.zone_abbrev == "EST" and not ctx.warnings
    assert got[("cpu.usr", "total")][1][0] == 4.369 and len(got[("cpu.usr", "total")][0]) == 8
    assert got[("dsk.writ", "total")][1][5] == 32.016 * 1024 and got[("net.send", "total")][1][2] == 637.010


def test_pcp_rows_ending_in_a_comma() -> None:
    """The 6.0.3 capture with a comma after every data row (how PerfKitBenchmarker's parser says
    5.0.3 writes them; derived from the real capture, not captured): the same series."""
    path = DSTAT / f"{PCP}_C_T-C-D-N-lists.csv"
    lines = path.read_text().splitlines()
    raw = "\n".join(x + "," if x[:1].isdigit() else x for x in lines) + "\n"
    want, _ = parse_series(dstat, path.read_bytes())
    got, ctx = parse_series(dstat, raw.encode())
    assert not ctx.warnings and got.keys() == want.keys()
    for key, (t, v) in want.items():
        assert np.array_equal(got[key][0], t) and np.array_equal(got[key][1], v, equal_nan=True), key


def test_dool_mysql_conn_gauges_over_a_longer_delay_are_warned() -> None:
    """dool's mysql5-conn divides Threads_connected by the elapsed seconds: the 1-s capture reads
    the threads as they are; the same rows under a 5-s command say that they are not."""
    raw = (DSTAT / "dool_1.3.8_C_t-mysql-innodb-plugins.csv").read_text()
    got, ctx = parse_series(dstat, raw.encode())
    assert got[("mysql5_conn.ThCon", "")][1].tolist() == [9.0] * 7 and not [
        w for w in ctx.warnings if w.kind == "other"
    ]
    _, ctx = parse_series(dstat, raw.replace(' 1 8"', ' 5 8"').encode())
    assert ctx.meta.interval == 5.0 and any("divided by the delay (5 s)" in w.text for w in ctx.warnings)
