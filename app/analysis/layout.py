"""Panels of a comparison and the default layout (Qt-free, shared by the window and export).

Default layout when runs are added, top to bottom, only what the runs have data for:
throughput (`tps`) and latency; CPU (vmstat us/sy/wa, else mpstat all %usr/%sys/%iowait);
disk (w/s, %util and await of the busiest device); InnoDB (checkpoint age, history list length);
top waits.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np

from benchlens.app.model import SeriesRef


@dataclass
class Panel:
    title: str
    refs: list[SeriesRef] = field(default_factory=list)

    def as_json(self) -> dict[str, object]:
        return {"title": self.title, "series": [r.spec() for r in self.refs]}

    def legend(self) -> list[str]:
        """A short label per series: the entity alone when the panel shows one metric of many
        entities (top waits), else the metric and entity."""
        if len({(r.format, r.metric) for r in self.refs}) == 1 and all(r.entity for r in self.refs):
            return [r.entity for r in self.refs]
        return [r.label() for r in self.refs]

    @classmethod
    def from_json(cls, d: dict[str, object]) -> Panel:
        series = d.get("series", [])
        refs = [SeriesRef.parse(str(s)) for s in series] if isinstance(series, list) else []
        return cls(str(d.get("title", "")), refs)


def parse_panel(spec: str) -> Panel:
    """A --panel argument: 'vmstat:us+vmstat:sy' joins several series in one panel."""
    refs = [SeriesRef.parse(s) for s in spec.split("+")]
    return Panel(" + ".join(r.label() for r in refs), refs)


THROUGHPUT_FORMATS = ("sysbench", "dbstress", "tpcc")
TOP_WAITS = 4


def layout_for_runs(
    runs: Iterable[int],
    available: Callable[[int], Iterable[SeriesRef]],
    data: Callable[[int, SeriesRef], tuple[np.ndarray, np.ndarray] | None],
) -> list[Panel]:
    """The default layout of a comparison: the series any run has, devices rated by their highest
    mean over the runs. The window and `benchlens export` both use it."""
    runs = list(runs)
    have: set[SeriesRef] = set()
    for r in runs:
        have.update(available(r))

    def load(ref: SeriesRef) -> float:
        means = []
        for r in runs:
            d = data(r, ref)
            if d is not None and len(d[1]):
                means.append(float(np.nanmean(d[1])))
        return max(means, default=0.0)

    return default_panels(have, load)


def default_panels(available: Iterable[SeriesRef], load: Callable[[SeriesRef], float] | None = None) -> list[Panel]:
    """The layout a performance engineer starts from. `load` rates a device's activity (e.g. its
    mean %util) to pick the busiest one; without it the first device in name order is used."""
    have = set(available)
    panels: list[Panel] = []

    def pick(*refs: SeriesRef) -> list[SeriesRef]:
        return [r for r in refs if r in have]

    for src in THROUGHPUT_FORMATS:
        if SeriesRef(src, "tps") in have:
            panels.append(Panel("Throughput (tps)", [SeriesRef(src, "tps")]))
            lat = sorted(r for r in have if r.format == src and r.metric == "lat_ms")
            if lat:
                which = ", ".join(f"p{r.entity}" if r.entity.replace(".", "").isdigit() else r.entity for r in lat[:2])
                panels.append(Panel(f"Latency {which} (ms)", lat[:2]))
            break
    cpu = pick(SeriesRef("vmstat", "us"), SeriesRef("vmstat", "sy"), SeriesRef("vmstat", "wa"))
    if not cpu:
        cpu = pick(*(SeriesRef("mpstat", m, "all") for m in ("%usr", "%sys", "%iowait")))
    if cpu:
        panels.append(Panel("CPU (%)", cpu))
    devices = sorted({r.entity for r in have if r.format == "iostat" and r.metric in ("w/s", "%util") and r.entity})
    if devices:
        dev = max(devices, key=lambda d: (load(SeriesRef("iostat", "%util", d)) if load else 0.0, -devices.index(d)))
        iops = pick(SeriesRef("iostat", "w/s", dev), SeriesRef("iostat", "r/s", dev))
        if iops:
            panels.append(Panel(f"Disk {dev}: IOPS", iops))
        util = pick(SeriesRef("iostat", "%util", dev))
        if util:
            panels.append(Panel(f"Disk {dev}: %util", util))
        wait = pick(SeriesRef("iostat", "w_await", dev), SeriesRef("iostat", "r_await", dev))
        wait = wait or pick(SeriesRef("iostat", "await", dev))
        if wait:
            panels.append(Panel(f"Disk {dev}: await (ms)", wait))
    innodb = pick(SeriesRef("innodb_status", "checkpoint_age"))
    if innodb:
        panels.append(Panel("Checkpoint age", innodb))
    hll = pick(SeriesRef("innodb_status", "history_list_length"))
    if hll:
        panels.append(Panel("History list length", hll))
    # top waits: the events (Performance Schema) or mutexes (InnoDB) that waited most
    for fmt, metric, title in (
        ("perfschema", "SUM_TIMER_WAIT", "Top waits (ms/s)"),
        ("innodb_mutex", "os_waits", "Top mutex OS waits (1/s)"),
        ("innodb_mutex", "waits", "Top mutex waits (1/s)"),
    ):
        waits = [r for r in have if r.format == fmt and r.metric == metric and r.entity != "idle"]
        if waits:
            top = sorted(waits, key=lambda r: (-(load(r) if load else 0.0), r.entity))[:TOP_WAITS]
            panels.append(Panel(title, top))
            break
    return panels
