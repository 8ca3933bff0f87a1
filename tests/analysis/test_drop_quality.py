"""The detector and its diagnosis against the recorded drop-quality corpus (bench/drop_quality: real
sysbench runs on MariaDB with disturbances injected at known times, each with its expected resource
class, undisturbed runs, and pairs of runs that differ by one setting). A change to detection or
explanation that loses a true drop, shifts its boundaries, flags noise, or stops ranking the
disturbed resource's class fails here, not only in `make drop-quality`.

The whole corpus (234 runs) takes over half a minute to score on the project's 2-core machine, so the
suite scores a representative subset (SUBSET, ~15 s: both workloads, short and long, two lasting to
the end of the run, locks, cpu, disk and buffer pool, the workload spike, a quiet run of each workload, one pair);
`make drop-quality` scores everything."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from benchlens.app.analysis import causes
from benchlens.app.analysis.relevance import CLASSES
from benchlens.app.analysis.run_drops import run_findings
from benchlens.app.ingest import import_path
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "bench" / "drop_quality"))

import score

RUNS = sorted(p.name for p in (score.HERE / "runs").iterdir() if p.is_dir())
SUBSET = [
    "quiet-1",
    "quiet-bursty",
    "global-read-lock-long-smooth",
    "global-read-lock-end-bursty",
    "row-lock-short-smooth",
    "table-lock-short-bursty",
    "cpu-user-short-bursty",
    "cpu-user-end-smooth",
    "client-spike-rated",
    # a -29 % drop of 12 s within a bursty run's noise (the sustained pass); a slowdown at 25 s
    # deepened by disk writers at 30 s (two levels, two drops); a pool shrink's stall and partial
    # recovery (one drop)
    "disk-writers-short-bursty",
    "disk-writers-long-smooth",
    "small-pool",
    # a real InnoDB flushing stall (checkpoint age pinned at a 16 MB log's sync point) and a real
    # purge lag (a read view held over the churn workload)
    "flushing-short-writes",
    "purge-lag-short-churn",
    # disk writers to the end of a bursty run: the throughput came back to ~80 % after 25 s
    "disk-writers-end-bursty",
    # recorded after the detector was tuned (2026-11-26): disk writers to the end of a rated run (a
    # latency rise over most of the run), and the churn workload undisturbed (its single-second
    # collapses made three drops before its noise counted them: drops.P75_TO_SIGMA)
    "disk-writers-end-rated",
    "quiet-churn",
    "quiet-churn-2",
    "pair-flushlog-1",
    "pair-flushlog-2",
    # another client's work slowing the benchmark (issue 23, 2026-11-27): a mysqldump loop and
    # INSERT ... SELECT copies, named by the work they added, not by the CPU or the flushing stall
    # they caused (causes.foreign_work)
    "dump-long-smooth",
    "bulk-insert-long-smooth",
    # the clients' round trips slowed (issue 23, session 9): each reply held 2 ms by a proxy; the
    # server idled, each transaction moved as many bytes (causes.clients_slowed)
    "net-slow-long-smooth",
    "net-slow-short-bursty",
    # captured by dool alone (issue 23, session 10): no benchmark log, the server's statements as
    # the throughput, the causes reading dool's MySQL plugins (quantities.SERVER_COLUMNS)
    "dool-dump-long-smooth",
    "dool-quiet-smooth",
    # held out (session 15): another client's joins, and six busy loops, both seen by dool on
    # MariaDB, which counts no rows; the client is known by its session (causes.session_came)
    "dool-join-long-smooth",
    "dool-cpu-user-long-smooth",
    # another client's analytic full scans (one row back each) on the bursty workload, a kind the
    # corpus did not have, recorded after session 13's changes and kept as recorded (causes.foreign_work)
    "scan-short-bursty",
    # held out (session 19): a 12-s read lock requested under churn waited 120 s behind the row-lock
    # waits before it was granted, and every writer stopped from the request on: one drop of the
    # whole wait and hold, 30-162 s, "sessions waited on the global read lock"
    "global-read-lock-short-churn",
    # held out (session 19), captured by dool alone: another client's row lock stalled the hot
    # workload's statements at 0 for 40 s, then they ran at ~15,000/s against ~11,000 before: found
    # once the capture's idle end (4 s at 0, the clients gone) was no part of the run (session 20)
    "dool-row-lock-long-hot",
    # held out (session 16), captured by dool alone: the pool's resize read its pages back (-59 % for
    # 5 s, then a stall of 35 s): one drop once the first 5 s were named by InnoDB's own reads, not
    # by a write burst nobody was known to have made (session 20: causes.disk_burst)
    "dool-pool-shrink-long-smooth",
    # held out (session 20), captured by dool alone: another client's row locks stopped 32 clients on
    # 10 rows; every session was running already (30 -> 34 of 37 connected) while the CPU idled: no
    # room to pile up, read as clients slowed as recorded (causes._piled: ALL_INSIDE)
    "dool-row-lock-long-bursty",
    # two disturbances in one short run: another writer's dip at 9-14 s confirmed by its bytes, then
    # a CPU hog's -70 % for 11 s, confirmed by its system CPU once the first was (run_drops._holm)
    "cpu-system-short-smooth",
    # another client's online table rebuilds (ALTER TABLE ... FORCE in a loop) on the bursty workload:
    # a kind the corpus did not have, recorded after session 14's changes and kept as recorded
    "rebuild-short-bursty",
    # DBPA's I/O saturation as its code makes it (stress-ng -i 4: sync() in a loop), held out the same way
    "io-sync-short-bursty",
    # the TPC-C study's table flushes (FLUSH TABLES; FLUSH LOGS in a loop): held out, and missed as
    # recorded (its drop at p 0.009 against 0.0075, its cause with no series to confirm it); kept
    "flush-tables-short-bursty",
    # two kinds of the TPC-C study held out the same way (session 15): lock contention inside the
    # benchmark (hot.lua: its transactions turn to one row, -25 % then -38 %), missed as recorded
    # (the thresholds took only the deeper part, whose test the rest hid: drops._fragments_joined);
    # the same for 12 s; another client's join without an index, named purge lag as recorded (its
    # read view grew the history list: causes.FOREIGN_WORK's joins)
    "hot-rows-long-hot",
    "hot-rows-short-hot",
    "join-short-bursty",
    # the table restore captured by dool alone (session 15): no row counts (dool's InnoDB ops read 0 on
    # MariaDB), the bytes the client sent (causes.FOREIGN_WORK's bytes received)
    "dool-restore-long-smooth",
    # the benchmark's own contention captured by dool alone: no lock counter, its sessions piled up
    # while the CPU idled and the disks did no more (causes.waited_inside); named I/O waits as recorded
    "dool-hot-rows-long-hot",
    # the same on the TPC-C-like workload (session 27): 8 clients, running 6 -> 8.5 of 12 over 40 s,
    # beyond the gauge's own noise but neither x1.5 nor 0.9 of the connected; clients slowed as
    # recorded (causes._piled: PILED_SIGMAS)
    "dool-hot-rows-long-tpcc",
    # a table restore beside the rate-limited workload: its commits held at 100 %, the rows written
    # x700 (causes.foreign_work: work beyond the commits, not commits that fell)
    "restore-long-rated",
    # DBPA's I/O saturation captured by dool alone (no device utilisation): write requests x10 at the
    # same bytes (causes.small_ios), named by the syncs' system CPU before
    "dool-io-sync-long-smooth",
    # a read lock and another client's row locks captured by dool alone: four threads piled up while
    # the CPU idled (causes.PILED_MORE), named clients slowed and no cause as recorded
    "dool-global-read-lock-long-smooth",
    "dool-row-lock-long-smooth",
    # held out in session 16 (kinds on workloads and captures they had not been recorded on): a
    # client slowed by a proxy captured by dool alone; another client's rebuilds beside the
    # rate-limited workload (a latency rise, its redo the cause); a CPU hog in the kernel by dool
    "dool-net-slow-long-smooth",
    "rebuild-long-rated",
    "dool-cpu-system-long-smooth",
    # 300 ms on every reply captured by dool alone: the selects at 0.2 % of their rate, the bytes per
    # select the monitoring's own (causes.BYTES_MATERIAL); no cause as recorded in session 15
    "dool-net-congest-long-smooth",
    # the second fifteen of session 16: a CPU hog and another writer beside the writes workload, whose
    # checkpoint age sits at the sync point before them (causes.flushing_standing: named flushing as
    # recorded); a slowed network under the churn workload's deadlock retries (bytes per statement,
    # not per commit); a sync() loop under the churn workload, its drop in two pieces of one cause
    # episode as recorded (run_drops._one_cause_joined)
    "cpu-user-long-writes",
    "disk-writers-long-writes",
    "net-slow-long-churn",
    "io-sync-long-churn",
    # the third batch: a slowed network beside the writes workload, its checkpoint age falling away
    # from the sync point (not a flushing stall: causes.flushing_standing)
    "net-slow-long-writes",
    # the fourth batch (session 17): 300 ms on every reply under the bursty workload, whose 32
    # clients on 10 rows sit in row-lock waits all the time: the waits stopped ending, read as "a
    # transaction holds the rows" as recorded; the sessions' idle time held (causes.IDLE_TIME), the
    # server waited 0.5 -> 237 ms for each next statement (causes.IDLE_EACH). A dump beside hot
    # rows, a restore and another writer by dool alone: found 8, 4 and 6 s off as recorded, the
    # thresholds' edges on a rolling baseline the drop dragged down (app/analysis/edges.py). The
    # hot and writes workloads undisturbed
    "net-congest-short-bursty",
    "dump-long-hot",
    "dool-restore-long-hot",
    "dool-disk-writers-long-smooth",
    "quiet-hot",
    "quiet-writes",
    # the fifth batch: 300 ms a reply under the churn workload, read "a transaction holds the rows"
    # as recorded (its waits held at 27, its sessions' idle time at 39 %: causes.row_locks_stuck)
    "net-congest-long-churn",
    # the sixth batch, at the rules' border, right as recorded: 300 ms a reply and a transaction
    # holding the rows, both under the bursty workload's row-lock waits
    "net-congest-long-bursty",
    "row-lock-short-bursty",
    # session 26's held-out batch: an index build, then its metadata lock's stall, captured by dool
    # alone; one drop in two phases as recorded (run_drops._phases_joined)
    "dool-add-index-long-smooth",
    # session 27's held-out batch on a TPC-C-like workload (tpcc.lua: hot warehouse and district
    # rows, +-10 % and wandering): the study's lock contention (the mix turned to one district) for
    # 40 and 12 s, missed as recorded (own p 0.015 and 0.13, row lock time with no key; the short
    # one's checkpoint age, 72.2 -> 73.2 MB of 80.8, read as a flushing stall); a dump loop, found
    # as recorded; the workload undisturbed
    "hot-rows-long-tpcc",
    "hot-rows-short-tpcc",
    "dump-long-tpcc",
    "quiet-tpcc",
    # the second TPC-C-like batch, recorded after the change: undisturbed again
    "quiet-tpcc-2",
    # session 28's held-out batch from 32 threads on the same 2 warehouses (tpcc32: the district rows
    # contended all along, 24 s of row lock time a second): the workload undisturbed, and its mix
    # turned to one district for 40 s (-19 %: found since the size floor is 15 %; its window read
    # as row-lock waits: causes.ROW_LOCK_RISE)
    "quiet-tpcc32",
    "hot-rows-long-tpcc32",
    # another client's joins without an index, one every ~6 s of a 43-s drop of -22 % in the
    # TPC-C-like wander (own p 0.24): their count, 0 in every steady sample, confirms it as
    # arrivals (confirm.count_p: 0.004), where the level test read 0.18
    "join-long-tpcc",
    # session 30's held-out batch: a CPU hog to the end of the writes workload, whose first 2 s ran
    # at ~14,500 tps and made the rest before the drop an unproven candidate; left out of the
    # drop's reference it left 2 s to explain the drop against (run_drops._steady)
    "cpu-user-end-writes",
    # session 31's held-out batch: the mix from 32 threads turned to one district for 12 s, every
    # client running already (30 -> 31.7 of 33), named a checkpoint age that sat at the sync point
    # before too; its sessions' time idle between statements, 9.9 -> 1.4 s/s, held them inside
    # (causes._held): row-lock waits
    "hot-rows-short-tpcc32",
    # a kernel CPU hog from 15 s on the same mix, its server at the sync flush point before and
    # during (75.6 -> 77.9 MB of 80.8), its cleaner slowed with the rest (x0.70): named a flushing
    # stall as recorded; the CPU taken since a standing state needs the flushing to get worse
    # (causes._flushing_worse)
    "cpu-system-early-tpcc32",
    # another client's full scans for 12 s by dool alone (no row counter on MariaDB): its pages read
    # from disk were named buffer pool misses as recorded; a session came with them (causes.disk_burst)
    "dool-scan-short-tpcc",
    # session 32's held-out batch on the TPC-C-like mix at a fixed rate: 300 ms on every reply for
    # 12 s, after which the driver's queue drained at ~x1.8 for 14 s (a latency rise, the CPU
    # busy). Counted as steady, the drain moved the drop's start to its key's 2-s snapshot
    # (cause_edges' aside) and made the window's explanation read the CPU idling as its cause
    # (window.explain_window leaves the latency rises out)
    "net-congest-short-tpccrated",
    # session 33's held-out batch on a commit-bound write workload (the binary log and the redo log
    # synced at each commit, the disk ~55 % busy with ~16,000 small writes a second): a sync()
    # loop doubled the device's requests at about the same bytes, read as the kernel CPU the syncs
    # took; the requests the server's own writes and syncs (x0.66) do not explain say another
    # process's I/O (app/analysis/foreign_io.py), by iostat and by dool alone
    "io-sync-long-durable",
    "dool-io-sync-long-durable",
    # another process's CPU at nice 5: counted as %nice, not %usr, while the server's user CPU fell
    # (causes.NICE_CPU)
    "cpu-nice-long-tpcc",
]
# What detection and explanation (issue 14's other half, app/analysis) do not do yet on these runs,
# as `make drop-quality` measured it on 2026-11-26. Strict: a fix shows up as an XPASS, to move
# the run out of here.
NOT_FOUND_YET: dict[str, str] = {
    "purge-lag-short-churn": "the throughput follows the read view ~10 s late (the history list grows first, "
    "purge catches up after): detected 40-52 s against 30-45 s",
    "dool-dump-long-smooth": "the statements fell -27 % for the dump's first 14 s of 40, then within the noise "
    "of dool's 1-s counts: detected 2-16 s into the dump's 40 s; the cause window (bytes sent) is all 40",
    "disk-writers-end-bursty": "the throughput came back to ~80 % of its level at 66 s while the writers ran to "
    "the end (-19 %, within the bursty run's noise): detected 40-65 s against 40-93.4 s",
}
# the flushing run recorded under foreign CPU load (2026-11-26): 0 tps but for two bursts during
# the throttle, and 0-3,000 tps swings with stalls before it (5 s, 12-13 s); its own test gives
# T 2.8 against 10.2, and the checkpoint age sat at the sync point before the throttle too, so the
# cause's series shows no change of its own to confirm it (app/analysis/confirm.py, issue 23,
# session 12). Kept before by the cause's rule alone, whose false-alarm rate was not known
FLUSHING_UNPROVEN = (
    "a noisy run (stalls before the throttle): its own test T 2.8 against 10.2, and the checkpoint age at the "
    "sync point before the throttle too, so nothing confirms the drop at one false drop per 10,000 s"
)
NOT_FOUND_YET["flushing-short-writes"] = FLUSHING_UNPROVEN
# hot-rows-long-tpcc32 (-19 % for 40 s: a lock-bound workload already waits) was here until session
# 30, under the size floor of 20 %; found at 15 % (drops.Sensitivity.floor), its verdict row-lock waits
# hot-rows-short-hot (lock contention for 12 s: -35 % in +-4 % noise, the run back 8 % above its
# level after it) was here until session 20: T 8.66 against 10.22 with both levels in the rest;
# against each side's level (drops._between_levels) 11.2 against 9.2
# io-sync-long-churn (its start placed at 34 s against 30 s: three of the sync loop's first four
# seconds above the midpoint of the two levels) and dool-disk-writers-long-smooth (its end at +5.6
# s: the statements below the midpoint for 6 s after the writers stopped) were here until session
# 25: the throughput fits their cause's window (the disk busy, the bytes written) within AGREE of
# its own edges, and takes it (app/analysis/cause_edges.py)
# dool-row-lock-long-hot (a stall at 0 for 40 s between ~11,000 and ~15,000 statements/s) was here:
# the capture's last 4 s, at 0 after the clients left, stood in the rest (T 5.5 against 9.0); the
# capture's idle ends are no part of the run now (server_rate.loaded)
DROPS_ON_QUIET_YET: dict[str, str] = {}
# a drop that its own series does not prove stands on its cause's series (app/analysis/confirm.py);
# dool-dump-long-smooth's bytes sent read T 8.45 against 8.45 alone, and is kept since the two
# series' p-values are combined (0.04 x 0.01: session 14). (purge-lag-short-churn was here too, its
# history list at T 11.9 against 12.1 as a 2-s mean; read as the gauge it is, the critical value is
# 10.2: session 13)
CLASS_NOT_YET_FIRST: dict[str, str] = {
    "flushing-short-writes": FLUSHING_UNPROVEN,
}


def xfail(run: str, known: dict[str, str]) -> object:
    return pytest.param(run, marks=pytest.mark.xfail(reason=known[run], strict=True)) if run in known else run


def truth(run: str) -> score.Truth:
    return score.read_truth(score.HERE / "truth" / f"{run}.tsv")


@pytest.fixture(scope="module")
def scored() -> dict[str, Any]:
    rows, pairs = score.score([r for r in SUBSET if r in RUNS])
    return {**{r.run: r for r in rows}, **{f"pair-{p.pair}": p for p in pairs}}


def test_every_run_has_its_truth() -> None:
    workloads, classes = set(), set()
    for run in RUNS:
        t = truth(run)
        workloads.add(t.workload)
        if t.scenario == "quiet":
            assert t.start is None and t.end is None, run
        else:
            assert t.start is not None and t.end is not None and t.start < t.end, run
            assert t.klass in CLASSES, (run, t.klass)
            assert t.length in ("short", "long"), run
            classes.add(t.klass)
    assert workloads >= {"smooth", "bursty"}
    assert classes >= {"locks", "cpu", "disk", "buffer_pool"}
    assert set(SUBSET) <= set(RUNS)


def test_pairs_come_in_twos_with_their_setting() -> None:
    found = score.pairs([score.HERE / "runs" / r for r in RUNS])
    assert found, "no pair-NAME-A / pair-NAME-B runs"
    for a, b in found.values():
        assert truth(a.name).setting and truth(b.name).setting, (a.name, b.name)
        assert truth(a.name).setting != truth(b.name).setting


@pytest.mark.parametrize(
    "run", [xfail(r, DROPS_ON_QUIET_YET) for r in SUBSET if truth(r).scenario == "quiet" and not truth(r).setting]
)
def test_no_drop_on_undisturbed_runs(scored: dict[str, Any], run: str) -> None:
    assert scored[run].false_drops == 0, scored[run].detected


@pytest.mark.parametrize("run", [xfail(r, NOT_FOUND_YET) for r in SUBSET if truth(r).scenario != "quiet"])
def test_the_disturbance_is_found_with_its_edges(scored: dict[str, Any], run: str) -> None:
    r = scored[run]
    assert r.found, f"truth {r.truth}, detected {r.detected}, edge errors {r.edges}"


@pytest.mark.parametrize("run", [xfail(r, CLASS_NOT_YET_FIRST) for r in SUBSET if truth(r).scenario != "quiet"])
def test_the_expected_class_ranks_first(scored: dict[str, Any], run: str) -> None:
    r = scored[run]
    assert r.rank == 1, f"{r.klass} not first in {r.classes}: {r.top5}"


@pytest.mark.parametrize("run", [r for r in SUBSET if truth(r).scenario != "quiet"])
def test_explaining_the_disturbed_window_names_its_class_first(scored: dict[str, Any], run: str) -> None:
    """`benchlens explain` over the truth's window, as a user selecting the span would ask it."""
    r = scored[run]
    assert r.explain_first == r.klass, f"explain over {r.truth} ranks {r.explain_first} first, not {r.klass}"


