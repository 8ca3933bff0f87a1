"""Performance Schema summaries: rates from cumulative counters, in client shapes and mysqldump."""

from __future__ import annotations

from pathlib import Path

import pytest

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
