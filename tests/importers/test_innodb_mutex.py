"""SHOW ENGINE INNODB MUTEX snapshots: rates equal the deltas read from the raw text with simple
code, names repeated in a snapshot are summed, rows that appear later start from 0, resets never
give a negative rate, every client shape gives the same series, bad input never raises."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from benchlens import importers
from benchlens.importers import _mysql_table, global_status, innodb_mutex
from benchlens.importers._types import Context, RawClock
from tests import golden
from tests.conftest import FIXTURES, SAMPLES, Series, fixture_files, head_of, parse_series

MX = FIXTURES / "innodb_mutex"
FILES = sorted(MX.glob("*.txt"))
MARKERS_ONLY = [
    p for p in FILES if "mariadb" in p.name and p.name.endswith(("_table.txt", "_batch.txt", "_vertical.txt"))
]
TNS_FILES = [p for p in FILES if "handwritten" in p.name and "5.0" not in p.name]


def parse(raw: bytes) -> tuple[Series, Context]:
    """{(mutex name, counter): (t, v)}: keyed as the raw text names them."""
    got, ctx = parse_series(innodb_mutex, raw)
    return {(entity, metric): tv for (metric, entity), tv in got.items()}, ctx


# ---- the raw text read naively -----------------------------------------------------------------


def naive_marker(line: str) -> float | None:
    if line.startswith("TS "):
        return float(line.split()[1])
    if re.match(r"^\d{4}-\d\d-\d\dT", line):
        return datetime.fromisoformat(line).timestamp()
    if re.match(r"^(Mon|Tue|Wed|Thu|Fri|Sat|Sun) ", line):
        return datetime.strptime(line.replace("  ", " "), "%a %b %d %H:%M:%S UTC %Y").replace(tzinfo=UTC).timestamp()
    return None


def naive_snapshots(text: str) -> list[tuple[float, dict[tuple[str, str], float]]]:
    """(time, {(name, counter): summed value}) per marker, from Type/Name/Status rows in any shape."""
    snaps: list[tuple[float, dict[tuple[str, str], float]]] = []
    name = None
    for line in text.splitlines():
        t = naive_marker(line)
        if t is not None:
            snaps.append((t, {}))
            continue
        status = None
        if line.startswith("| InnoDB "):
            _, _, name, status, _ = (c.strip() for c in line.split("|"))
        elif line.startswith("InnoDB\t"):
            _, name, status = line.split("\t")
        elif line.startswith("  Name: "):
            name = line[len("  Name: ") :]
        elif line.startswith("Status: "):
            status = line[len("Status: ") :]
        if status is not None and name is not None:
            for part in status.replace(" ", "").split(","):
                key, value = part.split("=")
                snaps[-1][1][(name, key)] = snaps[-1][1].get((name, key), 0.0) + float(value)
    return snaps


def naive_rates(text: str) -> Series:
    snaps = naive_snapshots(text)
    keys = {k for _, v in snaps for k in v}
    out: Series = {}
    for key in keys:
        t = np.array([s[0] for s in snaps])
        v = np.array([s[1].get(key, 0.0) for s in snaps])  # a row not printed is zero
        d = np.diff(v)
        out[key] = (t[1:], np.where(d < 0, np.nan, d / np.diff(t)))
    return out


# ---- values ------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [p for p in TNS_FILES if "single" not in p.name], ids=lambda p: p.name)
def test_rates_equal_the_deltas_of_the_raw_text(path: Path) -> None:
    got, ctx = parse(path.read_bytes())
    want = naive_rates(path.read_text())
    assert set(got) == set(want)
    for key, (t, v) in want.items():
        assert np.allclose(got[key][0], t, rtol=0, atol=1e-6), key
        assert np.allclose(got[key][1], v, rtol=1e-12, equal_nan=True), key
        assert ctx.units[key[1]] == ("ms/s" if key[1] == "os_wait_times" else "1/s")


def test_names_repeated_in_a_snapshot_are_summed() -> None:
    got, _ = parse((MX / "innodb_mutex_mysql-5.5_single_handwritten.txt").read_bytes())
    assert got[("trx0rseg.c:167", "os_waits")][1].tolist() == [5.0]  # rows os_waits=1 and os_waits=4
    got, _ = parse((MX / "innodb_mutex_mysql-5.1_table_handwritten.txt").read_bytes())
    _t, v = got[("../../storage/innobase/trx/trx0rseg.c:167", "os_waits")]
    assert v[0] == pytest.approx(((5 + 2) - (3 + 1)) / 5)


def test_rows_that_appear_later_start_from_zero() -> None:
    got, _ = parse((MX / "innodb_mutex_mysql-5.1_table_handwritten.txt").read_bytes())
    _t, v = got[("../../storage/innobase/log/log0log.c:775", "os_waits")]
    assert v.tolist() == [0.0, pytest.approx(4 / 5), pytest.approx(6 / 5)]  # absent, then os_waits=4, 10
    got, _ = parse((MX / "innodb_mutex_mysql-8.0_table_handwritten.txt").read_bytes())
    assert got[("rwlock: hash0hash.cc:171", "waits")][1].tolist() == [0.0, 0.5]


def test_a_restart_gives_no_negative_rate_and_says_where() -> None:
    got, ctx = parse((MX / "innodb_mutex_mysql-5.6_vertical_handwritten.txt").read_bytes())
    for _t, v in got.values():
        assert not (v < 0).any()
        assert np.isnan(v[2])  # 3rd interval: the server restarted (233 -> 8 for &log_sys->mutex)
    assert got[("&log_sys->mutex", "os_waits")][1][3] == 3.0  # 8 -> 38 in 10 s
    assert got[("&block->mutex", "os_waits")][1][3] == pytest.approx(0.1)  # back after the restart
    assert any(w.startswith("line 69: counters went down") for w in map(str, ctx.warnings))


def test_a_single_snapshot_keeps_the_totals() -> None:
    got, ctx = parse((MX / "innodb_mutex_mysql-5.5_single_handwritten.txt").read_bytes())
    assert got[("buf0buf.c:1180", "os_waits")][1].tolist() == [3190.0]
    assert ctx.units["os_waits"] == "" and "single snapshot: totals since start" in ctx.variant
    assert "no timestamps" in ctx.variant  # placed by the folder clock


def test_mysql_5_0_columns_are_counters_with_the_5_1_names() -> None:
    got, ctx = parse((MX / "innodb_mutex_mysql-5.0_show-mutex-status_handwritten.txt").read_bytes())
    assert {m for _, m in got} == {"count", "spin_waits", "spin_rounds", "os_waits", "os_yields", "os_wait_times"}
    _t, v = got[("&rseg->mutex", "count")]  # two rows (8120 + 7988) -> (8803 + 8660) in 10 s
    assert v[0] == pytest.approx((8803 + 8660 - 8120 - 7988) / 10)
    assert ctx.units["os_wait_times"] == "ms/s" and "SHOW MUTEX STATUS (5.0)" in ctx.variant


def test_mariadb_prints_no_rows() -> None:
    for path in [p for p in FILES if "mariadb" in p.name]:
        got, ctx = parse(path.read_bytes())
        assert got == {}
        assert "no mutex rows (MariaDB prints none)" in map(str, ctx.warnings), path.name
    _, ctx = parse((MX / "innodb_mutex_mariadb-10.11.19_show-mutex-status-error.txt").read_bytes())
    assert str(ctx.warnings[0]).startswith("line 6: the statement failed: ERROR 1064 (42000)")


def test_a_single_table_pasted_without_its_closing_border_keeps_its_complete_rows() -> None:
    """Issue 22: Percona Server's manual pastes `show mutex status` and stops at `.....` (no closing
    border). That was refused as "cut short ... no mutex rows (MariaDB prints none)" although nine
    rows were there: its complete rows are read as totals, with a warning that names the cut."""
    path = MX / "innodb_mutex_percona-server-5.x_table-cut-no-closing-border.txt"
    got, ctx = parse(path.read_bytes())
    rows = [line.split("|") for line in path.read_text().splitlines() if line.startswith("| InnoDB")]
    want: dict[str, float] = {}
    for row in rows:
        want[row[2].strip()] = want.get(row[2].strip(), 0.0) + float(row[3].strip().split("=")[1])
    assert {e: v.tolist() for (e, _m), (_t, v) in got.items()} == {e: [v] for e, v in want.items()}
    assert want["&new_index->lock"] == 417.0  # two rows of one name, summed
    warnings = [str(w) for w in ctx.warnings]
    assert (
        "line 2: table cut short (no closing border): its 9 complete row(s) read, the rows after the cut are missing"
        in warnings
    )
    assert "line 14: not a table row: '.....'" in warnings
    assert not any("no mutex rows" in w for w in warnings)


def test_a_cut_table_among_several_snapshots_is_still_dropped() -> None:
    """In a loop a cut table's missing rows would read as zeros (rows are not printed at zero)."""
    raw = (MX / "innodb_mutex_mysql-5.1_table_handwritten.txt").read_bytes()
    text = raw.decode()
    cut = text[: text.rindex("+--------")]  # the last table without its closing border
    got, ctx = parse(cut.encode())
    whole, _ = parse(raw)
    assert all(len(t) == len(whole[k][0]) - 1 for k, (t, _v) in got.items() if k in whole)
    assert any("result cut short" in str(w) and "skipped" in str(w) for w in ctx.warnings)


