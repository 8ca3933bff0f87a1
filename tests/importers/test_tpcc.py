"""tpcc-mysql logs: every value and time equals what the raw text says (read here with simple
string code), ramp-up and runs placed as documented, the summary kept as meta, bad input never
raises, detection claims these files only."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.ingest import Options, import_path
from benchlens.app.store import Library
from benchlens.importers import dbstress, innodb_status, iostat, mpstat, sysbench, tpcc, vmstat
from benchlens.importers._types import Context, Timing
from tests import golden
from tests.conftest import FIXTURES, Series, assert_every_cut_is_a_prefix, fixture_files, head_of, parse_series

TP = FIXTURES / "tpcc"
FILES = sorted(TP.glob("*.txt"))
MARKDOWN = TP / "tpcc_cnblogs-markdown_rt90-escaped-brackets.txt"
PLAIN = [p for p in FILES if p != MARKDOWN]  # the files the plain-text helpers below can read
TRX_FILES = [p for p in PLAIN if "old" not in p.name]
OLD_FILES = [p for p in PLAIN if "old" in p.name]
NAMES = ("New-Order", "Payment", "Order-Status", "Delivery", "Stock-Level")


def parse(raw: bytes) -> tuple[Series, Context]:
    return parse_series(tpcc, raw)


def raw_reports(path: Path) -> list[dict[str, object]]:
    """The interval lines of a log read with plain string operations (no regex), one dict per line,
    with the run number and that run's [rampup] and [connection]."""
    out: list[dict[str, object]] = []
    run, rampup, conns = -1, 0.0, 0.0
    for line in path.read_text().splitlines():
        s = line.strip()
        if "###easy###" in s:
            run += 1
        if s.startswith("[rampup]:"):
            rampup = float(s.split(":")[1].split()[0])
        if s.startswith("[connection]:"):
            conns = float(s.split(":")[1])
        head = s.split(",")[0]
        if not head.isdigit() or s.startswith("["):
            continue
        fields = [f.strip() for f in s.split(",")]
        rep: dict[str, object] = {"t": float(fields[0]), "run": run, "rampup": rampup, "conns": conns}
        if fields[1].startswith("trx:"):
            rep["trx"] = float(fields[1].split(":")[1])
            rep["95"] = float(fields[2].split(":")[1])
            rep["99"] = float(fields[3].split(":")[1])
            rep["max"] = float(fields[4].split(":")[1])
            rep["others"] = [tuple(float(x) for x in f.split("|")) for f in fields[5:9]]
        else:
            groups = []
            for f in fields[1:6]:
                count, rest = f.split("(")
                late, times = rest.split("):")
                rt = times.split("|")
                groups.append((float(count), float(late), float(rt[0]), float(rt[1]) if len(rt) > 1 else np.nan))
            rep["groups"] = groups
            rep["trx"] = groups[0][0]
        out.append(rep)
    return out


def expected_times(reports: list[dict[str, object]]) -> tuple[list[float], list[float]]:
    """Relative times (ramp-up + printed, runs back to back) and report intervals, as documented:
    a run's interval is its shortest step between lines (no fixture prints another `option i`)."""
    times, steps, runs = [], [], []
    start, last, prev_t, prev_run, run = 0.0, 0.0, 0.0, None, 0
    for r in reports:
        t = float(r["t"])
        if prev_run is not None and (r["run"] != prev_run or t <= prev_t):
            start, prev_t, run = last, 0.0, run + 1
        last = start + float(r["rampup"]) + t
        times.append(last)
        steps.append(t - prev_t)
        runs.append(run)
        prev_t, prev_run = t, r["run"]
    shortest = {k: min(s for s, j in zip(steps, runs, strict=True) if j == k) for k in set(runs)}
    return times, [shortest[k] for k in runs]


def nan_if_none(value: float, count: float) -> float:
    return np.nan if count == 0 else value


# ---- values and times --------------------------------------------------------------------------