def test_a_workload_spike_is_a_latency_rise(scored: dict[str, Any]) -> None:
    r = scored["client-spike-rated"]
    assert r.found and any(kind == "latency" for *_, kind in r.detected), r.detected


@pytest.mark.parametrize(
    ("run", "said"),
    [
        # the throughput follows the read view ~10 s late at both ends: the history list's growth
        ("purge-lag-short-churn", "purge lag; history list growing from "),
        # the writers ran to the end, the throughput came back part of the way: the device's writes
        ("disk-writers-end-bursty", "another writer on the disk; the cause lasted from the drop's start to "),
        # the checkpoint age at the sync point: the drop's own edges say it, the verdict does not repeat them
        pytest.param("flushing-short-writes", "", marks=pytest.mark.xfail(reason=FLUSHING_UNPROVEN, strict=True)),
    ],
)
def test_the_cause_window_is_the_disturbances(scored: dict[str, Any], run: str, said: str) -> None:
    """Where the drop's edges are not the disturbance's, its cause window (app/analysis/mechanism.py)
    is, within the tolerance, and the verdict says it."""
    r = scored[run]
    tolerance = score.TOLERANCE.get(r.workload, score.DEFAULT_TOLERANCE)
    assert r.cause_edges is not None and max(abs(e) for e in r.cause_edges) <= tolerance, (r.truth, r.cause_edges)
    assert said in r.verdict and (said or "the cause lasted" not in r.verdict), r.verdict


