"""The server's own throughput (app/analysis/server_rate.py) for a run without a benchmark log
(issue #23 part 2), on a real recording: recorded_mariadb_oltp (sysbench oltp_read_write, 2
threads, SHOW GLOBAL STATUS every 2 s) imported without its sysbench log."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.analysis import server_rate
from benchlens.app.analysis.layout import layout_for_runs
from benchlens.app.analysis.run_drops import run_findings, throughput
from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from tests.conftest import FIXTURES, cli_json

RECORDED = FIXTURES / "runs" / "recorded_mariadb_oltp"


def _import(lib, tmp_path: Path, name: str, drop: tuple[str, ...] = ()) -> int:
    folder = shutil.copytree(RECORDED, tmp_path / name, ignore=shutil.ignore_patterns(*drop))
    return import_path(lib, folder).id


def test_a_run_with_a_benchmark_log_keeps_its_own_throughput(lib, tmp_path: Path) -> None:
    run = _import(lib, tmp_path, "whole")
    data = LibraryRunData(lib)
    assert throughput(data, run) == SeriesRef("sysbench", "tps")
    assert server_rate.SERVER_TPS not in data.available(run)


def test_without_the_log_the_server_counts_the_transactions(lib, tmp_path: Path) -> None:
    whole = _import(lib, tmp_path, "whole")
    bare = _import(lib, tmp_path, "bare", drop=("bench.log",))
    data = LibraryRunData(lib)
    assert throughput(data, bare) == server_rate.SERVER_TPS
    t, v = data.data(bare, server_rate.SERVER_TPS)
    ct, commit = data.data(bare, SeriesRef("global_status", "Com_commit"))
    _, rollback = data.data(bare, SeriesRef("global_status", "Com_rollback"))
    # the status loop began before sysbench's clients connected and outlasted them: its idle
    # snapshots with fewer sessions are no part of the run (server_rate.loaded)
    assert 0 < len(t) < len(ct)
    held = np.isin(ct, t)
    assert np.allclose(v, (commit + rollback)[held], equal_nan=True)
    first, last = np.flatnonzero(held)[[0, -1]]
    idle = server_rate.IDLE * np.median(v[v > 0])
    # cut: the idle ends, and the sample beside each (the clients came or left in it)
    assert (np.concatenate([(commit + rollback)[: first - 1], (commit + rollback)[last + 2 :]]) <= idle).all()
    assert data.unit(bare, server_rate.SERVER_TPS) == "1/s"
    # one sysbench transaction is one COMMIT: over the benchmark the two rates agree
    st, sv = data.data(whole, SeriesRef("sysbench", "tps"))
    lo, hi = float(st[0]) + 2, float(st[-1]) - 2  # the log's times, relative to the same clock
    run_w, run_b = data.run(whole), data.run(bare)
    shift = run_b.start - run_w.start
    inside = (t - shift >= lo) & (t - shift <= hi)
    assert inside.sum() >= 5
    assert np.nanmean(v[inside]) == pytest.approx(np.mean(sv[(st >= lo) & (st <= hi)]), rel=0.1)


def test_the_default_layout_and_drops_use_it(lib, tmp_path: Path) -> None:
    bare = _import(lib, tmp_path, "bare", drop=("bench.log",))
    data = LibraryRunData(lib)
    panels = layout_for_runs([bare], data.available, data.data)
    # the panel says what the server's throughput counts
    assert panels[0].title == "Server throughput (commits + rollbacks /s)"
    assert panels[0].refs == [server_rate.SERVER_TPS]
    run_findings(data, bare, None, "normal", 5)  # detection and explanation run on it


def test_a_run_with_its_log_beside_one_without_shows_both_rates(lib, tmp_path: Path) -> None:
    """The benchmark's tps and the server's rate count different things: the run without a log
    gets a panel of its own under the benchmark's, each line in its own units."""
    whole = _import(lib, tmp_path, "whole")
    bare = _import(lib, tmp_path, "bare", drop=("bench.log",))
    data = LibraryRunData(lib)
    for runs in ([whole, bare], [bare, whole]):
        panels = layout_for_runs(runs, data.available, data.data)
        assert [p.title for p in panels[:2]] == ["Throughput (tps)", "Server throughput (commits + rollbacks /s)"]
        assert panels[0].refs == [SeriesRef("sysbench", "tps")] and panels[1].refs == [server_rate.SERVER_TPS]
        assert panels[2].title.startswith("Latency")
    # alone, a run with its log has no server panel
    assert "Server throughput" not in " ".join(p.title for p in layout_for_runs([whole], data.available, data.data))


def test_the_panel_says_what_is_counted_and_nothing_when_runs_differ() -> None:
    """said(): the head of the chosen candidate's label, one for every run that has the server's
    throughput; runs counting different things (commits here, statements there) get no unit
    claimed; runs with a benchmark log have nothing to say."""
    t = np.arange(5.0)
    stored = {
        1: {SeriesRef("global_status", "Com_commit"): (t, t + 1), SeriesRef("global_status", "Questions"): (t, t)},
        2: {SeriesRef("global_status", "Com_commit"): (t, 0 * t), SeriesRef("global_status", "Questions"): (t, t + 3)},
        3: {SeriesRef("sysbench", "tps"): (t, t)},
    }

    def available(r: int) -> list[SeriesRef]:
        return [*stored[r], *([] if r == 3 else [server_rate.SERVER_TPS])]

    def data(r: int, ref: SeriesRef):
        return stored[r].get(ref)

    assert server_rate.said([1], available, data) == "commits + rollbacks /s"
    # an autocommit workload's COMMIT count is all zero: its statements are counted
    assert server_rate.said([2, 3], available, data) == "statements /s"
    assert server_rate.said([1, 2], available, data) is None
    assert server_rate.said([3], available, data) is None


