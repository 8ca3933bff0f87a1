"""The server's own throughput, for runs without a benchmark log (pt-stalk folders, dool captures,
status loops): transactions the server finished per second — commits plus rollbacks — else the
statements it was sent (`Questions`). Drops, the default layout and `diff` read it as
`server:tps` like any benchmark's tps; `derive` also returns which candidate made it (its label).

Why commits + rollbacks: a transaction ends in one or the other, so their sum is the rate of
transactions whatever share fails (a deadlock storm moves work from commits to rollbacks; the
sum still falls only when the server does less). `Com_commit` counts only explicit COMMITs: an
autocommit workload (each statement its own transaction) leaves it at zero, and then the rate of
statements is the nearest measure of work (`Questions`, the client's statements; `Queries` adds
the statements of stored programs).

Candidates, the first a run has whose sum is not zero over the run (commits + rollbacks only where
they are at least AUTOCOMMIT of the statements):
- SHOW GLOBAL STATUS loops (importers/global_status.py: counters already per-second rates):
  `Com_commit` + `Com_rollback`;
- dool's `mysql5 all` plugin as DBPA records it: `mysql5_all.comm` + `mysql5_all.roll`, counts
  per sample interval (importers/_dstat_plugins.py), divided by the interval's seconds;
- `Questions`, else `Queries` (global status);
- dool's `mysql-innodb` plugin's qps (its `Questions`), else its `mysql-cmds` plugin's selects +
  inserts + updates + deletes per second (`Com_select` ...: the statements a client sends, without
  BEGIN and COMMIT): a dstat- or dool-only capture of a server (a DBSherlock-style folder).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from benchlens.app.analysis import quantities
from benchlens.app.model import SeriesRef

SERVER_TPS = SeriesRef("server", "tps")


@dataclass(frozen=True)
class Candidate:
    label: str  # what the panel and the verdict call it
    parts: tuple[SeriesRef, ...]  # summed; the first gives the times
    per_interval: bool = False  # counts per sample interval, divided by its seconds


# dool's mysql-cmds plugin: the selects, inserts, updates and deletes a client sends, per second
DOOL_STATEMENTS = tuple(SeriesRef("dstat", f"mysql5_cmds.{c}") for c in ("sel", "ins", "upd", "del"))
CANDIDATES = (
    Candidate(
        "commits + rollbacks /s",
        (SeriesRef("global_status", "Com_commit"), SeriesRef("global_status", "Com_rollback")),
    ),
    Candidate(
        "commits + rollbacks /s",
        (SeriesRef("dstat", "mysql5_all.comm"), SeriesRef("dstat", "mysql5_all.roll")),
        per_interval=True,
    ),
    Candidate("statements /s (Questions)", (SeriesRef("global_status", "Questions"),)),
    Candidate("statements /s (Queries)", (SeriesRef("global_status", "Queries"),)),
    *(
        Candidate("statements /s (Questions)", (SeriesRef("dstat", f"MySQL_InnoDB_{mode}.qps"),))
        for mode in ("basic", "extra", "full")
    ),
    Candidate("statements /s (selects + inserts + updates + deletes)", DOOL_STATEMENTS),
)


def candidates(available: Iterable[SeriesRef]) -> list[Candidate]:
    """The candidates whose first part the run has, in order of preference."""
    have = set(available)
    return [c for c in CANDIDATES if c.parts[0] in have]


Loader = Callable[[SeriesRef], tuple[np.ndarray, np.ndarray] | None]


def derive(available: Iterable[SeriesRef], load: Loader) -> tuple[Candidate, np.ndarray, np.ndarray] | None:
    """The server's throughput: (what it is, times, values per second), None when the run has
    nothing to make it of; the capture's idle ends left out (`loaded`)."""
    got = rate(available, load)
    return (got[0], *loaded(got[1], got[2], load)) if got is not None else None


def rate(available: Iterable[SeriesRef], load: Loader) -> tuple[Candidate, np.ndarray, np.ndarray] | None:
    """The first candidate's rate over the whole capture, idle ends and all: commits + rollbacks,
    unless they are under AUTOCOMMIT of the statements (an autocommit workload's stray explicit
    transactions), else the statements."""
    rates = (got for cand in candidates(available) if (got := _rate(cand, load)) is not None)
    first = next(rates, None)
    if first is None or not first[0].label.startswith("commits"):
        return first
    # the statements, loaded only to weigh the commits against them
    statements = next((r for r in rates if r[0].label.startswith("statements")), None)
    if statements is not None and np.nansum(first[2]) < AUTOCOMMIT * np.nansum(statements[2]):
        return statements
    return first


# commits + rollbacks under this share of the statements over a run are an autocommit workload's
# (each statement its own transaction) stray explicit transactions, not its work: a lock holder's
# one ROLLBACK made row-lock-long-writes' throughput, without its benchmark log, one sample.
# bench/autocommit_share.py, over the 301 runs of bench/drop_quality with a status loop: the
# workloads with explicit transactions ran 0.016-0.050 of their statements (the churn workload's
# deadlock retries lowest), the autocommit writes workload 0 to 2.3e-6; 1/1,000 (a transaction of
# a thousand statements) lies 16x under the one and 440x over the other. Since (session 33, 330
# runs): the autocommit point selects 0 to 0.0072, the top client-spike-long-points, whose 16 spike
# clients run transactions: their commits, not the selects, became its rate (a spike without a
# level; not found either way). An autocommit workload beside another client's transactions is
# left to the next calibration
AUTOCOMMIT = 1e-3


