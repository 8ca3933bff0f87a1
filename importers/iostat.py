"""iostat (sysstat): `iostat -x`, `iostat -d`, plain `iostat`, with or without `-t`, and `-o JSON`.

Variants covered (fixtures in tests/fixtures/iostat and ../shared/samples/iostat):
- extended columns of three generations: old (`rsec/s wsec/s avgrq-sz avgqu-sz await svctm`),
  10.x-11.5 (`Device:` with a colon, `rkB/s wkB/s r_await w_await`), 11.6+/12.x (`%rrqm`, `aqu-sz`,
  `rareq-sz`, discard `d*` and flush `f*` groups); the basic report (`tps kB_read/s ...`);
- `-k` / `-m` / sectors: converted to the kB names (`rMB/s` x1024 -> `rkB/s`, `rsec/s` /2 ->
  `rkB/s`, `Blk_read/s` /2 -> `kB_read/s`) so runs of different sysstat versions compare;
- `-t` timestamp lines in C (`11/22/26 02:09:24`), en_US (`11/22/2026 02:09:24 AM`), de_DE
  (`22.11.2026 02:09:24`), ISO (`2026-11-22T02:09:24+0000`) styles; no `-t` (report number only);
- the avg-cpu block (entity ""; its columns from the first `avg-cpu:` header naming them, values read
  only under headers naming the same), devices appearing and disappearing between reports, decimal comma;
- JSON (`-o JSON`: keys without `%` are mapped back to the text names).

Metrics are the column names in the current spelling (`avgqu-sz` -> `aqu-sz`), entity is the device.
Units: `/s` counts 1/s, `kB/s`, `*await`/`svctm` ms, `%*` percent, `*areq-sz` kB, `avgrq-sz` sectors.
The first report is the average since boot: it is dropped with a warning.
Not imported: `--human` values with unit suffixes (`222.1k`): those rows are reported as warnings.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from benchlens.importers import _sysstat as ss
from benchlens.importers._read import prepend
from benchlens.importers._times import CJK_DATE, clock_times, date_style, dates, iso_times, pick_date_style, stamp_times
from benchlens.importers._tokens import Tokens, fnv1a, tokenize, tokenized
from benchlens.importers._types import Block, Context, FormatError, Timing

name = "iostat"

RENAME = {"avgqu-sz": "aqu-sz", "Device:": "Device"}
# older or scaled spellings -> (current name, factor to the current unit)
CONVERT = {
    "rsec/s": ("rkB/s", 0.5),
    "wsec/s": ("wkB/s", 0.5),
    "dsec/s": ("dkB/s", 0.5),
    "rMB/s": ("rkB/s", 1024.0),
    "wMB/s": ("wkB/s", 1024.0),
    "dMB/s": ("dkB/s", 1024.0),
    "Blk_read/s": ("kB_read/s", 0.5),
    "Blk_wrtn/s": ("kB_wrtn/s", 0.5),
    "Blk_dscd/s": ("kB_dscd/s", 0.5),
    "Blk_read": ("kB_read", 0.5),
    "Blk_wrtn": ("kB_wrtn", 0.5),
    "Blk_dscd": ("kB_dscd", 0.5),
    "MB_read/s": ("kB_read/s", 1024.0),
    "MB_wrtn/s": ("kB_wrtn/s", 1024.0),
    "MB_dscd/s": ("kB_dscd/s", 1024.0),
    "MB_read": ("kB_read", 1024.0),
    "MB_wrtn": ("kB_wrtn", 1024.0),
    "MB_dscd": ("kB_dscd", 1024.0),
}
JSON_PERCENT = {"util", "rrqm", "wrqm", "drqm"}  # JSON drops the '%' of these device keys
H_DEVICE = {fnv1a(b"Device"), fnv1a(b"Device:")}
H_AVG = fnv1a(b"avg-cpu:")
_ISO = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d")
_CLOCK = re.compile(r"^\d\d:\d\d:\d\d$")
_HUMAN = re.compile(r"\s\d+(?:[.,]\d+)?[kMGTP%](?:\s|$)")
_DEVICE_HEADER = re.compile(r"^Device:?\s+(r/s|rrqm/s|tps)\s", re.M)


def unit(metric: str) -> str:
    if metric.startswith("%"):
        return "%"
    if "await" in metric or metric == "svctm":
        return "ms"
    if metric.endswith("kB/s") or metric in ("kB_read/s", "kB_wrtn/s", "kB_dscd/s"):
        return "kB/s"
    if metric.endswith("areq-sz") or metric in ("kB_read", "kB_wrtn", "kB_dscd"):
        return "kB"
    if metric == "avgrq-sz":
        return "sectors"
    if metric == "aqu-sz":
        return ""
    return "1/s" if metric.endswith("/s") or metric == "tps" else ""


def columns(names: list[str]) -> list[tuple[str, float]]:
    """Header names -> (current metric name, factor) per column."""
    out = []
    for n in names:
        n = RENAME.get(n, n)
        out.append(CONVERT.get(n, (n, 1.0)))
    return out


def sniff(head: str) -> float:
    if head.lstrip().startswith("{"):
        return 0.95 if '"sysstat"' in head and ('"disk"' in head or '"disk_device"' in head) else 0.0
    if _DEVICE_HEADER.search(head):
        return 0.9
    return 0.0


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    first = next(chunks, None)
    if first is None:
        return
    head = first[: 64 << 10].decode("utf-8", "replace")
    if head.lstrip().startswith("{"):
        yield from _parse_json(prepend(first, chunks), ctx)
        return
    yield from _Text(ss.detect_decimal(head), ctx).run(prepend(first, chunks))


class _Text:
    """State carried across chunks: header in force, report number and time, date style."""

    def __init__(self, decimal: str, ctx: Context) -> None:
        self.decimal = decimal
        self.ctx = ctx
        self.report = -1  # index of the report in progress; 0 is the since-boot report
        self.report_time = np.nan
        self.start_kind: str | None = None  # what opens a report: 'ts', 'avg' or 'dev'
        self.header_sig: int | None = None  # signature of the Device header in force
        self.headers: dict[int, list[tuple[str, float]]] = {}
        self.avg_cols: list[str] = []
        self.avg_sig = 0  # signature of the avg-cpu header line that named avg_cols
        # the last line of the previous chunk was an avg-cpu header: whether its values are read
        self.avg_pending: bool | None = None
        self.date_style: str | None = None
        self.banner_date: str | None = None
        self.names: dict[int, str] = {}
        self.dropped_first = False
        self.human = False
        if decimal == ",":
            ctx.note_variant("decimal comma")

    def run(self, chunks: Iterator[bytes]) -> Iterator[Block]:
        read = text = False
        for toks, line_no in tokenized(chunks, self.decimal):
            text = text or len(toks.val) > 0
            for block in self.chunk(toks, line_no):
                read = True
                yield block
        if text and not read and not self.ctx.warnings:  # say why nothing was read
            self.ctx.warn(None, "no iostat device or avg-cpu rows found", kind="format")

    def chunk(self, toks: Tokens, line_no: int) -> Iterator[Block]:
        ctx = self.ctx
        n = toks.n_lines
        if n == 0 or len(toks.val) == 0:  # blank lines only
            if n:
                self.avg_pending = None  # a blank line parts avg-cpu from its values
            return
        cnt = toks.count
        text_first = ss.first_is_text(toks)
        h0 = np.where(cnt > 0, toks.hash[np.minimum(toks.tok_first[:-1], max(len(toks.hash) - 1, 0))], 0)
        rows = ss.label_rows(toks) & text_first
        numeric_all = (cnt > 0) & (toks.line_numeric == cnt)
        dev_hdr = np.isin(h0, list(H_DEVICE)) & ~rows
        avg_hdr = (h0 == H_AVG) & ~rows
        starts_digit = np.zeros(n, bool)
        nz = np.flatnonzero(cnt > 0)
        first_byte = np.frombuffer(toks.data, np.uint8)[toks.tok_start[toks.tok_first[nz]]] if len(nz) else []
        starts_digit[nz] = (np.asarray(first_byte) >= 48) & (np.asarray(first_byte) <= 57)
        ts = starts_digit & ~numeric_all & ~rows
        for i in np.flatnonzero(ts & (cnt > 3)):  # ko_KR's `2026년 11월 26일 10시 49분 00초`: six words
            ts[i] = cnt[i] == 6 and CJK_DATE.match(toks.line(int(i))) is not None
        other = (cnt > 0) & ~rows & ~numeric_all & ~dev_hdr & ~avg_hdr & ~ts
        for j, i in enumerate(np.flatnonzero(other)):
            if self.report >= 0 and not ctx.room(int(other.sum()) - j):
                break
            text = toks.line(int(i))
            if self.report < 0 and self.banner_date is None and (date := ss.parse_banner(text, ctx)):
                self.banner_date = date
                self._banner_day(date, line_no + int(i))
            elif _HUMAN.search(text):
                if not self.human:
                    self.human = True
                    ctx.warn(
                        line_no + int(i),
                        "values with unit suffixes (iostat --human) are not imported: capture without --human",
                        kind="format",
                    )
            else:
                ctx.warn(line_no + int(i), f"not an iostat line: {text[:80]!r}", kind="unreadable")

        ts_lines = np.flatnonzero(ts)
        ts_times, ts_ok, aware = self._timestamps(toks, ts_lines)
        for i in ts_lines[~ts_ok]:
            ctx.warn(line_no + int(i), f"unreadable timestamp {toks.line(int(i))[:40]!r}", kind="time")
        ts[ts_lines[~ts_ok]] = False
        ts_times = ts_times[ts_ok]

        if self.start_kind is None:
            firsts = [(np.argmax(m) if m.any() else n, k) for m, k in ((ts, "ts"), (avg_hdr, "avg"), (dev_hdr, "dev"))]
            pos, kind = min(firsts)
            if pos < n:
                self.start_kind = kind
                ctx.note_variant({"ts": "timestamps (-t)", "avg": "no timestamps", "dev": "no timestamps"}[kind])
                if kind != "ts":  # reports open with a header, not a time: placed by the folder clock
                    ctx.meta.timing = Timing.INDEX
        start = {"ts": ts, "avg": avg_hdr, "dev": dev_hdr}.get(self.start_kind or "", np.zeros(n, bool))
        report = self.report + np.cumsum(start)  # report number of every line
        start_lines = np.flatnonzero(start)
        if self.start_kind == "ts":
            times = np.concatenate(([self.report_time], ts_times if aware else ctx.clock.wall(ts_times)))
        else:
            times = np.concatenate(([self.report_time], ctx.clock.index(report[start_lines].astype(np.float64))))
        line_time = times[np.cumsum(start)]
        if self.report < 0 and len(start_lines) and ctx.meta.launch is None:
            ctx.meta.launch = float(times[1])  # the since-boot report prints at launch

        yield from self._devices(toks, line_no, rows, dev_hdr, report, line_time)
        yield from self._avg_cpu(toks, line_no, numeric_all, avg_hdr, report, line_time)
        self.report = int(report[-1])
        self.report_time = float(line_time[-1])

    def _banner_day(self, date: str, line: int) -> None:
        """The capture's day, for a file without -t times (a copied file's mtime is not its day)."""
        try:
            self.ctx.meta.header_day = ss.banner_day(date, self.decimal) * 86400.0
        except FormatError as e:
            self.ctx.warn(line, str(e), kind="time")

    def _timestamps(self, toks: Tokens, lines: np.ndarray) -> tuple[np.ndarray, np.ndarray, bool]:
        """Times of timestamp lines: (epochs if every one carries its UTC offset, else naive), ok."""
        if len(lines) == 0:
            return np.zeros(0), np.zeros(0, bool), False
        firsts = toks.tok_first[lines]
        cnt = toks.count[lines]
        if self.date_style is None:
            self.date_style = self._learn_style(toks, lines)
        if self.date_style == "ISO":
            naive, offset, ok = iso_times(toks, firsts)
            ok &= cnt == 1
            known = ~np.isnan(offset)
            if known.any() and self.ctx.meta.utc_offset is None:
                # the offset printed with each time is evidence for the whole folder's clock
                self.ctx.meta.utc_offset = float(offset[known][0])
            if known.all():
                return naive - offset, ok, True
            return naive, ok, False
        if self.date_style is None:
            return np.zeros(len(lines)), np.zeros(len(lines), bool), False
        if self.date_style == "CJK":  # one line a report: read as text
            naive, ok = stamp_times([toks.line(int(i)) for i in lines])
            return naive, ok, False
        days, dok = dates(toks, firsts, self.date_style)
        ampm = firsts + 2 if (cnt == 3).any() else None
        secs, tok = clock_times(toks, firsts + 1, ampm)
        ok = dok & tok & (cnt == (3 if ampm is not None else 2))
        return (days * 86400 + secs).astype(np.float64), ok, False

    def _learn_style(self, toks: Tokens, lines: np.ndarray) -> str | None:
        """The style of -t lines, from the first one that reads as a time (at most a few tried)."""
        dated = []
        for i in lines[:50]:
            words = toks.words(int(i))
            if len(words) == 1 and _ISO.match(words[0]):
                self.ctx.note_variant("-t ISO times")
                return "ISO"
            if len(words) in (2, 3) and date_style(words[0]) and _CLOCK.match(words[1]):
                dated.append(words)
            elif CJK_DATE.match(toks.line(int(i))):  # `2026年11月26日 10時48分54秒`, ko_KR in six words
                self.ctx.note_variant("-t CJK times")
                return "CJK"
        if not dated:
            return None
        style = pick_date_style([w[0] for w in dated], self.decimal == ",")
        self.ctx.note_variant(f"-t {style} times" + (" AM/PM" if len(dated[0]) == 3 else ""))
        return style

    def _header(self, toks: Tokens, line: int, sig: int) -> list[tuple[str, float]]:
        cols = self.headers.get(sig)
        if cols is None:
            words = toks.words(line)
            cols = columns(words[1:])
            self.headers[sig] = cols
            self.ctx.note_variant(_generation(words[1:]))
            for metric, _ in cols:
                self.ctx.units[metric] = unit(metric)
        return cols

    def _devices(
        self,
        toks: Tokens,
        line_no: int,
        rows: np.ndarray,
        dev_hdr: np.ndarray,
        report: np.ndarray,
        line_time: np.ndarray,
    ) -> Iterator[Block]:
        hdr_lines = np.flatnonzero(dev_hdr)
        sigs = ss.line_signature(toks, hdr_lines)
        for sig in np.unique(sigs):  # a new header: decode it once
            if int(sig) not in self.headers:
                self._header(toks, int(hdr_lines[np.argmax(sigs == sig)]), int(sig))
        row_lines = np.flatnonzero(rows)
        row_sig = ss.header_in_force(hdr_lines, sigs, row_lines, self.header_sig or 0)
        for sig in ss.in_order_of_appearance(row_sig):
            sel = row_lines[row_sig == sig]
            cols = self.headers.get(int(sig))
            if cols is None:
                self.ctx.warn(
                    line_no + int(sel[0]),
                    f"{len(sel)} device rows before any Device header; skipped",
                    kind="unreadable",
                )
                continue
            good = toks.count[sel] == len(cols) + 1
            for i in sel[~good][:5]:
                self.ctx.warn(
                    line_no + int(i), f"{toks.count[i] - 1} values where the header has {len(cols)}", kind="unreadable"
                )
            sel = sel[good]
            if not self.dropped_first and (report[sel] == 0).any():
                self.dropped_first = True
                self.ctx.warn(None, "first report is the average since boot; dropped", kind="since_boot")
            sel = sel[report[sel] > 0]
            if len(sel):
                yield from self._blocks(toks, sel, cols, line_time[sel])
        if len(hdr_lines):
            self.header_sig = int(sigs[-1])

    def _blocks(self, toks: Tokens, sel: np.ndarray, cols: list[tuple[str, float]], t: np.ndarray) -> Iterator[Block]:
        order, groups = ss.label_order(toks, toks.tok_first[sel], self.names)
        values = ss.gather(toks, sel, 1, len(cols))[order]
        t = t[order]
        for dev, rows in groups:
            vals = {m: values[rows, j] * f if f != 1.0 else values[rows, j] for j, (m, f) in enumerate(cols)}
            yield Block(dev, t[rows], vals)

    def _avg_cpu(
        self,
        toks: Tokens,
        line_no: int,
        numeric_all: np.ndarray,
        avg_hdr: np.ndarray,
        report: np.ndarray,
        line_time: np.ndarray,
    ) -> Iterator[Block]:
        hdr_lines = np.flatnonzero(avg_hdr)
        if not self.avg_cols:
            self._avg_columns(toks, hdr_lines[toks.count[hdr_lines] > 1])  # a cut `avg-cpu:` names nothing
        # values are read under a header naming the columns in force only
        usable = ss.line_signature(toks, hdr_lines) == np.uint64(self.avg_sig)
        for i in hdr_lines[~usable][:5]:
            self.ctx.warn(
                line_no + int(i),
                "avg-cpu header without the columns of the first one; its values skipped",
                kind="unreadable",
            )
        n = toks.n_lines
        after = np.zeros(n, bool)  # the line after any avg-cpu header: its values, never stray numbers
        after[hdr_lines[hdr_lines + 1 < n] + 1] = True
        take = np.zeros(n, bool)
        take[hdr_lines[usable & (hdr_lines + 1 < n)] + 1] = True
        if self.avg_pending is not None:
            after[0], take[0] = True, self.avg_pending
        self.avg_pending = bool(usable[-1]) if len(hdr_lines) and hdr_lines[-1] == n - 1 else None
        stray = np.flatnonzero(numeric_all & ~after)
        for i in stray[:5]:
            self.ctx.warn(line_no + int(i), "numbers outside any block; skipped", kind="unreadable")
        value_lines = np.flatnonzero(take & numeric_all)
        if not self.avg_cols or len(value_lines) == 0:
            return
        good = toks.count[value_lines] == len(self.avg_cols)
        value_lines = value_lines[good & (report[value_lines] > 0)]
        if len(value_lines):
            vals = ss.gather(toks, value_lines, 0, len(self.avg_cols))
            yield Block("", line_time[value_lines], {m: vals[:, j] for j, m in enumerate(self.avg_cols)})

    def _avg_columns(self, toks: Tokens, named: np.ndarray) -> None:
        """The avg-cpu columns, from the first header that names them."""
        if len(named):
            self.avg_cols = toks.words(int(named[0]))[1:]
            self.avg_sig = int(ss.line_signature(toks, named[:1])[0])
            for m in self.avg_cols:
                self.ctx.units[m] = "%"


def _generation(names: list[str]) -> str:
    if "tps" in names:
        return "basic report (tps)"
    if "avgqu-sz" in names or "avgrq-sz" in names:
        return "extended, pre-11.6 columns" + ("" if "r_await" in names else " (sectors)" if "rsec/s" in names else "")
    if "d/s" in names:
        return "extended, 12.x columns"
    return "extended, 11.6+ columns"


def _parse_json(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    doc = ss.load_json(chunks)
    ctx.note_variant("JSON")
    for host in ss.json_hosts(doc, ctx)[:1]:
        stats = host.get("statistics")
        if not isinstance(stats, list):
            raise FormatError("JSON without statistics")
        times = _json_times(stats, ctx)
        per_dev: dict[str, tuple[list[float], dict[str, list[float]]]] = {}
        avg: tuple[list[float], dict[str, list[float]]] = ([], {})
        for k, (entry, t) in enumerate(zip(stats, times, strict=True)):
            if k == 0:
                ctx.warn(None, "first report is the average since boot; dropped", kind="since_boot")
                continue
            if not isinstance(entry, dict):
                continue
            cpu = entry.get("avg-cpu")
            if isinstance(cpu, dict):
                avg[0].append(t)
                for key, v in cpu.items():
                    avg[1].setdefault("%" + key, []).append(ss.number(v))
            for disk in entry.get("disk", []) if isinstance(entry.get("disk"), list) else []:
                if not isinstance(disk, dict) or not isinstance(disk.get("disk_device"), str):
                    continue
                ts, vals = per_dev.setdefault(disk["disk_device"], ([], {}))
                ts.append(t)
                for key, v in disk.items():
                    if key == "disk_device":
                        continue
                    metric, factor = columns(["%" + key if key in JSON_PERCENT else key])[0]
                    vals.setdefault(metric, []).append(ss.number(v) * factor)
        for entity, (ts, vals) in [("", avg), *per_dev.items()]:
            if ts:
                for m in vals:
                    ctx.units[m] = unit(m)
                yield Block(entity, np.array(ts), {m: np.array(v) for m, v in vals.items() if len(v) == len(ts)})


def _json_times(stats: list[object], ctx: Context) -> list[float]:
    """Times of JSON reports: their "timestamp" when present (-t), else the report number."""
    stamps = [e.get("timestamp") if isinstance(e, dict) else None for e in stats]
    if all(isinstance(s, str) for s in stamps) and stamps:
        toks = tokenize("\n".join(str(s) for s in stamps).encode())
        firsts = toks.tok_first[:-1]
        if (toks.count == 1).all():
            naive, offset, ok = iso_times(toks, firsts)
            if (~np.isnan(offset)).any() and ctx.meta.utc_offset is None:
                ctx.meta.utc_offset = float(offset[~np.isnan(offset)][0])
        else:  # `DATE CLOCK` in the locale's %x and %X
            naive, ok = stamp_times([str(s) for s in stamps])
        if ok.all() and len(ok) == len(stats):  # an empty last stamp has no line of its own
            return list(ctx.clock.wall(naive))
        ctx.warn(None, "unreadable JSON timestamps; using report numbers", kind="time")
    ctx.note_variant("no timestamps")
    ctx.meta.timing = Timing.INDEX
    return list(ctx.clock.index(np.arange(len(stats), dtype=np.float64)))
