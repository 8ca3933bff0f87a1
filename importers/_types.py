"""What importers produce and report: blocks of series sharing one time array, warnings as records
(line, kind, text), and what a file says about itself (SourceMeta: how it is timed, the host, the
benchmark's runs). No Qt, no sqlite3.

This is the contract between an importer and app/ingest.py: ingest decides how a file is placed in
time from `SourceMeta.timing` only. `Context.variant` is display text ("no timestamps", "decimal
comma"): nothing decides anything from it."""

from __future__ import annotations

import enum
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, TypeVar

import numpy as np


class ImportCancelled(Exception):
    """The progress callback asked to stop; the caller rolls back."""


class FormatError(Exception):
    """The file cannot be imported at all (one-line reason for the user)."""


@dataclass(frozen=True)
class Block:
    """Samples of several series of one entity taken at the same times (e.g. one iostat device).
    `t` are epoch seconds (UTC) once a clock is applied; `values[metric]` aligns with `t`."""

    entity: str
    t: np.ndarray
    values: dict[str, np.ndarray]


# ---- warnings -------------------------------------------------------------------------------------

WarningKind = Literal[
    "unreadable",
    "since_boot",
    "counter_reset",
    "truncated",
    "encoding",
    "format",
    "column",
    "time",
    "placement",
    "limit",
    "other",
]
# What each kind means, for a window that groups and counts the warnings of a file.
WARNING_KINDS: dict[str, str] = {
    "unreadable": "a line, row or value that could not be read: skipped (a value: no sample)",
    "since_boot": "the first report is the average since boot: dropped",
    "counter_reset": "a counter went down (restart, FLUSH, TRUNCATE): no rate there",
    "truncated": "the file, a result or a status was cut: its complete part kept",
    "encoding": "binary or non-UTF-8 bytes",
    "format": "content this format does not read: nothing found, another result, a failed statement",
    "column": "a column kept as printed, ignored or not read as times",
    "time": "a time the file prints is missing, unreadable or out of order",
    "placement": "how the file was placed in time without times of its own",
    "limit": "a limit was reached: a huge line skipped, more warnings or lines not shown",
    "other": "a warning stored by an older benchlens (text only)",
}
_LINE = re.compile(r"line (\d+): (.*)", re.S)


@dataclass(frozen=True)
class SourceWarning:
    """One warning about a file: its line (None: about the whole file), a kind from WARNING_KINDS,
    and the text. `str()` is the line shown to the user: `line 12: text` or `text`."""

    line: int | None
    kind: str
    text: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.text}" if self.line is not None else self.text

    def to_json(self) -> dict[str, Any]:
        return {"line": self.line, "kind": self.kind, "text": self.text}

    @classmethod
    def from_json(cls, d: object) -> SourceWarning:
        """A stored warning: a to_json() record, or the plain string of a library written before
        warnings were records ("line 3: first report ..." -> line 3, kind "other")."""
        if isinstance(d, Mapping):
            line = d.get("line")
            return cls(line if isinstance(line, int) else None, str(d.get("kind") or "other"), str(d.get("text", "")))
        text = str(d)
        if m := _LINE.fullmatch(text):
            return cls(int(m.group(1)), "other", m.group(2))
        return cls(None, "other", text)


# ---- what a file says about itself ----------------------------------------------------------------


class Timing(enum.Enum):
    """How a file's reports are placed in time (app/ingest.py decides from this alone)."""

    WALL = "wall"  # the file prints clock times
    INDEX = "index"  # no times: report k is placed at launch + k x interval by the folder clock
    RELATIVE = "relative"  # seconds since the benchmark started: placed from the folder's other files


@dataclass
class TpccRun:
    """Header and summary values of one tpcc_start run of a log (the `[pass]` is never kept)."""

    threads: int | None = None  # [connection]
    warehouses: int | None = None  # [warehouse]
    rampup: int | None = None  # seconds, [rampup] or RAMP-UP TIME
    measure: int | None = None  # seconds, [measure]
    port: int | None = None
    server: str | None = None
    database: str | None = None  # [dbname]
    interval: int | None = None  # `option i`, seconds between report lines
    tpmc: float | None = None  # <TpmC>
    raw_results: dict[str, dict[str, int]] = field(default_factory=dict)  # type -> {sc, lt, rt, fl}
    measured_s: float | None = None  # ` in N sec.`
    constraints_ok: bool | None = None  # every <Constraint Check> line [OK]


Span = tuple[float, float]


