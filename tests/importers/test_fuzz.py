"""Fuzzing every importer and the format detection with hypothesis (issue #7).

What any input gets (PRODUCT.md "What bad input gets"; tests/ingest/test_garbage_lines.py and the
other bad-input tests there check it through a whole import): an importer either
raises FormatError (its one-line reason becomes a warning in app/ingest.py) or yields blocks and
line-numbered warnings. Never any other exception, and never a value the input does not hold.

Inputs: arbitrary bytes; "soup" files made of the lines and words of a format's real captures;
the real fixtures (tests/fixtures/<format>, ../shared/samples, the run folders) with lines deleted,
duplicated, cut, joined, shuffled, numbers replaced by huge / negative / NaN / inf / locale
variants (decimal comma, thousands separators), and re-encoded (UTF-16 with and without BOM,
Latin-1, UTF-8 BOM, CRLF, CR, NUL bytes).

The oracle (`check`):
- only FormatError (or the reader's own refusal of corrupt compressed data), with a one-line message;
- blocks are well formed: every value array as long as its time array, times finite, numbers,
  a metric name;
- a `line N:` warning points at a line the file has; a file with lines that gives no sample says
  why (a warning or a reader note);
- every finite value comes from the numbers of the input text (`Held`): a plain column equals one
  of them (a decimal comma read as a decimal point; iostat's sector and MB columns scaled by 0.5
  and 1024); a cumulative counter's rate is never negative and at most (sum of every number) /
  (smallest interval the times can have); sums of rows are bounded by that sum; InnoDB's
  checkpoint age is the difference of two LSNs. A decimal comma read as a thousands separator
  (2,25 -> 225) gives a number the text does not hold and fails here.
Two metamorphic properties on top: cutting the input into other chunks changes no series, and a
capture with decimal commas reads exactly like the same capture with decimal points. And one
differential property: the compiled token scanner and its pure-Python twin agree on any bytes.

Profiles: "quick" by default (derandomized, a few examples per test, the whole file in well under
a minute) and "long" with BENCHLENS_FUZZ=long (random, BENCHLENS_FUZZ_FACTOR times more examples,
default 20: about 8 minutes on 2 cores). The minimal failing inputs found are kept in
tests/fixtures/fuzz/ and replayed below; the oracle's own tests come last.
"""

from __future__ import annotations

import codecs
import contextlib
import functools
import io
import json
import math
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from benchlens import importers
from benchlens.app.clock import FolderClock
from benchlens.app.ingest import PROBE
from benchlens.importers import _read, _tokens
from benchlens.importers._read import CHUNK, HEAD, Reading, chunks, decode_head
from benchlens.importers._sysstat import detect_decimal
from benchlens.importers._types import WARNING_KINDS, Block, Context, FormatError, RawClock, SourceWarning
from tests.conftest import FIXTURES, SAMPLES

# ---- profiles -----------------------------------------------------------------------------------

_COMMON = {
    "deadline": None,
    "print_blob": True,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
}
settings.register_profile("benchlens-fuzz-quick", max_examples=10, derandomize=True, database=None, **_COMMON)
settings.register_profile("benchlens-fuzz-long", max_examples=1000, derandomize=False, **_COMMON)
LONG = os.environ.get("BENCHLENS_FUZZ", "quick") == "long"
PROFILE = settings.get_profile("benchlens-fuzz-long" if LONG else "benchlens-fuzz-quick")
FACTOR = int(os.environ.get("BENCHLENS_FUZZ_FACTOR", "20")) if LONG else 1


def examples(quick: int) -> settings:
    """This test's settings: `quick` examples in the quick profile, FACTOR times more in the long one."""
    return settings(PROFILE, max_examples=quick * FACTOR)


FORMATS = [f.name for f in importers.FORMATS]
BY_NAME = {f.name: f for f in importers.FORMATS}
DECIMAL_COMMA_FORMATS = ("iostat", "mpstat", "sar", "dbstress", "pidstat")  # the formats that document decimal commas
SNAPSHOT_FORMATS = ("innodb_status", "innodb_mutex", "global_status", "perfschema")  # counters -> rates
# pt-stalk /proc loops: counters -> rates and ratios of deltas (iostat/mpstat formulas), gauges as printed
PROC_FORMATS = ("diskstats", "procstat", "meminfo", "procvmstat")
SEED_LIMIT = 64 << 10  # a bigger capture is fuzzed through windows of this size: examples stay fast
SMALL = 16 << 10  # inputs read in chunks of a few bytes
REGRESSIONS = FIXTURES / "fuzz"


# ---- running an importer ------------------------------------------------------------------------


@dataclass
class Outcome:
    blocks: list[Block]
    ctx: Context
    notes: list[str]  # what the reader said (a cut last line, a huge line)
    error: Exception | None  # FormatError, or the reader's refusal


# The reader's own refusal of bytes it cannot trust (compressed data that is corrupt or unbounded:
# a file starting with gzip/xz/zstd/bzip2 magic bytes), where the reader has one.
READER_ERROR: type[Exception] = getattr(_read, "UnreadableCapture", FormatError)


def run(fmt: ModuleType, raw: bytes, size: int = CHUNK) -> Outcome:
    """Parse as app/ingest.py does (complete lines in chunks of `size`), with a fixed UTC clock.
    Any other exception than FormatError (or the reader's refusal) propagates: that is the failure
    the fuzzer looks for."""
    ctx = Context(FolderClock(UTC, "UTC (fuzz)", origin=0.0))
    reading = Reading()
    try:
        blocks = list(fmt.parse(chunks(io.BytesIO(raw), reading, size), ctx))
    except (FormatError, READER_ERROR) as e:
        return Outcome([], ctx, reading.notes, e)
    return Outcome(blocks, ctx, reading.notes, None)