def test_statements_confirm_the_drop_they_caused_and_their_loop_gives_its_window(scored: dict[str, Any]) -> None:
    """Another client's FLUSH TABLES loop: its statements (Com_flush, 0 before) are the key that
    confirms the drop the throughput alone does not prove (causes.Finding.event). Counted sample
    after sample, they say when the loop ran (mechanism.counted_window: within 0.2 s of the
    truth), which the drop's own edges say as well, so nothing more is said; one statement counted
    once (a FLUSH TABLES WITH READ LOCK holding its lock for seconds) gives no window."""
    r = scored["flush-tables-short-bursty"]
    assert r.found and r.rank == 1, (r.detected, r.classes)
    assert "FLUSH TABLES seen" in r.verdict and "the statements were issued" not in r.verdict, r.verdict
    assert r.cause_edges is not None and max(abs(e) for e in r.cause_edges) <= 0.5, r.cause_edges


@pytest.mark.parametrize("run", ["hot-rows-long-tpcc", "hot-rows-short-tpcc"])
def test_lock_contention_is_confirmed_by_its_waits(scored: dict[str, Any], run: str) -> None:
    """The benchmark's own transactions turned to one district: row lock time x3 and the sessions
    in a row-lock wait, the throughput's own test short of proof; the waits in progress are the
    key (its window: the truth's within 0.2 s), the row lock time confirms with it
    (causes.lock_waits), and a checkpoint age that sat near the sync point all along is no
    flushing stall (causes.flushing_stall)."""
    r = scored[run]
    assert r.found and r.rank == 1, (r.detected, r.classes)
    assert r.verdict.startswith("sessions waited on row locks"), r.verdict
    assert r.cause_edges is not None and max(abs(e) for e in r.cause_edges) <= 0.5, r.cause_edges


