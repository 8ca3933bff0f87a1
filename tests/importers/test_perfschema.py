"""Performance Schema summaries: rates from cumulative counters, in client shapes and mysqldump."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from benchlens import importers
from benchlens.importers import perfschema
from tests.conftest import FIXTURES, Series, parse_series


def series(path: Path) -> Series:
    return parse_series(perfschema, path.read_bytes())[0]


def test_mysqldump_inserts_give_rates_and_recomputed_averages() -> None:
    """Hand-written from the documented 5.5 layout (tests/fixtures/perfschema)."""
    s = series(FIXTURES / "perfschema" / "perfschema_5.5_dump_handwritten.txt")
    mutex = "wait/synch/mutex/innodb/kernel_mutex"
    t, count = s[("COUNT_STAR", mutex)]
    assert list(t) == [1795312810.0] and list(count) == [500.0]  # (6000 - 1000) / 10 s
    assert s[("SUM_TIMER_WAIT", mutex)][1][0] == pytest.approx(1.0)  # 10^10 ps / 10 s = 1 ms/s
    assert s[("AVG_TIMER_WAIT", mutex)][1][0] == pytest.approx(2.0)  # 10^10 ps / 5000 waits = 2 us
    log = "wait/io/file/innodb/innodb_log_file"
    assert s[("COUNT_STAR", log)][1][0] == 10.0


def test_values_with_quotes_commas_and_parentheses_in_names() -> None:
    rows = list(perfschema._tuples("('a,(b)''s',1,NULL),('x\\'y',2,3.5)"))
    assert rows == [["a,(b)'s", "1", None], ["x'y", "2", "3.5"]]


def test_sniff() -> None:
    assert perfschema.sniff("INSERT INTO `events_waits_summary_global_by_event_name` VALUES ('x',1,2,3,4,5);") == 0.95
    assert perfschema.sniff("EVENT_NAME\tCOUNT_STAR\tSUM_TIMER_WAIT\n") == 0.95
    assert perfschema.sniff("INSERT INTO `orders` VALUES (1,2);") == 0.0


# ---- selects of some columns only (issue 13: refused before) ----------------------------------------

PS = FIXTURES / "perfschema"
SUM_ONLY = PS / "perfschema_mariadb-10.11.19_table_event-name-sum-timer-wait.txt"
COUNT_AVG_MAX = PS / "perfschema_mariadb-10.11.19_table_event-name-count-avg-max.txt"
AVG_MIN_MAX = PS / "perfschema_mariadb-10.11.19_batch_event-name-avg-min-max.txt"
COMPUTED = PS / "perfschema_mariadb-10.11.19_table_event-name-count-computed.txt"


def naive(path: Path) -> list[tuple[float, dict[str, list[str]]]]:
    """(marker time, {event: [cells after the name]}) per snapshot, table or TAB shape."""
    snaps: list[tuple[float, dict[str, list[str]]]] = []
    for line in path.read_text().splitlines():
        if line.startswith("TS "):
            snaps.append((float(line.split()[1]), {}))
            continue
        cells = [c.strip() for c in line.strip("|").split("|")] if line.startswith("|") else line.split("\t")
        if cells[0].startswith("wait/"):
            snaps[-1][1][cells[0]] = cells[1:]
    return snaps


def naive_rate(path: Path, event: str) -> np.ndarray:
    """The event's first counter as a rate between snapshots, NaN where a snapshot lacks its row."""
    snaps = naive(path)
    t = np.array([tt for tt, _ in snaps])
    v = np.array([float(rows[event][0]) if event in rows else np.nan for _, rows in snaps])
    return np.diff(v) / np.diff(t)


@pytest.mark.parametrize("path", [SUM_ONLY, COUNT_AVG_MAX, AVG_MIN_MAX], ids=lambda p: p.name)
def test_a_select_of_some_columns_is_detected(path: Path) -> None:
    assert importers.detect(path.read_text()[:4096]) is perfschema


def test_event_name_and_sum_timer_wait_only() -> None:
    """`SELECT EVENT_NAME, SUM_TIMER_WAIT`: wait per second from the deltas; no count, no average."""
    s = series(SUM_ONLY)
    snaps = naive(SUM_ONLY)
    t = [tt for tt, _ in snaps]
    ev = "wait/io/table/sql/handler"
    v = [float(rows[ev][0]) for _, rows in snaps]
    got_t, got = s[("SUM_TIMER_WAIT", ev)]
    assert got_t.tolist() == t[1:]
    assert got.tolist() == pytest.approx((np.diff(v) * 1e-9 / np.diff(t)).tolist())
    assert min(got) > 0  # the capture ran under load
    assert {m for m, _ in s} == {"SUM_TIMER_WAIT"}


