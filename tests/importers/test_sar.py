"""sar text output: real captures (tests/fixtures/sar, MANIFEST there) against their goldens, against a
naive reading of the raw text, the same series under every locale, midnight, restarts and the
sysstat test-suite samples, detection, cut files, and the older spellings."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

from benchlens import importers
from benchlens.importers import sar
from benchlens.importers._times import clock_times
from benchlens.importers._tokens import tokenize
from tests import golden
from tests.conftest import (
    FIXTURES,
    SAMPLES,
    assert_every_cut_is_a_prefix,
    fixture_files,
    head_of,
    parse_bytes,
    parse_series,
    sample_files,
)

SAR = FIXTURES / "sar"
FILES = fixture_files("sar")
# ja_JP `15時57分44秒`, zh_CN `15时57分44秒` and ko_KR `15시 57분 44초` (three tokens) row times, CJK banner dates
# fi_FI `15.57.44`, and `15,57,44` (de_DE-timecomma: a de_DE compiled here with t_fmt `%H,%M,%S`)
LOCALES = ("C", "en_US", "de_DE", "fr_FR", "ISO", "ja_JP", "ko_KR", "zh_CN", "fi_FI", "de_DE-timecomma")
REPORTS = ("u-ALL-P-ALL", "u-r-ALL-B-b-q-w-W-S", "d-p-n-DEV-EDEV", "A", "midnight")


# the kernel each capture's banner names (the machine was booted again between capture days)
KERNELS = {
    "_es_ES_": "Linux 6.18.44-fc-v669",
    "_uk_UA_": "Linux 6.18.44-fc-v669",
    "_dec0-A": "Linux 6.18.44-fc-v595",
    "Shanghai": "Linux 6.18.44-fc-v595",
    "12.7.5": "Linux 6.18.44-fc-v595",
}
# the zone a sysstat 12.7 export names (sadf -T and -t print it with every stamp)
ZONES = {"-EST-": "EST", "-CST-": "CST"}


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_fixture_matches_golden(path: Path) -> None:
    got = golden.check(sar, path)
    assert got["series"] and not got["warnings"], path.name
    kernel = next((k for part, k in KERNELS.items() if part in path.name), "Linux 6.18.44-fc-v782")
    banner = {"cpus": 2, "host": "vm", "kernel": kernel}
    if "sysstat-tests" in path.name:
        banner = {"cpus": 9, "host": "SYSSTAT.TEST", "kernel": "Linux 1.2.3-TEST"}
    if zone := next((z for part, z in ZONES.items() if part in path.name), None):
        banner["zone_abbrev"] = zone
    if path.name.startswith("sadf") and "_j-" not in path.name:
        banner = {k: v for k, v in banner.items() if k in ("host", "zone_abbrev")}
    assert got["meta"] == banner


def merged(raw: bytes) -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]:
    """{(metric, entity): (t, v)} with the blocks of one series joined in file order (a report whose
    header changes, as `-I ALL`'s does when a CPU goes offline, gives a series several blocks)."""
    blocks, _ = parse_bytes(sar, raw)
    parts: dict[tuple[str, str], list[tuple[np.ndarray, np.ndarray]]] = {}
    for b in blocks:
        for m, v in b.values.items():
            parts.setdefault((m, b.entity), []).append((b.t, v))
    return {k: (np.concatenate([t for t, _ in p]), np.concatenate([v for _, v in p])) for k, p in parts.items()}


def naive_c(path: Path) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """A deliberately simple reader of a C-locale 24-hour sar capture: {(metric, entity): [(epoch, value)]}.
    A header is a time and words; a row a time, maybe a label, numbers; a report's summary sends the
    date back to the banner's; a time earlier than the last one by hours is the next day."""
    lines = path.read_text().splitlines()
    day0 = datetime.strptime(lines[0].split("\t")[1].strip(), "%m/%d/%y").replace(tzinfo=UTC)
    day, last = day0, None
    cols: list[str] = []
    out: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for line in lines[1:]:
        w = line.split()
        if not w:
            continue
        if w[0] in ("Average:", "Summary:"):
            day, last = day0, None
            continue
        if not any(_is_number(x) for x in w[1:]):
            cols = w[1:]  # a header (no number after the time)
            continue
        clock = datetime.strptime(w[0], "%H:%M:%S")
        now = day.replace(hour=clock.hour, minute=clock.minute, second=clock.second)
        if last is not None and now < last - timedelta(hours=12):
            day += timedelta(days=1)
            now += timedelta(days=1)
        last = now
        if cols[0] == "INTR":
            for c, v in zip(cols[1:], w[2:], strict=True):
                entity = w[1] if c == "all" else f"{w[1]} {c}"
                out.setdefault(("intr/s", entity), []).append((now.timestamp(), float(v)))
        elif cols[-1].isupper():  # -F's FILESYSTEM, -d -p's DEV
            for c, v in zip(cols[:-1], w[1:-1], strict=True):
                out.setdefault((c, w[-1]), []).append((now.timestamp(), float(v)))
        elif cols[0].isupper():
            for c, v in zip(cols[1:], w[2:], strict=True):
                name = "nfs-retrans/s" if c == "retrans/s" and "call/s" in cols else c
                out.setdefault((name, w[1]), []).append((now.timestamp(), float(v)))
        else:
            for c, v in zip(cols, w[1:], strict=True):
                name = "nfs-retrans/s" if c == "retrans/s" and "call/s" in cols else c
                out.setdefault((name, ""), []).append((now.timestamp(), float(v)))
    return out


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


C_FILES = [p for p in FILES if "_C_" in p.name and p.name.startswith("sar_")]


@pytest.mark.parametrize("path", C_FILES, ids=[p.name for p in C_FILES])
def test_every_value_is_what_the_text_says(path: Path) -> None:
    got = merged(path.read_bytes())
    want = naive_c(path)
    assert set(got) == set(want)
    for key, pairs in want.items():
        t, v = got[key]
        order = np.argsort(t, kind="stable")
        wt, wv = np.array(pairs).T
        assert np.array_equal(t[order], wt), key
        assert np.array_equal(v[order], wv), key


# (fixture, intervals): `sar --dec=0 -A 1 3` prints every report's header again each interval, and
# `sar -f` prints `-I ALL`'s again each interval (its columns are the CPUs online then)
EVERY_INTERVAL = [("sar_12.6.1_C_dec0-A-live.txt", 3), ("sar_12.6.1_C_dec0-A.txt", 3), ("sar_12.6.1_C_A.txt", 6)]


@pytest.mark.parametrize(("name", "intervals"), EVERY_INTERVAL)
def test_every_report_has_one_sample_per_interval(name: str, intervals: int) -> None:
    """Every report type `sar -A` prints (CPU, interrupts per IRQ and CPU, network, disks, memory,
    queue and PSI, filesystems, power ...): each of its series has one sample per interval, all at
    the same times."""
    got = merged((SAR / name).read_bytes())
    assert len(got) > 400
    times = {tuple(t.tolist()) for t, _ in got.values()}
    assert len(times) == 1 and len(times.pop()) == intervals
    assert {m for m, _ in got} >= {"%usr", "intr/s", "rxkB/s", "tps", "kbmemfree", "runq-sz", "MBfsfree", "MHz"}


def test_interrupts_of_cpus_that_go_offline_keep_every_interval() -> None:
    """sysstat's own `sar --dec=0 -A` test output (excerpt): CPU6 is offline in the 2nd and 3rd
    interval and CPU8 only online in the last two, so `-I ALL`'s header names other CPUs each time.
    Every interval is read (only the first was, silently); a CPU has the intervals it was online."""
    got = merged((SAR / "sar_sysstat-tests_C_dec0-A-INTR-hotplug.txt").read_bytes())
    assert got[("intr/s", "sum")][1].tolist() == [31915, 0, 33727, 727313]
    assert got[("intr/s", "LOC CPU7")][1].tolist() == [468, 1133, 1708, 9113]
    assert len(got[("intr/s", "sum CPU6")][0]) == 2 and got[("intr/s", "TLB CPU8")][1].tolist() == [1, 45]


@pytest.mark.parametrize("report", REPORTS)
def test_locales_give_identical_series(report: str) -> None:
    files = [SAR / f"sar_12.6.1_{loc}_{report}.txt" for loc in LOCALES]
    files = [p for p in files if p.exists()]
    assert len(files) >= 2
    want, _ = parse_series(sar, files[0].read_bytes())
    for path in files[1:]:
        got, _ = parse_series(sar, path.read_bytes())
        assert set(got) == set(want), path.name
        for key, (t, v) in want.items():
            assert np.array_equal(got[key][0], t), (path.name, key)
            assert np.array_equal(got[key][1], v), (path.name, key)


SADF = sorted(SAR.glob("sadf_12.6.1_*.txt"))  # exports of sa_12.6.1_vm.data (the 12.7.5 ones: test_sadf_zones.py)


@pytest.mark.parametrize("path", SADF, ids=[p.name for p in SADF])
def test_sadf_gives_the_series_sar_prints(path: Path) -> None:
    """`sadf -d` (UTC, `-t`, `-U`, de_DE) and `sadf -j` of the same data file read like the sar text
    captures: the same names, entities, times and values."""
    text: dict = {}
    for name in ("A", "u-ALL-P-ALL", "u-r-ALL-B-b-q-w-W-S", "d-p-n-DEV-EDEV", "n-TCP-ETCP-SOCK-I-SUM", "F-MOUNT"):
        text.update(parse_series(sar, (SAR / f"sar_12.6.1_C_{name}.txt").read_bytes())[0])
    got, ctx = parse_series(sar, path.read_bytes())
    assert len(got) >= 7 and {"sadf -d", "sadf -j"} & set(ctx.variant) and not ctx.warnings
    for key, (t, v) in got.items():
        wt, wv = text[key]
        common = np.intersect1d(t, wt)
        assert len(common) >= 6 and len(np.unique(t)) == len(t), key
        assert np.array_equal(v[np.isin(t, common)], wv[np.isin(wt, common)]), key


def test_sadf_j_of_sar_A_gives_the_series_of_the_text() -> None:
    """`sadf -j -- -A` and `sar -A` of one data file (recorded with `sadc -S XALL`): the same 459
    series, names, entities, units, times and values. sadf -j gave 276 before: PSI, filesystems,
    NFS/NFSD, IP/ICMP/UDP v4 and v6 with their errors, softnet, hugepages, kernel tables, serial
    lines and CPU frequency were skipped."""
    text, tctx = parse_series(sar, (SAR / "sar_12.6.1_C_A.txt").read_bytes())
    got, jctx = parse_series(sar, (SAR / "sadf_12.6.1_C_j-A.txt").read_bytes())
    assert len(text) == 459 and set(got) == set(text)
    assert not [v for v in jctx.variant if "not read" in v] and not jctx.warnings
    for key, (t, v) in text.items():
        assert np.array_equal(got[key][0], t), key
        assert np.array_equal(got[key][1], v), key
    assert {m: jctx.units[m] for m, _ in text} == {m: tctx.units[m] for m, _ in text}


def test_midnight_rolls_over_and_each_report_starts_on_the_banner_day() -> None:
    got, _ = parse_series(sar, (SAR / "sar_12.6.1_C_midnight.txt").read_bytes())
    day = datetime(2026, 11, 23, tzinfo=UTC).timestamp()
    for key in (("%user", "all"), ("rxkB/s", "lo")):  # the first and the second report
        t = got[key][0]
        assert t[0] == day + 23 * 3600 + 59 * 60 + 45 and t[-1] == day + 86400 + 13
        assert (np.diff(t) == 1).all()


def test_sysstat_samples_restart_comment_and_offline_cpu() -> None:
    path = SAMPLES / "sar" / "sysstat-tests_expected.sar-u"
    if not path.exists():
        pytest.skip("../shared/samples not present")
    got, ctx = parse_series(sar, path.read_bytes())
    assert not ctx.warnings and "LINUX RESTART / COM records" in ctx.variant
    assert ctx.meta.cpus == 9 and ctx.meta.host == "SYSSTAT.TEST"
    assert len(got[("%user", "all")][0]) == 4
    assert len(got[("%user", "6")][0]) == 2 and len(got[("%user", "8")][0]) == 2  # offline in some intervals
    assert got[("%steal", "8")][1].tolist() == [0.0, 4.50]


def test_every_capture_is_claimed_by_sar_only() -> None:
    for path in FILES + sample_files("sar"):
        assert importers.detect(head_of(path)) is sar, path.name  # `sar -u ALL` is mpstat's 0.9 too
    for path in fixture_files("mpstat", "iostat", "vmstat"):
        assert sar.sniff(head_of(path)) == 0.0, path.name


def test_a_cut_capture_reads_a_prefix() -> None:
    assert_every_cut_is_a_prefix(sar, (SAR / "sar_12.6.1_de_DE_d-p-n-DEV-EDEV.txt").read_bytes())
    assert_every_cut_is_a_prefix(sar, (SAR / "sar_12.6.1_de_DE-timecomma_u-ALL-P-ALL.txt").read_bytes())


def test_times_with_dots_or_commas_are_read_and_not_mixed() -> None:
    """`15.57.45` (fi_FI) and `15,57,45` were "not a known format". A file keeps the separator of its
    first row: a row timed otherwise is warned, never read as another time."""
    for name, sep in (("fi_FI", "."), ("de_DE-timecomma", ",")):
        raw = (SAR / f"sar_12.6.1_{name}_u-ALL-P-ALL.txt").read_bytes()
        assert importers.detect(raw[:4096].decode()) is sar
        got, ctx = parse_series(sar, raw)
        assert f"24-hour times (hh{sep}mm{sep}ss)" in ctx.variant and not ctx.warnings
        assert got[("%usr", "all")][0][0] == datetime(2026, 11, 23, 15, 57, 45, tzinfo=UTC).timestamp()
    raw = (SAR / "sar_12.6.1_de_DE-timecomma_u-ALL-P-ALL.txt").read_bytes().replace(b"15,57,47 ", b"15.57.47 ")
    got, ctx = parse_series(sar, raw)
    assert len(got[("%usr", "all")][0]) == 11 and {w.line for w in ctx.warnings} == {10, 11, 12}


# Hand-written from sysstat 10.x's `sar -d -p` and 7.x's `sar -n DEV` column names (labelled: no older
# sysstat is packaged here); values chosen so the conversions show.
OLD = b"""Linux 3.2.0-4-amd64 (db1) \t03/05/18 \t_x86_64_\t(4 CPU)

13:24:55          DEV       tps  rd_sec/s  wr_sec/s  avgrq-sz  avgqu-sz     await     svctm     %util
13:24:56          sda     10.00    100.00    200.00     30.00      0.50      1.00      0.40      0.40

13:24:55        IFACE   rxpck/s   txpck/s   rxbyt/s   txbyt/s   rxcmp/s   txcmp/s  rxmcst/s
13:24:56         eth0      2.00      3.00   2048.00   1024.00      0.00      0.00      0.00
"""


def test_older_spellings_are_mapped() -> None:
    got, ctx = parse_series(sar, OLD)
    assert got[("rkB/s", "sda")][1].tolist() == [50.0] and got[("wkB/s", "sda")][1].tolist() == [100.0]
    assert got[("areq-sz", "sda")][1].tolist() == [15.0] and got[("aqu-sz", "sda")][1].tolist() == [0.5]
    assert got[("rxkB/s", "eth0")][1].tolist() == [2.0] and got[("txkB/s", "eth0")][1].tolist() == [1.0]
    assert ctx.units["areq-sz"] == "kB" and ctx.units["rxkB/s"] == "kB/s" and ctx.units["await"] == "ms"


def test_stray_lines_are_warned_and_rows_before_a_header_skipped() -> None:
    raw = b"Linux 6.1 (h) \t11/23/26 \t_x86_64_\t(2 CPU)\n\n15:00:01 lo 1.00 2.00\ngarbage here\n"
    blocks, ctx = parse_bytes(sar, raw)
    assert not blocks
    assert [w.line for w in ctx.warnings] == [4, 3]


def test_a_decimal_number_is_no_label() -> None:
    """Found by the fuzzer: with the `-b` header deleted, its rows stood under `-u`'s `CPU` header
    and `121.57` became a CPU, named `121,57` in a decimal-comma copy. CPUs and IRQs are integers."""
    dot = (
        b"Linux 6.1 (h) \t11/23/26 \t_x86_64_\t(2 CPU)\n\n"
        b"15:57:44        CPU     %user     %nice   %system   %iowait    %steal     %idle\n"
        b"15:57:45        all     73.85      0.00     10.77     13.33      0.51      1.54\n"
        b"15:57:51       121.57     13.73     80.39     27.45    125.49  43027.45  42431.37\n"
        b"15:57:52          1     73.85      0.00     10.77     13.33      0.51      1.54\n"
    )
    got, ctx = parse_series(sar, dot)
    comma, _ = parse_series(sar, dot.replace(b".", b","))
    assert {e for _, e in got} == {"all", "1"} and set(got) == set(comma)
    assert [w.line for w in ctx.warnings] == [5]


def test_cjk_clocks_are_read_only_whole() -> None:
    """clock_times reads `15時57分44秒`, `15时57分44秒` and the three tokens of `15시 57분 44초`, never a
    ko_KR time whose parts are cut over two lines or one with a digit missing."""
    text = "15時57分44秒 a\n15时57分45秒 a\n15시 57분 46초 a\n15:57:47 a\n15시\n57분 48초 a\n15시 57분\n1시 57분 49초\n"
    toks = tokenize(text.encode())
    secs, ok = clock_times(toks, toks.tok_first[:-1])
    assert ok.tolist() == [True, True, True, True, False, False, False, False]
    assert secs[:4].tolist() == [57464, 57465, 57466, 57467]