def test_diff_names_the_one_setting_that_differs_first(scored: dict[str, Any]) -> None:
    p = scored["pair-flushlog"]
    assert p.named_first.startswith("innodb_flush_log_at_trx_commit 1 → 2"), p.named_first
    assert p.top, "diff ranked no series"


@pytest.mark.parametrize(
    ("run", "said"),
    [
        ("dump-long-smooth", "another client's scans or a dump: full scans"),
        ("bulk-insert-long-smooth", "another client's bulk writes: rows written"),
    ],
)
def test_another_clients_work_is_named_before_what_it_caused(scored: dict[str, Any], run: str, said: str) -> None:
    """The dump took CPU (mysqldump's own) and the copies pinned the checkpoint age at the sync
    point: both true, both downstream. The verdict names the work that started (issue 23 part 4)."""
    assert scored[run].verdict.startswith(said), scored[run].verdict


@pytest.mark.parametrize(
    ("run", "said"),
    [
        ("dool-join-long-smooth", "another client's queries: sessions connected 8 → 8.9"),
        ("dool-cpu-user-long-smooth", "user CPU +38 points: CPU taken by other work"),
    ],
)
def test_where_no_rows_are_counted_a_session_tells_a_client_from_a_process(
    scored: dict[str, Any], run: str, said: str
) -> None:
    """The CPU another client's joins took, and the CPU six busy loops took, look alike to dool on
    MariaDB; the joins' client connected (8 -> 8.9 sessions on average), the loops did not."""
    assert scored[run].verdict.startswith(said), scored[run].verdict


