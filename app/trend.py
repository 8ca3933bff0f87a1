"""The trend across runs (`benchlens trend`, View > Trend, the report's trend chart): one point
per run, grouped by what makes runs comparable, ordered by run start, with the change points of
each group (app/analysis/changepoints.py).

A point is a statistic (median by default; mean, p95, p99) of one series over the run's steady
state (app/analysis/runstats.py). The default series is the run's throughput: its benchmark
log's tps, else the server's own (`server:tps`); `--metric SPEC` names another. Each run's
summary is computed once, at import (`summarize_run`), and stored with the facts that group it
(benchmark, its load-shaping options, threads, host); a run imported before that, or a metric not
asked for before, is summarised on first use and stored, so a trend over 10,000 runs reads one
row per run (bench/trend_speed.py).

Marks (kept in the library with who set them): a run left out is not a point; a known shift
splits its group's history there (each part is searched for change points on its own, and the
shift itself is listed with `known`).

`trend_data(lib, ...)` returns the JSON of `benchlens trend --json`: the one function the CLI,
the window and the report draw from."""

from __future__ import annotations

import itertools
import math
from collections.abc import Collection
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import numpy as np

from benchlens.app.analysis.changepoints import detect
from benchlens.app.analysis.layout import THROUGHPUT_FORMATS
from benchlens.app.analysis.runstats import STATS, higher_is_better, run_stats
from benchlens.app.errors import BenchlensError
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library, LibraryError
from benchlens.app.store.trend_tables import SummaryRow

THROUGHPUT = "throughput"  # the default metric: each run's own throughput series
DEFAULT_GROUP = ("benchmark", "options", "threads", "host")
THREAD_SERIES = ("thds", "threads")  # a benchmark log's thread count (sysbench's `thds`)


class TrendError(BenchlensError):
    pass


def metric_ref(data: LibraryRunData, run_id: int, metric: str) -> SeriesRef | None:
    """The series a run's point is made of: its throughput, or the series SPEC names."""
    have = data.series(run_id)
    if metric != THROUGHPUT:
        ref = SeriesRef.parse(metric)
        return ref if ref in have else None
    return next((SeriesRef(f, "tps") for f in THROUGHPUT_FORMATS if SeriesRef(f, "tps") in have), None)


def facts(data: LibraryRunData, run_id: int, ref: SeriesRef | None) -> dict[str, Any]:
    """What makes runs comparable: the benchmark, the options that shape its load (the recorded
    command line, app/analysis/config.py), its thread count, the host."""
    run = data.run(run_id)
    options = sorted(
        f"{s.name.split(' ', 1)[-1]}={s.value}"
        for m in data.source_meta(run_id, "config")
        for s in m.settings
        if s.scope == "benchmark"
    )
    threads = None
    found = (data.data(run_id, SeriesRef(ref.format, m)) for m in THREAD_SERIES) if ref is not None else iter(())
    thr = next((d for d in found if d is not None), None)
    if thr is not None and np.isfinite(thr[1]).any():
        threads = int(np.nanmedian(thr[1]))
    elif ref is not None and (tpcc := data.source_meta(run_id, "tpcc")) and tpcc[0].threads is not None:
        threads = int(tpcc[0].threads)
    return {
        "benchmark": ref.format if ref is not None else None,
        "options": " ".join(o for o in options if not o.startswith("threads=")) or None,
        "threads": threads,
        "host": run.host,
        "series": ref.spec() if ref is not None else None,
    }


def summarize_run(
    data: LibraryRunData, run_id: int, metric: str = THROUGHPUT
) -> tuple[int, str, int, dict[str, float], dict[str, Any]]:
    """(run id, metric, n, {stat: value}, facts): the row the library keeps for a run."""
    ref = metric_ref(data, run_id, metric)
    run = data.run(run_id)
    got = data.data(run_id, ref) if ref is not None else None
    stats = run_stats(got[0], got[1], (run.bench_start, run.bench_end)) if got is not None else None
    values = {s: stats.get(s) if stats is not None else math.nan for s in STATS}
    return run_id, metric, stats.n if stats is not None else 0, values, facts(data, run_id, ref)


def on_import(lib: Library, run_id: int, record: dict[str, Any] | None) -> None:
    """Inside an import's transaction: the tags its benchlens-run.json gives, and its summary."""
    tags = record.get("tags") if record else None
    if isinstance(tags, dict) and tags:
        lib.put_tags(run_id, tags)
    lib.put_summary(*summarize_run(LibraryRunData(lib), run_id))