def merged(blocks: list[Block]) -> dict[tuple[str, str], tuple[np.ndarray, np.ndarray]]:
    """Every series as (t, v), the pieces of all blocks joined in the order they came."""
    parts: dict[tuple[str, str], list[tuple[np.ndarray, np.ndarray]]] = {}
    for b in blocks:
        for m, v in b.values.items():
            parts.setdefault((b.entity, m), []).append((b.t, v))
    return {k: (np.concatenate([t for t, _ in p]), np.concatenate([v for _, v in p])) for k, p in parts.items()}


# ---- the numbers a text holds -------------------------------------------------------------------

_DOT_NUMBER = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")
_COMMA_NUMBER = re.compile(r"[-+]?(?:\d+,\d*|,\d+)")
_DIGITS = re.compile(r"\d+")
_TWO_PART = re.compile(r"(\d{1,20})[ \t]+(\d{1,20})")  # MySQL 5.0 LSN: high low = high * 2**32 + low
_EPOCH = 1e8  # TS markers print epochs of 9 to 11 digits, with fractions


def _floats(texts: list[str]) -> list[float]:
    out = []
    for s in texts:
        with contextlib.suppress(ValueError, OverflowError):  # 10**5000: too long for int(), not float()
            out.append(float(s.replace(",", ".")))
    return out


@dataclass
class Held:
    """What the importers may make of a text's numbers."""

    values: np.ndarray  # sorted distinct finite numbers: every token, with `.` or `,` as decimal mark
    total: float  # the sum of |n| over every occurrence: bounds any sum of them, any difference of sums
    gap: float  # the smallest interval between two snapshot times: 1 s, or two fractional TS epochs
    infinite: bool  # the text holds a number too big for a float, or the word inf

    @classmethod
    def of(cls, raw: bytes, two_part: bool = False) -> Held:
        found: list[float] = []
        occurrences: list[float] = []
        for text in {raw.decode("utf-8", "replace"), raw.decode("latin-1")}:
            dots = _floats(_DOT_NUMBER.findall(text))
            commas = _floats(_COMMA_NUMBER.findall(text))
            found += dots + commas + _floats(_DIGITS.findall(text))
            occurrences += dots + commas
            if two_part:
                found += [_two_part(a, b) for a, b in _TWO_PART.findall(text)]
        arr = np.array(found, np.float64)
        finite = np.unique(arr[np.isfinite(arr)])
        occ = np.abs(np.array(occurrences, np.float64))
        gap = _smallest_interval(finite[finite >= _EPOCH])
        with np.errstate(over="ignore"):
            total = float(occ[np.isfinite(occ)].sum()) + float(np.abs(finite).sum())
        lower = raw.lower()
        infinite = bool((~np.isfinite(arr)).any()) or b"inf" in lower or bool(finite.size and finite[-1] > 1e300)
        return cls(finite, total, gap, infinite)

    def contains(self, v: np.ndarray, factor: float = 1.0) -> np.ndarray:
        """Which of `v` equal factor x a held number (to a few ulps: the scanner and float() may round
        differently in the last bit)."""
        with np.errstate(over="ignore"):  # 1e306 x 1024
            ref = self.values * factor
        if ref.size == 0:
            return np.zeros(v.shape, bool)
        i = np.searchsorted(ref, v)
        lo, hi = ref[np.clip(i - 1, 0, ref.size - 1)], ref[np.clip(i, 0, ref.size - 1)]
        tol = 1e-9 * np.maximum(np.abs(v), 1e-300)
        return (np.abs(lo - v) <= tol) | (np.abs(hi - v) <= tol)

    def differences(self, v: np.ndarray) -> np.ndarray:
        """Which of `v` are a - b for two held numbers (checkpoint age = LSN - last checkpoint)."""
        out = np.zeros(v.shape, bool)
        for k, x in enumerate(v):
            wanted = self.values - x  # b = a - x must be held too
            i = np.clip(np.searchsorted(self.values, wanted), 0, self.values.size - 1)
            near = np.minimum(np.abs(self.values[i] - wanted), np.abs(self.values[np.maximum(i - 1, 0)] - wanted))
            out[k] = bool((near <= 1e-9 * np.maximum(np.abs(self.values), 1.0)).any())
        return out


def _smallest_interval(epochs: np.ndarray) -> float:
    """The smallest positive interval between two snapshot times: times are whole seconds (dates,
    report numbers) or TS epochs with fractions, so 1 s, two TS epochs apart, or a TS epoch and the
    whole second next to it."""
    steps = np.diff(epochs)
    frac = epochs % 1.0
    candidates = np.concatenate(([1.0], steps[steps > 0], frac[frac > 0], 1.0 - frac[frac > 0]))
    return float(candidates.min())


def _two_part(high: str, low: str) -> float:
    return float((int(high) << 32) + int(low))


# ---- the oracle ---------------------------------------------------------------------------------

FACTORS = {
    "iostat": (1.0, 0.5, 1024.0),  # rsec/s -> rkB/s, rMB/s -> rkB/s (importers/iostat.py CONVERT)
    "sar": (1.0, 0.5, 1 / 1024),  # rd_sec/s -> rkB/s, avgrq-sz -> areq-sz, rxbyt/s -> rxkB/s (_sysstat.SAR_CONVERT)
    # dstat's unit suffixes k/M/G/T/P in 1000s or 1024s (importers/dstat.py)
    "dstat": (1.0, *(float(b) ** p for b in (1000, 1024) for p in range(1, 6))),
    "hammerdb": (1.0, 1 / 60),  # tps = tpm / 60
}