def _series(**parts: tuple[list[float], list[float]]):
    refs = {SeriesRef("global_status", k): (np.array(t, float), np.array(v, float)) for k, (t, v) in parts.items()}
    return refs, refs.get


def test_commits_missing_at_a_snapshot_add_nothing_there() -> None:
    refs, load = _series(Com_commit=([0, 2, 4], [10, 20, 30]), Com_rollback=([2, 4], [1, 2]))
    cand, t, v = server_rate.derive(refs, load)
    assert cand.label == "commits + rollbacks /s"
    assert t.tolist() == [0, 2, 4] and v.tolist() == [10, 21, 32]


def test_an_autocommit_workload_falls_back_to_statements() -> None:
    refs, load = _series(Com_commit=([0, 2], [0, 0]), Com_rollback=([0, 2], [0, 0]), Questions=([0, 2], [500, 520]))
    cand, _, v = server_rate.derive(refs, load)
    assert cand.label == "statements /s (Questions)" and v.tolist() == [500, 520]


def test_an_autocommit_workloads_stray_transaction_is_not_its_throughput() -> None:
    # row-lock-long-writes without its sysbench log (bench/drop_quality): autocommit updates at
    # ~8,000 statements a second, and the one ROLLBACK of the session that held their rows: the
    # commits + rollbacks were that one sample, the run's throughput a point
    t = [float(k) for k in range(0, 100, 2)]
    rollback = [1.0 if k == 37 else 0.0 for k in range(50)]
    refs, load = _series(Com_commit=(t, [0.0] * 50), Com_rollback=(t, rollback), Questions=(t, [8000.0] * 50))
    cand, got_t, _ = server_rate.derive(refs, load)
    assert cand.label == "statements /s (Questions)" and got_t.tolist() == t
    # explicit transactions of a few dozen statements each are the work
    refs, load = _series(Com_commit=(t, [300.0] * 50), Questions=(t, [9000.0] * 50))
    assert server_rate.derive(refs, load)[0].label == "commits + rollbacks /s"


def test_the_idle_ends_of_the_capture_are_no_part_of_the_run() -> None:
    # held-out dool-row-lock-long-hot: dool began before the benchmark's clients connected and
    # outlasted them; its statements at 0 (a monitor's 1 a second is idle too) once the clients
    # left are cut, a stall inside is kept
    # left, with the samples beside them, in which the clients came or left (partly idle)
    t = list(range(12))
    refs, load = _series(
        Questions=(t, [0, 1, 300, 800, 900, 0, 0, 850, 780, 400, 1, 0]),
        Threads_connected=(t, [1, 1, 9, 9, 9, 9, 9, 9, 9, 9, 1, 1]),
    )
    _, tt, v = server_rate.derive(refs, load)
    assert tt.tolist() == [3, 4, 5, 6, 7, 8] and v.tolist() == [800, 900, 0, 0, 850, 780]


def test_an_idle_end_with_the_clients_still_connected_is_a_stall() -> None:
    # held-out dool-rebuild-long-hot: an ALTER's metadata lock held the clients at 0 statements
    # to the capture's end; they stayed connected, and so does the stall. Without a count of the
    # sessions nothing is cut either
    t = list(range(8))
    rate = [0, 800, 900, 850, 0, 0, 0, 0]
    refs, load = _series(Questions=(t, rate), Threads_connected=(t, [1, 9, 9, 9, 9, 9, 9, 9]))
    assert server_rate.derive(refs, load)[1].tolist() == t[2:]  # the clients' first sample, partly idle
    refs, load = _series(Questions=(t, rate))
    assert server_rate.derive(refs, load)[1].tolist() == t


def test_nothing_to_make_it_of() -> None:
    refs, load = _series(Threads_running=([0, 2], [3, 4]))
    assert server_rate.derive(refs, load) is None


def test_the_command_line_lists_and_dumps_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = shutil.copytree(RECORDED, tmp_path / "bare", ignore=shutil.ignore_patterns("bench.log"))
    db = str(tmp_path / "cli.sqlite")
    cli_json(capsys, "import", str(folder), "--db", db, "--json")
    listed = cli_json(capsys, "series", "bare", "--db", db, "--json")
    assert {"source": "server", "metric": "tps", "unit": "1/s"}.items() <= next(
        s for s in listed if s["source"] == "server"
    ).items()
    dumped = cli_json(capsys, "dump", "bare", "--source", "server", "--metric", "tps", "--db", db, "--json")
    assert dumped["unit"] == "1/s" and len(dumped["v"]) == len(dumped["t"]) == listed[-1]["n"] > 5
