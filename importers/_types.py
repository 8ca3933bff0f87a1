"""What importers produce: blocks of series sharing one time array, warnings with line numbers,
and run metadata read from banners. No Qt, no sqlite3."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

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


@dataclass
class Context:
    """What an importer needs besides the bytes, and where it reports what it found."""

    clock: Clock
    units: dict[str, str] = field(default_factory=dict)  # metric -> unit, filled by the importer
    warnings: list[str] = field(default_factory=list)
    meta: dict[str, object] = field(default_factory=dict)  # host, kernel, cpus, zone, launch ...
    variant: list[str] = field(default_factory=list)
    progress: Callable[[int], None] | None = None  # called with bytes read so far
    max_warnings: int = 200
    _dropped: int = 0

    def room(self, lines: int = 1) -> bool:
        """False once the warning list is full: callers then count lines instead of decoding them."""
        if len(self.warnings) < self.max_warnings:
            return True
        self._dropped += lines
        return False

    def warn(self, line: int | None, message: str) -> None:
        if len(self.warnings) >= self.max_warnings:
            self._dropped += 1
            return
        self.warnings.append(f"line {line}: {message}" if line is not None else message)

    def finish_warnings(self) -> None:
        if self._dropped:
            self.warnings.append(f"{self._dropped} more warnings not shown")
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
    name: str

    def sniff(self, head: str) -> float:
        """Confidence in [0, 1] that this text is ours."""
        ...

    def parse(self, chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
        """Stream blocks from chunks of complete lines."""
        ...