def kind_of(fmt: str, metric: str, ctx: Context) -> str:
    """How a series' values relate to the numbers of the text (see the module docstring)."""
    if fmt in SNAPSHOT_FORMATS:
        if metric == "AVG_TIMER_WAIT":
            return "non-negative"  # recomputed from two rates
        if ctx.units.get(metric, "").endswith("/s"):
            return "rate"
        if fmt == "innodb_status" and metric == "checkpoint_age":
            return "difference"
        if fmt in ("innodb_mutex", "perfschema"):
            return "sum"  # rows of one name summed (one per instance or thread)
        if fmt == "global_status" and any("mysqladmin -r" in v for v in ctx.variant):
            return "sum"  # differences added back up
        return "token"
    if fmt in PROC_FORMATS:
        # diskstats: every metric is a delta over an interval or over another delta (await, areq-sz,
        # %rrqm), never above (sum of every number) / (smallest interval); the others' gauges are tokens
        gauge = fmt != "diskstats" and ctx.units.get(metric, "") in ("", "kB", "pages")
        return "token" if gauge else "rate"
    if fmt == "tpcc" and metric == "tps":
        return "ratio"  # New-Order count / interval
    if fmt == "vmstat" and "summary snapshots (-s)" in ctx.variant and ctx.units.get(metric, "").endswith("/s"):
        return "rate"  # `vmstat -s` loops: counters since boot -> rates (importers/_vmstat_s.py)
    return "token"  # the rest as printed: vmstat, iostat, mpstat, sar, pidstat (every column) ...


def bad_values(fmt: str, metric: str, v: np.ndarray, held: Held, ctx: Context) -> str | None:
    """Why some values of a series cannot come from the text, or None."""
    kind = kind_of(fmt, metric, ctx)
    with np.errstate(over="ignore"):  # bounds of texts that hold 1e308
        return _bad_values(kind, fmt, v, held)


def _bad_values(kind: str, fmt: str, v: np.ndarray, held: Held) -> str | None:
    infinite = np.isinf(v)
    if infinite.any() and not held.infinite:
        return f"{kind} values {v[infinite][:3].tolist()} are infinite but the text holds no huge number"
    x = v[np.isfinite(v)]
    if x.size == 0:
        return None
    if kind == "token":
        ok = np.zeros(x.shape, bool)
        for f in FACTORS.get(fmt, (1.0,)):
            ok |= held.contains(x, f)
    elif kind == "difference":
        ok = held.contains(x) | ((x >= 0) & held.differences(x))
    elif kind == "rate":
        ok = (x >= 0) & (x <= held.total / held.gap * (1 + 1e-9))
    elif kind == "sum":
        ok = np.abs(x) <= held.total * (1 + 1e-9)
    elif kind == "ratio":
        ok = (x >= 0) & (x <= (held.values.max(initial=0.0)) * (1 + 1e-9))
    else:
        ok = x >= 0
    if ok.all():
        return None
    wrong = x[~ok][:3].tolist()
    hint = ""
    if kind == "token" and held.contains(x[~ok] / 100).any():
        hint = " (x100: a decimal comma read as a thousands separator?)"
    if kind == "token":
        return f"values {wrong} are no number of the text{hint}"
    return f"{kind} values {wrong} are out of the bounds the text's numbers allow"


def check(fmt: str, raw: bytes, out: Outcome) -> None:
    """The invariants every importer keeps on any input (see the module docstring)."""
    if out.error is not None:
        message = str(out.error)
        assert message.strip() and "\n" not in message, f"FormatError without a one-line reason: {message!r}"
    n_lines = raw.count(b"\n") + (not raw.endswith(b"\n"))  # an unterminated last line is a line too
    for w in out.ctx.warnings:
        assert isinstance(w, SourceWarning) and w.kind in WARNING_KINDS, w
        if w.line is not None:
            assert 1 <= w.line <= n_lines, f"{str(w)!r}: the input has {n_lines} lines"
    complete = raw[: raw.rfind(b"\n") + 1].removeprefix(codecs.BOM_UTF8)
    settings = out.ctx.meta.settings  # the `config` format's output: settings, no series
    if complete.strip() and not sum(len(b.t) for b in out.blocks) and not settings and out.error is None:
        assert out.ctx.warnings or out.notes, "a file with lines gave nothing and no warning says why"
    if settings:
        text = raw.decode("utf-8", "replace")
        for x in settings:  # every name and value is the text's (JSON-escaped in benchlens-run.json)
            for said in (x.name if x.scope != "benchmark" else "", x.value):
                parts = said.split("***")  # a password hidden (importers/config.py)
                held = all(p in text or json.dumps(p)[1:-1] in text for p in parts)
                assert held or said == "ON", f"setting {x} not in the text"
    held: Held | None = None
    for b in out.blocks:
        assert isinstance(b, Block) and isinstance(b.entity, str), b
        t = np.asarray(b.t)
        assert t.ndim == 1 and t.dtype.kind == "f", (b.entity, t.dtype, t.shape)
        assert np.isfinite(t).all(), f"{b.entity!r}: times {t[~np.isfinite(t)][:3]}"
        for metric, v in b.values.items():
            assert isinstance(metric, str) and metric, f"{b.entity!r}: a series without a metric name"
            v = np.asarray(v)
            assert v.shape == t.shape, f"{b.entity!r} {metric}: {v.shape} values for {t.shape} times"
            assert v.dtype.kind in "fiu", f"{b.entity!r} {metric}: dtype {v.dtype}"
            v = v.astype(np.float64)
            if not np.isnan(v).all():
                held = held or Held.of(raw, two_part=fmt == "innodb_status")
                why = bad_values(fmt, metric, v, held, out.ctx)
                assert why is None, f"{fmt} {b.entity!r} {metric}: {why}"