# ---- shapes ------------------------------------------------------------------------------------


def reshape(text: str, shape: str) -> str:
    """Rewrite Type/Name/Status table snapshots as batch (-B, -B -N) or vertical (\\G) output."""
    out, n = [], 0
    for line in text.splitlines():
        n = 0 if naive_marker(line) is not None else n
        if line.startswith("+"):
            continue
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if cells[0] == "Type":
                out += ["Type\tName\tStatus"] if shape == "batch" else []
            elif shape in ("batch", "batch-N"):
                out.append("\t".join(cells))
            else:
                n += 1
                out += [
                    "*" * 27 + f" {n}. row " + "*" * 27,
                    f"  Type: {cells[0]}",
                    f"  Name: {cells[1]}",
                    f"Status: {cells[2]}",
                ]
        else:
            out.append(line)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("shape", ["batch", "batch-N", "vertical"])
def test_every_shape_gives_the_same_series(shape: str) -> None:
    text = (MX / "innodb_mutex_mysql-8.0_table_handwritten.txt").read_text()
    want, _ = parse(text.encode())
    got, ctx = parse(reshape(text, shape).encode())
    assert set(got) == set(want) and ctx.warnings == []
    assert innodb_mutex.sniff(reshape(text, shape)) == (0.9 if shape == "batch-N" else 0.95)
    for key in want:
        assert np.array_equal(got[key][0], want[key][0]) and np.array_equal(got[key][1], want[key][1]), key


