"""SHOW GLOBAL STATUS snapshots and mysqladmin extended-status: counter rates equal the deltas read
from the raw text with simple code, gauges keep their printed values, resets never give a negative
rate, every client shape gives the same series, bad input never raises, detection claims these
files only."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from benchlens import importers
from benchlens.importers import global_status, innodb_mutex
from benchlens.importers._types import Context
from tests import golden
from tests.conftest import FIXTURES, SAMPLES, assert_prefix_of, fixture_files, head_of, metric_series, parse_bytes

GS = FIXTURES / "global_status"
FILES = sorted(GS.glob("*.txt"))
TABLE = GS / "global_status_mariadb-10.11.19_table.txt"
FLUSH = GS / "global_status_mariadb-10.11.19_table-flush-status.txt"
ADMIN = GS / "global_status_mariadb-10.11.19_mysqladmin-i1-c4.txt"
ADMIN_R = GS / "global_status_mariadb-10.11.19_mysqladmin-r-i1-c4.txt"
ADMIN_R3 = GS / "global_status_mariadb-10.11.19_mysqladmin-r-i3-c5.txt"
UNEVEN = GS / "global_status_mariadb-10.11.19_table-loop-uneven-sleeps.txt"


def parse(raw: bytes) -> tuple[dict[str, tuple[np.ndarray, np.ndarray]], Context]:
    blocks, ctx = parse_bytes(global_status, raw)
    return metric_series(blocks), ctx


def naive_tables(text: str) -> list[tuple[float | None, dict[str, str]]]:
    """(marker time or None, {name: value}) per table, read from `| name | value |` lines."""
    tables: list[tuple[float | None, dict[str, str]]] = []
    t = None
    for line in text.splitlines():
        if line.startswith("TS "):
            t = float(line.split()[1])
        elif line.startswith("| Variable_name "):
            tables.append((t, {}))
        elif line.startswith("| "):
            name, value = (c.strip() for c in line.strip("|").split("|"))
            tables[-1][1][name] = value
    return tables


def numeric(values: dict[str, str], name: str) -> float:
    return float(values[name])


COUNTERS = [
    "Com_select",
    "Com_insert",
    "Com_update",
    "Questions",
    "Queries",
    "Bytes_sent",
    "Bytes_received",
    "Handler_read_key",
    "Handler_write",
    "Rows_read",
    "Rows_sent",
    "Innodb_data_written",
    "Innodb_os_log_written",
    "Innodb_pages_written",
    "Innodb_buffer_pool_read_requests",
    "Select_range",
]
GAUGES = [
    "Threads_running",
    "Threads_connected",
    "Innodb_buffer_pool_pages_free",
    "Innodb_buffer_pool_pages_data",
    "Innodb_buffer_pool_pages_dirty",
    "Innodb_buffer_pool_bytes_data",
    "Open_tables",
    "Innodb_history_list_length",
    "Innodb_checkpoint_age",
    "Max_used_connections",
    "Memory_used",
]


# ---- values ------------------------------------------------------------------------------------


def test_counter_rates_equal_the_deltas_of_the_raw_text() -> None:
    got, ctx = parse(TABLE.read_bytes())
    tables = naive_tables(TABLE.read_text())
    t = np.array([tt for tt, _ in tables], dtype=float)
    assert len(t) == 5
    for name in COUNTERS:
        v = np.array([numeric(vals, name) for _, vals in tables])
        gt, gv = got[name]
        assert np.array_equal(gt, t[1:]), name
        assert np.allclose(gv, np.diff(v) / np.diff(t), rtol=1e-12), name
        assert ctx.units[name] == (
            "B/s"
            if name.startswith("Bytes_") or name == "Innodb_data_written" or name == "Innodb_os_log_written"
            else "1/s"
        )
    assert got["Com_select"][1].min() > 1000  # the capture ran under load


def test_gauges_keep_their_printed_values() -> None:
    got, ctx = parse(TABLE.read_bytes())
    tables = naive_tables(TABLE.read_text())
    for name in GAUGES:
        gt, gv = got[name]
        assert gt.tolist() == [tt for tt, _ in tables], name
        assert gv.tolist() == [numeric(vals, name) for _, vals in tables], name
    assert ctx.units["Innodb_buffer_pool_pages_free"] == "pages" and ctx.units["Threads_running"] == ""
    assert ctx.units["Innodb_buffer_pool_bytes_data"] == "B" and ctx.units["Innodb_checkpoint_age"] == "B"
    for name in global_status.GAUGES & set(got):
        assert len(got[name][0]) == 5 and not ctx.units[name].endswith("/s"), name


def test_uptime_is_a_series_and_text_values_are_not_and_raise_no_warning() -> None:
    got, ctx = parse(TABLE.read_bytes())
    tables = naive_tables(TABLE.read_text())
    assert got["Uptime"][1].tolist() == [numeric(vals, "Uptime") for _, vals in tables] and ctx.units["Uptime"] == "s"
    assert "Uptime_since_flush_status" not in got
    assert "Innodb_buffer_pool_load_status" not in got and "Compression" not in got and "Max_memory_used" not in got
    assert ctx.warnings == []
    # every number is classified, but 2^64 - 1 (an unsigned -1: wsrep_local_index off a cluster)
    numeric_names = {n for n, v in tables[0][1].items() if v.replace(".", "").isdigit() and v != str(2**64 - 1)}
    assert set(got) == numeric_names - {"Uptime_since_flush_status"}


def test_flush_status_gives_no_negative_rate_and_names_the_cause() -> None:
    got, ctx = parse(FLUSH.read_bytes())
    for name, (_t, v) in got.items():
        assert not (v < 0).any() or name in global_status.GAUGES, name
    for name in ("Created_tmp_files", "Table_locks_immediate", "Feature_check_constraint"):
        assert np.isnan(got[name][1][2]) and not np.isnan(got[name][1][3]), name
    assert not np.isnan(got["Com_select"][1]).any()  # MariaDB's FLUSH STATUS leaves Com_* alone
    assert str(ctx.warnings[0]).startswith("line 1703: FLUSH STATUS: 3 counter(s) went down (Created_tmp_files")
    assert got["Threads_running"][1].tolist() == [5.0, 5.0, 5.0, 4.0, 4.0]  # a gauge going down is no reset


def test_a_restart_is_named_by_uptime() -> None:
    text = "".join(
        f"TS {1700000000 + 10 * k} x\nVariable_name\tValue\nCom_select\t{c}\nThreads_running\t{r}\nUptime\t{u}\n"
        for k, (c, r, u) in enumerate([(100, 3, 50), (300, 4, 60), (20, 2, 5), (120, 1, 15)])
    )
    got, ctx = parse(text.encode())
    assert got["Com_select"][1].tolist()[0] == 20.0 and np.isnan(got["Com_select"][1][1])
    assert got["Com_select"][1][2] == 10.0 and got["Threads_running"][1].tolist() == [3, 4, 2, 1]
    assert (
        str(ctx.warnings[0])
        == "line 12: server restarted (Uptime went down): 1 counter(s) went down (Com_select); no rate there"
    )


def test_unknown_numeric_variables_are_kept_as_values_with_one_warning() -> None:
    text = "".join(
        f"TS {1700000000 + k} x\nVariable_name\tValue\nCom_select\t{c}\nFoo_bar\t{f}\n"
        for k, c, f in ((0, 1, 7), (1, 3, 2))
    )
    got, ctx = parse(text.encode())
    assert got["Foo_bar"][1].tolist() == [7.0, 2.0] and got["Com_select"][1].tolist() == [2.0]
    assert [str(w) for w in ctx.warnings] == [
        "1 numeric variable(s) not known as counter or gauge, kept as values: Foo_bar"
    ]


def test_a_single_snapshot_keeps_counters_as_totals() -> None:
    one = TABLE.read_text().split("TS ")[1].split("\n", 1)[1]  # the first table, without its marker
    got, ctx = parse(one.encode())
    assert got["Com_select"][1].tolist() == [float(naive_tables(one)[0][1]["Com_select"])]
    assert ctx.units["Com_select"] == "" and ctx.units["Bytes_sent"] == "B"
    assert "no timestamps" in ctx.variant and "single snapshot: counters as totals since start" in ctx.variant


# ---- mysqladmin --------------------------------------------------------------------------------


def test_mysqladmin_tables_are_placed_by_the_folder_clock() -> None:
    got, ctx = parse(ADMIN.read_bytes())
    tables = naive_tables(ADMIN.read_text())
    assert len(tables) == 4 and "no timestamps" in ctx.variant
    v = np.array([numeric(vals, "Com_select") for _, vals in tables])
    assert [vals["Uptime"] for _, vals in tables] == ["15", "16", "17", "18"]  # 1 s apart, as --interval says
    assert got["Com_select"][0].tolist() == [1.0, 2.0, 3.0]  # report k at origin + k x interval
    assert got["Com_select"][1].tolist() == np.diff(v).tolist()
    assert got["Threads_running"][0].tolist() == [0.0, 1.0, 2.0, 3.0]


def test_mysqladmin_relative_tables_are_added_back_up() -> None:
    got, ctx = parse(ADMIN_R.read_bytes())
    tables = naive_tables(ADMIN_R.read_text())
    assert [vals["Uptime"] for _, vals in tables] == ["18", "1", "2", "1"]  # -r: differences after the first
    assert "mysqladmin -r (differences, added back up)" in ctx.variant
    for name in COUNTERS:  # per second of Uptime: the second interval lasted 2 s
        want = [numeric(vals, name) / numeric(vals, "Uptime") for _, vals in tables[1:]]
        assert got[name][1].tolist() == want, name
    assert got["Com_select"][0].tolist() == [1.0, 3.0, 4.0]
    printed = [numeric(vals, "Threads_running") for _, vals in tables]
    assert got["Threads_running"][1].tolist() == np.cumsum(printed).tolist()
    assert "Compression" not in got and "Rpl_status" not in got  # text printed as 0 by -r


@pytest.mark.parametrize("path", [ADMIN_R3, UNEVEN], ids=lambda p: p.name)
def test_untimed_tables_are_spaced_by_uptime(path: Path) -> None:
    """Issue 13: tables without times were placed --interval (1 s) apart, so `mysqladmin -r -i 3`
    gave rates 3x too high and a loop sleeping 1, 3, 2, 4 s rates off by as much. They are spaced by
    the server's Uptime, and every rate is the counter's delta over the Uptime delta."""
    got, ctx = parse(path.read_bytes())
    tables = naive_tables(path.read_text())
    up = np.array([numeric(vals, "Uptime") for _, vals in tables])
    relative = "-r" in path.name
    if relative:
        up = np.cumsum(up)  # -r prints the Uptime differences too
    steps = np.diff(up).tolist()
    assert steps == ([3.0, 3.0, 3.0, 3.0] if relative else [1.0, 3.0, 2.0, 4.0])  # what the capture shows
    assert "tables placed by Uptime" in ctx.variant
    assert got["Uptime"][0].tolist() == (up - up[0]).tolist() and got["Uptime"][1].tolist() == up.tolist()
    for name in COUNTERS:
        v = np.array([numeric(vals, name) for _, vals in tables])
        if relative:
            v = np.cumsum(v)
        assert got[name][0].tolist() == (up[1:] - up[0]).tolist(), name
        assert np.allclose(got[name][1], np.diff(v) / np.diff(up), rtol=1e-12), name
    assert got["Com_select"][1].min() > 100  # the capture ran under load


def test_uptime_that_goes_down_keeps_the_interval_placement() -> None:
    text = "".join(f"Variable_name\tValue\nCom_select\t{c}\nUptime\t{u}\n" for c, u in ((100, 50), (300, 52), (20, 1)))
    got, ctx = parse(text.encode())
    assert got["Com_select"][0].tolist() == [1.0, 2.0] and got["Com_select"][1][0] == 200.0
    assert "Uptime goes down (a restart): tables placed one every --interval" in [w.text for w in ctx.warnings]


# ---- SHOW GLOBAL STATUS LIKE (issue 22) ---------------------------------------------------------

LIKE_BP = sorted(GS.glob("global_status_mariadb-10.11.19_like-bp-read-*.txt"))
LIKE_ROCKS = GS / "global_status_mariadb-10.11.19_like-rocksdb-table.txt"


@pytest.mark.parametrize("path", LIKE_BP, ids=lambda p: p.name)
def test_status_restricted_with_like_is_recognised_by_its_layout(path: Path) -> None:
    """Issue 22: `SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_read%'` keeps five variables, none of
    the list detection used to require: the file was "not a known format". Every client shape of it
    is now detected, and its rates are the deltas of the printed values over the markers' times."""
    head = head_of(path)
    assert importers.detect(head) is global_status_importer()
    got, ctx = parse(path.read_bytes())
    assert ctx.warnings == []
    text = path.read_text()
    t = np.array([float(x.split()[1]) for x in text.splitlines() if x.startswith("TS ")])
    printed = [int(x) for x in re.findall(r"Innodb_buffer_pool_read_requests\s*(?:\||\t|\n\s*Value:)\s*(\d+)", text)]
    assert len(printed) == len(t) == 5
    gt, gv = got["Innodb_buffer_pool_read_requests"]
    assert gt.tolist() == t[1:].tolist() and np.allclose(gv, np.diff(printed) / np.diff(t), rtol=1e-12)
    assert gv.min() > 1000 and ctx.units["Innodb_buffer_pool_read_requests"] == "1/s"  # under sysbench load
    assert set(got) == {
        "Innodb_buffer_pool_read_ahead_rnd",
        "Innodb_buffer_pool_read_ahead",
        "Innodb_buffer_pool_read_ahead_evicted",
        "Innodb_buffer_pool_read_requests",
        "Innodb_buffer_pool_reads",
    }