def _rate(cand: Candidate, load: Loader) -> tuple[Candidate, np.ndarray, np.ndarray] | None:
    """A candidate's rate, None where the run lacks it or it is zero all along (an autocommit
    workload's commits). Parts other than the first are added on the first's times (the same
    snapshots give the same times; a part missing at a time adds nothing there)."""
    first = load(cand.parts[0])
    if first is None or not len(first[0]):
        return None
    t = np.asarray(first[0], np.float64)
    v = np.asarray(first[1], np.float64).copy()
    for ref in cand.parts[1:]:
        part = load(ref)
        if part is None or not len(part[0]):
            continue
        pt, pv = np.asarray(part[0], np.float64), np.asarray(part[1], np.float64)
        v += _on_times(pt, pv, t)
    if cand.per_interval:
        v = v / _intervals(t)
    return (cand, t, v) if np.nanmax(np.abs(v), initial=0.0) > 0 else None


# of the median of a rate's positive samples: at or below it, the server has no workload (a
# monitor's own statements are a few a second against hundreds or thousands). bench/idle_ends.py:
# over the 49 captures of both corpora with ends where the clients were gone (257 samples, the
# sessions at the monitor's own), the largest was 0.058 % of the median (io-sync-long-writes), 34x
# under it; the samples with the clients there that fall under it are stalls, which `loaded` keeps
# by the sessions whatever IDLE is
IDLE = 0.02
# the sessions connected, as the server counts them and as dool's plugins report them
CONNECTED = (
    SeriesRef("global_status", "Threads_connected"),
    *(SeriesRef("dstat", c) for c in quantities.SERVER_COLUMNS["Threads_connected"]),
)


def loaded(t: np.ndarray, v: np.ndarray, load: Loader) -> tuple[np.ndarray, np.ndarray]:
    """t and v without the capture's idle ends: a capture begins before the benchmark and
    outlasts it, and where the server had no workload (IDLE) with fewer sessions connected than
    while it had one (the clients not there yet, or gone), there was no run; nor in the sample
    beside it, partly idle. Held-out dool-row-lock-long-hot: dool's last 4 s, after the
    benchmark's 8 clients left, were 0 statements a second, and stood in the rest a 40-s stall was
    tested against (T 5.5 against 9.0). An idle end with the sessions still connected is a stall,
    kept (dool-rebuild-long-hot: an ALTER's metadata lock held the clients at 0 statements to the
    capture's end); so is one without a count of the sessions to tell."""
    pos = v[np.isfinite(v) & (v > 0)]
    conn = sessions_connected(load)
    if not len(pos) or conn is None:
        return t, v
    busy = v > IDLE * float(np.median(pos))
    sessions = last_read(conn, t)
    during = sessions[busy & np.isfinite(sessions)]
    if not len(during):
        return t, v
    gone = ~busy & (sessions < float(np.median(during)))
    idx = np.flatnonzero(busy)
    lo, hi = int(idx[0]), int(idx[-1]) + 1
    # an idle end is cut only when the sessions fell somewhere in it, with the busy sample beside
    # it: the interval in which the clients came or left, partly idle (dool-flush-tables-long-hot's
    # last, 7,802 statements a second against ~12,000)
    lo = min(lo + 1, hi - 1) if gone[:lo].any() else 0
    hi = max(hi - 1, lo + 1) if gone[hi:].any() else len(v)
    return t[lo:hi], v[lo:hi]


def sessions_connected(load: Loader) -> tuple[np.ndarray, np.ndarray] | None:
    """The sessions connected (CONNECTED's first the run has, with readings), None without."""
    return next((c for ref in CONNECTED if (c := load(ref)) is not None and len(c[0])), None)


def last_read(gauge: tuple[np.ndarray, np.ndarray], t: np.ndarray) -> np.ndarray:
    """A gauge's value as last read at each time of t (NaN before its first reading)."""
    at = np.searchsorted(gauge[0], t, "right") - 1
    return np.where(at >= 0, np.asarray(gauge[1], np.float64)[np.clip(at, 0, None)], np.nan)


def _on_times(t: np.ndarray, v: np.ndarray, at: np.ndarray) -> np.ndarray:
    """v's sample at each time of `at` (the same snapshot's time), 0 where it has none."""
    idx = np.searchsorted(t, at)
    idx = np.clip(idx, 0, len(t) - 1)
    hit = np.isclose(t[idx], at, rtol=0.0, atol=1e-3)
    out = np.where(hit, v[idx], 0.0)
    return np.nan_to_num(out, nan=0.0)


def _intervals(t: np.ndarray) -> np.ndarray:
    """Seconds each sample covers: since the one before; the first, the usual step."""
    d = np.diff(t)
    step = float(np.median(d)) if len(d) else 1.0
    return np.concatenate(([step if step > 0 else 1.0], np.where(d > 0, d, np.nan)))


def said(
    runs: Iterable[int],
    available: Callable[[int], Iterable[SeriesRef]],
    data: Callable[[int, SeriesRef], tuple[np.ndarray, np.ndarray] | None],
) -> str | None:
    """What the server throughput of these runs counts, for its panel: "commits + rollbacks /s" or
    "statements /s" (a label's head: what `derive` chose for each run that has no benchmark log);
    None when no run has it or they count different things."""
    heads = set()
    for r in runs:
        have = list(available(r))
        if SERVER_TPS not in have:
            continue
        made = derive(have, functools.partial(data, r))
        if made is not None:
            heads.add(made[0].label.split(" (")[0])
    return heads.pop() if len(heads) == 1 else None
