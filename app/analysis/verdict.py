"""One line per drop that says what happened, and the resource classes ranked, both from the
evidence of its explanation: the ranked entries and the level of every series measured
(explain.Explanation.levels).

Causes (app/analysis/causes.py) are tried strongest first: InnoDB's own stalls and lock waits,
whose series prove them directly; then the workload, which drives every resource, and its own
lock conflicts (a deadlock storm, whose retries burn CPU); then the resources another process
can take (the buffer pool, a disk, the CPU). The first cause the
evidence proves is the verdict and its class ranks first: a CPU-starved machine also shows disk
latency rising, but the CPU points taken are what happened. Without a proven cause, the best
supported class and its strongest entries, in human units.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from benchlens.app.analysis.causes import (
    Finding,
    clients_slowed,
    cpu_taken,
    deadlocks,
    dirty_pinned,
    disk_burst,
    flushing_stall,
    flushing_standing,
    foreign_work,
    io_waits,
    lock_waits,
    one_core,
    pool_shrank,
    purge_lag,
    row_locks_stuck,
    session_came,
    small_ios,
    user_cpu_taken,
    waited_inside,
    workload_grew,
)
from benchlens.app.analysis.evidence import UNITS, Change, Evidence, span
from benchlens.app.analysis.foreign_io import foreign_requests
from benchlens.app.analysis.statements import statements_seen

CAUSES: tuple[Callable[[Evidence], Finding | None], ...] = (
    workload_grew,  # upstream first: what started (many clients, their work said), before what it piled up
    foreign_work,  # another client's (one session's) scans or writes
    statements_seen,  # another client's work known by its statements, where its rows are drowned
    flushing_stall,
    lock_waits,
    row_locks_stuck,
    dirty_pinned,
    purge_lag,
    pool_shrank,
    disk_burst,
    small_ios,  # after disk_burst: requests without their bytes
    foreign_requests,  # requests the server's own I/O does not account for
    io_waits,  # after disk_burst: waits without a burst of bytes
    deadlocks,  # after another process's disk work, which stretches transactions into more of them
    session_came,  # another client's session and CPU where no rows are counted: before a core or the CPU it took
    one_core,  # before cpu_taken: the core the average hides is what a CPU verdict must say
    user_cpu_taken,
    flushing_standing,  # a server that ran flushing-bound before: after what another process takes
    cpu_taken,
    waited_inside,  # sessions waiting while no resource moved: after every cause a series says
    clients_slowed,  # last: it needs every resource above idle
)


def finding(changes: Sequence[Change]) -> Finding | None:
    """The first cause the evidence proves (of a class not passed over as late: Evidence.late)."""
    ev = Evidence(changes)
    return next((f for cause in CAUSES if (f := cause(ev)) is not None and f.klass not in ev.late), None)


def _by_weight(changes: Sequence[Change]) -> list[str]:
    """Classes by their strongest entry, then by their summed weight (several weak symptoms of one
    resource are not one strong cause)."""
    best: dict[str, tuple[float, float]] = {}
    for c in changes:
        top, total = best.get(c.klass, (0.0, 0.0))
        best[c.klass] = (max(top, c.weight), total + c.weight)
    return [k for k, w in sorted(best.items(), key=lambda kv: (-kv[1][0], -kv[1][1])) if w[0] > 0]


def classes(changes: Sequence[Change]) -> list[str]:
    """The resource classes of an explanation, best supported first: the proven cause's class, then
    the classes of the ranked entries by weight."""
    ranked = _by_weight(changes)
    found = finding(changes)
    return ranked if found is None else [found.klass, *(k for k in ranked if k != found.klass)]


def verdict(changes: Sequence[Change]) -> str:
    """One line that says what happened: the first cause the evidence proves, else the best
    supported class and its strongest entries in human units."""
    found = finding(changes)
    if found is not None:
        return found.text
    ranked = _by_weight(changes)
    if not ranked:
        return "nothing else changed clearly"
    best = [c for c in changes if c.klass == ranked[0]][:2]
    return f"{ranked[0]}: " + "; ".join(
        f"{c.ref.spec()} {span(c.before, c.during, UNITS.get(c.ref.metric, ''))}" for c in best
    )