def global_status_importer() -> object:
    return importers.by_name("global_status")


def test_rocksdb_status_counters_become_rates_and_its_levels_stay_values() -> None:
    """`SHOW GLOBAL STATUS LIKE 'rocksdb%'` (MariaDB's MyRocks under sysbench): 113 variables, none
    known before (109 were kept as raw totals with a warning). Every Rocksdb_ counter is a rate of the
    printed deltas; the memtable sizes and open iterators are levels."""
    got, ctx = parse(LIKE_ROCKS.read_bytes())
    assert ctx.warnings == []
    tables = naive_tables(LIKE_ROCKS.read_text())
    t = np.array([tt for tt, _ in tables], dtype=float)
    for name, unit in (("Rocksdb_rows_read", "1/s"), ("Rocksdb_bytes_written", "B/s"), ("Rocksdb_wal_synced", "1/s")):
        v = np.array([numeric(vals, name) for _, vals in tables])
        assert np.allclose(got[name][1], np.diff(v) / np.diff(t), rtol=1e-12) and ctx.units[name] == unit, name
    assert got["Rocksdb_rows_read"][1].min() > 10_000
    assert got["Rocksdb_memtable_total"][1].tolist() == [numeric(v, "Rocksdb_memtable_total") for _, v in tables]
    assert ctx.units["Rocksdb_memtable_total"] == "B" and ctx.units["Rocksdb_stall_micros"] == "us/s"
    assert len(got["Rocksdb_num_iterators"][0]) == 5


