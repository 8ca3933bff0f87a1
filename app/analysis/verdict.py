"""One line per drop that says what happened, built from the evidence of its explanation: the
ranked entries and the level of every series measured (explain.Explanation.levels).

Causes are tried strongest first; each reads the series that prove it, in their own units:
- a flushing stall: checkpoint age at InnoDB's sync flush point (app/analysis/innodb.py), or
  dirty pages pinned at innodb_max_dirty_pages_pct;
- lock waits: metadata / global read lock wait time, FLUSH TABLES or LOCK TABLES seen, row lock
  time;
- purge lag: the history list length growing to several times its level;
- another writer (or reader) on a disk: a device's bytes up many-fold while InnoDB's own writes
  stayed a small part of them; a buffer pool that shrank, with the reads it causes;
- CPU taken by another process: system or user CPU points up while the throughput fell;
- otherwise the best supported class and its strongest entries, in human units.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from benchlens.app.analysis.innodb import CHECKPOINT_AGE, MAX_AGE, MAX_DIRTY_DEFAULT, _server, from_max_checkpoint_age
from benchlens.app.model import SeriesRef

if TYPE_CHECKING:  # explain.py imports this module
    from benchlens.app.analysis.explain import Change

GS = "global_status"
# a checkpoint age this close to the sync point sits at it (the level is a mean over the window)
AT_SYNC = 0.9
# lock wait that stalls sessions, ms per second (1000: one session waiting all the time)
LOCK_WAIT_MS = 500.0
# a device's bytes: up this many times and by this much (B/s) is a burst; InnoDB's own writes under
# this share of it leave another writer
BURST_RATIO, BURST_BYTES, OWN_SHARE = 3.0, 10e6, 0.25
# CPU points that say a process took the CPU
CPU_POINTS = 8.0
# history list growth that is a purge lag: this many times its level, and at least this many
PURGE_RATIO, PURGE_MIN = 3.0, 5000.0
# %util points that make a busy device
UTIL_POINTS = 30.0
# dirty pages within this many points of the page cleaner's limit are pinned at it
DIRTY_POINTS = 2.0

UNITS = {
    "wkB/s": "kB/s",
    "rkB/s": "kB/s",
    "bo": "kB/s",
    "bi": "kB/s",
    "SUM_TIMER_WAIT": "ms/s",
    "Innodb_row_lock_time": "ms/s",
    "checkpoint_age": "B",
    "Innodb_checkpoint_age": "B",
    "Innodb_data_written": "B/s",
    "Innodb_os_log_written": "B/s",
    "log_bytes/s": "B/s",
}


# analysis sits beside app/ticks.py in the layers, not above it: the verdict scales its few units
# itself, the way the axes label them (kB/s read as bytes, ms/s from 1000 on as s/s)
_PREFIXES = ((1e9, "G"), (1e6, "M"), (1e3, "k"), (1.0, ""))


def _scaled(values: Sequence[float], unit: str) -> tuple[list[float], str]:
    """The values in one unit with an SI prefix chosen by the largest of them."""
    if unit == "kB/s":
        values, unit = [v * 1000 for v in values], "B/s"
    if unit == "ms/s":
        top = max(abs(v) for v in values)
        return ([v / 1000 for v in values], "s/s") if top >= 1000 else (list(values), unit)
    if unit in ("B", "B/s"):
        top = max(abs(v) for v in values)
        scale, prefix = next(((f, n) for f, n in _PREFIXES if top >= f), (1.0, ""))
        return [v / scale for v in values], prefix + unit
    return list(values), unit


def _number(x: float) -> str:
    return "0" if x == 0 else f"{x:.3g}" if abs(x) < 1e4 else f"{x:,.0f}"


def human(x: float, unit: str) -> str:
    (v,), u = _scaled([x], unit)
    return f"{_number(v)} {u}".rstrip()


def span(before: float, during: float, unit: str) -> str:
    """'4.7 → 379 MB/s': both ends in the unit of the larger one."""
    (a, b), u = _scaled([before, during], unit)
    return f"{_number(a)} \u2192 {_number(b)} {u}".rstrip()


class Evidence:
    """The levels of an explanation, looked up by series."""

    def __init__(self, changes: Sequence[Change]) -> None:
        self.top = list(changes)
        self.levels: dict[SeriesRef, Change] = dict(getattr(changes, "levels", {}))
        for c in self.top:
            self.levels.setdefault(c.ref, c)

    def get(self, fmt: str, metric: str, entity: str = "") -> Change | None:
        return self.levels.get(SeriesRef(fmt, metric, entity))

    def each(self, fmt: str, metric: str) -> list[Change]:
        return [c for r, c in self.levels.items() if r.format == fmt and r.metric == metric]

    def rate(self, fmt: str, metric: str, entity: str = "") -> tuple[float, float]:
        c = self.get(fmt, metric, entity)
        return (c.before, c.during) if c is not None else (0.0, 0.0)


def flushing_stall(ev: Evidence) -> str | None:
    age = next((c for r in CHECKPOINT_AGE if (c := ev.levels.get(r)) is not None), None)
    top = ev.get(MAX_AGE.format, MAX_AGE.metric)
    if age is None or top is None or top.during <= 0:
        return None
    points = from_max_checkpoint_age(top.during, _server(set(ev.levels)))
    if age.during < AT_SYNC * points.sync_age:
        return None
    return (
        f"checkpoint age at the sync flush point ({human(age.during, 'B')} of {human(points.sync_age, 'B')}; "
        f"{human(age.before, 'B')} before): an InnoDB flushing stall"
    )


def dirty_pinned(ev: Evidence) -> str | None:
    dirty, total = ev.get(GS, "Innodb_buffer_pool_pages_dirty"), ev.get(GS, "Innodb_buffer_pool_pages_total")
    if dirty is None or total is None or total.during <= 0:
        return None
    limit = MAX_DIRTY_DEFAULT[_server(set(ev.levels))]
    pct, was = 100 * dirty.during / total.during, 100 * dirty.before / max(total.before, 1.0)
    if pct < limit - DIRTY_POINTS or was >= limit - DIRTY_POINTS:
        return None
    at = f"at the page cleaner's limit ({limit:.0f} %)"
    return f"dirty pages {was:.0f} \u2192 {pct:.0f} % of the pool, {at}: a flushing stall"


def lock_waits(ev: Evidence) -> str | None:
    waits = [
        c
        for c in ev.each("perfschema", "SUM_TIMER_WAIT")
        if ("MDL" in c.ref.entity or "global_read_lock" in c.ref.entity or "wait/lock/" in c.ref.entity)
        and c.during - c.before >= LOCK_WAIT_MS
    ]
    seen = [m for m in ("Com_flush", "Com_lock_tables", "Com_backup", "Com_backup_lock") if _appeared(ev, m)]
    statements = {"Com_flush": "FLUSH TABLES", "Com_lock_tables": "LOCK TABLES"}
    said = "; ".join(f"{statements.get(m, m.removeprefix('Com_').upper())} seen" for m in seen)
    if waits:
        w = max(waits, key=lambda c: c.during - c.before)
        what = (
            "the global read lock / metadata lock"
            if "MDL" in w.ref.entity or "global" in w.ref.entity
            else "table locks"
        )
        detail = f"MDL wait {span(w.before, w.during, 'ms/s')}" + (f"; {said}" if said else "")
        return f"sessions waited on {what} ({detail})"
    row = ev.get(GS, "Innodb_row_lock_time")
    if row is not None and row.during - row.before >= LOCK_WAIT_MS:
        return f"sessions waited on row locks (row lock time {span(row.before, row.during, 'ms/s')})"
    if seen:
        running = ev.get(GS, "Threads_running")
        extra = f", threads running {span(running.before, running.during, '')}" if running is not None else ""
        return f"sessions waited on the global read lock / table locks ({said}{extra})"
    return None


def _appeared(ev: Evidence, metric: str) -> bool:
    c = ev.get(GS, metric)
    return c is not None and c.before == 0 and c.during > 0


def purge_lag(ev: Evidence) -> str | None:
    h = ev.get(GS, "Innodb_history_list_length") or ev.get("innodb_status", "history_list_length")
    if h is None or h.during < max(PURGE_RATIO * h.before, h.before + PURGE_MIN):
        return None
    return f"history list length kept growing ({span(h.before, h.during, '')}): purge lag"


def disk_burst(ev: Evidence) -> str | None:
    devices = ev.each("iostat", "wkB/s") + ev.each("iostat", "rkB/s") or ev.each("vmstat", "bo") + ev.each(
        "vmstat", "bi"
    )
    burst = [c for c in devices if _burst(c.before * 1024, c.during * 1024)]
    if not burst:
        return _busy(ev)
    pool = _pool_shrank(ev)
    if pool:
        reads = [c for c in burst if c.ref.metric in ("rkB/s", "bi")]
        said = f": {reads[0].ref.entity or 'disk'} reads {span(reads[0].before * 1024, reads[0].during * 1024, 'B/s')}"
        return pool + (said if reads else "")
    c = max(burst, key=lambda c: c.during - c.before)
    writes = c.ref.metric in ("wkB/s", "bo")
    name = c.ref.entity or "disk"
    what = f"{name} {'writes' if writes else 'reads'} {span(c.before * 1024, c.during * 1024, 'B/s')}"
    if not writes:
        return f"{what}: reads from disk"
    own = sum(ev.rate(GS, m)[1] for m in ("Innodb_data_written", "Innodb_os_log_written"))
    if own < OWN_SHARE * (c.during - c.before) * 1024:
        return f"{what} while InnoDB wrote < {human(max(own, 1e6), 'B/s')}: another writer on the disk"
    return f"{what}, InnoDB writing {human(own, 'B/s')}: the server's own writes"


def _busy(ev: Evidence) -> str | None:
    """A device that got busy without a burst of bytes (small writes, a slower device)."""
    util = [c for c in ev.each("iostat", "%util") if c.during - c.before >= UTIL_POINTS]
    if not util:
        return None
    c = max(util, key=lambda c: c.during - c.before)
    return f"{c.ref.entity} busy {c.before:.0f} \u2192 {c.during:.0f} % of the time: the disk"


def _burst(before: float, during: float) -> bool:
    return during - before >= BURST_BYTES and during >= BURST_RATIO * before


def _pool_shrank(ev: Evidence) -> str | None:
    p = ev.get(GS, "Innodb_buffer_pool_pages_total") or ev.get("innodb_status", "buffer_pool_size")
    if p is None or p.during >= 0.8 * p.before:
        return None
    return f"buffer pool shrank ({span(p.before * 16384, p.during * 16384, 'B')})"


def cpu_taken(ev: Evidence) -> str | None:
    sys_, usr = _cpu(ev, ("%sys", "%system", "sy")), _cpu(ev, ("%usr", "%user", "us"))
    if sys_ is None and usr is None:
        return None
    ds = sys_.during - sys_.before if sys_ else 0.0
    du = usr.during - usr.before if usr else 0.0
    if ds >= CPU_POINTS and ds >= du:
        fell = f" while user CPU fell {-du:.0f} points" if du < -1 else ""
        return f"system CPU +{ds:.0f} points{fell}: CPU taken by another process (in the kernel)"
    if du >= CPU_POINTS:
        r = ev.get("vmstat", "r")
        queue = f", run queue {span(r.before, r.during, '')}" if r is not None and r.during > r.before else ""
        return f"user CPU +{du:.0f} points{queue} while the throughput fell: CPU taken by another process"
    return None


def _cpu(ev: Evidence, metrics: tuple[str, ...]) -> Change | None:
    """The CPU share that moved most: any CPU of mpstat, else the machine's (vmstat, iostat)."""
    cands = [
        c
        for c in ev.levels.values()
        if c.ref.metric in metrics and c.ref.format in ("mpstat", "vmstat", "iostat", "sar")
    ]
    return max(cands, key=lambda c: abs(c.during - c.before), default=None)


