"""Panels of a comparison and the default layout (Qt-free, shared by the window and export).

The default layout tells the story, top to bottom, with only what the runs have data for:
throughput (`tps`) and latency; CPU (the first source of CPU_SOURCES: vmstat us/sy/wa, else
mpstat, pt-stalk's procstat, sar or dstat); the busiest disk in one panel (%util, else its IOPS,
else dstat's bytes; iostat, else diskstats, sar -d or dstat); the busiest network interface (sar -n
DEV or dstat, when the folder has one); the processes that used most CPU (pidstat, at most
TOP_PROCESSES); and the one database panel that shows what explains the runs' drops (checkpoint
age for a flushing stall, the history list for a purge lag, the top waits for locks and latches),
else the one that moved most in these runs. Under throughput and latency come the panels whose
resource explains the drops, most first, so that they are in the first four; a panel whose every
series is flat (an idle interface at 0 B/s) is never in it. The other candidates (the
disk's IOPS and await, the database panels not chosen, flat panels) are `more_panels`, one click away. The
blog preset of `benchlens export` is the same story in at most BLOG_PANELS panels (`blog_panels`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from benchlens.app.analysis import imbalance, server_rate
from benchlens.app.analysis.idle import is_idle_wait
from benchlens.app.analysis.panel import Panel as Panel  # re-exported: the layout's record
from benchlens.app.analysis.panel import command as command
from benchlens.app.analysis.panel import parse_panel as parse_panel
from benchlens.app.analysis.panel import shortened as shortened
from benchlens.app.analysis.quantities import STATUS_OF
from benchlens.app.model import SeriesRef

# the benchmark's own throughput first; "server" is the server's (app/analysis/server_rate.py: commits
# + rollbacks per second), which app/rundata.py makes only for a run without a benchmark log
THROUGHPUT_FORMATS = ("sysbench", "dbstress", "tpcc", "hammerdb", "server")
TOP_WAITS = 4
TOP_PROCESSES = 4
# CPU panel sources, the first a run has: (format, entity, user, system, iowait)
CPU_SOURCES = (
    ("vmstat", "", "us", "sy", "wa"),
    ("mpstat", "all", "%usr", "%sys", "%iowait"),
    ("procstat", "all", "%usr", "%sys", "%iowait"),
    ("sar", "all", "%user", "%system", "%iowait"),  # sar -u
    ("sar", "all", "%usr", "%sys", "%iowait"),  # sar -u ALL
    ("dstat", "total", "cpu.usr", "cpu.sys", "cpu.wai"),
)
# disk panel sources, the first a run has: iostat -x's metrics, also made from /proc/diskstats
DISK_FORMATS = ("iostat", "diskstats", "sar")
# network panel sources: (format, received, sent, unit)
NETWORK_SOURCES = (("sar", "rxkB/s", "txkB/s", "kB/s"), ("dstat", "net.recv", "net.send", "B/s"))
# The database panels, in the order that breaks a tie (and decides when nothing rates them).
DATABASE_ROLES = ("checkpoint_age", "history_list", "waits")
HEAD_ROLES = ("throughput", "server_throughput", "latency")  # always shown, always first
# server counters proving the drops' verdicts shown in a panel of their own, at most
PROOF_SERIES = 2
# panels of the blog preset: a 1200x675 figure keeps about 110 px of plot per panel with 4, the
# height the window never goes below (issue 12); throughput and latency stay, the panels that
# explain them compete for the rest
BLOG_PANELS = 4
# the explanation classes (app/analysis/relevance.py) each panel role shows
ROLE_CLASSES = {
    "cpu": ("cpu",),
    "cpu_heatmap": ("cpu",),
    "disk_heatmap": ("disk",),
    "disk_util": ("disk",),
    "disk_iops": ("disk",),
    "disk_io": ("disk",),
    "network": ("network",),
    "processes": ("cpu",),
    "checkpoint_age": ("redo", "flushing"),
    "history_list": ("purge",),
    "waits": ("locks", "latches"),
}

Rating = Callable[[SeriesRef], float]
# the CPU of a per-CPU format saturated while the machine's average was not (imbalance.hot_cpu),
# `64`, or `64 and 31 more` when several were
HotCpu = Callable[[str], str | None]
# more entities than this (CPUs, devices): the default layout adds their heatmap (issue #25)
HEATMAP_FROM = 8
# how much a resource class (ROLE_CLASSES' values) explains the runs' drops, 0 when nothing does
Explains = Callable[[str], float]


@dataclass(frozen=True)
class Explained:
    """An Explains of the runs' findings (run_drops.explained_classes) that also holds the series
    proving their verdicts (causes.Finding.key), the strongest first: a server counter among them
    that no panel of the story shows gets a panel of its own under throughput and latency (a dump's
    bytes sent to clients, read by dool's mysql-io plugin, has no panel of the usual story)."""

    weights: dict[str, float]
    proof: tuple[SeriesRef, ...] = ()

    def __call__(self, klass: str) -> float:
        return self.weights.get(klass, 0.0)


# a series that says nothing: flat in every run
Flat = Callable[[SeriesRef], bool]


def layout_for_runs(
    runs: Iterable[int],
    available: Callable[[int], Iterable[SeriesRef]],
    data: Callable[[int, SeriesRef], tuple[np.ndarray, np.ndarray] | None],
    explains: Explains | None = None,
) -> list[Panel]:
    """The default layout of a comparison: the series any run has, devices rated by their highest
    mean over the runs, the database panel by what explains the drops (`explains`), then by how
    much it moved. The window and `benchlens export` both use it."""
    have, load, spread, flat, hot, server = _rated(runs, available, data)
    return default_panels(have, load, spread, explains, flat, hot, server)


def more_for_runs(
    runs: Iterable[int],
    available: Callable[[int], Iterable[SeriesRef]],
    data: Callable[[int, SeriesRef], tuple[np.ndarray, np.ndarray] | None],
    explains: Explains | None = None,
) -> list[Panel]:
    """The candidates the default layout of these runs leaves out ("More panels")."""
    have, load, spread, flat, hot, server = _rated(runs, available, data)
    return more_panels(have, load, spread, explains, flat, hot, server)


def blog_for_runs(
    runs: Iterable[int],
    available: Callable[[int], Iterable[SeriesRef]],
    data: Callable[[int, SeriesRef], tuple[np.ndarray, np.ndarray] | None],
    explains: Explains | None = None,
) -> list[Panel]:
    """The blog preset's panels of these runs (blog_panels)."""
    have, load, spread, flat, hot, server = _rated(runs, available, data)
    return blog_panels(have, load, spread, explains, flat, hot, server)


def _rated(
    runs: Iterable[int],
    available: Callable[[int], Iterable[SeriesRef]],
    data: Callable[[int, SeriesRef], tuple[np.ndarray, np.ndarray] | None],
) -> tuple[set[SeriesRef], Rating, Rating, Flat, HotCpu, str | None]:
    runs = list(runs)
    have: set[SeriesRef] = set()
    for r in runs:
        have.update(available(r))

    def values(ref: SeriesRef) -> list[np.ndarray]:
        out = []
        for r in runs:
            d = data(r, ref)
            if d is not None and np.isfinite(d[1]).any():
                out.append(d[1][np.isfinite(d[1])])
        return out

    def load(ref: SeriesRef) -> float:
        """A device's mean activity; a process's CPU over the run (the sum of its %CPU samples):
        the busy benchmark client, not a process that flashed once at 40 % and exited."""
        per_run = (float(v.sum() if ref.format == "pidstat" else v.mean()) for v in values(ref))
        return max(per_run, default=0.0)

    def spread(ref: SeriesRef) -> float:
        """How much a series moved: its largest coefficient of variation over the runs."""
        return max((float(v.std() / abs(v.mean())) for v in values(ref) if v.mean() != 0), default=0.0)

    def flat(ref: SeriesRef) -> bool:
        """Every sample of every run the same (an interface at 0 B/s all along); a lone sample is
        not flat: nothing says it would not move."""
        got = [v for v in values(ref) if v.size]
        return sum(v.size for v in got) > 1 and len({float(x) for v in got for x in (v.min(), v.max())}) == 1

    @functools.cache
    def hot(fmt: str) -> str | None:
        """The CPU of `fmt` saturated while the average was not (imbalance.hot_cpu), the
        busiest such CPU over the runs."""
        found = [h for r in runs if (h := imbalance.hot_cpu(fmt, available(r), functools.partial(data, r)))]
        if not found:
            return None
        best = max(found, key=lambda h: h.busy)
        return best.cpu + (f" and {best.hot - 1} more" if best.hot > 1 else "")

    return have, load, spread, flat, hot, server_rate.said(runs, available, data)


def default_panels(
    available: Iterable[SeriesRef],
    load: Rating | None = None,
    spread: Rating | None = None,
    explains: Explains | None = None,
    flat: Flat | None = None,
    hot: HotCpu | None = None,
    server: str | None = None,
) -> list[Panel]:
    """The layout a performance engineer starts from. `load` rates a device's activity (e.g. its
    mean %util) to pick the busiest one, without it the first device in name order; `explains`
    rates a resource class by how much it explains the drops and `spread` how much a database
    series moved, to pick one database panel: the one whose classes explain most, then the one
    that moved most, then the first of DATABASE_ROLES the runs have."""
    return [p for _, p in _story(available, load, spread, explains, flat, hot, server)]


def blog_panels(
    available: Iterable[SeriesRef],
    load: Rating | None = None,
    spread: Rating | None = None,
    explains: Explains | None = None,
    flat: Flat | None = None,
    hot: HotCpu | None = None,
    server: str | None = None,
) -> list[Panel]:
    """The default layout cut to BLOG_PANELS: throughput and latency, then of CPU, the disk and
    the database panel those whose resource best explains the drops (`explains` rates a resource
    class of ROLE_CLASSES, e.g. by its weight in the drops' explanations), then those whose first
    series moved most (`spread`); in the story's order."""
    story = _story(available, load, spread, explains, flat, hot, server)
    head = [k for k, _ in story if k in (*HEAD_ROLES, "proof")]
    why, moved = explains or (lambda _: 0.0), spread or (lambda _: 0.0)
    panels = dict(story)

    def rank(k: str) -> tuple[float, float]:
        return (-max((why(c) for c in ROLE_CLASSES.get(k, ())), default=0.0), -moved(panels[k].refs[0]))

    rest = sorted((k for k, _ in story if k not in head), key=rank)
    keep = set(head[:BLOG_PANELS]) | set(rest[: max(0, BLOG_PANELS - len(head))])
    return [p for k, p in story if k in keep]


def _story(
    available: Iterable[SeriesRef],
    load: Rating | None,
    spread: Rating | None,
    explains: Explains | None = None,
    flat: Flat | None = None,
    hot: HotCpu | None = None,
    server: str | None = None,
) -> list[tuple[str, Panel]]:
    """default_panels with each panel's role: throughput and latency, then the panels whose
    resource explains the drops, most first (a CPU hog's CPU and top processes, a purge lag's
    history list: in the first four, above the fold of a laptop's window), then the rest in the
    story's order. A panel whose every series is `flat` (an interface at 0 B/s all
    along) stays out: it is in more_panels."""
    roles = dict(candidate_panels(available, load, hot, server))
    if flat is not None:  # every panel flat (two samples of a steady load): shown, not an empty window
        roles = {k: p for k, p in roles.items() if k in HEAD_ROLES or not all(flat(r) for r in p.refs)} or roles
    chosen: list[tuple[str, Panel]] = [(k, roles[k]) for k in (*HEAD_ROLES, "cpu", "cpu_heatmap") if k in roles]
    disk = next((k for k in ("disk_util", "disk_iops", "disk_io") if k in roles), None)
    if disk is not None:
        chosen.append((disk, roles[disk]))
    if "disk_heatmap" in roles:
        chosen.append(("disk_heatmap", roles["disk_heatmap"]))
    chosen += [(k, roles[k]) for k in ("network", "processes") if k in roles]
    rate, why = spread or (lambda _: 0.0), explains or (lambda _: 0.0)

    def weight(role: str) -> float:
        return max((why(c) for c in ROLE_CLASSES.get(role, ())), default=0.0)

    database = [k for k in DATABASE_ROLES if k in roles]
    if database:
        best = max(database, key=lambda k: (weight(k), rate(roles[k].refs[0]), -DATABASE_ROLES.index(k)))
        chosen.append((best, roles[best]))
    head = [c for c in chosen if c[0] in HEAD_ROLES] + _proof(available, explains, chosen)
    # a stable sort: what explains nothing keeps the story's order
    return head + sorted((c for c in chosen if c[0] not in HEAD_ROLES), key=lambda c: -weight(c[0]))


def _proof(
    available: Iterable[SeriesRef], explains: Explains | None, chosen: list[tuple[str, Panel]]
) -> list[tuple[str, Panel]]:
    """The panel of the server counters that prove the drops' verdicts and that no chosen panel
    shows (at most PROOF_SERIES), titled by the status counters they are."""
    if not isinstance(explains, Explained):
        return []
    have, shown = set(available), {r for _, p in chosen for r in p.refs}
    server = (r for r in explains.proof if r.format == "global_status" or (r.format, r.metric) in STATUS_OF)
    refs = list(dict.fromkeys(r for r in server if r in have and r not in shown))[:PROOF_SERIES]
    if not refs:
        return []
    return [("proof", Panel(", ".join(STATUS_OF.get((r.format, r.metric), r.metric) for r in refs), refs))]


def more_panels(
    available: Iterable[SeriesRef],
    load: Rating | None = None,
    spread: Rating | None = None,
    explains: Explains | None = None,
    flat: Flat | None = None,
    hot: HotCpu | None = None,
    server: str | None = None,
) -> list[Panel]:
    """Every candidate panel the default layout leaves out, in the candidates' order."""
    have = list(available)
    shown = default_panels(have, load, spread, explains, flat, hot, server)
    return [p for _, p in candidate_panels(have, load, hot, server) if p not in shown]


def candidate_panels(
    available: Iterable[SeriesRef], load: Rating | None = None, hot: HotCpu | None = None, server: str | None = None
) -> list[tuple[str, Panel]]:
    """Every panel a default layout may show, by role, in the story's order. `server`: what the
    server's throughput counts (server_rate.said), its panel's unit."""
    have = set(available)
    out: list[tuple[str, Panel]] = []

    def pick(*refs: SeriesRef) -> list[SeriesRef]:
        return [r for r in refs if r in have]

    served = Panel(f"Server throughput ({server or 'per second'})", [server_rate.SERVER_TPS])
    src = next((f for f in THROUGHPUT_FORMATS if SeriesRef(f, "tps") in have), None)
    if src is not None:
        out.append(("throughput", served if src == "server" else Panel("Throughput (tps)", [SeriesRef(src, "tps")])))
        # a run without a benchmark log beside one with it: its server's rate counts other
        # things, in a panel of its own, not missing from the benchmark's
        if src != "server" and server_rate.SERVER_TPS in have:
            out.append(("server_throughput", served))
        lat = sorted(r for r in have if r.format == src and r.metric == "lat_ms")
        if lat:
            which = ", ".join(f"p{r.entity}" if r.entity.replace(".", "").isdigit() else r.entity for r in lat[:2])
            out.append(("latency", Panel(f"Latency {which} (ms)", lat[:2])))
    for fmt, entity, *metrics in CPU_SOURCES:
        cpu = pick(*(SeriesRef(fmt, m, entity) for m in metrics))
        if SeriesRef(fmt, metrics[0], entity) in have:  # its user time: sar -u and -u ALL share %iowait
            out.append(("cpu", _hot_beside(Panel("CPU (%)", cpu), have, hot)))
            break
    out += _heatmaps(have, "cpu_heatmap", [(f, "%idle", imbalance.BUSY, "Busy per CPU") for f in imbalance.SHARES])
    disks = (_disk_panels(have, load, fmt) for fmt in DISK_FORMATS)
    out += next((d for d in disks if d), []) or _dstat_disk_panels(have, load)
    out += _heatmaps(have, "disk_heatmap", [(f, "%util", "%util", "%util per device") for f in DISK_FORMATS])
    out += _network_panels(have, load) + _process_panels(have, load)
    innodb = pick(SeriesRef("innodb_status", "checkpoint_age"))
    if innodb:
        out.append(("checkpoint_age", Panel("Checkpoint age", innodb)))
    hll = pick(SeriesRef("innodb_status", "history_list_length"))
    if hll:
        out.append(("history_list", Panel("History list length", hll)))
    # top waits: the events (Performance Schema) or mutexes (InnoDB) that waited most
    for fmt, metric, title in (
        ("perfschema", "SUM_TIMER_WAIT", "Top waits (ms/s)"),
        ("innodb_mutex", "os_waits", "Top mutex OS waits (1/s)"),
        ("innodb_mutex", "waits", "Top mutex waits (1/s)"),
    ):
        waits = [r for r in have if r.format == fmt and r.metric == metric and not is_idle_wait(r.entity)]
        if waits:
            top = sorted(waits, key=lambda r: (-(load(r) if load else 0.0), r.entity))[:TOP_WAITS]
            out.append(("waits", Panel(title, top)))
            break
    return out


def _disk_panels(have: set[SeriesRef], load: Rating | None, fmt: str = "iostat") -> list[tuple[str, Panel]]:
    """The busiest device's %util, IOPS and await panels (iostat's metrics: `fmt` is iostat,
    diskstats, or sar -d, whose IOPS is `tps`)."""
    devices = sorted({r.entity for r in have if r.format == fmt and r.metric in ("w/s", "%util", "tps") and r.entity})
    if not devices:
        return []
    dev = max(devices, key=lambda d: (load(SeriesRef(fmt, "%util", d)) if load else 0.0, -devices.index(d)))

    def pick(*metrics: str) -> list[SeriesRef]:
        return [r for r in (SeriesRef(fmt, m, dev) for m in metrics) if r in have]

    out = []
    util = pick("%util")
    if util:
        out.append(("disk_util", Panel(f"Disk {dev}: %util", util)))
    iops = pick("w/s", "r/s") or pick("tps")
    if iops:
        out.append(("disk_iops", Panel(f"Disk {dev}: IOPS", iops)))
    wait = pick("w_await", "r_await") or pick("await")
    if wait:
        out.append(("disk_await", Panel(f"Disk {dev}: await (ms)", wait)))
    return out


def _busiest(
    have: set[SeriesRef], fmt: str, metrics: tuple[str, ...], load: Rating | None, skip: str = ""
) -> str | None:
    """The entity of `fmt` whose `metrics` add up to the highest load (else the first in name
    order), entities named in `skip` (space separated) only when there is no other."""
    names = sorted({r.entity for r in have if r.format == fmt and r.metric in metrics})
    names = [e for e in names if e not in skip.split()] or names
    if not names:
        return None
    return max(
        names, key=lambda e: (sum(load(SeriesRef(fmt, m, e)) for m in metrics) if load else 0.0, -names.index(e))
    )


def _dstat_disk_panels(have: set[SeriesRef], load: Rating | None) -> list[tuple[str, Panel]]:
    """dstat's disk bytes read and written (it has no %util or IOPS), of the busiest disk."""
    dev = _busiest(have, "dstat", ("dsk.read", "dsk.writ"), load)
    refs = [r for r in (SeriesRef("dstat", m, dev or "") for m in ("dsk.writ", "dsk.read")) if r in have]
    return [("disk_io", Panel(f"Disk {dev}: read/write (B/s)", refs, y_zero=True))] if refs else []


def _network_panels(have: set[SeriesRef], load: Rating | None) -> list[tuple[str, Panel]]:
    """The busiest network interface (not the loopback), received and sent: sar -n DEV, else dstat."""
    for fmt, rx, tx, unit in NETWORK_SOURCES:
        nic = _busiest(have, fmt, (rx, tx), load, skip="lo")
        refs = [r for r in (SeriesRef(fmt, m, nic or "") for m in (rx, tx)) if r in have]
        if refs:
            return [("network", Panel(f"Network {nic} ({unit})", refs, y_zero=True))]
    return []


def _process_panels(have: set[SeriesRef], load: Rating | None) -> list[tuple[str, Panel]]:
    """The processes (pidstat) that used most CPU, at most TOP_PROCESSES of them in one panel, by
    command: each run's `mariadbd` is one entry whatever its PID (the run data sums a command's
    processes: app/rundata.py)."""
    procs = {
        SeriesRef("pidstat", "%CPU", command(r.entity)) for r in have if r.format == "pidstat" and r.metric == "%CPU"
    }
    procs = {r for r in procs if r.entity}
    top = sorted(procs, key=lambda r: (-(load(r) if load else 0.0), r.entity))[:TOP_PROCESSES]
    return [("processes", Panel("Top processes: CPU (%)", top, y_zero=True))] if top else []


def _hot_beside(panel: Panel, have: set[SeriesRef], hot: HotCpu | None) -> Panel:
    """The CPU panel with the saturated CPU's busy share beside the average's (and its interrupt
    share when interrupts took it): what the average hides (issue #25)."""
    if hot is None:
        return panel
    for fmt in imbalance.SHARES:
        said = hot(fmt)  # `64`, or `64 and 31 more`
        if said is None:
            continue
        cpu = said.split()[0]
        extra = [SeriesRef(fmt, imbalance.BUSY, cpu), SeriesRef(fmt, imbalance.BUSY, imbalance.AGGREGATE)]
        if all(p in have for p in imbalance.parts(SeriesRef(fmt, imbalance.INTR, cpu))):
            extra.append(SeriesRef(fmt, imbalance.INTR, cpu))
        return Panel(f"CPU (%): CPU {said} saturated", panel.refs + extra)
    return panel


def _heatmaps(have: set[SeriesRef], role: str, sources: list[tuple[str, str, str, str]]) -> list[tuple[str, Panel]]:
    """One heatmap of every entity (a `*` panel: app/analysis/heatmap.py) of the first source
    (format, stored metric, metric shown, title) with more than HEATMAP_FROM entities."""
    for fmt, stored, shown, title in sources:
        names = {r.entity for r in have if r.format == fmt and r.metric == stored and r.entity}
        if len(names - {imbalance.AGGREGATE}) > HEATMAP_FROM:
            return [(role, Panel(f"{title} ({fmt})", [SeriesRef(fmt, shown, "*")]))]
    return []