@dataclass(frozen=True)
class Setting:
    """One setting a file states: a my.cnf option (scope: its section, `mysqld` ...; an `!include`
    line has scope `include`), a `SHOW GLOBAL VARIABLES` row (scope `variables`), a benchmark option
    (`benchmark`), a recorded command (`command`, name: the file it wrote) or tool version (`tool`).
    Name and value as printed; app/analysis/config.py normalises them for comparison."""

    scope: str
    name: str
    value: str
    line: int | None = None

    def to_json(self) -> list[Any]:
        return [self.scope, self.name, self.value, self.line]

    @classmethod
    def from_json(cls, v: object) -> Setting | None:
        if not isinstance(v, list) or len(v) != 4 or not all(isinstance(x, str) for x in v[:3]):
            return None
        return cls(v[0], v[1], v[2], _of(v[3], int))


@dataclass
class SourceMeta:
    """What a file says about itself, set by its importer (ctx.meta). Times are in the base handed
    to the clock: epochs once placed, raw values when probed with RawClock.

    Stored in the library (`sources.meta`, see to_json) are the host facts, the benchmark's runs and
    the tpcc/dbstress specifics; timing and the placement facts (launch, first_time, interval,
    last_relative) serve the import only."""

    timing: Timing = Timing.WALL
    interval: float | None = None  # seconds between reports when the file shows it (mpstat, dbstress)
    launch: float | None = None  # time of the report printed at launch (vmstat's, iostat's since-boot one)
    first_time: float | None = None  # time of the first row (mpstat prints it one interval after launch)
    last_relative: float | None = None  # seconds since the benchmark start of the last report
    header_day: float | None = None  # naive seconds of the banner's date at 00:00 (iostat, mpstat, sar)
    spacing: str | None = None  # how a file without clock times spaces itself ("Uptime deltas, median 2 s")
    # host facts (banners, zone evidence)
    host: str | None = None
    kernel: str | None = None
    cpus: int | None = None
    zone_abbrev: str | None = None  # `vmstat -t`, `date` markers: JST, CEST ...
    utc_offset: float | None = None  # seconds east of UTC, printed with the times (ISO 8601)
    tool_version: str | None = None  # "sysbench 1.0.20"
    # sysbench/tpcc: the runs of ONE log concatenated (a step load), (start, end) in seconds since
    # the log's start, each run placed right after the previous one
    log_runs: list[Span] = field(default_factory=list)
    # dbstress: (first, last) row time of each run of rows with the same users value, and the levels
    user_steps: list[Span] = field(default_factory=list)
    user_levels: list[float] = field(default_factory=list)  # ints when whole: 1, 2, 4 ... 256
    rw: int | None = None  # dbstress preamble `RW=0|1`
    tpcc_runs: list[TpccRun] = field(default_factory=list)  # every run of a tpcc log, in order
    settings: list[Setting] = field(default_factory=list)  # configuration the file states (format config)

    # tpcc: the first run's values (what the library keeps)
    @property
    def threads(self) -> int | None:
        return self.tpcc_runs[0].threads if self.tpcc_runs else None

    @property
    def warehouses(self) -> int | None:
        return self.tpcc_runs[0].warehouses if self.tpcc_runs else None

    @property
    def tpmc(self) -> float | None:
        return self.tpcc_runs[0].tpmc if self.tpcc_runs else None

    def to_json(self) -> dict[str, Any]:
        """The stored part, only what is known. Keys: host, kernel, cpus, zone_abbrev, utc_offset,
        tool_version, log_runs, user_steps, user_levels, rw, tpmc, warehouses, threads, settings."""
        d: dict[str, Any] = {
            "host": self.host,
            "kernel": self.kernel,
            "cpus": self.cpus,
            "zone_abbrev": self.zone_abbrev,
            "utc_offset": self.utc_offset,
            "tool_version": self.tool_version,
            "log_runs": [list(s) for s in self.log_runs],
            "user_steps": [list(s) for s in self.user_steps],
            "user_levels": list(self.user_levels),
            "rw": self.rw,
            "tpmc": self.tpmc,
            "warehouses": self.warehouses,
            "threads": self.threads,
            "settings": [x.to_json() for x in self.settings],
        }
        return {k: v for k, v in d.items() if v is not None and v != []}

    @classmethod
    def from_json(cls, d: Mapping[str, Any], fmt: str) -> SourceMeta:
        """The stored part back (`fmt` is the source's format). Also reads libraries written before
        this record existed: their "steps" were the log's runs for sysbench and tpcc but the runs
        of equal users for dbstress, and their "users" the dbstress levels."""
        old_steps = _spans(d.get("steps"))
        meta = cls(
            host=_of(d.get("host"), str),
            kernel=_of(d.get("kernel"), str),
            cpus=_of(d.get("cpus"), int),
            zone_abbrev=_of(d.get("zone_abbrev"), str),
            utc_offset=_number(d.get("utc_offset")),
            tool_version=_of(d.get("tool_version"), str),
            log_runs=_spans(d.get("log_runs")) or (old_steps if fmt != "dbstress" else []),
            user_steps=_spans(d.get("user_steps")) or (old_steps if fmt == "dbstress" else []),
            user_levels=_numbers(d.get("user_levels", d.get("users"))),
            rw=_of(d.get("rw"), int),
            settings=_settings(d.get("settings")),
        )
        run = TpccRun(threads=_of(d.get("threads"), int), warehouses=_of(d.get("warehouses"), int))
        run.tpmc = _number(d.get("tpmc"))
        if run != TpccRun():
            meta.tpcc_runs.append(run)
        return meta