def test_galera_status_restricted_with_like_is_recognised_by_its_known_names() -> None:
    """`SHOW GLOBAL STATUS LIKE 'wsrep%'` prints lower-case names, like SHOW VARIABLES: it is told
    by names known as status. `18446744073709551615` (an unsigned -1: off a cluster) is no value."""
    path = GS / "global_status_mariadb-10.11.19_like-wsrep-table.txt"
    assert importers.detect(head_of(path)) is global_status_importer()
    got, ctx = parse(path.read_bytes())
    assert "18446744073709551615" in path.read_text()
    assert "wsrep_local_index" not in got and "wsrep_cluster_conf_id" not in got
    assert got["wsrep_cluster_size"][1].tolist() == [0.0, 0.0, 0.0] and ctx.warnings == []


def bare_tables(text: str) -> list[dict[str, float]]:
    """The tables of `mysqladmin ... | grep`, read naively: the first name coming back is the next."""
    tables: list[dict[str, float]] = []
    for line in text.splitlines():
        name, value = (c.strip() for c in line.strip("|").split("|"))
        if not tables or name in tables[-1]:
            tables.append({})
        tables[-1][name] = float(value)
    return tables


def test_mysqladmin_grepped_to_a_few_rows_is_read() -> None:
    """Issue 22: `mysqladmin extended-status -i 1 -c 4 | grep ...` (mysqladmin has no LIKE) keeps
    table rows without header or borders: "not a known format" before. Each return of the first
    name is the next table; rates are the deltas of the printed totals over the 1 s interval."""
    path = GS / "global_status_mariadb-10.11.19_mysqladmin-i1-c4-grep-totals.txt"
    assert importers.detect(head_of(path)) is global_status_importer()
    got, ctx = parse(path.read_bytes())
    tables = bare_tables(path.read_text())
    assert len(tables) == 4 and ctx.warnings == []
    for name in ("Com_select", "Innodb_buffer_pool_read_requests"):
        v = [t[name] for t in tables]
        assert got[name][1].tolist() == np.diff(v).tolist() and got[name][0].tolist() == [1.0, 2.0, 3.0], name
    assert got["Threads_running"][1].tolist() == [t["Threads_running"] for t in tables]