def check_parse(fmt: str, raw: bytes, size: int = CHUNK) -> Outcome:
    out = run(BY_NAME[fmt], raw, size)
    check(fmt, raw, out)
    return out


# ---- seeds: the real captures -------------------------------------------------------------------


def _lines(raw: bytes) -> list[bytes]:
    """Lines with their newline (the last one may have none)."""
    return [p for p in re.split(rb"(?<=\n)", raw) if p]


@functools.cache
def seeds() -> dict[str, tuple[bytes, ...]]:
    """The captures of each format: fixtures, shared samples, and the files of the run folders
    (assigned by content, as a folder import does)."""
    paths: dict[str, list[Path]] = {name: sorted((FIXTURES / name).glob("*.txt")) for name in FORMATS}
    paths["dstat"] += sorted((FIXTURES / "dstat").glob("*.csv"))  # its --output CSV
    for name in FORMATS:
        if (SAMPLES / name).is_dir():
            paths[name] += sorted(p for p in (SAMPLES / name).iterdir() if p.is_file())
    for p in sorted((FIXTURES / "runs").glob("*/*.log")):
        head = decode_head(p.read_bytes()[:HEAD])
        fmt = importers.detect(head) if head else None
        if fmt is not None:
            paths[fmt.name].append(p)
    return {name: tuple(p.read_bytes() for p in ps) for name, ps in paths.items()}


@functools.cache
def all_seeds() -> tuple[bytes, ...]:
    return tuple(raw for name in FORMATS for raw in seeds()[name])


@functools.cache
def vocabulary(fmt: str) -> tuple[str, ...]:
    """The most common words of a format's captures (labels, column names, units, numbers)."""
    words: Counter[str] = Counter()
    for raw in seeds()[fmt]:
        words.update(raw[:SEED_LIMIT].decode("utf-8", "replace").split())
    return tuple(sorted(w for w, _ in words.most_common(400)))


@st.composite
def seed(draw: st.DrawFn, fmt: str) -> list[bytes]:
    """The lines of a capture of `fmt` (now and then of another format), or of a window of it."""
    pool = seeds()[fmt] if draw(st.integers(0, 9)) else all_seeds()
    raw = draw(st.sampled_from(pool))
    lines = _lines(raw)
    if len(raw) <= SEED_LIMIT:
        return lines
    start = draw(st.integers(0, len(lines) - 1))
    window, size = lines[:3], 0
    for line in lines[max(start, 3) :]:
        size += len(line)
        if size > SEED_LIMIT:
            break
        window.append(line)
    return window


# ---- mutations ----------------------------------------------------------------------------------

GARBAGE = st.one_of(
    st.binary(max_size=80).map(lambda b: b.replace(b"\n", b" ")),
    st.sampled_from(
        [
            b"",
            b"   \t ",
            b"ERROR: disk full",
            b"\x1b[2J\x1b[H\x07",
            "Ger\xe4t nicht gefunden: caf\xe9".encode("latin-1"),
            "Durchschn.: ü".encode(),
            b"\x00" * 40,
            b"+----+----+",
            b"| a | b |",
            b"*************************** 1. row ***************************",
            b"TS 1795318300.5 2026-11-22 03:31:40",
            b"2026-11-22T02:09:24+0000",
            b"Sun Nov 22 02:09:24 UTC 2026",
            b"Linux 6.1.0 (host) \t11/22/26 \t_x86_64_\t(2 CPU)",
            b"Device            r/s     w/s",
            b"avg-cpu:  %user   %nice %system %iowait  %steal   %idle",
            b"12:00:00 AM  CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle",
            b"procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----",
            b" r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st",
            b"Variable_name\tValue",
            b"------------",
            b"LOG",
            b"END OF INNODB MONITOR OUTPUT",
            b"2026-11-22 02:09:24 0x7f INNODB MONITOR OUTPUT",
            b"[ 1s ] thds: 4 tps: 1.00 qps: 1.00 (r/w/o: 1.00/0.00/0.00) lat (ms,95%): 1.00 err/s: 0.00 reconn/s: 0.00",
            b"  10, trx: 12, 95%: 9.483, 99%: 18.738, max_rt: 213.169, 1|98.778, 1|101.654, 1|215.097, 1|288.876",
            b"time,users,tps,SEL1,SEL2,UPD",
            b"{",
            b'{"sysstat": {"hosts": [',
        ]
    ),
)

# What a number may turn into: huge, negative, not a number, another locale's writing of it.
NUMBER_FORMS = {
    "huge": lambda tok, draw: draw(
        st.sampled_from(
            [b"9" * 20, b"18446744073709551616", b"1" + b"0" * 400, b"9" * 5000, b"1e308", b"1e309", b"1.8e308"]
        )
    ),
    "negative": lambda tok, draw: b"-" + tok,
    "not a number": lambda tok, draw: draw(
        st.sampled_from([b"nan", b"NaN", b"-nan", b"NULL", b"inf", b"-inf", b"Infinity", b"-"])
    ),
    "decimal comma": lambda tok, draw: tok.replace(b".", b",") if b"." in tok else tok + b",5",
    "decimal point": lambda tok, draw: tok.replace(b",", b"."),
    "thousands": lambda tok, draw: _thousands(tok, draw),
    "exponent": lambda tok, draw: f"{float(tok.replace(b',', b'.')):e}".encode(),
    "out of range": lambda tok, draw: draw(st.sampled_from([b"0", b"00", b"13", b"24", b"32", b"60", b"99", b"0000"])),
    "other forms": lambda tok, draw: draw(
        st.sampled_from([b"+" + tok, b".5", b"5.", b"0x1A", b"1_000", "１２".encode(), "٣".encode(), b"1e-320"])
    ),
    "long fraction": lambda tok, draw: tok + b"." + b"9" * 30 if b"." not in tok else tok + b"9" * 30,
    "any": lambda tok, draw: repr(draw(st.floats(allow_nan=True, allow_infinity=True))).encode(),
}
_NUMBER_TOKEN = re.compile(rb"\d+(?:[.,]\d+)?")


