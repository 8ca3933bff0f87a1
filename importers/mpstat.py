"""mpstat (sysstat): `mpstat [-P ALL|list] [-u] [-A] [-I ...] interval [count]` and `-o JSON`.

Variants covered (fixtures in tests/fixtures/mpstat and ../shared/samples/mpstat):
- columns of 10.x+ (`%usr ... %gnice %idle`), 8.x/9.0 (no `%gnice`), <= 7.x (`%user`, trailing
  `intr/s`): `%user` is mapped to `%usr`;
- rows timed `02:09:24` (24 h), `02:09:24 AM` (12 h), `02時09分24秒` (ja_JP), `02时09分24秒` (zh_CN) or
  `02시 09분 24초` (ko_KR, three tokens): no date in rows, so the banner's date is
  used and the day rolls over when the time of day goes backwards (midnight);
- `-A`/`-I`/`-N` output: only the CPU utilisation block and the `intr/s` block are imported; the
  per-IRQ, softirq and NODE blocks have their own headers and are never read as CPU rows;
- the `Average:` section in any language (`Durchschn.:`, `Moyenne :`) is skipped;
- `-T` (topology): `CPU CORE SOCK NODE %usr ...`, the three left blank on the `all` row (JSON:
  `"core": ""` ...): the topology is a label of the CPU, not a measure: not kept (the entity stays
  the CPU, so a `-T` capture compares with one without);
- decimal comma; JSON (`cpu-load` and `sum-interrupts`, keys without `%` mapped back; sysstat 12.0's
  `"cpu": "-1"` row is `all`).

Metrics: `%usr %nice %sys %iowait %irq %soft %steal %guest %gnice %idle` (%) and `intr/s` (1/s);
entity is the CPU (`all`, `0`, `1` ...). A single report without an interval is the average since
boot: it is dropped with a warning.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from benchlens.importers import _sysstat as ss
from benchlens.importers._read import prepend
from benchlens.importers._times import CLOCK_TEXT, clock_times, stamp_times
from benchlens.importers._tokens import Tokens, fnv1a, tokenized
from benchlens.importers._types import Block, Context, FormatError

name = "mpstat"

RENAME = {"%user": "%usr"}
H_CPU = fnv1a(b"CPU")
H_NODE = fnv1a(b"NODE")
H_ALL = fnv1a(b"all")
TOPOLOGY = ("CORE", "SOCK", "NODE")  # -T's columns after CPU
JSON_TOPOLOGY = ("core", "socket", "node")
_HEADER = re.compile(rf"^{CLOCK_TEXT}\s+CPU(?:\s+(?:CORE|SOCK|NODE))*\s+(?:%usr|%user)\s.*%idle", re.M)
_NUMBER = re.compile(r"-?\d+(?:[.,]\d+)?")
_IS_SYSSTAT_CPU = re.compile(r"%sys\b|%usr\b")  # sar -u prints %system and %user


def sniff(head: str) -> float:
    if head.lstrip().startswith("{"):
        return 0.95 if '"sysstat"' in head and '"cpu-load"' in head else 0.0
    m = _HEADER.search(head)
    return 0.9 if m and _IS_SYSSTAT_CPU.search(m.group()) else 0.0


def unit(metric: str) -> str:
    return "%" if metric.startswith("%") else "1/s"


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    first = next(chunks, None)
    if first is None:
        return
    head = first[: 64 << 10].decode("utf-8", "replace")
    if head.lstrip().startswith("{"):
        yield from _parse_json(prepend(first, chunks), ctx)
        return
    state = _Text(ss.detect_decimal(head), ctx)
    pending: list[Block] = []
    read = text = False
    for toks, line_no in tokenized(prepend(first, chunks), state.decimal):
        blocks = list(state.chunk(toks, line_no))
        read, text = read or bool(blocks), text or len(toks.val) > 0
        if state.second_time:
            yield from pending
            pending = []
            yield from blocks
        else:
            pending.extend(blocks)
    if pending and not state.summary:
        ctx.warn(None, "a single report without an interval is the average since boot; dropped", kind="since_boot")
    else:
        yield from pending
    if text and not read and not ctx.warnings:  # say why nothing was read
        ctx.warn(
            None, "no mpstat CPU rows (a time, a CPU and numbers under a `CPU %usr ...` header) found", kind="format"
        )


def _is_summary(words: list[str]) -> bool:
    """'Average:', 'Durchschn.:', 'Moyenne :' ... followed by a block header or a CPU row."""
    if len(words) > 1 and words[1] == ":":
        words = [words[0] + ":", *words[2:]]
    if len(words) < 3 or not words[0].endswith(":") or words[0][0].isdigit():
        return False
    if words[1] in ("CPU", "NODE"):
        return True
    return all(_NUMBER.fullmatch(w) for w in words[2:])


class _Text:
    def __init__(self, decimal: str, ctx: Context) -> None:
        self.decimal = decimal
        self.ctx = ctx
        self.k: int | None = None  # tokens of the time: 1 ('02:09:24') or 2 ('02:09:24 AM')
        self.day: int | None = None  # banner date, days since epoch
        self.last_sec = -1
        self.first_time: float | None = None
        self.second_time = False
        self.summary = False
        self.header_sig = 0  # signature of the header in force (0: none yet)
        self.headers: dict[int, tuple[str | None, list[str]]] = {}
        self.topology: dict[int, int] = {}  # header signature -> its -T columns after CPU (0: none)
        self.names: dict[int, str] = {}
        if decimal == ",":
            ctx.note_variant("decimal comma")

    def chunk(self, toks: Tokens, line_no: int) -> Iterator[Block]:
        ctx = self.ctx
        n = toks.n_lines
        if n == 0 or len(toks.val) == 0:  # blank lines only
            return
        cnt = toks.count
        tf = toks.tok_first
        if self.k is None:
            self.k = ss.time_tokens(toks, self.ctx)
        # No time row yet (a chunk holding only the banner, say): its lines are still read below,
        # as banner or stray lines, with the 24-hour layout assumed; none of them is a row.
        k = self.k or 1
        has_time = cnt >= k + 1
        secs, ok = np.zeros(n, np.int64), np.zeros(n, bool)
        lines = np.flatnonzero(has_time)
        if len(lines):
            ampm = tf[lines] + 1 if k == 2 else None
            s, o = clock_times(toks, tf[lines], ampm)
            secs[lines], ok[lines] = s, o
        hdr = (
            ok
            & (cnt > k + 1)
            & np.isin(toks.hash[np.minimum(tf[:-1] + k, max(len(toks.hash) - 1, 0))], [H_CPU, H_NODE])
        )
        hdr &= toks.numeric_after(k + 1) == 0
        rows = ok & ss.label_rows(toks, label_at=k) & ~hdr
        rest = (cnt > 0) & ~hdr & ~rows
        hdr_lines = np.flatnonzero(hdr)
        sigs = ss.line_signature(toks, hdr_lines, skip=k)
        for sig in np.unique(sigs):  # a new header: decode it once
            self._header(toks, int(hdr_lines[np.argmax(sigs == sig)]), int(sig))
        row_lines = np.flatnonzero(rows)
        row_sig = ss.header_in_force(hdr_lines, sigs, row_lines, self.header_sig)
        headed = np.isin(row_sig, np.array(list(self.headers), np.uint64))
        if not headed.all():
            first = line_no + int(row_lines[~headed][0])
            ctx.warn(first, f"{int((~headed).sum())} rows before any mpstat header; skipped", kind="unreadable")
            row_lines, row_sig = row_lines[headed], row_sig[headed]
        # Lines are read in file order, whatever the chunks: a banner counts only before the first
        # row it could date (the rows before it were dated without it).
        first_row = int(row_lines[0]) if len(row_lines) else n
        rest_lines = np.flatnonzero(rest)
        for j, i in enumerate(rest_lines):
            if self.summary and not ctx.room(len(rest_lines) - j):
                break
            words = toks.words(int(i))
            if not ok[i] and _is_summary(words):
                self.summary = True  # 'Average:' in any language: the summary at the end
            elif (i == 0 and line_no == 1) or (
                self.day is None and i < first_row and ss.BANNER.match(toks.line(int(i)))
            ):
                self._banner(toks.line(int(i)))
            else:
                ctx.warn(line_no + int(i), f"not an mpstat line: {toks.line(int(i))[:80]!r}", kind="unreadable")
        if len(row_lines):
            yield from self._rows(toks, line_no, row_lines, secs[row_lines], row_sig)
        if len(hdr_lines):
            self.header_sig = int(sigs[-1])

    def _banner(self, line: str) -> None:
        date = ss.parse_banner(line, self.ctx)
        if date is None:
            return
        self.day = ss.banner_day(date, self.decimal)
        self.ctx.meta.header_day = self.day * 86400.0

    def _header(self, toks: Tokens, line: int, sig: int) -> tuple[str | None, list[str]]:
        known = self.headers.get(sig)
        if known is None:
            words = toks.words(line)[self.k or 1 :]
            cols = [RENAME.get(w, w) for w in words[1:]]
            topo = 0
            while topo < min(len(cols), len(TOPOLOGY)) and cols[topo] == TOPOLOGY[topo]:
                topo += 1
            if words[0] == "CPU" and "%idle" in cols:
                known = ("cpu", cols[topo:])
                self.topology[sig] = topo
                if topo:
                    self.ctx.note_variant(f"topology (-T): {' '.join(cols[:topo])} not kept")
            elif words[0] == "CPU" and cols == ["intr/s"]:
                known = ("intr", cols)
            else:
                known = (None, cols)
                self.ctx.note_variant("-A/-I blocks other than CPU and intr/s skipped")
            for m in cols if known[0] else []:
                self.ctx.units[m] = unit(m)
            self.headers[sig] = known
        return known

    def _rows(
        self,
        toks: Tokens,
        line_no: int,
        row_lines: np.ndarray,
        secs: np.ndarray,
        row_sig: np.ndarray,
    ) -> Iterator[Block]:
        if self.day is None:
            self.ctx.warn(None, "no banner with a date; rows dated 1970-01-01", kind="time")
            self.day = 0
        # Rows carry the time of day only: the day advances when it goes backwards (midnight).
        prev = np.concatenate(([self.last_sec], secs[:-1]))
        rollover = np.cumsum((secs < prev) & (prev - secs > 43200))
        naive = ((self.day + rollover) * 86400 + secs).astype(np.float64)
        self.day += int(rollover[-1])
        self.last_sec = int(secs[-1])
        t = self.ctx.clock.wall(naive)
        if self.first_time is None:
            self.first_time = float(t[0])
            if self.ctx.meta.first_time is None:
                self.ctx.meta.first_time = self.first_time
        if not self.second_time and (t != self.first_time).any():
            self.second_time = True
            if self.ctx.meta.interval is None:
                self.ctx.meta.interval = float(t[t != self.first_time][0] - self.first_time)
        k = self.k or 1
        for sig in ss.in_order_of_appearance(row_sig):
            block, cols = self.headers.get(int(sig), (None, []))
            sel = row_sig == sig
            if block is None:
                continue
            lines = row_lines[sel]
            topo = self.topology.get(int(sig), 0)
            # -T: a CPU's row carries its topology before the values; the `all` row leaves it blank
            full = toks.count[lines] == len(cols) + topo + k + 1
            bare = (toks.count[lines] == len(cols) + k + 1) & (toks.hash[toks.tok_first[lines] + k] == H_ALL)
            good = full | bare if topo else full
            for i in lines[~good][:5]:
                self.ctx.warn(
                    line_no + int(i),
                    f"{toks.count[i] - k - 1} values where the header has {len(cols) + topo}",
                    kind="unreadable",
                )
            lines, tt, full = lines[good], t[sel][good], full[good]
            if len(lines) == 0:
                continue
            order, groups = ss.label_order(toks, toks.tok_first[lines] + k, self.names)
            if full.all():
                values = ss.gather(toks, lines, k + 1 + topo, len(cols))
            else:  # -T's `all` rows: their values start where the topology would be
                values = np.empty((len(lines), len(cols)))
                values[full] = ss.gather(toks, lines[full], k + 1 + topo, len(cols))
                values[~full] = ss.gather(toks, lines[~full], k + 1, len(cols))
            values = values[order]
            tt = tt[order]
            for cpu, rows in groups:
                yield Block(cpu, tt[rows], {m: values[rows, j] for j, m in enumerate(cols)})


def _parse_json(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    doc = ss.load_json(chunks)
    ctx.note_variant("JSON")
    for host in ss.json_hosts(doc, ctx)[:1]:
        stats = host.get("statistics")
        date = host.get("date")
        if not isinstance(stats, list) or not isinstance(date, str):
            raise FormatError("JSON without statistics or date")
        if not stats:
            ctx.warn(None, "JSON without statistics", kind="format")
            return
        stamps = [str(e.get("timestamp", "")) if isinstance(e, dict) else "" for e in stats]
        naive, ok = stamp_times(stamps, date)
        if not ok.all():  # an empty, multi-line or unknown stamp
            raise FormatError("unreadable JSON timestamps")
        times = ctx.clock.wall(naive)
        per: dict[str, tuple[list[float], dict[str, list[float]]]] = {}
        for entry, t in zip(stats, times, strict=True):
            loads = entry.get("cpu-load") if isinstance(entry, dict) else None
            for load in loads if isinstance(loads, list) else []:
                if isinstance(load, dict) and isinstance(load.get("cpu"), str):
                    ts, vals = per.setdefault(_json_cpu(load["cpu"]), ([], {}))
                    ts.append(float(t))
                    for key, v in load.items():
                        if key not in ("cpu", *JSON_TOPOLOGY):  # -T's labels of the CPU, not measures
                            vals.setdefault(RENAME.get("%" + key, "%" + key), []).append(ss.number(v))
            intrs = entry.get("sum-interrupts") if isinstance(entry, dict) else None
            for intr in intrs if isinstance(intrs, list) else []:
                if isinstance(intr, dict) and isinstance(intr.get("cpu"), str) and "intr" in intr:
                    ts, vals = per.setdefault("intr " + _json_cpu(intr["cpu"]), ([], {}))
                    ts.append(float(t))
                    vals.setdefault("intr/s", []).append(ss.number(intr["intr"]))
        merged: dict[str, list[Block]] = {}
        for key, (ts, vals) in per.items():
            cpu = key[5:] if key.startswith("intr ") else key
            for m in vals:
                ctx.units[m] = unit(m)
            merged.setdefault(cpu, []).append(Block(cpu, np.array(ts), {m: np.array(v) for m, v in vals.items()}))
        for blocks in merged.values():
            yield from blocks


def _json_cpu(label: str) -> str:
    """sysstat 12.0's JSON names the all-CPU row `-1` (its internal index); later versions `all`."""
    return "all" if label == "-1" else label
