"""vmstat (procps / procps-ng): `vmstat [-a] [-w] [-t] [-n] [-S unit] interval [count]`.

Variants covered (fixtures in tests/fixtures/vmstat and ../shared/samples/vmstat):
- procps 3.2 (no `st`), procps-ng 3.3 and 4.x (`st`, and `gu` in newer 4.x), `-w` wide fields,
  `-a` (`inact active` instead of `buff cache`), extra-wide `--procs--` group headers;
- `-t`: rows end with `YYYY-MM-DD HH:MM:SS`; the zone abbreviation (`UTC`, `PDT`, `JST`) ends the
  names line and is recorded as evidence for the folder's clock. Without `-t` rows have no time:
  they are placed by the folder clock (report number x interval). The header in force says which:
  a row without the date and time under a `-t` header (or with them under another) is warned;
- headers repeated mid-stream; translated header labels (de_DE `frei`/`Cache`/`inakt`/`aktiv`,
  fr_FR `libre`/`actif`) mapped to the C names.

Metrics: `r b` (processes), `swpd free buff cache inact active` (KiB; `-S` cannot be seen in the
output, so a capture made with `-S M` is stored as if KiB -- documented limitation), `si so`
(KiB/s), `bi bo` (blocks/s), `in cs` (1/s), `us sy id wa st gu` (%). Entity is "" (host-wide).
The first row is the average since boot: it is dropped with a warning.
Not this format: `vmstat -d`/`-s`/`-m`, BSD vmstat (`avm fre flt`), recognised and refused by sniff.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from benchlens.importers import _sysstat as ss
from benchlens.importers._times import clock_times, dates
from benchlens.importers._tokens import Tokens, fnv1a, tokenized
from benchlens.importers._types import Block, Context, Timing

name = "vmstat"

KNOWN = [
    "r",
    "b",
    "swpd",
    "free",
    "buff",
    "cache",
    "inact",
    "active",
    "si",
    "so",
    "bi",
    "bo",
    "in",
    "cs",
    "us",
    "sy",
    "id",
    "wa",
    "st",
    "gu",
]
# Labels translated by procps' message catalogues, seen in real captures.
ALIASES = {
    "frei": "free",
    "libre": "free",
    "Cache": "cache",
    "inakt": "inact",
    "aktiv": "active",
    "actif": "active",
    "Puffer": "buff",
    "tampon": "buff",
}
UNITS = {
    "r": "",
    "b": "",
    "swpd": "KiB",
    "free": "KiB",
    "buff": "KiB",
    "cache": "KiB",
    "inact": "KiB",
    "active": "KiB",
    "si": "KiB/s",
    "so": "KiB/s",
    "bi": "blocks/s",
    "bo": "blocks/s",
    "in": "1/s",
    "cs": "1/s",
    "us": "%",
    "sy": "%",
    "id": "%",
    "wa": "%",
    "st": "%",
    "gu": "%",
}
H_R = fnv1a(b"r")
_NAMES = re.compile(r"^\s*r\s+b\s+swpd\s+\S+\s+\S+\s+\S+\s+si\s+so\s+bi\s+bo\s+in\s+cs\s+us\s+sy\s+id", re.M)


def sniff(head: str) -> float:
    return 0.9 if _NAMES.search(head) else 0.0


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    state = _State(ctx)
    for toks, line_no in tokenized(chunks):
        yield from state.chunk(toks, line_no)
    if state.text and not state.rows_seen and not ctx.warnings:  # say why nothing was read
        ctx.warn(None, "no vmstat rows (numbers under an `r b swpd ...` header) found", kind="format")


class _State:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.zone: str | None = None
        self.rows_seen = 0  # data rows so far, the since-boot row included
        self.text = False  # a line that is not blank was seen
        self.header_sig = 0  # signature of the names line in force (0: none yet)
        self.headers: dict[int, tuple[list[str], bool]] = {}  # signature -> columns, `-t`

    def chunk(self, toks: Tokens, line_no: int) -> Iterator[Block]:
        ctx = self.ctx
        n = toks.n_lines
        if n == 0 or len(toks.val) == 0:  # blank lines only
            return
        self.text = True
        cnt = toks.count
        tf = toks.tok_first
        all_num = (cnt > 0) & (toks.line_numeric == cnt)
        timed = (cnt > 2) & (toks.numeric_before_last(2) == cnt - 2)
        timed &= ~all_num
        names = (cnt > 2) & (toks.hash[np.minimum(tf[:-1], max(len(toks.hash) - 1, 0))] == H_R) & ~all_num
        rest = (cnt > 0) & ~all_num & ~timed & ~names
        rest_lines = np.flatnonzero(rest)
        for j, i in enumerate(rest_lines):
            if not ctx.room(len(rest_lines) - j):
                break
            words = toks.words(int(i))
            if not (words[0].startswith("procs") or words[0].startswith("--procs")):
                ctx.warn(line_no + int(i), f"not a vmstat line: {toks.line(int(i))[:80]!r}", kind="unreadable")
        hdr_lines = np.flatnonzero(names)
        sigs = ss.line_signature(toks, hdr_lines)
        for sig in np.unique(sigs):  # a new header: decode it once
            if int(sig) not in self.headers:
                self.headers[int(sig)] = self._columns(toks.words(int(hdr_lines[np.argmax(sigs == sig)])))
        row_lines = np.flatnonzero(all_num | timed)
        row_sig = ss.header_in_force(hdr_lines, sigs, row_lines, self.header_sig)
        # runs of rows under one header, in file order: rows are numbered (since-boot row, report k)
        for run in np.split(np.arange(len(row_lines)), np.flatnonzero(np.diff(row_sig)) + 1):
            if not len(run):
                continue
            lines = row_lines[run]
            header = self.headers.get(int(row_sig[run[0]]))
            if header is None:
                ctx.warn(
                    line_no + int(lines[0]), f"{len(lines)} rows before any vmstat header; skipped", kind="unreadable"
                )
                continue
            yield from self._rows(toks, line_no, lines, *header)
        if len(hdr_lines):
            self.header_sig = int(sigs[-1])

    def _columns(self, words: list[str]) -> tuple[list[str], bool]:
        """The columns of a names line, and whether it is `-t` output (it ends with a zone)."""
        cols = [ALIASES.get(w, w) for w in words]
        zone = None
        if cols[-1] not in KNOWN:  # `-t`: the zone abbreviation closes the names line
            zone = cols.pop()
            if self.zone is None:
                self.zone = zone
                if self.ctx.meta.zone_abbrev is None:
                    self.ctx.meta.zone_abbrev = zone
        unknown = [c for c in cols if c not in KNOWN]
        if unknown:
            self.ctx.warn(None, f"unknown vmstat columns kept as printed: {' '.join(unknown)}", kind="column")
        self.ctx.note_variant(" ".join(cols))
        for c in cols:
            self.ctx.units[c] = UNITS.get(c, "")
        return cols, zone is not None

    def _rows(self, toks: Tokens, line_no: int, lines: np.ndarray, cols: list[str], timed: bool) -> Iterator[Block]:
        cnt = toks.count[lines]
        ncol = len(cols)
        numeric = toks.line_numeric[lines] == cnt
        # Under a `-t` header (it ends with the zone) every row ends with a date and a time; under
        # any other, rows are numbers only. Decided by the header, never by the rows around: a `-t`
        # row that lost two values has as many tokens as a plain row, and is not one.
        good = ((cnt == ncol + 2) & ~numeric) if timed else ((cnt == ncol) & numeric)
        expected = f"{ncol} and a time (-t)" if timed else str(ncol)
        for i, is_numeric in zip(lines[~good][:5], numeric[~good][:5], strict=True):
            fields = f"{toks.count[i]} fields" if is_numeric else f"{toks.count[i] - 2} fields and a time"
            self.ctx.warn(line_no + int(i), f"{fields} where the header has {expected}", kind="unreadable")
        lines = lines[good]
        if len(lines) == 0:
            return
        number = self.rows_seen + np.arange(len(lines))
        self.rows_seen += len(lines)
        if timed:
            first = toks.tok_first[lines] + ncol
            days, dok = dates(toks, first, "YYYY-MM-DD")
            secs, tok = clock_times(toks, first + 1)
            ok = dok & tok
            for i in lines[~ok][:5]:
                self.ctx.warn(line_no + int(i), "unreadable time", kind="time")
            naive = (days * 86400 + secs).astype(np.float64)
            t = np.full(len(lines), np.nan)  # the clock only sees times that were read
            t[ok] = self.ctx.clock.wall(naive[ok])
            self.ctx.note_variant("timestamps (-t)")
        else:
            ok = np.ones(len(lines), bool)
            t = self.ctx.clock.index(number.astype(np.float64))
            self.ctx.note_variant("no timestamps")
            self.ctx.meta.timing = Timing.INDEX
        if number[0] == 0:
            if ok[0] and self.ctx.meta.launch is None:
                self.ctx.meta.launch = float(t[0])
            self.ctx.warn(None, "first report is the average since boot; dropped", kind="since_boot")
            ok[0] = False
        lines, t = lines[ok], t[ok]
        if len(lines):
            values = toks.gather(lines, 0, ncol)
            yield Block("", t, {c: values[:, j] for j, c in enumerate(cols)})