def _thousands(tok: bytes, draw: st.DrawFn) -> bytes:
    sep = draw(st.sampled_from([",", ".", " ", "\u202f", "\xa0", "'"]))
    x = float(tok.replace(b",", b"."))
    whole = (int(x * 1000) if x < 1e15 else 0) + 1234567
    return f"{whole:,}".replace(",", sep).encode()


def replace_number(draw: st.DrawFn, line: bytes) -> bytes:
    found = list(_NUMBER_TOKEN.finditer(line))
    if not found:
        return line
    m = draw(st.sampled_from(found))
    form = draw(st.sampled_from(sorted(NUMBER_FORMS)))
    return line[: m.start()] + NUMBER_FORMS[form](m.group(), draw) + line[m.end() :]


def _at(draw: st.DrawFn, lines: list[bytes]) -> int:
    return draw(st.integers(0, max(len(lines) - 1, 0)))


def _delete(draw: st.DrawFn, lines: list[bytes]) -> None:
    i = _at(draw, lines)
    del lines[i : i + draw(st.integers(1, 8))]


def _delete_span(draw: st.DrawFn, lines: list[bytes]) -> None:
    i, j = sorted((_at(draw, lines), _at(draw, lines)))
    del lines[i:j]


def _duplicate(draw: st.DrawFn, lines: list[bytes]) -> None:
    i = _at(draw, lines)
    lines[i:i] = lines[i : i + draw(st.integers(1, 8))]


def _copy(draw: st.DrawFn, lines: list[bytes]) -> None:
    if lines:
        lines.insert(_at(draw, lines), lines[_at(draw, lines)])


def _shuffle(draw: st.DrawFn, lines: list[bytes]) -> None:
    i = _at(draw, lines)
    n = draw(st.integers(2, 12))
    lines[i : i + n] = draw(st.permutations(lines[i : i + n]))


def _cut_line(draw: st.DrawFn, lines: list[bytes]) -> None:
    """A line cut short and the capture going on (a writer killed and restarted)."""
    if lines:
        i = _at(draw, lines)
        lines[i] = lines[i][: draw(st.integers(0, len(lines[i])))].rstrip(b"\n") + b"\n"


def _truncate(draw: st.DrawFn, lines: list[bytes]) -> None:
    """The file ends inside a line (killed capture, copy of a file being written)."""
    if lines:
        i = _at(draw, lines)
        lines[i:] = [lines[i][: draw(st.integers(0, len(lines[i])))]]


def _join(draw: st.DrawFn, lines: list[bytes]) -> None:
    i = _at(draw, lines)
    if i + 1 < len(lines):
        lines[i : i + 2] = [lines[i].rstrip(b"\n") + lines[i + 1]]


def _split(draw: st.DrawFn, lines: list[bytes]) -> None:
    if lines:
        i = _at(draw, lines)
        k = draw(st.integers(0, len(lines[i])))
        lines[i : i + 1] = [lines[i][:k] + b"\n", lines[i][k:]]


def _garbage(draw: st.DrawFn, lines: list[bytes]) -> None:
    lines.insert(_at(draw, lines), draw(GARBAGE) + b"\n")


def _number(draw: st.DrawFn, lines: list[bytes]) -> None:
    if lines:
        i = _at(draw, lines)
        lines[i] = replace_number(draw, lines[i])


LINE_OPS = (_delete, _delete_span, _duplicate, _copy, _shuffle, _cut_line, _truncate)
STRUCTURAL = (*LINE_OPS, _join, _split, _garbage)
MUTATIONS = (*STRUCTURAL, _number, _number)


@st.composite
def mutated(draw: st.DrawFn, fmt: str, ops: tuple[Callable[[st.DrawFn, list[bytes]], None], ...] = MUTATIONS) -> bytes:
    lines = list(draw(seed(fmt)))
    for op in draw(st.lists(st.sampled_from(ops), min_size=1, max_size=6)):
        op(draw, lines)
    return b"".join(lines)


@st.composite
def soup(draw: st.DrawFn, fmt: str) -> bytes:
    """A file of a format's own lines and words in any order: deep enough to reach past the header
    checks, random enough to meet states no capture shows."""
    words = st.one_of(
        st.sampled_from(vocabulary(fmt)),
        st.integers(-(10**12), 10**12).map(str),
        st.floats(allow_nan=False, allow_infinity=False, width=32).map(lambda x: f"{x:.2f}"),
    )
    sep = st.sampled_from([" ", "  ", "\t", " | ", ",", ";", ": "])
    word_line = st.builds(lambda ws, s: s.join(ws).encode(), st.lists(words, max_size=12), sep)
    real_line = st.sampled_from(all_seeds()).flatmap(lambda raw: st.sampled_from(_lines(raw[:SEED_LIMIT])))
    lines = draw(st.lists(st.one_of(word_line.map(lambda b: b + b"\n"), real_line), max_size=40))
    return b"".join(lines)


def _insert_nuls(draw: st.DrawFn, raw: bytes) -> bytes:
    for _ in range(draw(st.integers(1, 5))):
        k = draw(st.integers(0, len(raw)))
        raw = raw[:k] + b"\x00" * draw(st.integers(1, 600)) + raw[k:]
    return raw


