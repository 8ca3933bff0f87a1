"""A panel of a comparison (its series, scale, height, hidden series, heatmap rows) and the
`--panel` spec that makes one: the record the layout (app/analysis/layout.py), the window and the
exports share, with the legend labels its series get."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from benchlens.app.model import SeriesRef


@dataclass
class Panel:
    title: str
    refs: list[SeriesRef] = field(default_factory=list)
    log_y: bool = False  # a log value axis (non-positive values are gaps)
    y_zero: bool = False  # the value axis starts at 0 (ignored with log_y)
    height: int | None = None  # pixels in the window when the user sized it; exports use it as a weight
    hidden: list[SeriesRef] = field(default_factory=list)  # series switched off by a legend click
    order: str = "number"  # a heatmap's rows: by entity number, or by "load" (app/analysis/heatmap.py)

    def as_json(self) -> dict[str, object]:
        return {
            "title": self.title,
            "series": [r.spec() for r in self.refs],
            "log_y": self.log_y,
            "y_zero": self.y_zero,
            "height": self.height,
            "hidden": [r.spec() for r in self.hidden if r in self.refs],
            "order": self.order,
        }

    def shown(self) -> list[SeriesRef]:
        """The series drawn: all but the hidden ones (each keeps its line style, by its place in refs)."""
        return [r for r in self.refs if r not in self.hidden]

    def legend(self) -> list[str]:
        """A short label per series: the entity alone when the panel shows one metric of many
        entities (top waits), else the metric and entity."""
        if len({(r.format, r.metric) for r in self.refs}) == 1 and all(r.entity for r in self.refs):
            return _without_unneeded_ids([r.entity for r in self.refs])
        return [r.label() for r in self.refs]

    @classmethod
    def from_json(cls, d: dict[str, object]) -> Panel:
        """A saved panel; views saved before a field existed get its default."""
        series = d.get("series", [])
        refs = [SeriesRef.parse(str(s)) for s in series] if isinstance(series, list) else []
        height = d.get("height")
        hidden = d.get("hidden", [])
        off = {SeriesRef.parse(str(s)) for s in hidden} if isinstance(hidden, list) else set()
        return cls(
            str(d.get("title", "")),
            refs,
            log_y=bool(d.get("log_y", False)),
            y_zero=bool(d.get("y_zero", False)),
            height=int(height) if isinstance(height, int | float) and height > 0 else None,
            hidden=[r for r in refs if r in off],
            order="load" if d.get("order") == "load" else "number",
        )


def shortened(label: str, limit: int) -> str:
    """A legend label within `limit` characters, shortened from the front (the end of an event or
    file name is what tells series apart): whole leading path segments go first
    (`wait/io/file/innodb/innodb_data_file` -> `…/innodb_data_file`); only a last segment that is
    still too long is cut inside."""
    if len(label) <= limit:
        return label
    rest = label
    while "/" in rest[:-1]:
        rest = rest.split("/", 1)[1]
        if len(rest) + 2 <= limit:
            return "\u2026/" + rest
    return "\u2026" + label[-(limit - 1) :]


_TASK_ID = re.compile(r" \d+(?:/\d+)?$")  # pidstat's `mysqld 1234`, a thread's `mysqld 1234/1250`


def command(entity: str) -> str:
    """A pidstat process without its PID: `mariadbd 1234` -> `mariadbd`, what matches it across runs."""
    return _TASK_ID.sub("", entity)


def _without_unneeded_ids(names: list[str]) -> list[str]:
    """Processes by their command alone when no two of them share one (`sysbench`, not `sysbench
    20465`, which a narrow legend would cut to `…nch 20465`); with their ids when they do."""
    bare = [_TASK_ID.sub("", n) for n in names]
    return bare if len(set(bare)) == len(bare) and all(bare) else names


_SPEC_START = re.compile(r"[a-z][a-z0-9_]*:")  # a format name and its colon: how a SPEC begins


def parse_panel(arg: str) -> Panel:
    """A --panel argument: 'vmstat:us+vmstat:sy' joins several series in one panel, and
    'Title=SPEC' names the panel. A SPEC may itself hold '=' (an entity such as pidstat -l's
    `mysqld --basedir=/usr`), so the title is what comes before the first '=' only when it does
    not begin like a SPEC (a format name and a colon): 'CPU: user=vmstat:us' is titled,
    'pidstat:%CPU:mysqld --basedir=/usr' is one series."""
    title, eq, spec = arg.partition("=")
    if not eq or _SPEC_START.match(title):
        title, spec = "", arg
    elif not title.strip():
        raise ValueError(f"--panel {arg!r}: the title before '=' is empty")
    refs = [SeriesRef.parse(s) for s in spec.split("+")]
    return Panel(title.strip() or " + ".join(r.label() for r in refs), refs)