@pytest.mark.parametrize(
    "run", ["net-slow-long-smooth", "net-slow-short-bursty", "net-slow-long-churn", "net-slow-long-writes"]
)
def test_a_slowed_client_is_said_in_words(scored: dict[str, Any], run: str) -> None:
    """The verdict of a client slowed by its network names the round trips, not the CPU that idled
    or the sessions that waited (issue 23: what slowed, not what it left idle)."""
    assert "round trips slowed" in scored[run].verdict, scored[run].verdict


def test_a_history_list_that_grew_with_the_drop_is_no_purge_lag(monkeypatch: pytest.MonkeyPatch) -> None:
    """join-short-bursty read as a folder whose status loop has no count of joins: the joins' read
    views grew the history list from the drop's start on (858 -> 896 at it, 3,116 halfway), which
    the verdict named as the cause as recorded; a purge lag's list is long before the throughput
    falls (mechanism.came_after). The joins' CPU is what is left to say."""
    monkeypatch.setattr(causes, "FOREIGN_WORK", tuple(w for w in causes.FOREIGN_WORK if w[0] != "Select_full_join"))
    rows, _ = score.score(["join-short-bursty"])
    assert rows[0].found and rows[0].classes[0] != "purge", (rows[0].verdict, rows[0].classes)


def findings_of(run: str, tmp_path: Path) -> tuple[Any, list[tuple[float, float]]]:
    """run_findings of a recorded run, as `benchlens drops` reads it, and the phases of its one
    drop in s from the benchmark's start (the capture's without a benchmark log, as score.py)."""
    lib = Library(tmp_path / "library.sqlite")
    try:
        run = lib.run(import_path(lib, score.HERE / "runs" / run).id)
        found = run_findings(LibraryRunData(lib), run.id)
    finally:
        lib.close()
    t0 = run.bench_start or run.start or 0.0
    (rd,) = found.drops
    return found, [(p.drop.start - t0, p.drop.end - t0) for p in rd.phases]


