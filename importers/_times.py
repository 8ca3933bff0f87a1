"""Dates and times as the monitors print them, parsed for whole arrays of tokens at once.

A time is "naive" here: local wall-clock seconds counted as if the wall clock were UTC. The folder's
clock (app/clock.py) turns naive seconds into epochs once the zone is known. Every parse returns an
`ok` mask: a token that does not match the expected shape is never turned into a time.
"""

from __future__ import annotations

import re

import numpy as np

from benchlens.importers._tokens import Tokens, fnv1a, tokenize

# Date styles seen in sysstat banners and iostat -t lines (strftime %x of each locale) and vmstat -t.
DATE_STYLES = {
    "MM/DD/YY": re.compile(r"^\d\d/\d\d/\d\d$"),  # C / POSIX (DD/MM/YY in es_ES: see pick_date_style)
    "MM/DD/YYYY": re.compile(r"^\d\d/\d\d/\d{4}$"),  # en_US (DD/MM/YYYY in en_GB, fr_FR: see pick_date_style)
    "DD.MM.YYYY": re.compile(r"^\d\d\.\d\d\.\d{4}$"),  # de_DE and most of Europe
    "DD.MM.YY": re.compile(r"^\d\d\.\d\d\.\d\d$"),  # uk_UA, ru_RU
    "YYYY-MM-DD": re.compile(r"^\d{4}-\d\d-\d\d$"),  # S_TIME_FORMAT=ISO, vmstat -t
}
# A row's time as sysstat prints it (strftime %X of the locale): `15:57:44` (C, de_DE, fr_FR ...),
# `03:57:44 PM` (en_US), `15時57分44秒` (ja_JP), `15时57分44秒` (zh_CN), `15시 57분 44초` (ko_KR: three tokens)
CLOCK_TEXT = r"(?:\d\d:\d\d:\d\d(?: [AP]M)?|\d\d[時时]\d\d分\d\d秒|\d\d시 \d\d분 \d\d초)"
# fi_FI and sv_FI print %X as `15.57.45`; a locale whose t_fmt is `%H,%M,%S` prints `15,57,45`
# (issue 22: "old German sysstat"). Only readers that know every row of a file shares one
# separator use these (clock_times' `sep`): a lone `12.34.56` may be anything.
CLOCK_OTHER_SEPARATORS = r"(?:\d\d\.\d\d\.\d\d|\d\d,\d\d,\d\d)"
_CJK_CLOCKS = ("hh時mm分ss秒", "hh时mm分ss秒")
_KO_CLOCK = ("hh시", "mm분", "ss초")
AM = fnv1a(b"AM")
PM = fnv1a(b"PM")
_AM_PM = {AM, PM, fnv1a(b"am"), fnv1a(b"pm")}


def date_style(text: str) -> str | None:
    for style, rx in DATE_STYLES.items():
        if rx.match(text):
            return style
    return None


def pick_date_style(texts: list[str], decimal_comma: bool = False) -> str | None:
    """The style of these date strings. 'NN/NN/YYYY' is month-first in en_US and day-first in
    en_GB/fr_FR, 'NN/NN/YY' month-first in C and day-first in es_ES: a field above 12 decides;
    otherwise a decimal comma (fr_FR, es_ES; not en_US, C) does."""
    styles = {date_style(t) for t in texts} - {None}
    if len(styles) != 1:
        return None
    style = styles.pop()
    if style in ("MM/DD/YYYY", "MM/DD/YY"):
        firsts = [int(t[:2]) for t in texts]
        seconds = [int(t[3:5]) for t in texts]
        if max(firsts) > 12 or (decimal_comma and max(seconds) <= 12):
            return "DD/MM/" + style[6:]
    return style