def test_count_star_with_printed_avg_and_max() -> None:
    """COUNT_STAR is a rate; the printed AVG/MAX (since start, not additive) are not imported when a
    counter is there, as with the full select."""
    s = series(COUNT_AVG_MAX)
    ev = "wait/io/table/sql/handler"
    assert s[("COUNT_STAR", ev)][1].tolist() == pytest.approx(naive_rate(COUNT_AVG_MAX, ev).tolist())
    assert {m for m, _ in s} == {"COUNT_STAR"}


def test_computed_columns_are_named_in_one_warning() -> None:
    """`SELECT EVENT_NAME, COUNT_STAR, SUM_TIMER_WAIT/1000000000 AS wait_ms, ROUND(AVG_TIMER_WAIT/
    1000000, 3)` (real, 5 snapshots): COUNT_STAR is read; the alias and the expression are not
    Performance Schema columns, said once for the file instead of left out silently."""
    got, ctx = parse_series(perfschema, COMPUTED.read_bytes())
    ev = "wait/io/table/sql/handler"
    assert got[("COUNT_STAR", ev)][1].tolist() == pytest.approx(naive_rate(COMPUTED, ev).tolist())
    assert {m for m, _ in got} == {"COUNT_STAR"}
    said = [w for w in ctx.warnings if w.kind == "column"]
    assert [w.text for w in said] == [
        "not Performance Schema columns (an expression or an alias?), not read: "
        "wait_ms, ROUND(AVG_TIMER_WAIT/1000000, 3)"
    ]
    assert said[0].line == 2  # the header of the first snapshot's table


def test_printed_timers_alone_are_kept_as_printed() -> None:
    """`SELECT EVENT_NAME, AVG_TIMER_WAIT, MIN_TIMER_WAIT, MAX_TIMER_WAIT`: no counter to take
    deltas of, so the printed values (since start, picoseconds) are kept in microseconds."""
    got, ctx = parse_series(perfschema, AVG_MIN_MAX.read_bytes())
    snaps = naive(AVG_MIN_MAX)
    ev = "wait/io/table/sql/handler"
    for k, metric in enumerate(("AVG_TIMER_WAIT", "MIN_TIMER_WAIT", "MAX_TIMER_WAIT")):
        t, v = got[(f"{metric}_since_start", ev)]
        assert t.tolist() == [tt for tt, _ in snaps]
        assert v.tolist() == pytest.approx([float(rows[ev][k]) * 1e-6 for _, rows in snaps])
        assert ctx.units[f"{metric}_since_start"] == "us"
    assert "printed timer columns only: kept as printed (since start)" in ctx.variant


TOP5 = PS / "perfschema_mariadb-10.11.19_table_top5-by-sum-timer-wait.txt"


def test_a_top_n_loop_gives_rates_only_where_a_row_was_there_twice() -> None:
    """`... ORDER BY SUM_TIMER_WAIT DESC LIMIT 5` polled while the load changed
    (tests/capture/perfschema_top_n.sh): client_connection enters the top five at the third
    snapshot with 3,248 waits since start, COND_manager leaves it after the second. A missing row
    is "not in the top five", not a counter at zero: the entry was given all 3,248 as one
    second's rate (3,073/s) and the leaving row read 0/s for the rest of the run."""
    s = series(TOP5)
    t = np.array([tt for tt, _ in naive(TOP5)])
    for ev in ("wait/io/socket/sql/client_connection", "wait/synch/cond/sql/COND_manager", "wait/io/table/sql/handler"):
        got_t, got = s[("COUNT_STAR", ev)]
        want = naive_rate(TOP5, ev)  # NaN wherever either snapshot lacks the row
        assert got_t.tolist() == t[1:].tolist()
        assert np.array_equal(np.isnan(got), np.isnan(want)), ev
        assert got[~np.isnan(got)].tolist() == pytest.approx(want[~np.isnan(want)].tolist()), ev
    assert np.isnan(s[("COUNT_STAR", "wait/io/socket/sql/client_connection")][1][:2]).all()


@pytest.mark.parametrize("name", ["slow.log", "query_digest.txt"])
def test_the_query_quoted_in_a_slow_log_or_a_digest_is_no_result(name: str) -> None:
    """A slow log and pt-query-digest's report quote `SELECT EVENT_NAME, COUNT_STAR, SUM_TIMER_WAIT
    FROM performance_schema...`: perfschema scored them 0.95 (a tie with innodb_mutex, which sees
    `SHOW ENGINE INNODB MUTEX`); a result's layout is what it looks for."""
    head = (FIXTURES / "runs" / "unread_files" / name).read_text()
    assert perfschema.sniff(head) == 0.0


def test_the_vertical_layout_is_perfschema() -> None:
    head = (PS / "perfschema_mariadb-10.11.19_vertical_top3.txt").read_text()
    assert importers.detect(head) is perfschema
