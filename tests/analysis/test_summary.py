"""Summaries: statistics over a window (the whole run, a zoom, offsets, side by side), B vs A and
their renderings (text, Markdown, CSV, JSON). Values are checked against numpy on the raw captures
read naively here (tests/naive.py and the small reader below)."""

from __future__ import annotations

import csv
import io
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.analysis.summary import Stats, Window, change, render, series_refs, summarize
from benchlens.app.analysis.tables import Column, Table, fmt, to_csv, to_markdown, to_text
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests import naive
from tests.conftest import DEMO, STEP_LOGS, assert_stats, numpy_stats, rid, stats_of


def sysbench_tps(path: Path) -> list[float]:
    return [float(x) for x in re.findall(r"\btps: ([\d.]+)", path.read_text())]


# ---- statistics on real captures ----------------------------------------------------------------
def test_whole_run_statistics_equal_numpy_on_the_raw_captures(summary_lib: Library) -> None:
    data = LibraryRunData(summary_lib)
    for name in ("baseline", "disk-stall"):
        run = rid(summary_lib, name)
        raw = naive.vmstat_t(DEMO / name / "vmstat.log")
        raw.update(naive.iostat_xt(DEMO / name / "iostat.log"))
        refs = [SeriesRef("vmstat", "us"), SeriesRef("vmstat", "wa"), SeriesRef("iostat", "%util", "vda")]
        refs += [SeriesRef("iostat", "w_await", "vda"), SeriesRef("sysbench", "tps")]
        s = summarize(data, [run], Window(), refs)
        for ref in refs[:-1]:
            assert_stats(stats_of(s, run, ref), numpy_stats([v for _, v in raw[(ref.format, ref.metric, ref.entity)]]))
        assert_stats(
            stats_of(s, run, SeriesRef("sysbench", "tps")), numpy_stats(sysbench_tps(DEMO / name / "sysbench.log"))
        )


def test_gaps_are_not_counted(summary_lib: Library) -> None:
    """A server restart between two InnoDB mutex snapshots leaves a gap (NaN) in the rates."""
    run = rid(summary_lib, "mutex56")
    ref = SeriesRef("innodb_mutex", "os_waits", "&log_sys->mutex")
    _t, v = summary_lib.load(summary_lib.find_series(run, ref.format, ref.metric, ref.entity))
    assert np.isnan(v).sum() == 1 and len(v) == 4
    got = stats_of(summarize(LibraryRunData(summary_lib), [run], Window(), [ref]), run, ref)
    assert got.n == 3
    assert_stats(got, numpy_stats(v))
    assert math.isfinite(got.mean) and got.mean == pytest.approx(float(np.mean(v[np.isfinite(v)])))
    empty = Stats.of(np.array([np.nan, np.nan]))
    assert empty.n == 0 and math.isnan(empty.mean) and math.isnan(empty.p95)


@pytest.mark.parametrize("align", ["run", "bench", "absolute"])
def test_a_zoomed_window_is_the_numpy_statistic_of_the_slice(summary_lib: Library, align: str) -> None:
    name = "disk-stall"
    run = summary_lib.run(name)
    raw = naive.iostat_xt(DEMO / name / "iostat.log")[("iostat", "%util", "vda")]
    t = np.array([p[0] for p in raw])
    v = np.array([p[1] for p in raw])
    base = {"run": run.start, "bench": run.bench_start, "absolute": 0.0}[align]
    x = t - base  # the samples on the comparison's axis in this alignment
    k0, k1 = int(np.searchsorted(x, x[0] + 38)), int(np.searchsorted(x, x[0] + 60))
    x0, x1 = (x[k0 - 1] + x[k0]) / 2, (x[k1 - 1] + x[k1]) / 2  # between samples: no rounding at the edges
    ref = SeriesRef("iostat", "%util", "vda")
    data = LibraryRunData(summary_lib)
    zoomed = stats_of(summarize(data, [run.id], Window(x0, x1, align), [ref]), run.id, ref)
    whole = stats_of(summarize(data, [run.id], Window(align=align), [ref]), run.id, ref)
    sel = (x >= x0) & (x <= x1)
    assert sel.sum() == k1 - k0 == 22
    assert_stats(zoomed, numpy_stats(v[sel]))
    assert_stats(whole, numpy_stats(v))
    assert zoomed.n < whole.n and zoomed.mean != pytest.approx(whole.mean)


