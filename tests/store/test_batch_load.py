"""Many series of a run read at once (issue #25: a heatmap of 256 CPUs read 257 series one query
each): Library.load_many gives what load gives, in a few queries, on both backends; entities
sampled at the same instants share one stored time array and one array in memory; the run data
reads a sweep over a metric's entities in one batch."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from benchlens.app.model import SeriesRef
from benchlens.app.rundata import ALONE, LibraryRunData
from benchlens.app.store import Library, loading
from benchlens.app.store.loading import BATCH
from benchlens.app.store.writer import SeriesSink
from benchlens.importers._types import Block

T0 = 1.7e9


class Counting:
    """The library's own connection, counting the statements run through it."""

    def __init__(self, conn: Any) -> None:
        self.conn, self.statements = conn, 0

    def execute(self, sql: str, params: Any = ()) -> Any:
        self.statements += 1
        return self.conn.execute(sql, params)


def _source(lib: Library, files: dict[str, list[Block]]) -> int:
    """One run of these files (path: its blocks), as an import writes it."""
    txn = lib.begin_import()
    run = txn.upsert_run("/runs/x", "x", None)
    for path, blocks in files.items():
        sid = txn.add_source(run, path, 1, 1, "mpstat")
        sink = SeriesSink(txn, sid, {"%idle": "%"})
        sink.add(blocks)
        sink.close()
        txn.finish_source(sid, "0" * 64, "", "", [], {})
    txn.finish_run(run, {})
    txn.commit()
    return run


def _cpus(n: int, samples: int, seed: int = 1) -> list[Block]:
    rng = np.random.default_rng(seed)
    t = T0 + np.arange(samples, dtype=np.float64)
    return [
        Block(c, t.copy(), {"%idle": rng.uniform(0, 100, samples).round(2), "%usr": rng.uniform(0, 9, samples)})
        for c in ["all", *map(str, range(n))]
    ]


def test_many_series_load_as_each_alone_in_a_few_queries(lib: Library) -> None:
    cpus = _cpus(BATCH + 20, 50)  # more than one IN (...) list
    odd = Block("late", T0 + 0.5 + np.arange(30, dtype=np.float64), {"%idle": np.arange(30.0)})
    series = lib.series(_source(lib, {"mpstat.log": [*cpus, odd]}))
    counting = Counting(lib.conn)
    lib.conn = counting
    got = lib.load_many(series)
    assert counting.statements <= 4  # chunks in 2 lists of ids, the time arrays they point to in 1 or 2
    lib.conn = counting.conn
    want = {(b.entity, m): (b.t, v) for b in [*cpus, odd] for m, v in b.values.items()}
    assert len(got) == len(series) == len(want)
    for s, (t, v) in zip(series, got, strict=True):
        wt, wv = want[(s.entity, s.metric)]
        assert t.tobytes() == wt.tobytes() and v.tobytes() == wv.tobytes()
        one = lib.load(s)
        assert one[0].tobytes() == t.tobytes() and one[1].tobytes() == v.tobytes()


def test_one_statement_reads_at_most_batch_points(lib: Library, monkeypatch) -> None:
    series = [s for s in lib.series(_source(lib, {"mpstat.log": _cpus(9, 50)})) if s.metric == "%idle"]
    monkeypatch.setattr(loading, "BATCH_POINTS", 120)  # two series of 50 points a statement
    counting = Counting(lib.conn)
    lib.conn = counting
    got = lib.load_many(series)
    lib.conn = counting.conn
    assert counting.statements == 5 + 1  # 10 series two by two, then their one time array
    assert [v.tobytes() for _, v in got] == [lib.load(s)[1].tobytes() for s in series]


def test_entities_sampled_together_share_one_stored_and_loaded_time_array(lib: Library) -> None:
    series = lib.series(_source(lib, {"mpstat.log": _cpus(6, 40)}))
    assert lib.conn.execute("SELECT count(*) FROM times").fetchone()[0] == 1  # not one per CPU
    got = lib.load_many(series)
    assert all(t is got[0][0] for t, _ in got) and not got[0][0].flags.writeable
    again = lib.load(series[3])  # a later call: the array still in use
    assert again[0] is got[0][0]


def test_equal_time_arrays_of_an_older_library_come_back_as_one(lib: Library, monkeypatch) -> None:
    monkeypatch.setattr(SeriesSink, "SHARED_TIMES", 0)  # written as before: one time array per CPU
    series = lib.series(_source(lib, {"mpstat.log": _cpus(4, 40)}))
    assert lib.conn.execute("SELECT count(*) FROM times").fetchone()[0] == 5
    first = lib.load(series[0])[0]
    got = lib.load_many(series[1:])
    assert all(t is first for t, _ in got)


def test_a_series_in_several_chunks_and_files_joins_in_time_order(lib: Library, monkeypatch) -> None:
    monkeypatch.setattr(SeriesSink, "FLUSH_POINTS", 16)  # a chunk each 2 blocks of 10 samples
    early, late = _cpus(3, 50), _cpus(3, 50, seed=2)
    for b in late:
        b.t[:] += 100.0

    def pieces(blocks: list[Block]) -> list[Block]:
        cut = [(b, k) for k in range(0, 50, 10) for b in blocks]
        return [Block(b.entity, b.t[k : k + 10], {m: v[k : k + 10] for m, v in b.values.items()}) for b, k in cut]

    run = _source(lib, {"a/mpstat.log": pieces(late), "b/mpstat.log": pieces(early)})
    series = [s for s in lib.series(run) if s.metric == "%idle"]
    assert all(len(s.ids) == 2 for s in series)
    assert lib.conn.execute("SELECT count(*) FROM chunks WHERE series_id = ?", (series[0].ids[0],)).fetchone()[0] == 3
    for s, (t, v) in zip(series, lib.load_many(series), strict=True):
        e, la = (next(b for b in blocks if b.entity == s.entity) for blocks in (early, late))
        assert t.tolist() == [*e.t, *la.t] and v.tolist() == [*e.values["%idle"], *la.values["%idle"]]
    assert lib.load_many([]) == []


@pytest.mark.parametrize("swept", [False, True])
def test_the_run_data_reads_a_sweep_over_the_cpus_in_one_batch(lib: Library, swept: bool) -> None:
    run = _source(lib, {"mpstat.log": _cpus(40, 30)})
    data = LibraryRunData(lib)
    asked = [SeriesRef("mpstat", "%idle", e) for e in ["all", *map(str, range(ALONE - 1))]]
    for ref in asked:  # `all` and one CPU: read alone
        data.data(run, ref)
    assert len(data._data) == ALONE  # the series list of the run is not data
    counting = Counting(lib.conn)
    lib.conn = counting
    if swept:  # a further CPU: the rest of the metric comes with it
        got = [data.data(run, SeriesRef("mpstat", "%idle", str(c))) for c in range(ALONE - 1, 40)]
        assert counting.statements <= 2 and sum(k[1].metric == "%idle" for k in data._data) == 41
        assert all(d is not None and d[0] is got[0][0] for d in got)  # one time array for all
    else:  # another metric's `all`: alone, nothing else of it read
        data.data(run, SeriesRef("mpstat", "%usr", "all"))
        assert not any(k[1].metric == "%usr" and k[1].entity != "all" for k in data._data)
    lib.conn = counting.conn