_T = TypeVar("_T")


def _of(v: object, kind: type[_T]) -> _T | None:
    return v if isinstance(v, kind) and not isinstance(v, bool) else None


def _number(v: object) -> float | None:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else None


def _numbers(v: object) -> list[float]:
    return [x for x in v if _number(x) is not None] if isinstance(v, list) else []


def _settings(v: object) -> list[Setting]:
    return [x for x in map(Setting.from_json, v) if x is not None] if isinstance(v, list) else []


def _spans(v: object) -> list[Span]:
    if not isinstance(v, list):
        return []
    out = []
    for pair in v:
        if isinstance(pair, list | tuple) and len(pair) == 2 and all(_number(x) is not None for x in pair):
            out.append((float(pair[0]), float(pair[1])))
    return out


# ---- what an importer is given --------------------------------------------------------------------


@dataclass
class Context:
    """What an importer needs besides the bytes, and where it reports what it found."""

    clock: Clock
    units: dict[str, str] = field(default_factory=dict)  # metric -> unit, filled by the importer
    warnings: list[SourceWarning] = field(default_factory=list)
    meta: SourceMeta = field(default_factory=SourceMeta)
    variant: list[str] = field(default_factory=list)  # display only: how the file looks
    max_warnings: int = 200
    _dropped: int = 0

    def room(self, lines: int = 1) -> bool:
        """False once the warning list is full: callers then count lines instead of decoding them."""
        if len(self.warnings) < self.max_warnings:
            return True
        self._dropped += lines
        return False

    def warn(self, line: int | None, text: str, *, kind: WarningKind) -> None:
        self.add(SourceWarning(line, kind, text))

    def add(self, warning: SourceWarning) -> None:
        """A warning made elsewhere (the reader's notes), under the same cap."""
        if len(self.warnings) >= self.max_warnings:
            self._dropped += 1
            return
        self.warnings.append(warning)

    def finish_warnings(self) -> None:
        if self._dropped:
            self.warnings.append(SourceWarning(None, "limit", f"{self._dropped} more warnings not shown"))
            self._dropped = 0

    def note_variant(self, text: str) -> None:
        if text not in self.variant:
            self.variant.append(text)


def append_row(rows: dict[tuple[str, str], list[float]], done: int, values: dict[tuple[str, str], float]) -> None:
    """One interval line of a log whose columns may come and go (a new statement type, a header
    that changes): a column first seen now is NaN for the `done` rows before it, and a column this
    line lacks gets NaN, so every column stays as long as the time list."""
    for key in values:
        if key not in rows:
            rows[key] = [np.nan] * done
    for key, column in rows.items():
        column.append(values.get(key, np.nan))


class Clock(Protocol):
    """Turns the times a file prints into epoch seconds (see app/clock.py for the folder rules)."""

    def wall(self, naive: np.ndarray) -> np.ndarray:
        """Local wall-clock seconds (a naive date-time counted as if UTC) -> epoch seconds."""
        ...

    def index(self, k: np.ndarray) -> np.ndarray:
        """Report number of a file without times (0 = the report printed at launch) -> epoch."""
        ...

    def relative(self, seconds: np.ndarray) -> np.ndarray:
        """Seconds since the benchmark started (sysbench and friends) -> epoch."""
        ...


class RawClock:
    """Leaves times as printed: used to probe a file's head before the folder clock is known."""

    def wall(self, naive: np.ndarray) -> np.ndarray:
        return np.asarray(naive, np.float64)

    def index(self, k: np.ndarray) -> np.ndarray:
        return np.asarray(k, np.float64)

    def relative(self, seconds: np.ndarray) -> np.ndarray:
        return np.asarray(seconds, np.float64)


class Importer(Protocol):
    """One text format: a module with these attributes (mypy checks modules against it)."""

    @property
    def name(self) -> str: ...

    def sniff(self, head: str) -> float:
        """Confidence in [0, 1] that this text is ours."""
        ...

    def parse(self, chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
        """Stream blocks from chunks of complete lines."""
        ...