def test_offsets_and_side_by_side_move_each_runs_window(summary_lib: Library) -> None:
    a, b = rid(summary_lib, "baseline"), rid(summary_lib, "disk-stall")
    data = LibraryRunData(summary_lib)
    ref = SeriesRef("sysbench", "tps")
    runs = [summary_lib.run(a), summary_lib.run(b)]
    plain = Window(40.0, 70.0)
    shifted = Window(40.0, 70.0, offsets={b: 10.0})
    assert shifted.t_range(runs, b)[0] == pytest.approx(plain.t_range(runs, b)[0] - 10.0)
    assert shifted.t_range(runs, a) == plain.t_range(runs, a)
    t, v = summary_lib.load(summary_lib.find_series(b, "sysbench", "tps", ""))
    lo, hi = shifted.t_range(runs, b)
    got = stats_of(summarize(data, [a, b], shifted, [ref]), b, ref)
    assert_stats(got, numpy_stats(v[(t >= lo) & (t <= hi)]))
    # side by side: B follows A on the axis, so a window over A's stretch holds nothing of B
    side = Window(0.0, 60.0, side_by_side=True)
    s = summarize(data, [a, b], side, [ref])
    assert stats_of(s, a, ref).n > 50 and stats_of(s, b, ref).n == 0
    assert to_text(s.tables()).count("–") >= 5  # B's empty statistics read as dashes


# ---- B vs A ----------------------------------------------------------------------------------
def test_b_vs_a_differences_in_percent(summary_lib: Library) -> None:
    a, b = rid(summary_lib, "baseline"), rid(summary_lib, "disk-stall")
    refs = [SeriesRef("sysbench", "tps"), SeriesRef("iostat", "%util", "vda"), SeriesRef("iostat", "r/s", "vda")]
    s = summarize(LibraryRunData(summary_lib), [a, b], Window(35.0, 65.0), refs)
    diff = next(t for t in s.tables() if t.key == "diff")
    cols = [c.name for c in diff.columns]
    assert cols[:5] == ["series", "unit", "mean A", "mean B", "Δ mean"]
    tps = next(r for r in diff.rows if r[0] == "sysbench:tps")
    raw = {}
    for run, name in ((a, "baseline"), (b, "disk-stall")):
        t, v = summary_lib.load(summary_lib.find_series(run, "sysbench", "tps", ""))
        lo, hi = s.window.t_range([summary_lib.run(a), summary_lib.run(b)], run)
        raw[name] = v[(t >= lo) & (t <= hi)]
    for stat, fn in (("mean", np.mean), ("median", np.median), ("p95", lambda x: np.percentile(x, 95))):
        va, vb = float(fn(raw["baseline"])), float(fn(raw["disk-stall"]))
        k = cols.index(f"Δ {stat}")
        assert tps[k - 2] == pytest.approx(va) and tps[k - 1] == pytest.approx(vb)
        assert tps[k] == pytest.approx((vb - va) / va * 100)
    assert tps[cols.index("Δ mean")] < -15  # the disk stall cost throughput in this window
    util = next(r for r in diff.rows if r[0] == "iostat:%util:vda")
    assert util[cols.index("Δ p95")] > 100
    reads = next(r for r in diff.rows if r[0] == "iostat:r/s:vda")  # no reads in either run: 0 -> 0
    assert reads[cols.index("mean A")] == 0 and reads[cols.index("Δ mean")] == 0.0


def test_change_when_a_is_zero_negative_or_missing() -> None:
    assert change(200.0, 150.0) == pytest.approx(-25.0)
    assert change(-2.0, -1.0) == pytest.approx(50.0)  # relative to |A|: towards zero is up
    assert change(0.0, 0.0) == 0.0
    assert change(0.0, 3.0) == "A=0"
    assert change(math.nan, 3.0) is None and change(3.0, math.nan) is None
    assert fmt(change(0.0, 3.0), "pct") == "A=0" and fmt(None, "pct") == "–" and fmt(-12.345, "pct") == "-12.3 %"