@pytest.mark.parametrize("path", TRX_FILES, ids=lambda p: p.name)
def test_trx_layout_values_and_times_equal_the_raw_text(path: Path) -> None:
    reports = raw_reports(path)
    got, _ = parse(path.read_bytes())
    times, intervals = expected_times(reports)
    t, trx = got[("trx", "")]
    assert list(t) == times and np.all(np.diff(t) > 0)
    assert list(trx) == [r["trx"] for r in reports]
    assert list(got[("tps", "")][1]) == [r["trx"] / i for r, i in zip(reports, intervals, strict=True)]
    for entity in ("95", "99", "max"):
        want = [nan_if_none(r[entity], r["trx"]) for r in reports]
        np.testing.assert_array_equal(got[("lat_ms", entity)][1], want)
    for k, name in enumerate(NAMES[1:]):
        assert list(got[(f"{name}_count", "")][1]) == [r["others"][k][0] for r in reports]
        want = [nan_if_none(r["others"][k][1], r["others"][k][0]) for r in reports]
        np.testing.assert_array_equal(got[(f"{name}_max_ms", "")][1], want)
    assert list(got[("thds", "")][1]) == [r["conns"] for r in reports]


@pytest.mark.parametrize("path", OLD_FILES, ids=lambda p: p.name)
def test_rt90_layout_values_and_times_equal_the_raw_text(path: Path) -> None:
    reports = raw_reports(path)
    got, ctx = parse(path.read_bytes())
    times, intervals = expected_times(reports)
    assert list(got[("trx", "")][0]) == times
    groups = [r["groups"] for r in reports]
    assert list(got[("tps", "")][1]) == [g[0][0] / i for g, i in zip(groups, intervals, strict=True)]
    assert list(got[("trx_late", "")][1]) == [g[0][1] for g in groups]
    assert list(got[("lat_ms", "90")][1]) == [g[0][2] for g in groups]
    sleep_only = "sleep-only" in path.name
    assert (("lat_ms", "max") in got) == (not sleep_only)
    for k, name in enumerate(NAMES[1:], start=1):
        assert list(got[(f"{name}_count", "")][1]) == [g[k][0] for g in groups]
        assert list(got[(f"{name}_late", "")][1]) == [g[k][1] for g in groups]
        assert list(got[(f"{name}_p90_ms", "")][1]) == [g[k][2] for g in groups]
        if not sleep_only:
            assert list(got[(f"{name}_max_ms", "")][1]) == [g[k][3] for g in groups]
    assert ctx.units["lat_ms"] == "ms" and ctx.units["tps"] == "1/s"


def test_both_percent_spellings_and_unpadded_copies_read_the_same() -> None:
    line = (
        "  10, trx: 12920, 95%: 9.483, 99%: 18.738, max_rt: 213.169, "
        "12919|98.778, 1292|101.654, 1293|215.097, 129|288.876"
    )
    variants = [line, line.replace("%", ""), line.strip()]
    results = [parse(f"[rampup]: 10 (sec.)\n{v}\n".encode())[0] for v in variants]
    for got in results:
        assert got[("lat_ms", "95")][1][0] == 9.483 and got[("lat_ms", "99")][1][0] == 18.738
        assert got[("trx", "")][0][0] == 20.0 and got[("tps", "")][1][0] == 1292.0
        assert got[("Stock-Level_count", "")][1][0] == 129 and got[("Stock-Level_max_ms", "")][1][0] == 288.876


def test_a_stalled_interval_has_zero_tps_and_no_latency() -> None:
    """`trx: 0, 95: 0.000 ...`: nothing completed, so the 0.000 response times are not samples."""
    got, _ = parse((TP / "tpcc_trx-no-percent-sign_handwritten.txt").read_bytes())
    assert got[("tps", "")][1][2] == 0.0
    assert np.isnan(got[("lat_ms", "95")][1][2]) and np.isnan(got[("Payment_max_ms", "")][1][2])
    assert not np.isnan(got[("lat_ms", "95")][1][1])


