"""One clock per run folder.

Monitors print local wall-clock times, usually without a zone. The zone comes, in this order, from
the folder itself (ISO 8601 offsets in iostat/sar -t lines, the zone abbreviation vmstat -t prints
at the end of its header), then from `--tz`, and only then from the importing machine's zone. It
applies to the naive times of every file in the folder. Files without times (vmstat or iostat
without -t) are placed from the launch time of the folder's timed files, one report per interval.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np

from benchlens.app.errors import BenchlensError

# Zone abbreviations with one meaning in practice. Ambiguous ones (CST, IST, BST ...) are left out:
# they are only trusted when --tz or the machine's zone uses the same abbreviation.
ABBREVIATIONS = {
    "UTC": 0,
    "GMT": 0,
    "UCT": 0,
    "Z": 0,
    "WET": 0,
    "WEST": 1,
    "CET": 1,
    "CEST": 2,
    "MET": 1,
    "MEST": 2,
    "EET": 2,
    "EEST": 3,
    "MSK": 3,
    "PST": -8,
    "PDT": -7,
    "MST": -7,
    "MDT": -6,
    "EST": -5,
    "EDT": -4,
    "AKST": -9,
    "AKDT": -8,
    "HST": -10,
    "JST": 9,
    "KST": 9,
    "HKT": 8,
    "SGT": 8,
    "AEST": 10,
    "AEDT": 11,
    "ACST": 9.5,
    "ACDT": 10.5,
    "AWST": 8,
    "NZST": 12,
    "NZDT": 13,
}


class ClockError(BenchlensError):
    pass


def parse_tz(text: str) -> tzinfo:
    """--tz: an IANA name (Europe/Paris), UTC, or a fixed offset (+02:00, -0700)."""
    t = text.strip()
    if t.upper() in ("UTC", "Z", "GMT"):
        return UTC
    if t[:1] in "+-" and t[1:].replace(":", "").isdigit() and len(t[1:].replace(":", "")) == 4:
        digits = t[1:].replace(":", "")
        minutes = int(digits[:2]) * 60 + int(digits[2:])
        if int(digits[:2]) > 23 or int(digits[2:]) > 59:
            raise ClockError(f"time zone offset {text!r} is out of range (-23:59 .. +23:59)")
        return timezone(timedelta(minutes=minutes if t[0] == "+" else -minutes))
    try:
        return ZoneInfo(t)
    except (ZoneInfoNotFoundError, ValueError):
        raise ClockError(
            f"unknown time zone {text!r} (use a name like Europe/Paris or an offset like +02:00)"
        ) from None


def _to_epoch_scalar(naive: float, tz: tzinfo | None) -> float:
    fields = time.gmtime(naive)
    if tz is None:  # the importing machine's zone, DST included
        return time.mktime((*fields[:8], -1)) + (naive % 1)
    dt = datetime(*fields[:6], tzinfo=tz)
    return dt.timestamp() + (naive % 1)


@dataclass
class FolderClock:
    tz: tzinfo | None  # None: the importing machine's zone
    description: str
    origin: float | None = None  # epoch of report 0 of files without times
    origin_from: str | None = None  # the timed file whose first time is `origin` (no launch was seen)
    interval: float = 1.0
    bench_start: float | None = None  # epoch where relative benchmark times start

    def wall(self, naive: np.ndarray) -> np.ndarray:
        naive = np.asarray(naive, np.float64)
        if naive.size == 0:
            return naive.copy()
        lo, hi = float(np.nanmin(naive)), float(np.nanmax(naive))
        off_lo = lo - _to_epoch_scalar(lo, self.tz)
        off_hi = hi - _to_epoch_scalar(hi, self.tz)
        if off_lo == off_hi:
            return naive - off_lo
        return np.array([_to_epoch_scalar(x, self.tz) for x in naive])  # the span crosses a DST change

    def index(self, k: np.ndarray) -> np.ndarray:
        return (self.origin or 0.0) + np.asarray(k, np.float64) * self.interval

    def relative(self, seconds: np.ndarray) -> np.ndarray:
        return (self.bench_start or 0.0) + np.asarray(seconds, np.float64)


def resolve(evidence: list[tuple[str, str, float | str]], tz_option: str | None, warnings: list[str]) -> FolderClock:
    """evidence: (file, 'offset', seconds) or (file, 'abbrev', 'JST') found in the folder."""
    offsets = {(f, float(v)) for f, kind, v in evidence if kind == "offset"}
    abbrevs = {(f, str(v)) for f, kind, v in evidence if kind == "abbrev"}
    if offsets:
        values = sorted({v for _, v in offsets})
        f = sorted(offsets)[0][0]
        if len(values) > 1:
            warnings.append(f"files print different UTC offsets {values}; using {values[0]:+.0f} s from {f}")
        fixed = timezone(timedelta(seconds=values[0]))
        _check_abbrevs(abbrevs, values[0], warnings)
        return FolderClock(fixed, f"UTC{_fmt(values[0])} (offset printed in {f})")
    for f, abbrev in sorted(abbrevs):
        if abbrev in ABBREVIATIONS:
            secs = ABBREVIATIONS[abbrev] * 3600
            return FolderClock(timezone(timedelta(seconds=secs)), f"{abbrev} = UTC{_fmt(secs)} (zone printed in {f})")
    if tz_option:
        tz = parse_tz(tz_option)
        return FolderClock(tz, f"--tz {tz_option}")
    local = time.tzname
    for f, abbrev in sorted(abbrevs):
        if abbrev in local:
            return FolderClock(None, f"machine zone ({abbrev}, printed in {f})")
        warnings.append(
            f"zone {abbrev!r} printed in {f} is ambiguous; times read in this machine's zone (use --tz to choose)"
        )
    return FolderClock(None, f"machine zone ({'/'.join(local)}): the folder has no zone evidence")


def _check_abbrevs(abbrevs: set[tuple[str, str]], offset: float, warnings: list[str]) -> None:
    for f, a in sorted(abbrevs):
        if a in ABBREVIATIONS and ABBREVIATIONS[a] * 3600 != offset:
            warnings.append(f"zone {a} printed in {f} disagrees with the UTC offset {_fmt(offset)} of the folder")


def _fmt(seconds: float) -> str:
    sign = "+" if seconds >= 0 else "-"
    m = int(abs(seconds)) // 60
    return f"{sign}{m // 60:02d}:{m % 60:02d}"
