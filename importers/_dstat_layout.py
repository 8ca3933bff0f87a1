"""dstat's header: which series each column of a row is (importers/dstat.py reads the rows).

A dstat group is one plugin name (`total cpu usage`, `dsk/vda`, `net/total`, `memory usage`,
`load avg`); its columns are the plugin's nicknames (`usr`, `read`, `recv`, `used`, `1m`). The
text prints the group names centred over their columns with `-` for spaces; the CSV prints them
in a row of their own. One function names a column of either: `column_of(group, nick)`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# Groups whose unit suffixes count in 1024s: dstat's plugins that keep the class's default scale
# of 1024 (dsk, net, memory, swap, paging); the others set 1000 (io, system, interrupts, sockets).
_BYTES = {"dsk": "B/s", "net": "B/s", "memory": "B", "swap": "B", "paging": "1/s"}
_UNITS = {"cpu": "%", "io": "1/s", "system": "1/s", "interrupts": "1/s"}
_SHORT = {"memory usage": "memory", "advanced memory usage": "memory", "load avg": "load"}
_SHORT.update({"tcp sockets": "tcp", "unix sockets": "unix", "sysv ipc": "ipc", "file locks": "locks"})
_CPU = re.compile(r"(?:cpu(\d+)|(total)) cpu usage|cpu(\d+) usage")
# a title: a name of letters, digits, `/`, `.`, `%`, padded with dashes on at least one side
_TITLE = re.compile(r"-+[\w/.%]+(?:-[\w/.%]+)*-*|[\w/.%]+(?:-[\w/.%]+)*-+")


@dataclass(frozen=True)
class Column:
    metric: str  # "" for the time and epoch columns (not a series)
    entity: str
    unit: str
    base: int  # what the k/M/G suffixes count in


@dataclass(frozen=True)
class Layout:
    columns: tuple[Column, ...]
    time: int | None  # index of the `time` column (dd-mm HH:MM:SS)
    epoch: int | None  # index of the `epoch` column
    scaled: bool  # text: values carry unit suffixes
    spans: tuple[tuple[int, int | None, int], ...] = field(default=())  # text: (start, end, columns) per group

    def cut(self, line: str) -> list[str] | None:
        """A text row's cells, column by column: each group's values sit under its title."""
        cells: list[str] = []
        for start, end, n in self.spans:
            part = line[start:end]
            # the time column is one cell with a space inside (`23-11 17:36:19`)
            words = ([part.strip()] if part.strip() else []) if n == 1 else part.split()
            if len(words) != n:
                return None
            cells.extend(words)
        return cells


def column_of(group: str, nick: str) -> Column:
    """The series of column `nick` under group title `group` (CSV spelling: spaces, not dashes)."""
    group = group.strip()
    nick = nick.strip()
    if m := _CPU.fullmatch(group):
        entity = m.group(1) or m.group(3) or "total"
        return Column(f"cpu.{nick}", entity, "%", 1000)
    kind, _, entity = group.partition("/")
    kind = _SHORT.get(kind, kind).replace(" ", "_")
    if kind in _BYTES:
        return Column(f"{kind}.{nick}", entity, _BYTES[kind], 1024)
    return Column(f"{kind}.{nick}", entity, _UNITS.get(kind, ""), 1000)


def _layout(pairs: list[tuple[str, str]], scaled: bool, spans: tuple[tuple[int, int | None, int], ...]) -> Layout:
    columns: list[Column] = []
    time = epoch = None
    for group, nick in pairs:
        if nick == "time" and group in ("system", ""):
            time = len(columns)
            columns.append(Column("", "", "", 1))
        elif nick == "epoch":
            epoch = len(columns)
            columns.append(Column("", "", "", 1))
        else:
            columns.append(column_of(group, nick))
    return Layout(tuple(columns), time, epoch, scaled, spans)


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
    if len(pairs) < 2:
        return None
    return _layout(pairs, True, tuple(spans))


def csv_layout(groups: list[str], nicks: list[str]) -> Layout | None:
    """The layout of the CSV's group row and column row (`cpu0 usage:usr` for multi-name plugins)."""
    if not nicks or len(groups) > len(nicks) or not all(nicks):
        return None
    pairs = []
    group = ""
    for k, nick in enumerate(nicks):
        if k < len(groups) and groups[k]:
            group = groups[k]
        prefix, sep, rest = nick.rpartition(":")
        pairs.append((prefix, rest) if sep else (group, nick))
    return _layout(pairs, False, ())