def test_nan_percentiles_are_nan() -> None:
    text = (
        "   5, trx: 3, 95%: -nan, 99%: nan, max_rt: 1.500, 3|2.000, 0|0.000, 0|0.000, 0|0.000\n"
        "  10, trx: 3, 95%: 1.250, 99%: 1.500, max_rt: 1.500, 3|2.000, 0|0.000, 0|0.000, 0|0.000\n"
    )
    got, _ = parse(text.encode())
    assert np.isnan(got[("lat_ms", "95")][1][0]) and np.isnan(got[("lat_ms", "99")][1][0])
    assert list(got[("lat_ms", "max")][1]) == [1.5, 1.5] and got[("lat_ms", "95")][1][1] == 1.25


# ---- ramp-up, runs, meta -----------------------------------------------------------------------


def test_times_start_with_the_ramp_up() -> None:
    """tpcc_start prints seconds since MEASURING START; the load began [rampup] seconds earlier."""
    got, ctx = parse((TP / "tpcc_old-rt90_handwritten.txt").read_bytes())
    assert list(got[("trx", "")][0]) == [40.0, 50.0, 60.0, 70.0, 80.0, 90.0]  # printed 10..60, ramp-up 30
    assert ctx.meta.tpcc_runs[0].rampup == 30 and ctx.meta.log_runs == [(0.0, 90.0)]
    assert ctx.meta.timing is Timing.RELATIVE and ctx.meta.last_relative == 90.0
    assert any("ramp-up" in v for v in ctx.variant)


def test_without_a_ramp_up_line_times_are_as_printed_with_a_warning() -> None:
    text = "MEASURING START.\n\n  10, trx: 5, 95%: 1.000, 99%: 2.000, max_rt: 3.000, 5|1.0, 1|1.0, 1|1.0, 1|1.0\n"
    got, ctx = parse(text.encode())
    assert list(got[("trx", "")][0]) == [10.0]
    assert [str(w) for w in ctx.warnings] == [
        "line 3: no ramp-up line before the first report: times taken as printed (from MEASURING START)"
    ]


def test_two_runs_in_one_log_are_placed_back_to_back() -> None:
    got, ctx = parse((TP / "tpcc_step-load-two-runs_handwritten.txt").read_bytes())
    t, thds = got[("thds", "")]
    assert list(thds) == [4.0] * 6 + [8.0] * 6
    assert np.all(np.diff(t) > 0)
    assert t[5] == 35.0 and t[6] == 35.0 + 5 + 5  # the second run starts where the first ended, then ramp-up
    assert ctx.meta.log_runs == [(0.0, 35.0), (35.0, 70.0)]
    runs = ctx.meta.tpcc_runs
    assert [r.threads for r in runs] == [4, 8] and ctx.meta.threads == 4
    assert [r.tpmc for r in runs] != [runs[0].tpmc] * 2


def test_times_going_back_without_a_header_start_a_new_run() -> None:
    line = "{t:4d}, trx: 10, 95%: 1.000, 99%: 2.000, max_rt: 3.000, 10|1.000, 1|1.000, 1|1.000, 1|1.000\n"
    text = "[rampup]: 5 (sec.)\n" + "".join(line.format(t=t) for t in (10, 20, 10, 20))
    got, ctx = parse(text.encode())
    assert list(got[("trx", "")][0]) == [15.0, 25.0, 40.0, 50.0]
    assert ctx.meta.log_runs == [(0.0, 25.0), (25.0, 50.0)]


@pytest.mark.parametrize("path", PLAIN, ids=lambda p: p.name)
def test_header_and_summary_go_to_meta_and_the_password_never_does(path: Path) -> None:
    text = path.read_text()
    _, ctx = parse(path.read_bytes())
    meta = ctx.meta
    run = meta.tpcc_runs[0]
    lines = [ln.strip() for ln in text.splitlines()]
    first: dict[str, str] = {}  # the first run's header
    for ln in lines:
        if ln.startswith("[") and "]:" in ln:
            first.setdefault(ln.split(":")[0], ln.split(":", 1)[1].strip())
    assert meta.threads == int(first["[connection]"]) and meta.warehouses == int(first["[warehouse]"])
    assert run.rampup == int(first["[rampup]"].split()[0]) and run.measure == int(first["[measure]"].split()[0])
    tpmc = [float(ln.split()[0]) for ln in lines if ln.endswith("TpmC")]
    assert meta.tpmc == tpmc[0]
    # TpmC is 60 x the New-Order count over the measure: the sum of the first run's `trx`
    reports = [r for r in raw_reports(path) if r["run"] == 0]
    if "elided" not in path.name:  # lines left out of the log are still in its totals
        assert tpmc[0] == sum(r["trx"] for r in reports) * 60 / run.measure
        trx = sum(r["trx"] for r in reports)
        assert run.raw_results["New-Order"]["sc"] + run.raw_results["New-Order"]["lt"] == trx
    password = first["[pass]"]
    if password:
        assert password not in repr(meta)


