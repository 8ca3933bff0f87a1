"""Tick positions and labels for value and time axes, one formatter for the window (a pyqtgraph
AxisItem in app/ui/axes.py) and the exports (app/render.py), so both read the same strings.

Values speak their series' unit: bytes in decimal prefixes (`200 MB`, `1.5 GB/s`), durations in
the unit that fits (`3.4 ms`, `250 µs`), percentages as `85 %`, and counts and rates with a
k/M/G suffix (`12k`; their unit is said once, next to the panel title). Time speaks the run's
scale: seconds for a few minutes, `m:ss` up to a few hours, `h:mm` beyond, dates and clock times
when aligned on the clock (UTC). No Qt here: text widths come in as a callable."""

from __future__ import annotations

import itertools
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

# unit -> (family, factor to the family's base unit): bytes count in B, durations in seconds
_SCALED = {
    "B": ("bytes", 1.0),
    "kB": ("bytes", 1e3),
    "KB": ("bytes", 1e3),
    "KiB": ("bytes", 1024.0),
    "MB": ("bytes", 1e6),
    "MiB": ("bytes", 1024.0**2),
    "GB": ("bytes", 1e9),
    "GiB": ("bytes", 1024.0**3),
    "ns": ("time", 1e-9),
    "us": ("time", 1e-6),
    "µs": ("time", 1e-6),
    "ms": ("time", 1e-3),
    "s": ("time", 1.0),
}
_PREFIXES = {  # family -> (factor, name), largest first
    "bytes": ((1e12, "TB"), (1e9, "GB"), (1e6, "MB"), (1e3, "kB"), (1.0, "B")),
    "time": ((1.0, "s"), (1e-3, "ms"), (1e-6, "µs"), (1e-9, "ns")),
    "count": ((1e12, "T"), (1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, "")),
}
UNIT_NAMES = {"1/s": "/s", "us": "µs", "us/s": "µs/s"}  # how a stored unit is written for people
_STEPS = (1.0, 2.0, 2.5, 5.0, 10.0)
# Steps of time that read well on a clock: 1-30 s, 1-30 min, 1-12 h, days.
_TIME_STEPS = (1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800)
TICK_GAP_EM = 0.8  # space between two tick labels, in line heights / digit widths x 2: never touching