def _zero_block(draw: st.DrawFn, raw: bytes) -> bytes:
    """A crash leaves a zero-filled block in a text file."""
    k = draw(st.integers(0, len(raw)))
    n = draw(st.integers(1, 4096))
    return raw[:k] + b"\x00" * n + raw[k + n :]


def _latin1(draw: st.DrawFn, raw: bytes) -> bytes:
    text = raw.decode("utf-8", "replace")
    for _ in range(draw(st.integers(1, 4))):
        k = draw(st.integers(0, len(text)))
        text = text[:k] + draw(st.sampled_from(["ä", "é", "Gerät", "µs", "°C", "ß"])) + text[k:]
    return text.encode("latin-1", "replace")


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


ENCODINGS: dict[str, Callable[[st.DrawFn, bytes], bytes]] = {
    "utf-16-le": lambda draw, raw: _text(raw).encode("utf-16-le"),
    "utf-16-le with BOM": lambda draw, raw: codecs.BOM_UTF16_LE + _text(raw).encode("utf-16-le"),
    "utf-16-be": lambda draw, raw: _text(raw).encode("utf-16-be"),
    "utf-16-be with BOM": lambda draw, raw: codecs.BOM_UTF16_BE + _text(raw).encode("utf-16-be"),
    "utf-32": lambda draw, raw: _text(raw).encode("utf-32"),
    "latin-1": _latin1,
    "utf-8 BOM": lambda draw, raw: codecs.BOM_UTF8 + raw,
    "CRLF": lambda draw, raw: raw.replace(b"\n", b"\r\n"),
    "CR": lambda draw, raw: raw.replace(b"\n", b"\r"),
    "NUL bytes": _insert_nuls,
    "zero-filled block": _zero_block,
    "form feeds and NEL": lambda draw, raw: raw.replace(b"\n", draw(st.sampled_from([b"\x0c\n", b"\xc2\x85\n"])), 3),
}


@st.composite
def encoded(draw: st.DrawFn, fmt: str) -> bytes:
    raw = draw(mutated(fmt, STRUCTURAL)) if draw(st.booleans()) else b"".join(draw(seed(fmt)))
    return ENCODINGS[draw(st.sampled_from(sorted(ENCODINGS)))](draw, raw)


# ---- properties ---------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
@examples(40)
@given(raw=st.binary(max_size=2048))
def test_arbitrary_bytes(fmt: str, raw: bytes) -> None:
    check_parse(fmt, raw)


@pytest.mark.parametrize("fmt", FORMATS)
@examples(40)
@given(data=st.data())
def test_soup_of_the_formats_own_lines_and_words(fmt: str, data: st.DataObject) -> None:
    raw = data.draw(soup(fmt))
    check_parse(fmt, raw)


@pytest.mark.parametrize("fmt", FORMATS)
@examples(50)
@given(data=st.data())
def test_real_captures_mutated(fmt: str, data: st.DataObject) -> None:
    """Lines deleted, duplicated, shuffled, cut, joined, split, garbage inserted, numbers replaced."""
    raw = data.draw(mutated(fmt))
    check_parse(fmt, raw)


@pytest.mark.parametrize("fmt", FORMATS)
@examples(30)
@given(data=st.data())
def test_numbers_replaced(fmt: str, data: st.DataObject) -> None:
    """Only numbers changed: huge, negative, NaN, inf, decimal comma, thousands separators ..."""
    raw = data.draw(mutated(fmt, (_number,)))
    check_parse(fmt, raw)


@pytest.mark.parametrize("fmt", FORMATS)
@examples(25)
@given(data=st.data())
def test_encodings(fmt: str, data: st.DataObject) -> None:
    """UTF-16/32 with and without BOM, Latin-1, UTF-8 BOM, CRLF, CR, NUL bytes, zero-filled blocks."""
    raw = data.draw(encoded(fmt))
    check_parse(fmt, raw)


def _first_chunk(raw: bytes, size: int) -> bytes:
    return next(chunks(io.BytesIO(raw), Reading(), size), b"")


def _peeks_alike(fmt: str, raw: bytes, size: int) -> bool:
    """Whether the importer's look at the first chunk (iostat/mpstat/sar/pidstat: decimal mark and JSON;
    perfschema: mysqldump) decides the same for a first chunk of `size` as for the whole file."""
    first, whole = _first_chunk(raw, size)[:HEAD], _first_chunk(raw, CHUNK)[:HEAD]
    if fmt in ("iostat", "mpstat", "sar", "pidstat"):
        a, b = first.decode("utf-8", "replace"), whole.decode("utf-8", "replace")
        return detect_decimal(a) == detect_decimal(b) and a.lstrip().startswith("{") == b.lstrip().startswith("{")
    if fmt == "perfschema":
        insert = re.compile(rb"^INSERT INTO", re.M | re.I)
        return bool(insert.search(first)) == bool(insert.search(whole))
    return True


def assert_same_series(got: Outcome, want: Outcome, where: str) -> None:
    a, b = merged(got.blocks), merged(want.blocks)
    assert set(a) == set(b), f"{where}: series {sorted(set(a) ^ set(b))[:4]} differ"
    for key, (t, v) in b.items():
        assert np.array_equal(a[key][0], t), f"{where}: times of {key}"
        assert np.array_equal(a[key][1], v, equal_nan=True), f"{where}: values of {key}: {a[key][1][:6]} vs {v[:6]}"