def test_mysqladmin_relative_grepped_with_uptime_is_added_back_up_and_spaced_by_it() -> None:
    path = GS / "global_status_mariadb-10.11.19_mysqladmin-r-i2-c4-grep-uptime.txt"
    got, ctx = parse(path.read_bytes())
    tables = bare_tables(path.read_text())
    up = np.cumsum([t["Uptime"] for t in tables])
    assert "mysqladmin -r (differences, added back up)" in ctx.variant and "tables placed by Uptime" in ctx.variant
    for name in ("Com_select", "Innodb_buffer_pool_read_requests"):
        diffs = [t[name] for t in tables[1:]]
        assert got[name][1].tolist() == (np.array(diffs) / np.diff(up)).tolist(), name
        assert got[name][0].tolist() == (up[1:] - up[0]).tolist()


def test_mysqladmin_relative_grepped_without_uptime_is_told_by_its_counters() -> None:
    """Without Uptime, `-r` differences are told from totals by the counters: every one that is not
    zero is lower in the 2nd table than in the 1st (totals of a running server never all go down)."""
    path = GS / "global_status_mariadb-10.11.19_mysqladmin-r-i1-c4-grep-bp-read.txt"
    got, ctx = parse(path.read_bytes())
    tables = bare_tables(path.read_text())
    assert tables[1]["Innodb_buffer_pool_read_requests"] < tables[0]["Innodb_buffer_pool_read_requests"]
    assert "mysqladmin -r inferred: no Uptime, every counter lower in the 2nd table than in the 1st" in ctx.variant
    assert got["Innodb_buffer_pool_read_requests"][1].tolist() == [
        t["Innodb_buffer_pool_read_requests"] for t in tables[1:]
    ]
    assert ctx.warnings == []


