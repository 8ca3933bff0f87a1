"""dstat's header: which series each column of a row is (importers/dstat.py reads the rows).

A dstat group is one plugin name (`total cpu usage`, `dsk/vda`, `net/total`, `memory usage`,
`load avg`); its columns are the plugin's nicknames (`usr`, `read`, `recv`, `used`, `1m`). The
text prints the group names centred over their columns with `-` for spaces; the CSV prints them
in a row of their own. One function names a column of either: `column_of(group, nick)`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from benchlens.importers._dstat_plugins import PCP_KIB, SETTING_GROUPS, TIME_GROUPS, plugin

# Groups whose unit suffixes count in 1024s: dstat's plugins that keep the class's default scale
# of 1024 (dsk, net, memory, swap, paging); the others set 1000 (io, system, interrupts, sockets).
_BYTES = {"dsk": "B/s", "net": "B/s", "memory": "B", "swap": "B", "paging": "1/s"}
_UNITS = {"cpu": "%", "io": "1/s", "system": "1/s", "interrupts": "1/s"}
_SHORT = {"memory usage": "memory", "advanced memory usage": "memory", "load avg": "load"}
_SHORT.update({"tcp sockets": "tcp", "unix sockets": "unix", "sysv ipc": "ipc", "file locks": "locks"})
_SHORT["total"] = "swap"  # pcp-dstat names its swap group after the swap device list: `total`
# `total cpu usage` (dstat, dool), `total usage` (pcp-dstat), `cpu0 usage` (-C 0 in all three)
_CPU = re.compile(r"(?:cpu(\d+)|(total)) (?:cpu )?usage|cpu(\d+) usage")
# a title: a name of letters, digits, `/`, `.`, `%`, padded with dashes on at least one side
_TITLE = re.compile(r"-+[\w/.%]+(?:-[\w/.%]+)*-*|[\w/.%]+(?:-[\w/.%]+)*-+")


@dataclass(frozen=True)
class Column:
    metric: str  # "" for the time and epoch columns (not a series)
    entity: str
    unit: str
    base: int  # what the k/M/G suffixes count in
    factor: float = 1.0  # what the printed number is multiplied by (pcp-dstat's CSV prints KiB)
    setting: str = ""  # a server setting (a dool `mysql5 settings` column): its name, not a series


@dataclass(frozen=True)
class Layout:
    columns: tuple[Column, ...]
    time: int | None  # index of the `time` column (dd-mm HH:MM:SS)
    epoch: int | None  # index of the `epoch` column
    scaled: bool  # text: values carry unit suffixes
    spans: tuple[tuple[int, int | None, int], ...] = field(default=())  # text: (start, end, columns) per group
    widths: tuple[int, ...] = field(default=())  # text: each group's column width (0: uneven)

    def cut(self, line: str) -> list[str] | None:
        """A text row's cells, column by column: each group's values sit under its title. A group
        left blank (pcp-dstat's first row, a plugin with nothing to show) gives empty cells; a
        group with some columns blank is cut at its fixed column widths."""
        cells: list[str] = []
        for (start, end, n), w in zip(self.spans, self.widths or (0,) * len(self.spans), strict=True):
            if end is not None and line[end : end + 1] not in ("|", ":"):
                return None  # dstat prints `|` or `:` after every group but the last, in every row
            part = line[start:end]
            # the time column is one cell with a space inside (`23-11 17:36:19`)
            words = ([part.strip()] if part.strip() else []) if n == 1 else part.split()
            if not words:
                words = [""] * n
            elif len(words) != n and w:
                words = [part[k * (w + 1) : k * (w + 1) + w] for k in range(n)]
                if any(len(x.split()) > 1 for x in words) or len("".join(words).split()) != len(part.split()):
                    return None
                words = [x.strip() for x in words]
            if len(words) != n:
                return None
            cells.extend(words)
        return cells


def column_of(group: str, nick: str, kib: bool = False) -> Column:
    """The series of column `nick` under group title `group` (CSV spelling: spaces, not dashes);
    `kib`: pcp-dstat's CSV, whose byte groups print KiB."""
    group = group.strip()
    nick = nick.strip()
    if m := _CPU.fullmatch(group):
        entity = m.group(1) or m.group(3) or "total"
        return Column(f"cpu.{nick}", entity, "%", 1000)
    if group in SETTING_GROUPS:
        return Column("", "", "", 1000, setting=nick)
    kind, _, entity = group.partition("/")
    kind = _SHORT.get(kind, kind).replace(" ", "_")
    if (known := plugin(group, nick)) is not None:
        return Column(f"{kind}.{nick}", entity, known[1], known[0])
    if kind in _BYTES:
        factor = 1024.0 if kib and kind in PCP_KIB else 1.0
        return Column(f"{kind}.{nick}", entity, _BYTES[kind], 1024, factor)
    return Column(f"{kind}.{nick}", entity, _UNITS.get(kind, ""), 1000)


def _layout(
    pairs: list[tuple[str, str]],
    scaled: bool,
    spans: tuple[tuple[int, int | None, int], ...],
    widths: tuple[int, ...] = (),
    kib: bool = False,
) -> Layout:
    columns: list[Column] = []
    time = epoch = None
    for group, nick in pairs:
        if nick == "time" and group in ("system", ""):
            time = len(columns)
            columns.append(Column("", "", "", 1))
        elif nick == "epoch" or (nick.lower() == "time" and group.strip() in TIME_GROUPS):
            # dstat's own epoch column (-T) wins over a plugin's clock (DBPA's `mysql5 time`)
            epoch = epoch if nick != "epoch" and epoch is not None else len(columns)
            columns.append(Column("", group.strip() if nick != "epoch" else "", "", 1))  # entity: the plugin
        else:
            columns.append(column_of(group, nick, kib))
    return Layout(tuple(columns), time, epoch, scaled, spans, widths)


def title_line(line: str) -> bool:
    """A line of dash-padded group titles (the first of a text header)."""
    words = line.split()
    return bool(words) and all(_TITLE.fullmatch(w) for w in words)


def text_layout(group_line: str, column_line: str) -> Layout | None:
    """The layout of a text header (group line, column line), None when they are not one: every
    word of the group line a dash-padded title, and the column line separated by `|` or `:` right
    where the titles end (dstat prints `|` between plugins, `:` between the names of one)."""
    groups = [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", group_line)]
    if not groups or not all(_TITLE.fullmatch(g) for *_, g in groups):
        return None
    pairs: list[tuple[str, str]] = []
    spans = []
    widths: list[int] = []
    for k, (start, end, title) in enumerate(groups):
        last = k + 1 == len(groups)
        if not last and column_line[end : end + 1] not in ("|", ":"):
            return None
        nicks = column_line[start : None if last else end].split()
        if not nicks or any("|" in nick or ":" in nick for nick in nicks):
            return None
        name = title.strip("-")
        name = name if "/" in name else name.replace("-", " ")
        pairs += [(name, nick) for nick in nicks]
        spans.append((start, None if last else end, len(nicks)))
        w, rest = divmod(end - start - (len(nicks) - 1), len(nicks))
        widths.append(w if not rest and w > 0 else 0)
    if len(pairs) < 2:
        return None
    return _layout(pairs, True, tuple(spans), tuple(widths))


def csv_layout(groups: list[str], nicks: list[str], kib: bool = False) -> Layout | None:
    """The layout of the CSV's group row and column row (`cpu0 usage:usr` for multi-name plugins);
    `kib`: pcp-dstat's CSV (its byte groups in KiB)."""
    if not nicks or len(groups) > len(nicks) or not all(nicks):
        return None
    pairs = []
    group = ""
    for k, nick in enumerate(nicks):
        if k < len(groups) and groups[k]:
            group = groups[k]
        prefix, sep, rest = nick.rpartition(":")
        pairs.append((prefix, rest) if sep else (group, nick))
    return _layout(pairs, False, (), (), kib)


def pcp_row(cells: list[str], sizes: list[int]) -> list[str] | None:
    """A pcp-dstat CSV row aligned to its header, None when it cannot be: a group with nothing to
    show (every rate in the first row: PCP needs two samples; swap without a swap device) is
    printed as one empty cell, the others in full (`27-11 00:24:10,,163228,...`). Groups are read in order, each one
    empty cell where that cell is empty and the rest of the row still adds up, else whole."""
    n = len(cells)
    # fits[g][i]: groups g.. read from cells i.. end exactly at the row's end
    fits = [[False] * (n + 1) for _ in range(len(sizes) + 1)]
    fits[len(sizes)][n] = True
    for g in range(len(sizes) - 1, -1, -1):
        for i in range(n, -1, -1):
            whole = i + sizes[g] <= n and fits[g + 1][i + sizes[g]]
            fits[g][i] = whole or (i < n and not cells[i] and fits[g + 1][i + 1])
    if not sizes or not fits[0][0]:
        return None
    out: list[str] = []
    i = 0
    for g, size in enumerate(sizes):
        if i < n and not cells[i] and fits[g + 1][i + 1]:
            out += [""] * size
            i += 1
        else:
            out += cells[i : i + size]
            i += size
    return out