@pytest.mark.parametrize("fmt", FORMATS)
@examples(20)
@given(data=st.data())
def test_chunk_boundaries_change_nothing(fmt: str, data: st.DataObject) -> None:
    """Read in pieces of any size (a 2 GB file is read in 4 MiB chunks), a file gives the same
    series as read in one piece: the state carried from chunk to chunk is complete."""
    raw = data.draw(mutated(fmt, STRUCTURAL))[:SMALL]  # one line per chunk: keep it small
    size = data.draw(st.integers(1, max(len(raw), 1)))
    whole = check_parse(fmt, raw)
    pieces = check_parse(fmt, raw, size)
    if not _peeks_alike(fmt, raw, size):
        return
    assert (whole.error is None) == (pieces.error is None), (whole.error, pieces.error)
    assert_same_series(pieces, whole, f"chunks of {size} bytes")


_DOT_TOKEN = re.compile(rb"(?<![^\s;])(-?\d+)\.(\d*)(?![^\s;])")
# MM/DD/YYYY is en_US: a decimal comma next to it means DD/MM/YYYY (fr_FR), see _times.pick_date_style;
# so does MM/DD/YY whose day could be a month (es_ES's DD/MM/YY, tests/importers/test_day_first_short_years.py)
_EN_US_DATE = re.compile(rb"\b\d\d/\d\d/\d{4}\b|\b(?:0\d|1[0-2])/(?:0\d|1[0-2])/\d\d\b")


@functools.cache
def dot_seeds(fmt: str) -> tuple[bytes, ...]:
    """Captures of `fmt` with decimal points and a separator a decimal comma cannot be confused with."""
    out = []
    for raw in seeds()[fmt]:
        head = raw[:HEAD].decode("utf-8", "replace")
        comma_separated = fmt == "dbstress" and "," in head and ";" not in head and "\t" not in head
        json = head.lstrip().startswith("{")
        usable = detect_decimal(head) == "." and _DOT_TOKEN.search(raw) and not _EN_US_DATE.search(raw[:HEAD])
        if usable and not json and not comma_separated:
            out.append(raw[:SEED_LIMIT])
    return tuple(out)


@pytest.mark.parametrize("fmt", DECIMAL_COMMA_FORMATS)
@examples(30)
@given(data=st.data())
def test_decimal_comma_reads_like_the_point(fmt: str, data: st.DataObject) -> None:
    """The same capture printed under LC_NUMERIC=de_DE (2,25 for 2.25) gives the same series:
    a decimal comma is never a thousands separator (x100) and never ends a number (2)."""
    lines = _lines(data.draw(st.sampled_from(dot_seeds(fmt))))
    # lines moved, repeated, dropped or cut, never joined: a data row glued to a header line would
    # make its numbers column names, and `2,25` in a name changes the name, not a value
    for op in data.draw(st.lists(st.sampled_from(LINE_OPS), max_size=4)):
        op(data.draw, lines)
    lines[:-1] = [line if line.endswith(b"\n") else line + b"\n" for line in lines[:-1]]  # a cut line stays cut
    dot = b"".join(lines)
    comma = _DOT_TOKEN.sub(rb"\1,\2", dot)
    assert_same_series(check_parse(fmt, comma), check_parse(fmt, dot), "decimal comma")


@examples(100)
@given(
    data=st.data(),
    source=st.sampled_from(["bytes", "soup", "mutated", "encoded"]),
    fmt=st.sampled_from(FORMATS),
)
def test_detection_and_the_importer_it_picks(data: st.DataObject, source: str, fmt: str) -> None:
    """What app/ingest.py does with any file: the head is text or refused, the scores are in
    [0, 1], detection names one format, none, or says it is ambiguous, and the importer picked
    reads the head with a raw clock and the whole file keeping the invariants."""
    strategy = {"bytes": st.binary(max_size=4096), "soup": soup(fmt), "mutated": mutated(fmt), "encoded": encoded(fmt)}
    raw = data.draw(strategy[source])
    head = decode_head(raw[:HEAD])
    if head is None:
        return
    scores = importers.scores(head)
    assert all(isinstance(s, float) and 0.0 <= s <= 1.0 and not math.isnan(s) for s in scores.values()), scores
    try:
        picked = importers.detect(head)
    except importers.AmbiguousFormat as e:
        assert "several formats" in str(e)
        return
    if picked is not None:
        assert picked in importers.FORMATS
        probe(picked, raw)
        check_parse(picked.name, raw)


def probe(fmt: ModuleType, raw: bytes) -> None:
    """app/ingest.py first reads a file's head with a raw clock (zone evidence, launch time): only
    FormatError may come out of that either."""
    ctx = Context(RawClock())
    with contextlib.suppress(FormatError, READER_ERROR):
        for block in fmt.parse(chunks(io.BytesIO(raw[: raw.rfind(b"\n", 0, PROBE) + 1])), ctx):
            assert len(block.t) == len(next(iter(block.values.values()), block.t))


# What the token scanner sees: runs of digits with a decimal mark, signs, words, and any bytes.
NUMBERISH = st.from_regex(rb"\A[-+]?[0-9]{0,18}(?:[.,][0-9]{0,18})?\Z")
SCANNED_LINE = st.lists(
    st.one_of(NUMBERISH, st.sampled_from([b"x", b"sda", b"-", b".", b",", b"+.", b"1e5"]), st.binary(max_size=6)),
    max_size=12,
).map(lambda words: b" ".join(words) + b"\n")


