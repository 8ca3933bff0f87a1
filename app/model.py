"""The records every layer shares, Qt-free and store-free.

Words, one meaning each:
- *format*: the importer's name for a kind of file (`iostat`, `sysbench` ...; `FORMAT` on the CLI);
- *source*: one imported file of a run (the `sources` table), with its format, variant and warnings;
- *series*: one metric of one entity of a run (`SeriesRef` names it; `SeriesInfo` describes what is
  stored; several source files of one format give one series, e.g. pt-stalk's snapshot files).

`RunData` is what analysis, summaries and figures read of runs; app/rundata.py implements it over a
library (the CLI) and the window's Session wraps the same implementation.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np

from benchlens.importers._types import SourceMeta, SourceWarning

# The monitors whose metric names say what they are without their format in front.
_SYSTEM_FORMATS = ("vmstat", "iostat", "mpstat")


@dataclass(frozen=True, order=True)
class SeriesRef:
    """Which series: FORMAT:METRIC[:ENTITY] (entity empty for host-wide series)."""

    format: str
    metric: str
    entity: str = ""

    @classmethod
    def parse(cls, spec: str) -> SeriesRef:
        """'FORMAT:METRIC[:ENTITY]' (the entity may itself contain ':')."""
        parts = spec.split(":", 2)
        if len(parts) < 2 or not parts[0] or not parts[1]:
            raise ValueError(f"series {spec!r} is not SOURCE:METRIC[:ENTITY]")
        return cls(parts[0], parts[1], parts[2] if len(parts) == 3 else "")

    def spec(self) -> str:
        return f"{self.format}:{self.metric}" + (f":{self.entity}" if self.entity else "")

    def label(self) -> str:
        return f"{self.metric} {self.entity}".strip() if self.format in _SYSTEM_FORMATS else self.spec()


@dataclass(frozen=True)
class SeriesInfo:
    """One series of a run as stored. A run can hold several files of one format (pt-stalk's one
    file per snapshot, rotated logs): their series with the same metric and entity are one series
    here, `ids` lists the stored pieces and loading joins them in time order."""

    id: int
    source_id: int  # the first source file holding it
    format: str
    metric: str
    entity: str
    unit: str
    n: int
    start: float | None
    end: float | None
    ids: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.ids:
            object.__setattr__(self, "ids", (self.id,))

    @property
    def ref(self) -> SeriesRef:
        return SeriesRef(self.format, self.metric, self.entity)

    def joined(self, other: SeriesInfo) -> SeriesInfo:
        """This series and another piece of it (another file of the same format)."""
        starts = [x for x in (self.start, other.start) if x is not None]
        ends = [x for x in (self.end, other.end) if x is not None]
        return dataclasses.replace(
            self,
            n=self.n + other.n,
            start=min(starts) if starts else None,
            end=max(ends) if ends else None,
            ids=self.ids + other.ids,
        )


@dataclass(frozen=True)
class Run:
    """One imported run folder (times are epoch seconds, UTC)."""

    id: int
    name: str
    start: float | None
    end: float | None
    host: str | None
    kernel: str | None
    cpus: int | None
    folder: str
    tz: str | None
    notes: str
    bench_start: float | None
    bench_end: float | None
    sources: int  # how many source files

    def as_json(self) -> dict[str, Any]:
        """The shape of `benchlens runs --json`."""
        keys = ("id", "name", "start", "end", "bench_start", "bench_end", "host", "kernel", "cpus", "sources")
        return {k: getattr(self, k) for k in (*keys, "tz", "folder")}


RUN_COLUMNS = tuple(f.name for f in dataclasses.fields(Run))


@dataclass(frozen=True)
class SourceFile:
    """One imported file of a run: what it was, how its times were placed, what went wrong."""

    id: int
    path: str  # relative to the run folder
    sha256: str
    size: int
    mtime_ns: int
    format: str
    variant: str  # display only: how the file looked ("-t ISO times; decimal comma")
    clock: str  # display only: how its times were placed
    warnings: list[SourceWarning] = field(default_factory=list)
    meta: SourceMeta = field(default_factory=SourceMeta)


@dataclass(frozen=True)
class Annotation:
    """A manual note over a stretch of time, or the user's decision on a detected drop."""

    id: int
    run_id: int
    start: float
    end: float
    kind: str  # 'note' or 'drop'
    state: str  # for drops: '', 'accepted', 'dismissed'
    label: str
    author: str = ""  # who made it (the OS user by default)
    created: float | None = None  # when (epoch s)
    updated: float | None = None  # when it was last changed, and by whom
    updated_by: str = ""


class RunData(Protocol):
    """What analysis, summaries and figures read of runs (app/rundata.py reads it from a library,
    each series loaded once)."""

    def run(self, run_id: int) -> Run: ...

    def run_ids(self) -> list[int]: ...

    def available(self, run_id: int) -> list[SeriesRef]: ...

    def info(self, run_id: int, ref: SeriesRef) -> SeriesInfo | None: ...

    def unit(self, run_id: int, ref: SeriesRef) -> str: ...

    def data(self, run_id: int, ref: SeriesRef) -> tuple[np.ndarray, np.ndarray] | None: ...

    def source_meta(self, run_id: int, fmt: str) -> list[SourceMeta]: ...

    def annotations(self, run_id: int) -> list[Annotation]: ...