def test_a_series_only_one_run_has_gets_no_difference(summary_lib: Library) -> None:
    a, b = rid(summary_lib, "recorded_mariadb_oltp"), rid(summary_lib, "baseline")
    ref = SeriesRef("innodb_status", "checkpoint_age")
    s = summarize(LibraryRunData(summary_lib), [a, b], Window(), [ref, SeriesRef("sysbench", "tps")])
    diff = next(t for t in s.tables() if t.key == "diff")
    row = next(r for r in diff.rows if r[0] == ref.spec())
    assert row[2] > 0 and math.isnan(row[3]) and row[4] is None  # mean A, mean B (none), no change
    text = to_text([diff])
    line = next(ln for ln in text.splitlines() if ln.startswith(ref.spec()))
    assert "–" in line


# ---- renderings ------------------------------------------------------------------------------
@pytest.fixture
def two_step_loads(summary_lib: Library):
    a, b = (rid(summary_lib, p.stem) for p in STEP_LOGS[:2])
    data = LibraryRunData(summary_lib)
    return summarize(data, [a, b], Window(), series_refs(data, [a, b]))


def split_md(line: str) -> list[str]:
    cells = re.split(r"(?<!\\)\|", line.strip())[1:-1]
    return [c.strip().replace("\\|", "|").replace("\\\\", "\\") for c in cells]


def test_markdown_parses_back_to_the_tables(two_step_loads) -> None:
    tables = two_step_loads.tables()
    assert {t.key for t in tables} >= {"stats", "diff", "steps", "steps-diff"}
    text = to_markdown(tables)
    blocks = [b for b in text.split("\n\n") if b.startswith("|")]
    assert len(blocks) == len(tables)
    for t, block in zip(tables, blocks, strict=True):
        lines = block.splitlines()
        assert split_md(lines[0]) == [c.name for c in t.columns]
        assert all(set(c) <= set(":-") for c in split_md(lines[1]))
        rows = [split_md(x) for x in lines[2:]]
        assert rows == [[fmt(v, c.kind) for v, c in zip(r, t.columns, strict=True)] for r in t.rows]
        assert f"**{t.title}**" in text


def test_markdown_escapes_pipes_in_names() -> None:
    t = Table("x", "T", [Column("wait", "text"), Column("v")], [["a|b", 1.5]])
    line = to_markdown([t]).splitlines()[4]
    assert split_md(line) == ["a|b", "1.50"]


def test_csv_parses_back_to_the_values(two_step_loads) -> None:
    tables = two_step_loads.tables()
    blocks = to_csv(tables).split("\n\n")
    assert len(blocks) == len(tables)
    for t, block in zip(tables, blocks, strict=True):
        rows = list(csv.reader(io.StringIO(block)))
        assert rows[0] == [t.title] and rows[1] == [c.name for c in t.columns]
        for got, want in zip(rows[2:], t.rows, strict=True):
            for cell, value in zip(got, want, strict=True):
                if value is None or (isinstance(value, float) and math.isnan(value)):
                    assert cell == ""
                elif isinstance(value, (int, float)):
                    assert float(cell) == pytest.approx(value, rel=1e-11)
                else:
                    assert cell == value
    one = list(csv.reader(io.StringIO(to_csv(tables[:1]))))  # one table: header first, no title
    assert one[0] == [c.name for c in tables[0].columns] and len(one) == len(tables[0].rows) + 1


def test_text_columns_line_up(two_step_loads) -> None:
    tables = two_step_loads.tables()
    text = to_text(tables)
    for t, block in zip(tables, text.strip().split("\n\n"), strict=True):
        lines = block.splitlines()
        assert lines[0] == t.title
        rule = lines[2]
        starts = [m.start() for m in re.finditer(r"-+", rule)]
        assert len(starts) == len(t.columns)
        for row, values in zip(lines[3 : 3 + len(t.rows)], t.rows, strict=True):
            for start, end, v, c in zip(starts, [*starts[1:], None], values, t.columns, strict=True):
                assert row[start:end].strip() == fmt(v, c.kind)


def test_render_json_has_no_nan(summary_lib: Library) -> None:
    a, b = rid(summary_lib, "recorded_mariadb_oltp"), rid(summary_lib, "baseline")
    s = summarize(LibraryRunData(summary_lib), [a, b], Window(), [SeriesRef("innodb_status", "checkpoint_age")])
    text = render(s, "json")
    assert "NaN" not in text
    row = json.loads(text)["tables"][1]["rows"][0]
    assert row["mean B"] is None and row["Δ mean"] is None