def test_global_variables_restricted_with_like_stay_refused() -> None:
    """SHOW VARIABLES prints the same layout with lower-case names: a settings table, not status."""
    text = (
        "+------------------------------+-----------+\n| Variable_name | Value |\n+---+---+\n"
        "| innodb_buffer_pool_size | 67108864 |\n| innodb_buffer_pool_instances | 1 |\n+---+---+\n"
    )
    assert global_status.sniff(text) == 0.0
    assert global_status.sniff(text.replace("innodb_buffer_pool_size", "Innodb_buffer_pool_reads")) == 0.0


# ---- shapes ------------------------------------------------------------------------------------


def reshape(text: str, shape: str) -> str:
    """Rewrite the table snapshots as batch (-B, -B -N) or vertical (\\G) output."""
    out, n = [], 0
    for line in text.splitlines():
        if line.startswith("+"):
            continue
        if not line.startswith("|"):
            out.append(line)
            n = 0
            continue
        name, value = (c.strip() for c in line.strip("|").split("|"))
        if name == "Variable_name":
            out += ["Variable_name\tValue"] if shape == "batch" else []
        elif shape in ("batch", "batch-N"):
            out.append(f"{name}\t{value}")
        else:
            n += 1
            out += ["*" * 27 + f" {n}. row " + "*" * 27, f"Variable_name: {name}", f"        Value: {value}"]
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("shape", ["batch", "batch-N", "vertical"])
def test_every_shape_gives_the_same_series(shape: str) -> None:
    text = TABLE.read_text()
    want, _ = parse(text.encode())
    got, ctx = parse(reshape(text, shape).encode())
    assert set(got) == set(want) and ctx.warnings == []
    assert global_status.sniff(reshape(text, shape)) == (0.9 if shape == "batch-N" else 0.95)
    for key in want:
        assert np.array_equal(got[key][0], want[key][0]) and np.array_equal(got[key][1], want[key][1]), key