def test_a_stall_after_a_proven_slowdown_is_tested_without_it(tmp_path: Path) -> None:
    """dool-rebuild-long-smooth: another client's table rebuilds slowed the statements -43 % (its
    disk writes x4 confirm it), then its last ALTER's exclusive lock stalled them at 0 to the
    capture's end. With the unproven slowdown in its rest the stall read T 3.5; once the disk
    writes proved the slowdown, the stall is tested without it and proven by its own series
    (level_test.judged's `proven`, run_drops' turns), said as the sessions' pile-up it was. The two
    are one drop in two phases (run_drops._phases_joined), the first's cause the drop's."""
    found, (slow, stall) = findings_of("dool-rebuild-long-smooth", tmp_path)
    (rd,) = found.drops
    assert abs(stall[0] - 73) <= 2 and stall[1] >= 105 and rd.phases[1].drop.tested, (slow, stall)
    assert slow[0] < 40 and slow[1] < 76  # the slowdown, on its own
    assert "piled up" in rd.phases[1].verdict() and rd.verdict().startswith("began with disk writes"), rd.verdict()


def test_a_slowdown_before_a_stall_of_most_of_the_run_is_its_own_phase(tmp_path: Path) -> None:
    """rebuild-long-hot: another client's rebuilds took the hot workload -35 % for 31 s, then its
    last ALTER's metadata lock stalled it at 0 for 120 s, two thirds of the run. Only the stall was
    a candidate (the rolling baseline sat at the slowdown's level); once the stall is proven, the
    strongest stretch of the rest is (drops._beyond), and the redo the rebuilds wrote confirms it.
    No sample between them back at the baseline: one drop in two phases (run_drops._phases_joined),
    found against the truth's 30-182 s."""
    rows, _ = score.score(["rebuild-long-hot"])
    assert rows[0].found and [k for *_, k in rows[0].detected] == ["drop"], rows[0].detected
    found, (slow, stall) = findings_of("rebuild-long-hot", tmp_path)
    assert abs(slow[0] - 30) <= 2 and abs(slow[1] - 62) <= 2 and stall[0] == slow[1] and stall[1] >= 180, (slow, stall)
    assert "ALTER TABLE" in found.drops[0].phases[1].verdict(), found.drops[0].phases[1].verdict()