def days_from_civil(y: np.ndarray, m: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm), vectorised."""
    y = y - (m <= 2)
    era = np.floor_divide(y, 400)
    yoe = y - era * 400
    mp = (m + 9) % 12
    doy = (153 * mp + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def _valid(toks: Tokens, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Indices clipped into the token arrays, and which of them were there at all."""
    idx = np.asarray(idx, np.int64)
    n = len(toks.tok_start)
    ok = (idx >= 0) & (idx < n)
    return (np.clip(idx, 0, max(n - 1, 0)) if n else np.zeros_like(idx)), ok & (n > 0)


def fields(toks: Tokens, idx: np.ndarray, pattern: str) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Digits of tokens shaped exactly like `pattern` (ASCII letters are digits, the rest literal,
    compared as UTF-8 bytes)."""
    idx, ok = _valid(toks, idx)
    pat = pattern.encode()
    width = len(pat)
    buf = np.frombuffer(toks.data, np.uint8)
    if buf.size == 0 or idx.size == 0 or len(toks.tok_start) == 0:  # no token to read (blank lines)
        return {c: np.zeros(idx.size, np.int64) for c in set(pattern) if c.isalpha()}, ok & False
    ok &= (toks.tok_end[idx] - toks.tok_start[idx]) == width
    pos = np.minimum(toks.tok_start[idx][:, None] + np.arange(width), buf.size - 1)
    ch = buf[pos].astype(np.int64)
    out: dict[str, np.ndarray] = {}
    for j, b in enumerate(pat):
        c = chr(b)
        if b < 128 and c.isalpha():
            digit = ch[:, j] - 48
            ok &= (digit >= 0) & (digit <= 9)
            out[c] = out.get(c, np.zeros(idx.size, np.int64)) * 10 + digit
        else:
            ok &= ch[:, j] == b
    return out, ok


def dates(toks: Tokens, idx: np.ndarray, style: str) -> tuple[np.ndarray, np.ndarray]:
    """Days since epoch of date tokens in `style`, and the ok mask."""
    pattern = style.replace("YYYY", "yyyy").replace("YY", "yy").replace("MM", "oo").replace("DD", "dd")
    f, ok = fields(toks, idx, pattern)
    year = f["y"]
    if "YYYY" not in style:  # two-digit years
        year = np.where(year < 70, 2000 + year, 1900 + year)
    month, day = f["o"], f["d"]
    # a capture is not older than the epoch: 0000-01-01 is no date (and no date the folder clock can place)
    ok &= (month >= 1) & (month <= 12) & (day >= 1) & (day <= 31) & (year >= 1970)
    return days_from_civil(year, month, day), ok


def clock_times(
    toks: Tokens, idx: np.ndarray, ampm_idx: np.ndarray | None = None, sep: str = ":"
) -> tuple[np.ndarray, np.ndarray]:
    """Seconds of the day of the times starting at tokens `idx`: 'HH:MM:SS' with an optional AM/PM
    token each, or (without AM/PM) the CJK locales' layouts of CLOCK_TEXT; `sep` '.' or ',' reads
    'HH.MM.SS' or 'HH,MM,SS' (CLOCK_OTHER_SEPARATORS) instead of 'HH:MM:SS'."""
    f, ok = fields(toks, idx, f"hh{sep}mm{sep}ss")
    hour = f["h"]
    if ampm_idx is None and not ok.all():  # tried only on the tokens that are not HH:MM:SS
        miss = np.flatnonzero(~ok)
        g, found = _local_clock(toks, np.asarray(idx, np.int64)[miss])
        for c in "hms":
            f[c][miss] = np.where(found, g[c], f[c][miss])
        ok[miss] = found
        hour = f["h"]
    if ampm_idx is not None:
        ampm_idx, present = _valid(toks, ampm_idx)
        ok &= present
        h = toks.hash[ampm_idx] if len(toks.hash) else np.zeros(len(ampm_idx), np.uint64)
        is_pm = (h == PM) | (h == fnv1a(b"pm"))
        ok &= np.isin(h, list(_AM_PM)) & (hour >= 1) & (hour <= 12)
        hour = hour % 12 + np.where(is_pm, 12, 0)
    ok &= (hour < 24) & (f["m"] < 60) & (f["s"] < 61)
    return hour * 3600 + f["m"] * 60 + f["s"], ok


def _local_clock(toks: Tokens, idx: np.ndarray) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Hour, minute and second fields of `15時57分44秒` / `15时57分44秒` tokens, or of `15시 57분 44초`
    (three tokens one space apart on one line)."""
    out = {c: np.zeros(idx.size, np.int64) for c in "hms"}
    found = np.zeros(idx.size, bool)
    if idx.size == 0 or len(toks.tok_start) == 0 or not toks.data:
        return out, found
    for pattern in _CJK_CLOCKS:
        g, ok = fields(toks, idx, pattern)
        for c in "hms":
            out[c] = np.where(ok, g[c], out[c])
        found |= ok
    parts = [fields(toks, idx + j, p) for j, p in enumerate(_KO_CLOCK)]
    ko = parts[0][1] & parts[1][1] & parts[2][1]
    buf = np.frombuffer(toks.data, np.uint8)
    for j in (1, 2):  # one space between the parts: never tokens of the next line
        at, _ = _valid(toks, idx + j)
        prev, _ = _valid(toks, idx + j - 1)
        gap = toks.tok_end[prev]
        ko &= (toks.tok_start[at] == gap + 1) & (buf[np.minimum(gap, max(buf.size - 1, 0))] == 32)
    for j, c in enumerate("hms"):
        out[c] = np.where(ko & ~found, parts[j][0][c], out[c])
    return out, found | ko