def test_the_real_captures_of_each_shape_give_the_same_names() -> None:
    names = {
        p.name: set(parse(p.read_bytes())[0])
        for p in FILES
        if "mysqladmin-r" not in p.name and "_like-" not in p.name and "-grep-" not in p.name
    }
    assert len(set(map(frozenset, names.values()))) == 1, names.keys()


# ---- bad input ---------------------------------------------------------------------------------


def test_garbage_lines_are_warned_with_their_line_number_and_the_rest_survives() -> None:
    lines = TABLE.read_text().splitlines()
    bad = [*lines[:10], "garbage line", *lines[10:700], "\x00\x07 binary", *lines[700:]]
    got, ctx = parse(("\n".join(bad) + "\n").encode())
    want, _ = parse(TABLE.read_bytes())
    assert set(got) == set(want)
    for key in want:
        assert np.array_equal(got[key][1], want[key][1], equal_nan=True), key
    assert "line 11: not a table row: 'garbage line'" in map(str, ctx.warnings)
    assert any(w.startswith("line 702: not a table row") for w in map(str, ctx.warnings))


@pytest.mark.parametrize("path", [TABLE, GS / "global_status_mariadb-10.11.19_batch.txt", ADMIN], ids=lambda p: p.name)
def test_truncated_anywhere_never_raises_nor_invents(path: Path) -> None:
    raw = path.read_bytes()
    whole, _ = parse(raw)
    for cut in range(0, len(raw), len(raw) // 61):
        got, ctx = parse(raw[:cut])
        if "single snapshot: counters as totals since start" in ctx.variant:
            continue
        assert_prefix_of(got, whole, cut)


def test_a_cut_last_batch_snapshot_is_dropped() -> None:
    raw = (GS / "global_status_mariadb-10.11.19_batch.txt").read_bytes()
    cut = raw[: raw.rindex(b"Com_select")]
    got, ctx = parse(cut)
    assert len(got["Com_select"][0]) == 3 and any("last snapshot looks cut" in w for w in map(str, ctx.warnings))


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\n",
        b"\xff\xfe\x00garbage\n",
        b"Variable_name\tValue\nCom_select\n",
        b"TS 1700000000 x\n" * 3,
        b"+---+\n| Variable_name | Value |\n",
        b"*************************** 1. row ***************************\nValue: 3\n",
    ],
)
def test_hostile_input_never_raises(raw: bytes) -> None:
    got, ctx = parse(raw)
    assert got == {} and ctx.warnings


# ---- detection ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_sniff_claims_every_fixture(path: Path) -> None:
    head = head_of(path)
    want = 0.9 if "-grep-" in path.name else 0.95  # rows without their table's header
    assert global_status.sniff(head) == want and innodb_mutex.sniff(head) == 0.0
    others = {k: s for k, s in importers.scores(head).items() if k != "global_status"}
    assert all(s < importers.THRESHOLD for s in others.values()), others


def test_sniff_refuses_global_variables_and_other_formats() -> None:
    variables = "Variable_name\tValue\nautocommit\tON\nbinlog_format\tMIXED\ninnodb_buffer_pool_size\t134217728\n"
    assert global_status.sniff(variables) == 0.0
    others = fixture_files("vmstat", "iostat", "mpstat", "sysbench", "innodb_mutex")
    if SAMPLES.is_dir():
        others += list((SAMPLES / "innodb_status").iterdir())
    for path in others:
        assert global_status.sniff(head_of(path)) == 0.0, path.name


# ---- goldens -----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_fixture_matches_golden(path: Path) -> None:
    got = golden.check(global_status, path)
    assert got["series"]