def test_a_key_the_cause_names_is_one_look_not_one_of_every_event() -> None:
    """net-slow-short-churn: each reply held 2 ms for 12 s under the churn workload, commits -74 %,
    its own test p 0.044. Its cause's key, the sessions' wait for each client's next statement
    (perfschema's `idle`), p 0.0018, was multiplied by the 117 events of its metric, as a CPU or a
    device chosen among several is: it confirmed nothing. The cause names that event (Finding.looks)."""
    rows, _ = score.score(["net-slow-short-churn"])
    assert rows[0].found and rows[0].classes[:1] == ["network"], (rows[0].detected, rows[0].classes)


def test_one_cause_episode_is_one_drop(scored: dict[str, Any]) -> None:
    """io-sync-long-churn: the disk busy from 30 to 70 s (a sync() loop), the churn workload's
    commits back near their level for 5 s of it. As recorded: -56 % 34-55 s and -68 % 60-70 s, each
    with the one cause window. One cause, one drop (run_drops._one_cause_joined), said once."""
    r = scored["io-sync-long-churn"]
    drops = [(a, b) for a, b, kind in r.detected if kind == "drop"]
    assert len(drops) == 1 and drops[0][0] <= 35 and drops[0][1] >= 69, r.detected
    assert r.verdict.startswith("vda busy"), r.verdict


def test_joined_pieces_are_not_counted_as_left_out(tmp_path: Path) -> None:
    """io-sync-long-churn's two pieces were kept, then joined: what the drops say was left out is
    the candidates nothing proved (a dip at 16-20 s, a latency rise), not the second piece."""
    lib = Library(tmp_path / "library.sqlite")
    try:
        run = import_path(lib, score.HERE / "runs" / "io-sync-long-churn").id
        found = run_findings(LibraryRunData(lib), run)
    finally:
        lib.close()
    assert len(found.drops) == 1 and found.dismissed == 2, (found.drops, found.dismissed)