@pytest.mark.skipif(not _tokens.HAS_COMPILED_CORE, reason="compiled core not built")
@examples(60)
@given(data=st.data(), decimal=st.sampled_from(".,"))
def test_compiled_scanner_and_its_python_twin_agree(data: st.DataObject, decimal: str) -> None:
    """importers/_scan.c and tokenize_py give the same arrays on any bytes, and every number token
    is the float Python reads from its text (the fast path rounds like float())."""
    raw = data.draw(
        st.one_of(
            st.binary(max_size=512),
            st.lists(SCANNED_LINE, max_size=20).map(b"".join),
            mutated(data.draw(st.sampled_from(FORMATS)), (_number, _cut_line, _garbage)).map(lambda b: b[:SMALL]),
        )
    )
    c, py = _tokens.tokenize_c(raw, decimal), _tokens.tokenize_py(raw, decimal)
    for name in ("line_start", "line_end", "line_numeric", "tok_first", "tok_start", "tok_end", "kind", "hash"):
        assert np.array_equal(getattr(c, name), getattr(py, name)), name
    assert np.array_equal(c.val, py.val, equal_nan=True)
    toks = _tokens.tokenize(raw, decimal)
    for i in np.flatnonzero(toks.kind == _tokens.KIND_NUMBER):
        text = raw[toks.tok_start[i] : toks.tok_end[i]]
        assert toks.val[i] == float(text.replace(decimal.encode(), b".")), text


# ---- regressions found by the fuzzer ------------------------------------------------------------


def _regression_format(path: Path) -> str:
    """`<format>_<what broke>.txt`: the importer the file broke."""
    return max((f for f in FORMATS if path.name.startswith(f + "_")), key=len)


def _regressions() -> list[Path]:
    return sorted(p for p in REGRESSIONS.glob("*.txt")) if REGRESSIONS.is_dir() else []


def test_every_regression_fixture_is_listed_in_the_manifest() -> None:
    manifest = (REGRESSIONS / "MANIFEST.md").read_text()
    for path in _regressions():
        assert f"`{path.name}`" in manifest, path.name
        assert _regression_format(path) in FORMATS


@pytest.mark.parametrize("path", _regressions(), ids=lambda p: p.name)
def test_fuzz_regression_replays(path: Path) -> None:
    """Each minimal input the fuzzer found, read whole and in small chunks, keeps the invariants."""
    fmt = _regression_format(path)
    raw = path.read_bytes()
    whole = check_parse(fmt, raw)
    for size in (1, 7, 64):
        pieces = check_parse(fmt, raw, size)
        if _peeks_alike(fmt, raw, size):
            assert_same_series(pieces, whole, f"chunks of {size} bytes")


# ---- the oracle itself ----------------------------------------------------------------------------


@dataclass
class Sabotaged:
    """A fake importer that makes one known mistake: the oracle has to catch every one of them."""

    blocks: tuple[Block, ...] = ()
    warnings: tuple[SourceWarning, ...] = ()
    units: tuple[tuple[str, str], ...] = ()
    error: Exception | None = None

    def parse(self, chunks: object, ctx: Context) -> list[Block]:
        ctx.warnings.extend(self.warnings)
        ctx.units.update(dict(self.units))
        if self.error is not None:
            raise self.error
        return list(self.blocks)


def _block(v: float, t: float = 0.0, metric: str = "m") -> Block:
    return Block("", np.array([t]), {metric: np.array([v])})


MISTAKES = {
    "a decimal comma read as a thousands separator": ("dbstress", b"tps\n2,25\n", Sabotaged((_block(225.0),))),
    "a value the text does not hold": ("vmstat", b"1 2 3\n", Sabotaged((_block(7.0),))),
    "an infinite value from finite numbers": ("iostat", b"1 2\n", Sabotaged((_block(np.inf),))),
    "a negative rate": (
        "global_status",
        b"Com_select 5\n",
        Sabotaged((_block(-1.0, metric="Com_select"),), (), (("Com_select", "1/s"),)),
    ),
    "a rate beyond every number": (
        "perfschema",
        b"5 6\n",
        Sabotaged((_block(1e6, metric="COUNT_STAR"),), (), (("COUNT_STAR", "1/s"),)),
    ),
    "an infinite time": ("sysbench", b"1\n", Sabotaged((_block(1.0, t=np.inf),))),
    "fewer values than times": ("tpcc", b"1\n", Sabotaged((Block("", np.array([0.0, 1.0]), {"m": np.array([1.0])}),))),
    "a warning past the last line": (
        "mpstat",
        b"a\nb\n",
        Sabotaged((), (SourceWarning(3, "unreadable", "not an mpstat line"),)),
    ),
    "nothing read and nothing said": ("innodb_status", b"something\n", Sabotaged()),
    "a FormatError over two lines": ("iostat", b"x\n", Sabotaged(error=FormatError("bad\nJSON"))),
    "another exception": ("innodb_mutex", b"x\n", Sabotaged(error=ValueError("zip() argument 2 is shorter"))),
}


@pytest.mark.parametrize("mistake", sorted(MISTAKES))
def test_the_oracle_catches(mistake: str) -> None:
    """Each invariant the fuzzer relies on can fail: a sabotaged importer is caught."""
    fmt, raw, importer = MISTAKES[mistake]
    with pytest.raises((AssertionError, ValueError)):
        check(fmt, raw, run(importer, raw))  # type: ignore[arg-type]


def test_the_oracle_accepts_what_the_text_holds() -> None:
    """The same fake importer reading the values right passes (the mistakes above are the reason)."""
    good = Sabotaged((_block(2.25),))
    check("dbstress", b"tps\n2,25\n", run(good, b"tps\n2,25\n"))  # type: ignore[arg-type]
    rate = Sabotaged((_block(3.0, metric="Com_select"),), (), (("Com_select", "1/s"),))
    check("global_status", b"Com_select 5\nCom_select 8\n", run(rate, b"Com_select 5\nCom_select 8\n"))  # type: ignore[arg-type]