def classes(changes: Sequence[Change]) -> list[str]:
    """The resource classes of an explanation, best supported first: by their strongest entry,
    then by their summed weight (several weak symptoms of one resource are not one strong cause)."""
    best: dict[str, tuple[float, float]] = {}
    for c in changes:
        top, total = best.get(c.klass, (0.0, 0.0))
        best[c.klass] = (max(top, c.weight), total + c.weight)
    return [k for k, w in sorted(best.items(), key=lambda kv: (-kv[1][0], -kv[1][1])) if w[0] > 0]


CAUSES: tuple[Callable[[Evidence], str | None], ...] = (
    flushing_stall,
    lock_waits,
    dirty_pinned,
    purge_lag,
    disk_burst,
    cpu_taken,
)


def verdict(changes: Sequence[Change]) -> str:
    """One line that says what happened: the first cause the evidence proves, else the best
    supported class and its strongest entries in human units."""
    ev = Evidence(changes)
    for cause in CAUSES:
        said = cause(ev)
        if said:
            return said
    ranked = classes(list(changes))
    if not ranked:
        return "nothing else changed clearly"
    best = [c for c in changes if c.klass == ranked[0]][:2]
    return f"{ranked[0]}: " + "; ".join(
        f"{c.ref.spec()} {span(c.before, c.during, UNITS.get(c.ref.metric, ''))}" for c in best
    )
