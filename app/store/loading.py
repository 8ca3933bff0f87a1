"""Reading series' arrays from the library: one (Library.load) or many at once (Library.load_many),
by the same code. Many at once is a few queries, not one per series: the chunks of up to BATCH
series (and ~BATCH_POINTS points) in one statement, then the time arrays they point to, each time
array read once. 257 CPUs of a 24 h mpstat -P ALL at 1 s took 257 queries (~1.4 ms each, most of
a window's time to open its heatmap); bench/batch_load.py gives series per second both ways.

Series sampled at the same instants share one time array: the metrics of one entity point to one
stored row, so do the entities of one source since the writer shares them (SeriesSink), and rows
with the same instants (every CPU of one report in a library written before) come back as one
read-only numpy array, in one call and across calls (SharedTimes, one per library). A 256-CPU run
keeps one 86,400-point time array instead of 257, and whoever compares time arrays (`a is b`)
finds them equal at once."""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from benchlens.app.model import SeriesInfo
from benchlens.app.store.blobs import decode

# ids in one `IN (...)` list: under the 999 parameters of the oldest SQLite builds, far under
# MariaDB's 65,535
BATCH = 500
# points read by one statement at most (as far as the series' sizes are known): the server's
# driver holds a whole result in memory before the first row is read, and 257 CPUs' day in one
# result (90 MB) came back 1.5-3x slower than in batches of ~1.4 M points; SQLite reads either way
BATCH_POINTS = 1 << 20

Arrays = tuple[np.ndarray, np.ndarray]


def load_many(conn: Any, series: Sequence[int | SeriesInfo], shared: SharedTimes) -> list[Arrays]:
    """Times (epoch s) and values of each series, in the order asked: contiguous float64 arrays,
    a series of several stored pieces (SeriesInfo.ids) joined in time order, a series without
    chunks two empty arrays. Time arrays equal to one `shared` handed out before are that one."""
    pieces = [s.ids if isinstance(s, SeriesInfo) else (int(s),) for s in series]
    sizes = {i: s.n // len(s.ids) for s in series if isinstance(s, SeriesInfo) for i in s.ids}
    wanted = list(dict.fromkeys(i for ids in pieces for i in ids))
    chunks: dict[int, list[tuple[int, int, np.ndarray]]] = {i: [] for i in wanted}
    for part in _batches(wanted, sizes):
        marks = ", ".join("?" * len(part))
        rows = conn.execute(f"SELECT series_id, seq, times_id, scale, v FROM chunks WHERE series_id IN ({marks})", part)
        for sid, seq, tid, scale, blob in rows:
            chunks[int(sid)].append((int(seq), int(tid), decode(blob, int(scale))))
    times: dict[int, np.ndarray] = {}
    for part in _batches(list(dict.fromkeys(tid for got in chunks.values() for _, tid, _ in got))):
        marks = ", ".join("?" * len(part))
        for tid, blob in conn.execute(f"SELECT id, t FROM times WHERE id IN ({marks})", part):
            times[int(tid)] = shared.of(np.frombuffer(bytes(blob), "<f8"))
    joined: dict[tuple[int, ...], np.ndarray] = {}
    loaded = {sid: _piece(sorted(got, key=lambda c: c[0]), times, joined, shared) for sid, got in chunks.items()}
    return [_whole([loaded[i] for i in ids]) for ids in pieces]


class SharedTimes:
    """The time arrays handed out and still in use somewhere: an equal one read later (another
    stored row with the same instants, or the same row read again) is given back as that array,
    read-only. Kept by weak reference: an array nobody holds any more is forgotten."""

    def __init__(self) -> None:
        self._live: dict[tuple[int, bytes, bytes], list[weakref.ref[np.ndarray]]] = {}

    def of(self, t: np.ndarray) -> np.ndarray:
        key = (len(t), t[:2].tobytes(), t[-2:].tobytes())
        alive = [a for r in self._live.get(key, []) if (a := r()) is not None]
        for a in alive:
            if a is t or np.array_equal(a, t):
                return a
        t.flags.writeable = False
        self._live[key] = [*(weakref.ref(a) for a in alive), weakref.ref(t)]
        return t


def _batches(ids: list[int], sizes: dict[int, int] | None = None) -> Iterator[list[int]]:
    """The ids in lists of at most BATCH, and of at most BATCH_POINTS points by `sizes` (an id of
    unknown size counts for none; a list holds one id at least)."""
    part: list[int] = []
    points = 0
    for i in ids:
        n = (sizes or {}).get(i, 0)
        if part and (len(part) == BATCH or points + n > BATCH_POINTS):
            yield part
            part, points = [], 0
        part.append(i)
        points += n
    if part:
        yield part


def _piece(
    got: list[tuple[int, int, np.ndarray]],
    times: dict[int, np.ndarray],
    joined: dict[tuple[int, ...], np.ndarray],
    shared: SharedTimes,
) -> Arrays:
    """One stored series from its chunks in seq order; its time array joined once for all the
    series whose chunks point to the same time arrays."""
    if not got:
        return np.zeros(0), np.zeros(0)
    ts = [times[tid] for _, tid, _ in got]
    if len(got) == 1:
        return ts[0], got[0][2]
    key = tuple(id(t) for t in ts)  # the arrays live in `times` meanwhile: their ids are theirs
    if key not in joined:
        joined[key] = shared.of(np.concatenate(ts))
    return joined[key], np.concatenate([v for _, _, v in got])


def _whole(parts: list[Arrays]) -> Arrays:
    """A series stored in several pieces (files of one format), joined in time order."""
    if len(parts) == 1:
        return parts[0]
    t = np.concatenate([p[0] for p in parts])
    order = np.argsort(t, kind="stable")
    return t[order], np.concatenate([p[1] for p in parts])[order]