_ISO_BODY = "yyyy-oo-ddThh:mm:ss"


def iso_times(toks: Tokens, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """ISO 8601 'YYYY-MM-DDTHH:MM:SS[Z|+HHMM|+HH:MM]' tokens -> (naive seconds, UTC offset seconds
    or NaN when the token has no zone, ok)."""
    idx, present = _valid(toks, idx)
    buf = np.frombuffer(toks.data, np.uint8)
    n = idx.size
    length = (
        np.where(present, toks.tok_end[idx] - toks.tok_start[idx], 0) if len(toks.tok_end) else np.zeros(n, np.int64)
    )
    body_ok = np.zeros(n, bool)
    naive = np.zeros(n, np.float64)
    offset = np.full(n, np.nan)
    if n == 0 or buf.size == 0 or len(toks.tok_start) == 0:
        return naive, offset, body_ok
    width = len(_ISO_BODY)
    pos = np.minimum(toks.tok_start[idx][:, None] + np.arange(width), buf.size - 1)
    ch = buf[pos].astype(np.int64)
    vals: dict[str, np.ndarray] = {}
    body_ok = present & (length >= width)
    for j, c in enumerate(_ISO_BODY):
        if c in "yodhms":
            digit = ch[:, j] - 48
            body_ok &= (digit >= 0) & (digit <= 9)
            vals[c] = vals.get(c, np.zeros(n, np.int64)) * 10 + digit
        else:
            body_ok &= ch[:, j] == ord(c)
    body_ok &= (vals["o"] >= 1) & (vals["o"] <= 12) & (vals["d"] >= 1) & (vals["d"] <= 31)
    body_ok &= (vals["h"] < 24) & (vals["m"] < 60) & (vals["s"] < 61)
    naive = (
        days_from_civil(vals["y"], vals["o"], vals["d"]) * 86400 + vals["h"] * 3600 + vals["m"] * 60 + vals["s"]
    ).astype(np.float64)
    # zone suffix: none, 'Z', '+HHMM' or '+HH:MM'
    zpos = np.minimum(toks.tok_start[idx][:, None] + width + np.arange(6), buf.size - 1)
    z = buf[zpos].astype(np.int64)
    rest = length - width
    sign = np.where(z[:, 0] == ord("-"), -1, 1)
    signed = (z[:, 0] == ord("+")) | (z[:, 0] == ord("-"))

    def dig(col: int) -> np.ndarray:
        return z[:, col] - 48

    digits4 = np.all((z[:, 1:5] >= 48) & (z[:, 1:5] <= 57), axis=1)
    colon = (z[:, 3] == ord(":")) & np.all((z[:, [1, 2, 4, 5]] >= 48) & (z[:, [1, 2, 4, 5]] <= 57), axis=1)
    off4 = sign * ((dig(1) * 10 + dig(2)) * 3600 + (dig(3) * 10 + dig(4)) * 60)
    off5 = sign * ((dig(1) * 10 + dig(2)) * 3600 + (dig(4) * 10 + dig(5)) * 60)
    offset = np.where((rest == 1) & (z[:, 0] == ord("Z")), 0.0, offset)
    offset = np.where((rest == 5) & signed & digits4, off4, offset)
    offset = np.where((rest == 6) & signed & colon, off5, offset)
    zone_ok = (rest == 0) | ~np.isnan(offset)
    return naive, offset, body_ok & zone_ok


# ja_JP and zh_CN print a date (strftime %x) as `2026年11月23日`, ko_KR as `2026년 11월 23일`
CJK_DATE = re.compile(r"(\d{4})(?:年|년 )(\d\d)(?:月|월 )(\d\d)[日일]")
# a date first in a stamp: any of DATE_STYLES' shapes, or a CJK date (spaces inside in ko_KR)
_STAMP_DATE = re.compile(rf"^(?:{CJK_DATE.pattern}|(\S+))\s+")


def iso_date(text: str) -> str:
    """A CJK locale's date as `YYYY-MM-DD`; any other text unchanged."""
    m = CJK_DATE.fullmatch(text)
    return f"{m[1]}-{m[2]}-{m[3]}" if m else text


def stamp_times(stamps: list[str], date: str | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Naive seconds of report stamps as sysstat's JSON prints them in any locale: `DATE CLOCK`
    (iostat -t) or `CLOCK` on the day of the header's `date` (mpstat), DATE and CLOCK as the locale
    prints %x and %X (`11/26/2026 10:45:07 AM`, `26.11.2026 10:45:07`, `2026年11月26日 10時45分05秒`,
    `2026년 11월 26일 10시 45분 04초` ...). Clock-only stamps roll over to the next day when the
    clock goes back by more than 12 hours. Returns (seconds, ok)."""
    days_text: list[str] = []
    clocks: list[str] = []
    for s in stamps:
        m = _STAMP_DATE.match(s) if date is None else None
        days_text.append(iso_date(m[0].rstrip() if m else date or ""))
        clocks.append(s[m.end() :] if m else s)
    if not all(days_text):  # a stamp without its date
        return np.zeros(len(stamps)), np.zeros(len(stamps), bool)
    style = pick_date_style(sorted(set(days_text)))
    day_toks = tokenize("\n".join(days_text).encode())
    days, ok = dates(day_toks, day_toks.tok_first[: len(stamps)], style) if style else (None, None)
    if days is None or ok is None or day_toks.n_lines != len(stamps):
        return np.zeros(len(stamps)), np.zeros(len(stamps), bool)
    toks = tokenize("\n".join(clocks).encode())
    firsts = toks.tok_first[: len(stamps)]
    ampm = firsts + 1 if len(stamps) and (toks.count[: len(stamps)] == 2).all() else None
    secs, cok = clock_times(toks, firsts, ampm)
    ok = ok & cok & (toks.n_lines == len(stamps))
    if date is not None:  # one day for every stamp: a clock that goes back is the next day
        prev = np.concatenate((secs[:1], secs[:-1]))
        days = days + np.cumsum((secs < prev) & (prev - secs > 43200))
    return (days * 86400 + secs).astype(np.float64), ok