def nice_ticks(lo: float, hi: float, n: float = 5) -> list[float]:
    """At most about n round values (1, 2, 2.5, 5 x 10^k apart) from lo to hi."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo] if math.isfinite(lo) else []
    step = _nice_step((hi - lo) / max(n, 1))
    first = math.ceil(lo / step - 1e-9) * step
    return [_clean(first + k * step) for k in range(int((hi - first) / step + 1e-9) + 1)]


def _nice_step(raw: float) -> float:
    mag = 10 ** math.floor(math.log10(raw))
    return next(m * mag for m in _STEPS if m * mag >= raw * (1 - 1e-9))


def _clean(v: float) -> float:
    """0.30000000000000004 -> 0.3: a tick is a round number, its label must say so."""
    return 0.0 if v == 0 else round(v, 12 - math.floor(math.log10(abs(v))))


def _split(unit: str) -> tuple[str, str]:
    """'kB/s' -> ('kB', '/s'): the scaled part and what follows it."""
    head, slash, tail = unit.partition("/")
    return head, slash + tail


def format_ticks(values: Sequence[float], unit: str) -> list[str]:
    """The labels of a set of ticks of one axis: one prefix and one number of decimals for all."""
    vals = [float(v) for v in values]
    if not vals:
        return []
    head, tail = _split(unit)
    if head in _SCALED:
        family, factor = _SCALED[head]
        suffix = tail  # "ms/s" stays a rate of time, "kB/s" one of bytes
    elif unit == "%":
        family, factor, suffix = "percent", 1.0, ""
    else:
        family, factor, suffix = "count", 1.0, ""
    base = [v * factor for v in vals]
    if family == "percent":
        return [f"{s} %" for s in _numbers(base, 1.0)]
    top = max(abs(v) for v in base)
    prefixes = _PREFIXES[family]
    # counts take a suffix from 10,000 on: '1500' reads better than '1.5k', '12k' better than '12000'
    floor = {1e3: 10.0} if family == "count" else {}
    scale, name = next(((f, n) for f, n in prefixes if top >= f * floor.get(f, 1.0) * 0.9999), prefixes[-1])
    if top == 0:
        scale, name = (1.0, "s") if family == "time" else (1.0, prefixes[-1][1])
    sep = " " if family != "count" else ""
    # a bare 0 on a count axis ('0', not '0k'); with a unit it keeps it ('0 MB')
    return [s if s == "0" and family == "count" else f"{s}{sep}{name}{suffix}".rstrip() for s in _numbers(base, scale)]


def _numbers(base: list[float], scale: float) -> list[str]:
    scaled = [v / scale for v in base]
    steps = [abs(b - a) for a, b in itertools.pairwise(scaled) if b != a]
    step = min(steps) if steps else (abs(scaled[0]) or 1.0)
    decimals = max(0, min(6, -math.floor(math.log10(step) + 1e-9)))
    if any(abs(round(v, decimals) - v) > step * 1e-6 for v in scaled):  # a step of 2.5: one more
        decimals = min(6, decimals + 1)
    return ["0" if abs(v) < step * 1e-9 else f"{v:.{decimals}f}" for v in scaled]


# ---- values in text (a table cell, a tree row, a tooltip) ---------------------------------------
def reading(v: float, unit: str = "") -> str:
    """One value as a person reads it, with its unit: three significant digits in the prefix the
    value calls for (`5.8 MB/s`, not `0.00583 GB/s`; `3.4 ms`; `95,410`, never `9.541e+04`)."""
    return _reading(v, unit, _scale_for(abs(v), unit))


def reading_span(a: float, b: float, unit: str = "") -> str:
    """'4.7 → 379 MB/s': both values in the unit of the larger when the smaller still reads in it
    (0.1 of it or more, or 0); else each in its own (`5.8 MB/s → 1.81 GB/s`, not `0.00583 → 1.81`)."""
    big = max(abs(a), abs(b))
    scale = _scale_for(big, unit)
    small = min(abs(a), abs(b))
    if small == 0 or small / scale[0] >= 0.1 or not math.isfinite(big):
        return f"{_number(a / scale[0])} → {_reading(b, unit, scale)}"
    return f"{reading(a, unit)} → {reading(b, unit)}"


def row_unit(values: Sequence[float], unit: str) -> tuple[float, str]:
    """(divisor, unit) of a table row of one series' statistics: bytes and durations in the unit
    their largest value calls for (a latency row reading 39918.4 ms is in s); others as stored."""
    big = max((abs(v) for v in values if math.isfinite(v)), default=0.0)
    if _split(unit)[0] not in _SCALED or big == 0:
        return 1.0, unit
    scale, name = _scale_for(big, unit)
    return scale, name.strip()


def _scale_for(v: float, unit: str) -> tuple[float, str]:
    """(divisor, the unit written) for a value of magnitude v in `unit`."""
    head, tail = _split(unit)
    if unit == "%":
        return 1.0, " %"
    if head in _SCALED:
        family, factor = _SCALED[head]
        scale, name = next(((f, n) for f, n in _PREFIXES[family] if v * factor >= f * 0.9995), _PREFIXES[family][-1])
        if v == 0:
            scale, name = (1.0, "s") if family == "time" else (1.0, _PREFIXES[family][-1][1])
        return scale / factor, f" {name}{tail}"
    shown = UNIT_NAMES.get(unit, unit)
    # counts in full up to a million (`95,410`), with a suffix beyond (`12.3M`)
    scale, name = next(((f, n) for f, n in _PREFIXES["count"] if f >= 1e6 and v >= f * 0.9995), (1.0, ""))
    return scale, name + (f" {shown}" if shown else "")


def _reading(v: float, unit: str, scale: tuple[float, str]) -> str:
    if not math.isfinite(v):
        return "–"
    return f"{_number(v / scale[0])}{scale[1]}"


def _number(x: float) -> str:
    """Three significant digits, in fixed notation, trailing zeros dropped: 379, 14.5, 1.81,
    0.0583, 1,253."""
    a = abs(x)
    if a >= 99.95 or a == 0:
        return f"{x:,.0f}"
    decimals = min(6, 2 - math.floor(math.log10(a)))
    text = f"{x:.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def value_ticks(lo: float, hi: float, length: float, line: float, unit: str) -> list[tuple[float, str]]:
    """Ticks of a value axis `length` px long whose labels are `line` px high: as many as fit
    with a gap between labels."""
    n = max(1.5, length / (line * (1 + TICK_GAP_EM)))  # the step is the next round one above range / n
    values = nice_ticks(lo, hi, n)
    return list(zip(values, format_ticks(values, unit), strict=True))


def log_ticks(lo: float, hi: float, length: float, line: float, unit: str) -> list[tuple[float, str]]:
    """Decades (lo and hi in log10 units): positions in log10, labels of the values."""
    decades = list(range(math.ceil(lo - 1e-9), math.floor(hi + 1e-9) + 1))
    room = max(1, int(length / (line * (1 + TICK_GAP_EM))))
    kept = decades[:: max(1, math.ceil(len(decades) / room))]
    return [(float(k), format_ticks([10.0**k], unit)[0]) for k in kept]


GAP_SAID = 0.10  # runs' means closer than this: an axis not from 0 magnifies their gap, say it


def gap_note(means: Sequence[float]) -> str:
    """'means within 3.1 %' for runs whose means are close, which an axis not starting at 0
    draws far apart; '' otherwise (one run, a real gap, no mean)."""
    ms = [m for m in means if math.isfinite(m) and m > 0]
    if len(ms) < 2:
        return ""
    gap = (max(ms) - min(ms)) / max(ms)
    return f"means within {_number(gap * 100)} %" if gap < GAP_SAID else ""


def mean_of(v: Sequence[float] | object) -> float:
    """The mean of a series' finite values, read from at most 10,000 of them evenly spread (the
    gap between runs is said to a tenth of a percent: a 24 h series costs nothing)."""
    import numpy as np

    a = np.asarray(v, dtype=np.float64)
    a = a[:: max(1, len(a) // 10_000)]
    a = a[np.isfinite(a)]
    return float(a.mean()) if len(a) else math.nan


def is_duration(unit: str) -> bool:
    """A unit of time (`ms`, `us` ...), not a rate of it (`ms/s`): a latency's or a wait's."""
    return _SCALED.get(unit, ("", 0.0))[0] == "time"


def speaks_unit(unit: str) -> bool:
    """The tick labels of this unit carry it themselves (`200 MB`, `3.4 ms`, `1.5 GB/s`): bytes and
    durations, whose prefix changes with the values, so a heading must not name one."""
    return _split(unit)[0] in _SCALED


def heading(title: str, unit: str, metrics: Sequence[str] = ()) -> str:
    """The panel title with its unit said once: not when the title already names one, nor when
    the ticks say it (bytes, durations: a "(ms)" in the title over ticks reading `1.2 s` is
    dropped). A rate of transactions or queries is said as such ('tps', not '1/s')."""
    if speaks_unit(unit):
        said = re.fullmatch(r"(.*\S)\s*\(([^()]*)\)", title)
        return said.group(1) if said and speaks_unit(said.group(2).replace("µ", "u")) else title
    shown = UNIT_NAMES.get(unit, unit)
    if unit == "1/s" and metrics and len(set(metrics)) == 1 and metrics[0] in ("tps", "qps"):
        shown = metrics[0]
    if not shown or title.rstrip().endswith(")") or shown in title or unit in title:
        return title
    if unit == "1/s" and re.search(r"\b[tq]ps\b|IOPS|/s\b|per second", title):  # a rate already
        return title
    return f"{title} ({shown})"


# ---- time ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class TimeScale:
    """How a time axis reads at one zoom: the label style, and the words under the axis."""

    style: str  # 'seconds', 'm:ss', 'h:mm', 'h:mm:ss', or a strftime pattern (absolute)
    title: str


SECONDS_UP_TO = 600  # relative times up to this read in seconds; beyond, on a clock (m:ss, h:mm:ss)


def time_scale(lo: float, hi: float, step: float, absolute: bool, relative_to: str) -> TimeScale:
    """The label style for ticks `step` s apart across lo..hi (epoch seconds when absolute)."""
    if absolute:
        d0 = datetime.fromtimestamp(lo, UTC)
        d1 = datetime.fromtimestamp(hi, UTC)
        if step >= 86_400:
            return TimeScale("%Y-%m-%d", "date (UTC)")
        clock = "%H:%M:%S" if step < 60 else "%H:%M"
        if d0.date() == d1.date():
            return TimeScale(clock, f"time (UTC), {d0:%Y-%m-%d}")
        return TimeScale(f"%m-%d {clock}", "date and time (UTC)")
    far = max(abs(lo), abs(hi))
    if far < SECONDS_UP_TO:
        return TimeScale("seconds", f"seconds, {relative_to}")
    if far < 3 * 3600:
        return TimeScale("m:ss", f"time (m:ss), {relative_to}")
    if step < 60:
        return TimeScale("h:mm:ss", f"time (h:mm:ss), {relative_to}")
    return TimeScale("h:mm", f"time (h:mm), {relative_to}")


def time_step(lo: float, hi: float, n: int) -> float:
    """A clock-friendly step giving about n ticks (round seconds below a second)."""
    raw = (hi - lo) / max(n, 1)
    if raw < 1:
        return _nice_step(raw)
    if raw > _TIME_STEPS[-1]:
        return 86_400 * _nice_step(raw / 86_400)
    return float(next(s for s in _TIME_STEPS if s >= raw))


def format_time(values: Sequence[float], scale: TimeScale, step: float) -> list[str]:
    """Labels of time ticks in one style."""
    if scale.style == "seconds":
        return _numbers([float(v) for v in values], 1.0) if values else []
    if "%" in scale.style:
        return [datetime.fromtimestamp(v, UTC).strftime(scale.style) for v in values]
    return [_clock(float(v), scale.style) for v in values]


def _clock(v: float, style: str) -> str:
    sign, v = ("-" if v < 0 else ""), abs(round(v))
    h, rest = divmod(int(v), 3600)
    m, s = divmod(rest, 60)
    if style == "m:ss":
        return f"{sign}{h * 60 + m}:{s:02d}"
    if style == "h:mm:ss":
        return f"{sign}{h}:{m:02d}:{s:02d}"
    return f"{sign}{h}:{m:02d}"


def time_ticks(
    lo: float, hi: float, length: float, measure: Callable[[str], float], absolute: bool, relative_to: str
) -> tuple[list[tuple[float, str]], TimeScale]:
    """Ticks of a time axis `length` px long: the most that fit with a gap between their labels
    (widths from `measure`), and the scale they are read in."""
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        hi = lo + 1 if math.isfinite(lo) else 1.0
        lo = lo if math.isfinite(lo) else 0.0
    n = max(2, int(length / 40))
    on_clock = absolute or max(abs(lo), abs(hi)) >= SECONDS_UP_TO
    while True:
        step = time_step(lo, hi, n)
        if on_clock and step < 1:  # a clock reads whole seconds: ticks between them repeated their labels
            step = 1.0
        first = math.ceil(lo / step - 1e-9) * step
        values = [_clean(first + k * step) for k in range(int((hi - first) / step + 1e-9) + 1)]
        scale = time_scale(lo, hi, step, absolute, relative_to)
        labels = format_time(values, scale, step)
        widest = max((measure(t) for t in labels), default=0.0)
        gap = measure("0") * TICK_GAP_EM * 2
        if n <= 2 or len(values) < 2 or widest + gap <= step / (hi - lo) * length:
            return list(zip(values, labels, strict=True)), scale
        n -= 1