def test_a_log_pasted_into_markdown_keeps_its_thread_count() -> None:
    """Issue 22: a tpcc_start log exported from a blog to markdown has `\\[connection]: 10`,
    `\\*\\*\\*` banners and `&lt;Raw Results2(sum ver.)>`: the header was not read, so the thread
    count (and warehouses, raw results) were lost. Unescaped, it reads as the plain log would."""
    text = MARKDOWN.read_text()
    assert "\\[connection]: 10" in text
    plain = text.replace("\\[", "[").replace("\\*", "*").replace("&lt;", "<")
    got, ctx = parse(MARKDOWN.read_bytes())
    want, plain_ctx = parse(plain.encode())
    assert got.keys() == want.keys()
    for key in want:
        assert np.array_equal(got[key][0], want[key][0]) and np.array_equal(got[key][1], want[key][1], equal_nan=True)
    assert got[("thds", "")][1].tolist() == [10.0, 10.0] and ctx.meta.threads == 10 and ctx.meta.warehouses == 1
    run = ctx.meta.tpcc_runs[0]
    assert run == plain_ctx.meta.tpcc_runs[0] and run.tpmc == 4086.0 and run.constraints_ok is True
    assert run.raw_results["New-Order"]["sc"] == 1362 == 686 + 676  # the interval lines' New-Order sum
    assert run.tpmc == 1362 * 60 / 20 and "123456" not in repr(ctx.meta)
    assert got[("lat_ms", "90")][1].tolist() == [2.044, 1.508] and got[("tps", "")][1].tolist() == [68.6, 67.6]
    assert "pasted into markdown (\\[ \\* &lt; unescaped)" in ctx.variant and ctx.warnings == []


def test_in_a_run_folder_the_ramp_up_starts_at_the_load_onset(tmp_path: Path) -> None:
    """A tpcc log next to vmstat is placed so that the ramp-up starts where CPU busy rises: its
    first report sits ramp-up + printed seconds later."""
    folder = tmp_path / "run"
    shutil.copytree(FIXTURES / "runs" / "c_basic", folder)
    line = "{t:4d}, trx: {n}, 95%: 1.000, 99%: 2.000, max_rt: 3.000, {n}|1.0, 9|1.0, 9|1.0, 9|1.0\n"
    body = "".join(line.format(t=t, n=100 + t) for t in range(1, 5))
    (folder / "tpcc.log").write_text(f"[connection]: 4\n[rampup]: 1 (sec.)\nMEASURING START.\n\n{body}")
    with Library(tmp_path / "lib.sqlite") as lib:
        rep = import_path(lib, folder, Options(tz="UTC"))
        src = next(s for s in rep.sources if s.format == "tpcc")
        assert "load onset" in src.clock
        info = next(s for s in lib.series(rep.id) if s.format == "tpcc" and s.metric == "tps")
        t, tps = lib.load(info)
        assert list(tps) == [101.0, 102.0, 103.0, 104.0]
        assert t[0] == lib.run(rep.id).bench_start + 1 + 1  # ramp-up 1 s + printed 1 s


# ---- bad input ---------------------------------------------------------------------------------