def test_table_cells_split_on_bars_batch_on_tabs_vertical_on_the_first_colon() -> None:
    ctx = Context(RawClock())
    lines = [
        "+------+-----------------------------+---------+",
        "| Type | Name                        | Status  |",
        "+------+-----------------------------+---------+",
        "| InnoDB | sum rwlock: buf0buf.cc:1460 | waits=3 |",
        "+------+-----------------------------+---------+",
        "Type\tName\tStatus",
        "InnoDB\tcombined buf0buf.c:935\tos_waits=2",
        "*************************** 1. row ***************************",
        "  TYPE: InnoDB",
        "  NAME: rwlock: dict0dict.cc:1184",
        "STATUS: waits=1",
    ]
    parsed = _mysql_table.parse(enumerate(lines, 1), ctx, innodb_mutex.HEADERS)
    names = [r.rows[0].cells["name"] for r in parsed.results]
    assert names == ["sum rwlock: buf0buf.cc:1460", "combined buf0buf.c:935", "rwlock: dict0dict.cc:1184"]
    assert [r.shape for r in parsed.results] == ["table", "batch", "vertical"] and ctx.warnings == []


# ---- bad input ---------------------------------------------------------------------------------


def test_garbage_lines_are_warned_with_their_line_number_and_the_rest_survives() -> None:
    path = MX / "innodb_mutex_mysql-8.0_table_handwritten.txt"
    lines = path.read_text().splitlines()
    bad = [*lines[:5], "%%%% garbage %%%%", *lines[5:14], "| InnoDB | broken row", *lines[14:]]
    got, ctx = parse(("\n".join(bad) + "\n").encode())
    want, _ = parse(path.read_bytes())
    assert set(got) == set(want)
    assert "line 6: not a table row: '%%%% garbage %%%%'" in map(str, ctx.warnings)
    assert any(w.startswith("line 16: ") for w in map(str, ctx.warnings))


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_truncated_anywhere_never_raises_nor_invents(path: Path) -> None:
    raw = path.read_bytes()
    whole, _ = parse(raw)
    for cut in range(0, len(raw), max(1, len(raw) // 97)):
        got, ctx = parse(raw[:cut])
        # A cut batch or vertical result has no closing line: its last snapshot is dropped when
        # rows of the snapshot before are missing, but a cut row that was new in it reads as 0.
        exact = "_table" in path.name or "show-mutex-status" in path.name
        if "single snapshot: totals since start" in ctx.variant:  # one snapshot left: its totals
            assert all((v >= 0).all() for _, v in got.values())
            continue
        for key, (t, v) in got.items():
            wt, wv = whole[key]
            n = len(t) if exact else len(t) - 1
            assert np.array_equal(t, wt[: len(t)]), (cut, key)
            assert np.array_equal(v[:n], wv[:n], equal_nan=True), (cut, key)


@pytest.mark.parametrize(
    "raw",
    [
        b"",
        b"\n\n",
        b"\x00\x01\x02garbage\n",
        b"Type\tName\tStatus\nInnoDB\tx\n",
        b"TS 1520256295 x\n" * 3,
        b"+---+\n| a |\n",
        b"*************************** 1. row ***************************\nName: x\n",
    ],
)
def test_hostile_input_never_raises(raw: bytes) -> None:
    got, ctx = parse(raw)
    assert got == {} and ctx.warnings


# ---- detection ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_sniff_claims_every_fixture_but_bare_markers(path: Path) -> None:
    head = head_of(path)
    assert innodb_mutex.sniff(head) == (0.0 if path in MARKERS_ONLY else 0.95)
    assert global_status.sniff(head) == 0.0
    others = {k: s for k, s in importers.scores(head).items() if k != "innodb_mutex"}
    assert all(s < importers.THRESHOLD for s in others.values()), others


def test_sniff_refuses_other_formats() -> None:
    others = fixture_files("vmstat", "iostat", "mpstat", "sysbench", "global_status")
    if SAMPLES.is_dir():
        others += list((SAMPLES / "innodb_status").iterdir())
    assert others
    for path in others:
        assert innodb_mutex.sniff(head_of(path)) == 0.0, path.name


# ---- goldens -----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_fixture_matches_golden(path: Path) -> None:
    got = golden.check(innodb_mutex, path)
    assert bool(got["series"]) == ("mariadb" not in path.name)
