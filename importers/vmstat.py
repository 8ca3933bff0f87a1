"""vmstat (procps / procps-ng): `vmstat [-a] [-w] [-t] [-n] [-S unit] interval [count]`.

Variants covered (fixtures in tests/fixtures/vmstat and ../shared/samples/vmstat):
- procps 3.2 (no `st`), procps-ng 3.3 and 4.x (`st`, and `gu` in newer 4.x), `-w` wide fields,
  `-a` (`inact active` instead of `buff cache`), extra-wide `--procs--` group headers;
- `-t`: rows end with `YYYY-MM-DD HH:MM:SS`; the zone abbreviation (`UTC`, `PDT`, `JST`) ends the
  names line and is recorded as evidence for the folder's clock. Without `-t` rows have no time:
  they are placed by the folder clock (report number x interval). The header in force says which:
  a row without the date and time under a `-t` header (or with them under another) is warned;
- headers repeated mid-stream; the names line in every language procps-ng translates it to
  (de_DE `frei Cache inakt aktiv`, fr_FR `libre tampon actif`, ko_KR `스왑 가용 버퍼 캐시 입 출 입 출`,
  zh_CN `交换 空闲 缓冲 缓存`, pl_PL `dz bl swap wolna ...`, sv_SE `k b växl fritt ... an sy ia vä`,
  es_ES, pt_BR, ro_RO, uk_UA, ka_GE, vi_VN), read by position in vmstat's fixed column order.

Metrics: `r b` (processes), `swpd free buff cache inact active` (KiB; `-S` cannot be seen in the
output, so a capture made with `-S M` is stored as if KiB -- documented limitation), `si so`
(KiB/s), `bi bo` (blocks/s), `in cs` (1/s), `us sy id wa st gu` (%). Entity is "" (host-wide).
The first row is the average since boot: it is dropped with a warning.
`vmstat -s` in a loop (a `date` line before each summary): read by importers/_vmstat_s.py, see there.
Not this format: `vmstat -d`/`-m`, BSD vmstat (`avm fre flt`), recognised and refused by sniff.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from benchlens.importers import _sysstat as ss
from benchlens.importers import _vmstat_s
from benchlens.importers._read import prepend
from benchlens.importers._times import clock_times, dates
from benchlens.importers._tokens import Tokens, fnv1a, tokenized
from benchlens.importers._types import Block, Context, Timing

name = "vmstat"

# vmstat's columns, always in this order (`-a`: inact active instead of buff cache)
ORDER = [
    "r",
    "b",
    "swpd",
    "free",
    "buff",
    "cache",
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
ORDER_A = [*ORDER[:4], "inact", "active", *ORDER[6:]]
KNOWN = [*ORDER[:6], "inact", "active", *ORDER[6:]]  # every column vmstat prints
# The labels as procps-ng 4.0.2's message catalogues translate them (de es fr ka ko pl pt_BR ro sv
# uk vi zh_CN; `Puffer` from an older de catalogue), checked against real captures
# (tests/fixtures/vmstat). One label may stand for two columns (ko_KR prints si and bi both as 입,
# so and bo as 출), so a names line is read by position in vmstat's fixed order.
TRANSLATED = {
    "r": {"dz", "k"},
    "b": {"bl"},
    "swpd": {"스왑", "swap", "växl", "交换"},
    "free": {"frei", "libre", "თავისუფალია", "가용", "wolna", "livre", "liber", "fritt", "trống", "空闲"},
    "buff": {"búf", "tampon", "Puffer", "버퍼", "bufor", "缓冲"},
    "cache": {"Cache", "caché", "캐시", "кеш", "nhớtạm", "缓存"},
    "inact": {"inakt", "비활", "nieakt", "inativ", "不活动"},
    "active": {
        *("aktiv", "activo", "actif", "აქტიური", "활성", "akt", "ativo", "activă", "aktivt", "активно"),
        *("hđộng", "活动"),
    },
    "si": {"입", "sin", "vi"},
    "so": {"출", "vu"},
    "bi": {"입", "bin"},
    "bo": {"출", "bu"},
    "in": {"avb"},
    "cs": {"ktxb"},
    "us": {"uż", "an"},
    "id": {"be", "ia"},
    "wa": {"io", "vä"},
    "st": {"sk"},
    "gu": {"go", "gä"},
}
# the labels that name one column wherever they appear (for lines not in the fixed order)
ALIASES = {w: c for c, ws in TRANSLATED.items() for w in ws if sum(w in v for v in TRANSLATED.values()) == 1}
FIRST_LABELS = [fnv1a(w.encode()) for w in ("r", *TRANSLATED["r"])]


def names_of(words: list[str]) -> tuple[list[str], str | None] | None:
    """The C names of a vmstat names line in any language procps prints it, and the zone
    abbreviation a `-t` line ends with; None if the words are not such a line."""
    order = ORDER_A if len(words) > 4 and _is(words[4], "inact") else ORDER
    for n in (len(words), len(words) - 1):  # without and with a zone at the end
        if 16 <= n <= len(order) and all(_is(w, c) for w, c in zip(words[:n], order, strict=False)):
            return order[:n], words[n] if n < len(words) else None
    return None


def _is(word: str, column: str) -> bool:
    return word == column or word in TRANSLATED[column]


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


def sniff(head: str) -> float:
    if _vmstat_s.looks_like(head):
        return 0.9
    return 0.9 if any(names_of(line.split()) for line in head.splitlines()) else 0.0


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    first = next(chunks, None)
    if first is None:
        return
    if _vmstat_s.looks_like(first[: 64 << 10].decode("utf-8", "replace")):
        yield from _vmstat_s.parse(prepend(first, chunks), ctx)
        return
    state = _State(ctx)
    for toks, line_no in tokenized(prepend(first, chunks)):
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
        names = (cnt > 2) & np.isin(toks.hash[np.minimum(tf[:-1], max(len(toks.hash) - 1, 0))], FIRST_LABELS) & ~all_num
        rest = (cnt > 0) & ~all_num & ~timed & ~names
        rest_lines = np.flatnonzero(rest)
        for j, i in enumerate(rest_lines):
            if not ctx.room(len(rest_lines) - j):
                break
            if "---" not in toks.line(int(i)):  # the group line (`procs ---memory---`, translated too)
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
        got = names_of(words)
        if got is not None:
            cols, zone = got
        else:  # columns not in vmstat's order: each label read alone
            cols = [ALIASES.get(w, w) for w in words]
            zone = cols.pop() if cols[-1] not in KNOWN else None  # `-t`: the zone ends the names line
        if zone is not None and self.zone is None:
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