def test_garbage_lines_are_warned_with_their_line_number_and_the_rest_survives() -> None:
    path = TP / "tpcc_percona-trx_handwritten.txt"
    lines = path.read_text().splitlines()
    k = next(i for i, ln in enumerate(lines) if "trx:" in ln)
    bad = [*lines[: k + 1], "  20, trx: 12644, 95%: 7.698, 99%", "%%%% garbage %%%%", *lines[k + 1 :]]
    got, ctx = parse(("\n".join(bad) + "\n").encode())
    want, _ = parse(path.read_bytes())
    assert set(got) == set(want)
    for key, (t, v) in want.items():
        assert np.array_equal(got[key][0], t) and np.array_equal(got[key][1], v, equal_nan=True)
    assert [str(w) for w in ctx.warnings] == [
        f"line {k + 2}: unreadable interval line: '20, trx: 12644, 95%: 7.698, 99%'"
    ]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_truncated_anywhere_never_raises_nor_invents(path: Path) -> None:
    assert_every_cut_is_a_prefix(tpcc, path.read_bytes())


@pytest.mark.parametrize(
    "raw",
    [
        b"\n\n",
        b"\x00\x01\x02garbage\n",
        b"  10, trx: x\n",
        b"  10, 5(0):\n",
        b"<TpmC>\n  nan TpmC\n",
        b"[rampup]: lots\n[connection]:\n",
        "  10, trx: 1, 95%: 1.0, 99%: 1.0, max_rt: 1.0, 1|1.0, 1|1.0, 1|1.0, 1|\u00e9\n".encode(),
    ],
)
def test_hostile_input_never_raises(raw: bytes) -> None:
    got, ctx = parse(raw)
    assert got == {} and ctx.warnings
    assert all(w.line is not None or w.text == "no tpcc interval lines found" for w in ctx.warnings)


def test_zero_length_intervals_are_skipped() -> None:
    line = "   0, trx: 1, 95%: 1.000, 99%: 2.000, max_rt: 3.000, 1|1.000, 1|1.000, 1|1.000, 1|1.000\n"
    got, ctx = parse(b"[rampup]: 0 (sec.)\n" + line.encode())
    assert got == {} and str(ctx.warnings[0]).startswith("line 2: interval line at 0 s has no length")


# ---- detection ---------------------------------------------------------------------------------

OTHER_IMPORTERS = (vmstat, iostat, mpstat, sysbench, innodb_status, dbstress)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_sniff_claims_every_fixture_and_nobody_else_does(path: Path) -> None:
    head = head_of(path)
    assert tpcc.sniff(head) == 0.95
    for other in OTHER_IMPORTERS:
        assert other.sniff(head) < 0.5, other.name


def test_sniff_refuses_other_formats() -> None:
    others = fixture_files("vmstat", "iostat", "mpstat", "sysbench", "dbstress")
    assert len(others) > 20
    for path in others:
        assert tpcc.sniff(head_of(path)) < 0.5, path.name


def test_banner_alone_is_enough_to_claim_a_log_cut_before_its_first_report() -> None:
    head = (TP / "tpcc_percona-trx_handwritten.txt").read_text().split("MEASURING START")[0]
    assert tpcc.sniff(head) == 0.9


# ---- goldens -----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_fixture_matches_golden(path: Path) -> None:
    got = golden.check(tpcc, path)
    assert got["series"] and bool(got["warnings"]) == ("elided" in path.name)


def test_rates_are_per_report_interval_across_elided_lines() -> None:
    """Issue 13: after elided lines (`  20, …` then `  60, …`) tps was the count over the 40 s gap
    (498 / 40); tpcc_start's counts are per report interval (10 s here). The gap is warned."""
    path = FIXTURES / "tpcc" / "tpcc_old-rt90-elided-lines_handwritten.txt"
    got, ctx = parse_series(tpcc, path.read_bytes())
    t, tps = got[("tps", "")]
    assert (t - t[0]).tolist() == [0.0, 10.0, 50.0]  # 10, 20, 60 s after MEASURING START
    assert tps.tolist() == [43.4, 46.1, 49.8] and got[("trx", "")][1].tolist() == [434, 461, 498]
    assert [str(w) for w in ctx.warnings if w.kind == "time"] == [
        "line 29: 40 s since the previous report, whose interval is 10 s: about 3 report(s) missing "
        "(elided or lost lines); rates are per interval"
    ]
