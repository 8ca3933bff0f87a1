"""The evidence a verdict reads: the level of every series an explanation measured (before the
window, during it), looked up by series, and the few units a verdict speaks in. `Change` (one
series' move) lives here, below explain.py, causes.py and verdict.py, which all use it."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from benchlens.app.analysis.quantities import MACHINE, SERVER_COLUMNS, quantity
from benchlens.app.model import SeriesRef

UNITS = {
    "wkB/s": "kB/s",
    "rkB/s": "kB/s",
    "bo": "kB/s",
    "bi": "kB/s",
    "SUM_TIMER_WAIT": "ms/s",
    "Innodb_row_lock_time": "ms/s",
    "checkpoint_age": "B",
    "Innodb_checkpoint_age": "B",
    "Innodb_data_written": "B/s",
    "Innodb_os_log_written": "B/s",
    "log_bytes/s": "B/s",
}


# a relative difference this small between two levels is the arithmetic's, not the series'
ROUNDING = 1e-9

# analysis sits beside app/ticks.py in the layers, not above it: the verdict scales its few units
# itself, the way the axes label them (kB/s read as bytes, ms/s from 1000 on as s/s)
_PREFIXES = ((1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, ""))


def _scaled(values: Sequence[float], unit: str) -> tuple[list[float], str]:
    """The values in one unit with an SI prefix chosen by the largest of them."""
    if unit == "kB/s":
        values, unit = [v * 1000 for v in values], "B/s"
    if unit == "ms/s":
        top = max(abs(v) for v in values)
        return ([v / 1000 for v in values], "s/s") if top >= 1000 else (list(values), unit)
    if unit in ("B", "B/s"):
        top = max(abs(v) for v in values)
        scale, prefix = next(((f, n) for f, n in _PREFIXES if top >= f), (1.0, ""))
        return [v / scale for v in values], prefix + unit
    return list(values), unit


def _number(x: float) -> str:
    if x == 0 or abs(x) >= 1e3:
        return f"{x:,.0f}"  # never 1.25e+03
    text = f"{x:.{min(6, 2 - math.floor(math.log10(abs(x))))}f}"  # 3 significant digits, never 1.2e-05
    return text.rstrip("0").rstrip(".") if "." in text else text


def human(x: float, unit: str) -> str:
    (v,), u = _scaled([x], unit)
    return f"{_number(v)} {u}".rstrip()


def span(before: float, during: float, unit: str) -> str:
    """'4.7 → 379 MB/s': both ends in the unit of the larger one, unless the smaller would read
    below 0.1 in it: '5.83 MB/s → 1.81 GB/s', not '0.00583 → 1.81 GB/s'."""
    (a, b), u = _scaled([before, during], unit)
    if u != unit and 0 < min(abs(a), abs(b)) < 0.1:
        return f"{human(before, unit)} → {human(during, unit)}"
    return f"{_number(a)} \u2192 {_number(b)} {u}".rstrip()


@dataclass(frozen=True)
class Change:
    ref: SeriesRef
    change: float  # effect size: (level in the window - reference median) / robust sigma; signed
    before: float  # the reference (steady-state) median
    during: float  # the overlap-weighted level in the window
    weight: float = 0.0  # rank: surprise not explained by the throughput, times importance
    similar: tuple[SeriesRef, ...] = ()  # other series of the same quantity (other tools, other CPUs)
    klass: str = "workload"  # resource class (relevance.CLASSES)
    importance: float = 0.0

    def effect(self) -> str:
        """The effect size as a reader reads it: robust sigmas, or that the series was flat (no
        spread: its change is then only in its units, before and during)."""
        return f"{self.change:+.1f}" if math.isfinite(self.change) else "from a flat level"

    def as_json(self) -> dict[str, object]:
        return {
            "source": self.ref.format,
            "metric": self.ref.metric,
            "entity": self.ref.entity,
            "change": round(self.change, 2) if math.isfinite(self.change) else None,  # None: from a flat level
            "before": self.before,
            "during": self.during,
            "class": self.klass,
            "score": round(self.weight, 3),
            "similar": [r.spec() for r in self.similar],
        }


class Evidence:
    """The levels of an explanation, looked up by series."""

    def __init__(self, changes: Sequence[Change]) -> None:
        self.top = list(changes)
        self.levels: dict[SeriesRef, Change] = dict(getattr(changes, "levels", {}))
        # classes of causes that came after the drop (explain.Explanation.late): no verdict
        self.late: frozenset[str] = getattr(changes, "late", frozenset())
        self._noise: Callable[[SeriesRef], float] | None = getattr(changes, "noise", None)
        for c in self.top:
            self.levels.setdefault(c.ref, c)

    def get(self, fmt: str, metric: str, entity: str = "") -> Change | None:
        return self.levels.get(SeriesRef(fmt, metric, entity))

    def each(self, fmt: str, metric: str) -> list[Change]:
        return [c for r, c in self.levels.items() if r.format == fmt and r.metric == metric]

    def machine(self, name: str) -> Change | None:
        """The whole machine's level of a quantity (quantities.quantity: "cpu iowait", "processes
        blocked"), whichever collector measured it; of several, the most certain change."""
        found = [c for r, c in self.levels.items() if r.entity in MACHINE and quantity(r) == name]
        return max(found, key=lambda c: abs(c.change) if math.isfinite(c.change) else math.inf, default=None)

    def server(self, counter: str) -> Change | None:
        """A SHOW GLOBAL STATUS counter's levels, or the dstat/dool plugin column that read it
        (quantities.SERVER_COLUMNS) where no status loop measured it."""
        found = self.get("global_status", counter)
        for col in SERVER_COLUMNS.get(counter, ()) if found is None else ():
            if (found := self.get("dstat", col)) is not None:
                break
        return found

    def beyond_noise(self, c: Change) -> float:
        """How many standard errors of the series' own level over stretches as long as the window
        (explain._StretchNoise: how it wanders in the steady state) c moved: its effect where the
        evidence measured no such noise (an explanation built by hand, too few steady samples)."""
        moved = c.during - c.before
        if abs(moved) <= ROUNDING * max(abs(c.before), abs(c.during), 1.0):
            # a flat series' window mean off its level by a rounding (12.000000000000002 sessions
            # against 12, held-out dool-disk-writers-long-hot) did not move
            return 0.0
        se = self._noise(c.ref) if self._noise is not None else math.nan
        if not math.isfinite(se):
            return c.change
        if se <= 0:
            return math.copysign(math.inf, moved)
        return moved / se

    def rate(self, fmt: str, metric: str, entity: str = "") -> tuple[float, float]:
        c = self.get(fmt, metric, entity)
        return (c.before, c.during) if c is not None else (0.0, 0.0)