@dataclass
class Group:
    key: dict[str, Any]
    metric: str
    points: list[dict[str, Any]] = field(default_factory=list)
    changes: list[dict[str, Any]] = field(default_factory=list)
    shifts: list[dict[str, Any]] = field(default_factory=list)
    left_out: list[dict[str, Any]] = field(default_factory=list)

    @property
    def better_up(self) -> bool:
        """Throughput is better higher, latency lower (by the metric's name, not its format or entity)."""
        return higher_is_better(self.metric.split(":")[1] if ":" in self.metric else THROUGHPUT)

    def as_json(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "metric": self.metric,
            "higher_is_better": self.better_up,
            "points": self.points,
            "changes": self.changes,
            "known_shifts": self.shifts,
            "left_out": self.left_out,
        }


def parse_since(text: str | None) -> float | None:
    """--since DATE: YYYY-MM-DD or an ISO 8601 time (UTC unless it says otherwise)."""
    if not text:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise TrendError(f"--since {text!r} is not a date (YYYY-MM-DD or YYYY-MM-DDTHH:MM)") from None
    return (when if when.tzinfo else when.replace(tzinfo=UTC)).timestamp()


def summaries(lib: Library, metric: str) -> list[SummaryRow]:
    """Every run's summary of `metric`, by run start; those missing computed now and stored. When
    they cannot be stored (a read-only library user; another client storing the same at the same
    moment) they are used as computed."""
    if metric != THROUGHPUT:
        try:
            SeriesRef.parse(metric)
        except ValueError as e:
            raise TrendError(f"--metric: {e}") from None
    have, missing = lib.summaries(metric)
    if not missing:
        return have
    data = LibraryRunData(lib)
    made = [summarize_run(data, rid, metric) for rid in missing]
    try:
        lib.save_summaries(made)
    except LibraryError:
        runs = {r.id: r for r in data.runs()}
        have += [
            SummaryRow(rid, runs[rid].name, runs[rid].start, runs[rid].host, n, st, f) for rid, _, n, st, f in made
        ]
        return sorted(have, key=lambda r: (r.start is None, r.start or 0.0, r.run_id))
    return lib.summaries(metric)[0]


def trend_data(
    lib: Library,
    metric: str = THROUGHPUT,
    stat: str = "median",
    group_by: list[str] | None = None,
    since: float | None = None,
    runs: Collection[int] | None = None,
) -> dict[str, Any]:
    """The trend as `benchlens trend --json` prints it (README: Trend); `runs`: of these runs only
    (their own change points: a report's runs)."""
    if stat not in STATS:
        raise TrendError(f"--stat is one of {', '.join(STATS)}")
    keys = list(group_by) if group_by else list(DEFAULT_GROUP)
    tags = lib.tags()
    marks = lib.marks()
    out_runs = {m.run_id: m for m in marks if m.kind == "out"}
    shift_runs = {m.run_id: m for m in marks if m.kind == "shift"}
    groups: dict[tuple[Any, ...], Group] = {}
    for row in summaries(lib, metric):
        value = row.stats.get(stat)
        if row.n == 0 or value is None or (since is not None and (row.start is None or row.start < since)):
            continue
        if runs is not None and row.run_id not in runs:
            continue
        run_tags = tags.get(row.run_id, {})
        key = {k: run_tags.get(k, row.facts.get(k)) for k in keys}
        group = groups.setdefault(tuple(str(v) for v in key.values()), Group(key, row.facts.get("series") or metric))
        point = {"run": row.name, "id": row.run_id, "time": row.start, "value": value, "tags": run_tags}
        if row.run_id in out_runs:
            group.left_out.append({**point, "by": out_runs[row.run_id].author})
            continue
        group.points.append(point)
    for group in groups.values():
        _changes(group, shift_runs)
    return {
        "metric": metric,
        "stat": stat,
        "group_by": keys,
        "groups": [g.as_json() for g in groups.values() if g.points],
    }


def _changes(group: Group, shift_runs: dict[int, Any]) -> None:
    """Change points of each stretch between known shifts."""
    values = np.array([p["value"] for p in group.points], np.float64)
    cuts = [i for i, p in enumerate(group.points) if p["id"] in shift_runs and i > 0]
    better_up = group.better_up
    bounds = [0, *cuts, len(values)]
    for a, b in itertools.pairwise(bounds):
        for cp in detect(values[a:b]):
            i = a + cp.index
            up = cp.after > cp.before
            group.changes.append(
                {
                    "run": group.points[i]["run"],
                    "id": group.points[i]["id"],
                    "index": i,
                    "before": cp.before,
                    "after": cp.after,
                    "change": cp.change if math.isfinite(cp.change) else None,
                    "p": cp.p,
                    "kind": "improvement" if up == better_up else "regression",
                    "previous": group.points[i - 1]["run"],
                }
            )
    for i in cuts:
        mark = shift_runs[group.points[i]["id"]]
        group.shifts.append({"run": group.points[i]["run"], "id": group.points[i]["id"], "index": i, "by": mark.author})
