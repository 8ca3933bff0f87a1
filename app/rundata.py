"""The one way to a run's series: `LibraryRunData` implements app.model.RunData over a library,
each run's series list, each loaded series and each run's source metadata read once. The CLI,
summaries, export, drops and ingest use it; the window's Session holds one and clears it when the
library changes (invalidate).

A run without a benchmark's throughput gets the server's own (`server:tps`, commits + rollbacks
per second, app/analysis/server_rate.py) as a series like the stored ones, made from them when
first read."""

from __future__ import annotations

import numpy as np

from benchlens.app.analysis import imbalance, server_rate
from benchlens.app.analysis.layout import THROUGHPUT_FORMATS, command
from benchlens.app.model import Annotation, Run, SeriesInfo, SeriesRef
from benchlens.app.store import Library
from benchlens.importers._types import SourceMeta

ALONE = 2  # entities of a metric read one by one before the rest of them are read in one batch


class LibraryRunData:
    def __init__(self, lib: Library) -> None:
        self.lib = lib
        self._runs: dict[int, Run] | None = None
        self._series: dict[int, dict[SeriesRef, SeriesInfo]] = {}
        self._data: dict[tuple[int, SeriesRef], tuple[np.ndarray, np.ndarray] | None] = {}
        self._meta: dict[int, list[tuple[str, SourceMeta]]] = {}
        self.commands: dict[tuple[int, SeriesRef], str] = {}  # a command's processes (with PIDs) per run
        self._made: dict[tuple[int, SeriesRef], SeriesInfo | None] = {}  # pidstat series by command
        self._alone: dict[tuple[int, str, str], int] = {}  # (run, format, metric): entities read alone

    def invalidate(self) -> None:
        """Forget everything read (runs were imported, renamed or deleted)."""
        self._runs = None
        self._series.clear()
        self._data.clear()
        self._meta.clear()
        self.commands.clear()
        self._made.clear()
        self._alone.clear()

    # ---- runs -----------------------------------------------------------------------------------
    def runs(self) -> list[Run]:
        """Every run of the library, in the library's order (start time)."""
        if self._runs is None:
            self._runs = {r.id: r for r in self.lib.runs()}
        return list(self._runs.values())

    def run_ids(self) -> list[int]:
        return [r.id for r in self.runs()]

    def run(self, run_id: int) -> Run:
        self.runs()
        assert self._runs is not None
        if run_id not in self._runs:
            return self.lib.run(run_id)  # a run imported since: the library says if it exists
        return self._runs[run_id]

    def annotations(self, run_id: int) -> list[Annotation]:
        return self.lib.annotations(run_id)  # never cached: the user edits them

    # ---- series ---------------------------------------------------------------------------------
    def series(self, run_id: int) -> dict[SeriesRef, SeriesInfo]:
        """The run's series by reference."""
        if run_id not in self._series:
            stored = {s.ref: s for s in self.lib.series(run_id)}
            self._series[run_id] = stored
            server = self._server_throughput(run_id, stored)
            if server is not None:
                stored[server.ref] = server
        return self._series[run_id]

    def _server_throughput(self, run_id: int, stored: dict[SeriesRef, SeriesInfo]) -> SeriesInfo | None:
        """server:tps for a run that has no benchmark throughput and the counters to make it of."""
        if any(SeriesRef(f, "tps") in stored for f in THROUGHPUT_FORMATS):
            return None
        made = server_rate.derive(stored, lambda ref: self.data(run_id, ref))
        if made is None:
            return None
        cand, t, v = made
        self._data[(run_id, server_rate.SERVER_TPS)] = (t, v)
        first = stored[cand.parts[0]]
        ref = server_rate.SERVER_TPS
        # id -1: not a stored series; loading it is never asked of the library (data() has it)
        return SeriesInfo(
            -1, first.source_id, ref.format, ref.metric, ref.entity, "1/s", len(t), float(t[0]), float(t[-1])
        )

    def available(self, run_id: int) -> list[SeriesRef]:
        return list(self.series(run_id))

    def info(self, run_id: int, ref: SeriesRef) -> SeriesInfo | None:
        got = self.series(run_id).get(ref)
        if got is None and imbalance.parts(ref):  # a CPU's %busy or %intr (issue #25)
            if (run_id, ref) not in self._made:
                self._made[(run_id, ref)] = self._per_cpu(run_id, ref)
            return self._made[(run_id, ref)]
        if got is not None or ref.format != "pidstat":
            return got
        if (run_id, ref) not in self._made:
            self._made[(run_id, ref)] = self._by_command(run_id, ref)
        return self._made[(run_id, ref)]

    def _per_cpu(self, run_id: int, ref: SeriesRef) -> SeriesInfo | None:
        """A CPU's busy share or interrupt share, made from its stored shares when first asked."""
        made = imbalance.make(ref, lambda part: self.data(run_id, part))
        if made is None:
            return None
        self._data[(run_id, ref)] = made
        first = self.series(run_id)[imbalance.parts(ref)[0]]
        return SeriesInfo(
            -1,
            first.source_id,
            ref.format,
            ref.metric,
            ref.entity,
            "%",
            len(made[0]),
            float(made[0][0]),
            float(made[0][-1]),
        )

    def _by_command(self, run_id: int, ref: SeriesRef) -> SeriesInfo | None:
        """pidstat's processes of one command (`mariadbd`, whatever its PID in this run), summed:
        how a comparison matches them across runs (layout.command). Made when first asked."""
        stored = self.series(run_id)
        same = [
            s
            for r, s in stored.items()
            if r.format == "pidstat" and r.metric == ref.metric and command(r.entity) == ref.entity
        ]
        if not same or not ref.entity:
            return None
        parts = [d for s in same if (d := self.data(run_id, s.ref)) is not None and len(d[0])]
        if not parts:
            return None
        t = np.unique(np.concatenate([p[0] for p in parts]))
        total, seen = np.zeros(len(t)), np.zeros(len(t), bool)
        for pt, pv in parts:
            at, ok = np.searchsorted(t, pt), np.isfinite(pv)
            np.add.at(total, at[ok], pv[ok])
            seen[at[ok]] = True
        self._data[(run_id, ref)] = (t, np.where(seen, total, np.nan))
        self.commands[(run_id, ref)] = ", ".join(sorted(s.entity for s in same))
        first = same[0]
        return SeriesInfo(-1, first.source_id, "pidstat", ref.metric, ref.entity, first.unit, len(t), t[0], t[-1])

    def unit(self, run_id: int, ref: SeriesRef) -> str:
        info = self.info(run_id, ref)
        return info.unit if info is not None else ""

    def data(self, run_id: int, ref: SeriesRef) -> tuple[np.ndarray, np.ndarray] | None:
        """Times (epoch s) and values of a series, None when the run does not have it."""
        key = (run_id, ref)
        if key not in self._data:
            info = self.info(run_id, ref)
            if key not in self._data:  # else made by info (a pidstat command's processes)
                self._load(run_id, ref, info)
        return self._data[key]

    def _load(self, run_id: int, ref: SeriesRef, info: SeriesInfo | None) -> None:
        """A stored series. Past ALONE entities of one metric read one at a time, the next one asked
        is a sweep over the CPUs or devices (the hot core, a heatmap, the devices' ratings): the
        entities of that metric not read yet come with it, in one batch (Library.load_many: 257
        CPUs in about half the time of one query each). `all` and the hot CPU's share (what the
        CPU panel shows) are read alone."""
        if info is None:
            self._data[(run_id, ref)] = None
            return
        metric = (run_id, ref.format, ref.metric)
        todo = {ref: info}
        if self._alone.get(metric, 0) >= ALONE:
            todo |= {
                r: s
                for r, s in self.series(run_id).items()
                if (r.format, r.metric) == metric[1:] and s.id >= 0 and (run_id, r) not in self._data
            }
        self._alone[metric] = self._alone.get(metric, 0) + 1
        got = self.lib.load_many(list(todo.values()))
        self._data.update(zip(((run_id, r) for r in todo), got, strict=True))

    def source_meta(self, run_id: int, fmt: str) -> list[SourceMeta]:
        """What the importer recorded of each source file of this format (path order)."""
        if run_id not in self._meta:
            self._meta[run_id] = [(s.format, s.meta) for s in self.lib.sources(run_id)]
        return [m for f, m in self._meta[run_id] if f == fmt]
