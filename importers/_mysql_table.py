"""The shapes the mysql/mariadb client prints a result set in, read into rows of
column -> text. Shared by the importers of SHOW statements (mutex, global status ...).

- table (`mysql -t`, interactive sessions, `mysqladmin`): `+----+----+` borders around a
  `| Name | Value |` header and rows; `N rows in set (0.00 sec)` after it when interactive or `-v`;
- batch (`mysql -B`, or `-e` into a pipe): a header line of column names, then rows, TAB-separated,
  with `\\t \\n \\\\ \\0` escaped; `-N` drops the header (the caller may name the columns);
- vertical (`\\G`): `*** 1. row ***`, then one `Name: value` line per column, names right-aligned
  so every colon of a row sits in the same column;
- table rows alone (`mysqladmin extended-status -i 1 | grep Innodb`): `| Name | Value |` lines
  without header or borders, read when the caller names the columns (`headerless`); the first
  name coming back starts the next result.
Names contain spaces and colons (`combined buf0buf.c:935`, `sum rwlock: buf0buf.cc:1460`): table
cells are split on `|`, batch cells on TAB, vertical lines on the first `: ` after the column name.
Column names are matched case-insensitively: rows are keyed by the lower-cased name.
The client's own chatter (`-v` statement echo, `Empty set`, prompts, `Bye`) is skipped; `ERROR ...`
lines are collected for the caller; anything else is a warning with its line number.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from benchlens.importers._snapshots import snapshots
from benchlens.importers._types import Context, Timing, WarningKind

_BORDER = re.compile(r"^\+(?:-+\+)+$")
_ROW_MARK = re.compile(r"^\*+ (\d{1,18})\. row \*+$")  # more digits: no row number (nor int())
_DONE = re.compile(r"^(?:\d+ rows? in set|Empty set)\b")
_ECHO = re.compile(r"^-{14}$")  # `mysql -v` prints the statement between two of these
_CHATTER = re.compile(
    r"^(?:Query OK\b|Bye$|(?:mysql|mariadb|MariaDB \[[^\]]*\])> |Warning \(Code \d+\)|"
    r"(?:mysql|mariadb|mysqladmin|mariadb-admin): (?:\[Warning\]|Deprecated))"
)
_ERROR = re.compile(r"^ERROR \d+ ")
_UNESCAPE = re.compile(r"\\([\\tn0])")
_ESCAPES = {"\\": "\\", "t": "\t", "n": "\n", "0": "\0"}
_MAX_CONTINUED = 500  # lines of one multi-line cell (a PEM key is ~10)
BARE = "table rows without header (grep)"
_NO_END = ("batch", "vertical", "bare")  # shapes with no closing line: their end is unknown


@dataclass
class Row:
    line: int  # line number of the row (vertical: of its `*** N. row ***` line)
    cells: dict[str, str]  # lower-cased column name -> value as printed (table cells stripped)
    continued: list[int] = field(default_factory=list)  # lines of a value that spans several lines


@dataclass
class Result:
    shape: str  # "table", "batch", "batch without header (-N)", "vertical" or "empty"
    columns: list[str]  # as printed
    first_line: int
    rows: list[Row] = field(default_factory=list)
    complete: bool | None = None  # True: closing border / `N rows in set` seen; False: cut; None: unknown


@dataclass
class Parsed:
    results: list[Result] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)  # `ERROR 1064 (42000) ...` lines
    statements: list[str] = field(default_factory=list)  # statements echoed by `mysql -v`


def parse(
    lines: Iterable[tuple[int, str]],
    ctx: Context,
    headers: Collection[frozenset[str]] = (),
    headerless: list[str] | None = None,
) -> Parsed:
    """Read numbered lines into results. `headers`: lower-cased column sets that make a batch line
    a header line; `headerless`: the columns assumed for batch rows printed without one (`-N`)."""
    r = _Reader(ctx, headers, headerless)
    for no, line in lines:
        r.line(no, line.rstrip("\r"))
    r.close()
    return r.out


class _Reader:
    def __init__(self, ctx: Context, headers: Collection[frozenset[str]], headerless: list[str] | None) -> None:
        self.ctx = ctx
        self.headers = headers
        self.headerless = headerless
        self.out = Parsed()
        self.state = "none"  # none, echo, table-head, table-sep, table, batch, vertical
        self.res: Result | None = None
        self.pending: Row | None = None  # a table row whose last cell goes on over more lines
        self.pending_text = ""
        self.keys: list[str] = []  # lower-cased columns of the vertical row being read
        self.colon = -1  # where the colon of every `Name: value` line of that row sits

    def line(self, no: int, s: str) -> None:
        st = self.state
        if st == "echo":
            if _ECHO.match(s):
                self.state = "none"
            elif s.strip():
                self.out.statements.append(s.strip())
            return
        if st.startswith("table") and self._table_line(no, s):
            return
        if st == "batch" and self._batch_line(no, s):
            return
        if st == "vertical" and self._vertical_line(no, s):
            return
        if st == "bare" and self._bare_line(no, s):
            return
        self._start(no, s)

    def close(self) -> None:
        if self.state == "vertical":
            self._check_row()
        if self.pending is not None:
            self._warn(self.pending.line, "table row cut inside a value that spans lines; skipped", "truncated")
        self._end(None if self.state in _NO_END else False)

    # ---- starting a result, or chatter between results -------------------------------------

    def _start(self, no: int, s: str) -> None:
        self._end(None if self.state in _NO_END else False)
        if not s.strip():
            return
        if _BORDER.match(s):
            self.res = Result("table", [], no)
            self.state = "table-head"
        elif m := _ROW_MARK.match(s):
            self.res = Result("vertical", [], no)
            self.state = "vertical"
            self._vertical_row(no, int(m.group(1)))
        elif _DONE.match(s):
            last = self.out.results[-1] if self.out.results else None
            if s.startswith("Empty set"):
                self.out.results.append(Result("empty", [], no, complete=True))
            elif last is not None and last.complete is not False:
                last.complete = True
        elif _ECHO.match(s):
            self.state = "echo"
        elif _ERROR.match(s):
            self.out.errors.append((no, s))
        elif _CHATTER.match(s) or ("\t" in s and self._batch_header(no, s)):
            pass
        elif self._bare_cells(s) is not None:
            self.res = Result(BARE, list(self.headerless or ()), no)
            self.state = "bare"
            self._bare_line(no, s)
        else:
            self._warn(no, f"not part of a mysql result: {s[:80]!r}")

    def _end(self, complete: bool | None) -> None:
        res = self.res
        if res is not None:
            if res.complete is None:
                res.complete = complete
            if res.columns:
                self.out.results.append(res)
        self.res, self.state, self.pending = None, "none", None

    # ---- table ----------------------------------------------------------------------------

    def _table_line(self, no: int, s: str) -> bool:
        res = self.res
        assert res is not None
        if self.pending is not None:  # a multi-line cell: everything up to a line ending in `|`
            if s.startswith(("|", "+")) or len(self.pending.continued) >= _MAX_CONTINUED:
                self._warn(self.pending.line, "table row without its closing `|`; skipped")
                self.pending = None
            else:
                self.pending_text += "\n" + s
                self.pending.continued.append(no)
                if s.endswith("|"):
                    row, self.pending = self.pending, None
                    self._table_cells(row, self.pending_text)
                return True
        if self.state == "table-head":
            if s.startswith("|") and s.endswith("|"):
                res.columns = [c.strip() for c in s[1:-1].split("|")]
                self.state = "table-sep"
                return True
            return False  # a border alone: not a table
        if self.state == "table-sep":
            if _BORDER.match(s):
                self.state = "table"
                return True
            return False
        if _BORDER.match(s):  # the closing border
            self._end(True)
            return True
        if s.startswith("|"):
            row = Row(no, {})
            if s.endswith("|") and len(s) > 1:
                self._table_cells(row, s)
            else:
                self.pending, self.pending_text = row, s
            return True
        if not s.strip():
            return True
        self._warn(no, f"not a table row: {s[:80]!r}")
        return True

    def _table_cells(self, row: Row, text: str) -> None:
        res = self.res
        assert res is not None
        cells = [c.strip() for c in text[1:-1].split("|")]
        if len(cells) != len(res.columns):
            self._warn(row.line, f"{len(cells)} cells where the table has {len(res.columns)} columns; skipped")
            return
        row.cells = {k.lower(): v for k, v in zip(res.columns, cells, strict=True)}
        res.rows.append(row)

    # ---- table rows without header or borders (`mysqladmin extended-status | grep ...`) ----------

    def _bare_cells(self, s: str) -> list[str] | None:
        """The cells of a `| a | b |` line when the caller named the columns of headerless rows."""
        if self.headerless is None or len(s) < 3 or s[0] != "|" or s[-1] != "|":
            return None
        cells = [c.strip() for c in s[1:-1].split("|")]
        return cells if len(cells) == len(self.headerless) and cells[0] else None

    def _bare_line(self, no: int, s: str) -> bool:
        """A grep keeps the rows of every table in turn and nothing else: the first name coming
        back is the next table."""
        res = self.res
        assert res is not None
        cells = self._bare_cells(s)
        if cells is None:
            return False
        if res.rows and cells[0] == res.rows[0].cells[res.columns[0].lower()]:
            self._end(None)
            self.res = res = Result(BARE, list(self.headerless or ()), no)
            self.state = "bare"
        res.rows.append(Row(no, {k.lower(): v for k, v in zip(res.columns, cells, strict=True)}))
        return True

    # ---- batch (TAB-separated) ------------------------------------------------------------

    def _batch_header(self, no: int, s: str) -> bool:
        cells = s.split("\t")
        names = {c.strip().lower() for c in cells}
        if any(h <= names for h in self.headers):
            self.res = Result("batch", [c.strip() for c in cells], no)
            self.state = "batch"
            return True
        if self.headerless is not None and len(cells) == len(self.headerless):
            self.res = Result("batch without header (-N)", list(self.headerless), no)
            self.state = "batch"
            self._batch_line(no, s)
            return True
        return False

    def _batch_line(self, no: int, s: str) -> bool:
        res = self.res
        assert res is not None
        if not s.strip() or _BORDER.match(s) or _ROW_MARK.match(s) or _ERROR.match(s) or _DONE.match(s):
            return False
        if _ECHO.match(s) or _CHATTER.match(s):
            return False
        cells = s.split("\t")
        if {c.strip().lower() for c in cells} == {c.lower() for c in res.columns}:
            return False  # the header again: the next result set
        if len(cells) != len(res.columns):
            self._warn(no, f"{len(cells)} fields where the header has {len(res.columns)}: {s[:80]!r}")
            return True
        cells = [_UNESCAPE.sub(lambda m: _ESCAPES[m.group(1)], c) for c in cells]
        res.rows.append(Row(no, {k.lower(): v for k, v in zip(res.columns, cells, strict=True)}))
        return True

    # ---- vertical (\G) --------------------------------------------------------------------

    def _vertical_row(self, no: int, n: int) -> None:
        res = self.res
        assert res is not None
        if n == 1 and res.rows:  # `1. row` again: a new result set
            self._end(None)
            self.res = res = Result("vertical", [], no)
            self.state = "vertical"
        self.keys, self.colon = [], -1
        res.rows.append(Row(no, {}))

    def _vertical_line(self, no: int, s: str) -> bool:
        res = self.res
        assert res is not None
        if m := _ROW_MARK.match(s):
            self._check_row()
            self._vertical_row(no, int(m.group(1)))
            return True
        row = res.rows[-1]
        colon = s.find(":")
        is_key = colon > 0 and s[colon + 1 : colon + 2] in ("", " ") and (self.colon in (-1, colon))
        if is_key and not s[:colon].strip():
            is_key = False
        if is_key and self.colon == -1 and (_DONE.match(s) or _ERROR.match(s)):
            is_key = False
        if is_key:
            self.colon = colon
            name = s[:colon].strip()
            row.cells[name.lower()] = s[colon + 2 :]
            self.keys.append(name.lower())
            if len(res.rows) == 1:
                res.columns.append(name)
            return True
        if not self.keys or _DONE.match(s) or _ERROR.match(s) or _ECHO.match(s) or _CHATTER.match(s):
            self._check_row()
            if _DONE.match(s):
                res.complete = True
            return False
        row.cells[self.keys[-1]] += "\n" + s  # a value over several lines
        row.continued.append(no)
        return True

    def _check_row(self) -> None:
        res = self.res
        if res is None or not res.rows:
            return
        row = res.rows[-1]
        missing = [c for c in res.columns if c.lower() not in row.cells]
        if missing and row.cells:
            self._warn(row.line, f"row without {', '.join(missing)}; skipped")
            res.rows.pop()
        elif not row.cells:
            self._warn(row.line, "empty row (cut?); skipped")
            res.rows.pop()

    def _warn(self, no: int, msg: str, kind: WarningKind = "unreadable") -> None:
        if self.ctx.room():
            self.ctx.warn(no, msg, kind=kind)


# ---- repeated snapshots of one statement ----------------------------------------------------

SHAPES = {
    "table": "table",
    "batch": "batch (-B)",
    "batch without header (-N)": "batch (-B -N)",
    "vertical": "vertical (\\G)",
    BARE: "table rows without header or borders (`mysqladmin ... | grep`)",
}


@dataclass
class Taken:
    """One snapshot of the statement: when, where, and its result (None: empty or failed)."""

    t: float
    line: int
    result: Result | None


def snapshot_results(
    chunks: Iterator[bytes],
    ctx: Context,
    wanted: Callable[[Result], bool],
    headers: Collection[frozenset[str]] = (),
    headerless: list[str] | None = None,
    keep_cut: bool = False,
) -> Iterator[Taken]:
    """The results of a statement taken in a loop. With marker lines (see _snapshots) each
    snapshot is timed by its marker; without any, every result set in the file is one snapshot,
    placed by the folder clock (report k at launch + k x interval), like `mysqladmin -i`.
    Results cut short (a table without its closing border) are dropped with a warning, or with
    `keep_cut` passed on with `complete` False and their complete rows, for the caller to judge."""
    untimed: list[tuple[int, Result]] = []
    timed = False
    for snap in snapshots(chunks, ctx):
        parsed = parse(enumerate(snap.lines, snap.first_line), ctx, headers, headerless)
        for no, text in parsed.errors:
            ctx.warn(no, f"the statement failed: {text[:120]}", kind="format")
        mine = []
        for res in parsed.results:
            if res.shape == "empty" or wanted(res):
                mine.append(res)
            else:
                ctx.warn(
                    res.first_line,
                    f"result with columns {' '.join(res.columns)[:80]} is not this format's; skipped",
                    kind="format",
                )
        if snap.t is None:
            untimed.extend((r.first_line, r) for r in mine)
            continue
        if not timed and untimed:
            ctx.warn(untimed[0][0], f"{len(untimed)} result(s) before the first time marker; skipped", kind="time")
            untimed = []
        timed = True
        ctx.note_variant("snapshots with time markers")
        if len(mine) > 1:
            ctx.warn(mine[1].first_line, f"{len(mine)} results after one time marker; used the first", kind="time")
        # an empty snapshot (a marker at the end of the file) is pointed at by its marker line
        line = snap.first_line if snap.lines else snap.first_line - 1
        yield Taken(snap.t, line, _usable(mine[0], ctx, keep_cut) if mine else None)
    if timed or not untimed:
        return
    usable = [(no, r) for no, r in untimed if _usable(r, ctx, keep_cut) is not None]
    if not usable:
        return
    ctx.note_variant("no timestamps")
    ctx.meta.timing = Timing.INDEX
    t = ctx.clock.index(np.arange(len(usable), dtype=np.float64))
    for k, (no, r) in enumerate(usable):
        yield Taken(float(t[k]), no, r)


def _usable(res: Result, ctx: Context, keep_cut: bool = False) -> Result | None:
    if res.shape == "empty":
        return None
    if res.complete is False and keep_cut and res.rows:
        ctx.note_variant(SHAPES.get(res.shape, res.shape))
        return res
    if res.complete is False:
        ctx.warn(
            res.first_line, f"result cut short ({len(res.rows)} rows, no closing border); skipped", kind="truncated"
        )
        return None
    ctx.note_variant(SHAPES.get(res.shape, res.shape))
    return res


def missing_names(before: Collection[str], last: Collection[str]) -> list[str]:
    """Names of the snapshot before that the last one lacks: a cut batch or vertical result (which
    has no closing line) reads as complete otherwise."""
    have = set(last)
    return [n for n in before if n not in have]
