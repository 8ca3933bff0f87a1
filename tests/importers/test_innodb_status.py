"""SHOW ENGINE INNODB STATUS: every real fixture gives the values its raw text prints (recomputed
here with plain regexes, independent of the importer), rates are the deltas of the raw snapshots,
the three client shapes agree, and truncated or hostile input warns without raising."""

from __future__ import annotations

import os
import random
import re
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from benchlens.importers import innodb_status
from benchlens.importers._types import Context
from tests.conftest import FIXTURES, TABLE_FORMATS, fixture_files, metric_series, parse_bytes

FIX = FIXTURES / "innodb_status"
FILES = fixture_files("innodb_status")
MARIADB = "innodb_status_10.11.19_mariadb_"
PT_STALK = sorted(FIX.glob("innodb_status_5.5-percona_G-pt-stalk-*.txt"))

# ---- an independent reading of the raw text --------------------------------------------------

_HDR = re.compile(r"^(\d{6}|\d{4}-\d\d-\d\d) +(\d+):(\d\d):(\d\d) (?:\S+ )?INNODB MONITOR OUTPUT$", re.M)


def raw_text(path: Path | bytes) -> str:
    text = path.decode() if isinstance(path, bytes) else path.read_text()
    if "\nInnoDB\t\t\\n" in text:  # mysql -B: one line, escaped
        text = text.replace("\\n", "\n").replace("\\t", "\t")
    return text


def raw_statuses(text: str) -> list[tuple[float, str]]:
    """(header time as UTC epoch, the status text) for each status."""
    heads = list(_HDR.finditer(text))
    out = []
    for i, m in enumerate(heads):
        day = m.group(1)
        y, mo, d = (2000 + int(day[:2]), int(day[2:4]), int(day[4:])) if len(day) == 6 else map(int, day.split("-"))
        t = datetime(y, mo, d, int(m.group(2)), int(m.group(3)), int(m.group(4)), tzinfo=UTC).timestamp()
        end = heads[i + 1].start() if i + 1 < len(heads) else len(text)
        out.append((t, text[m.start() : end]))
    return out


def raw_number(status: str, label: str) -> float:
    """The first `label N` (or `label HIGH LOW`) line of a status; NaN when absent."""
    m = re.search(rf"^{label}\s+(\d+)(?: (\d+))?\s*$", status, re.M)
    if m is None:
        return np.nan
    return float((int(m.group(1)) << 32) + int(m.group(2))) if m.group(2) else float(m.group(1))


def raw_checkpoint_age(status: str) -> float:
    lsn, ckpt = raw_number(status, "Log sequence number"), raw_number(status, "Last checkpoint at")
    return lsn - ckpt if not np.isnan(lsn - ckpt) else raw_number(status, "Checkpoint age")


def raw_counters(status: str) -> dict[str, float]:
    out = {"log_bytes": raw_number(status, "Log sequence number")}
    if m := re.search(r"^Pages read (\d+), created (\d+), written (\d+)$", status, re.M):
        out |= dict(zip(("pages_read", "pages_created", "pages_written"), map(float, m.groups()), strict=True))
    if m := re.search(r"^Mutex spin waits (\d+), rounds (\d+), OS waits (\d+)$", status, re.M):
        out |= dict(zip(("mutex_spin_waits", "mutex_rounds", "mutex_os_waits"), map(float, m.groups()), strict=True))
    for kind in ("shared", "excl", "sx"):
        if m := re.search(rf"^RW-{kind} spins (\d+), rounds (\d+), OS waits (\d+)$", status, re.M):
            keys = (f"rw_{kind}_spins", f"rw_{kind}_rounds", f"rw_{kind}_os_waits")
            out |= dict(zip(keys, map(float, m.groups()), strict=True))
    return out


def same(a: np.ndarray, b: np.ndarray) -> bool:
    return bool(np.allclose(a, b, rtol=1e-12, atol=0, equal_nan=True))


# ---- sniff -----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_sniff_claims_every_fixture(path: Path) -> None:
    assert innodb_status.sniff(path.read_text()[: 64 << 10]) == 0.95


def test_sniff_refuses_other_formats_and_the_mutex_listing() -> None:
    others = fixture_files(*(fmt for fmt in TABLE_FORMATS if fmt != "innodb_status"))
    assert len(others) > 50
    for p in others:
        assert innodb_status.sniff(p.read_text(errors="replace")[: 64 << 10]) == 0.0, p.name
    row = "*************************** 1. row ***************************\n  Type: InnoDB\n"
    mutex_g = row + "  Name: buf0buf.c:1180\nStatus: os_waits=3\n"
    assert innodb_status.sniff(mutex_g) == 0.0
    wrapper_only = row + "  Name: \nStatus: \n"
    assert innodb_status.sniff(wrapper_only) == 0.95


# ---- values --------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_gauges_are_the_printed_values(path: Path) -> None:
    blocks, ctx = parse_bytes(innodb_status, path.read_bytes())
    got = metric_series(blocks)
    statuses = raw_statuses(raw_text(path))
    assert statuses and len(got["checkpoint_age"][1]) == len(statuses)
    assert same(got["checkpoint_age"][1], [raw_checkpoint_age(s) for _, s in statuses])
    assert same(got["history_list_length"][1], [raw_number(s, "History list length") for _, s in statuses])
    for metric, label in [
        ("buffer_pool_size", "Buffer pool size"),
        ("free_buffers", "Free buffers"),
        ("database_pages", "Database pages"),
        ("modified_db_pages", "Modified db pages"),
    ]:
        assert same(got[metric][1], [raw_number(s, label) for _, s in statuses]), metric
    if "TS-" not in path.name:  # timed by the headers (the test clock is UTC)
        assert same(got["checkpoint_age"][0], [t for t, _ in statuses])
    for metric in got:
        assert metric in ctx.units
    assert ctx.units["checkpoint_age"] == "B" and ctx.units["free_buffers"] == "pages"


def gauge(name: str, metric: str) -> np.ndarray:
    blocks, _ = parse_bytes(innodb_status, (FIX / name).read_bytes())
    return metric_series(blocks)[metric][1]


def test_hand_computed_values() -> None:
    # MySQL 5.0 two-part LSNs: `Log sequence number 208 1379356250`, `Last checkpoint at  208 1281659055`
    assert list(gauge("innodb_status_5.0_twopart-lsn.txt", "checkpoint_age")) == [
        (208 * 2**32 + 1379356250) - (208 * 2**32 + 1281659055)
    ]
    assert list(gauge("innodb_status_5.0_twopart-lsn.txt", "checkpoint_age")) == [97697195]
    assert list(gauge("innodb_status_5.0_twopart-lsn.txt", "history_list_length")) == [1282]
    assert list(gauge("innodb_status_5.0_twopart-lsn.txt", "buffer_pool_size")) == [2097152]
    # XtraDB: LSN 22611157035212 - checkpoint 22611148135290 = the printed `Checkpoint age 8899922`
    pt = "innodb_status_5.5-percona_G-pt-stalk-13_24_55.txt"
    assert list(gauge(pt, "checkpoint_age")) == [22611157035212 - 22611148135290] == [8899922]
    assert list(gauge(pt, "history_list_length")) == [5198]
    # truncated 5.1: 897148773600 - 896783925619
    assert list(gauge("innodb_status_5.1-xtradb_truncated.txt", "checkpoint_age")) == [364847981]
    assert list(gauge("innodb_status_5.1-xtradb_truncated.txt", "history_list_length")) == [426]
    # 8.0.32 LOG section: every LSN 34408522, `Checkpoint age 0`
    assert list(gauge("innodb_status_8.0.32-percona_G.txt", "checkpoint_age")) == [0]
    assert list(gauge("innodb_status_8.0.32-percona_G.txt", "modified_db_pages")) == [3]
    # MariaDB, first snapshot under load: 32151674 - 13357014
    assert gauge(MARIADB + "G-TS-5x1s.txt", "checkpoint_age")[0] == 32151674 - 13357014


def test_the_checkpoint_age_line_is_used_when_it_is_all_there_is() -> None:
    text = (FIX / "innodb_status_5.5-pxc_G.txt").read_text()
    text = text.replace("Log sequence number 8603780\n", "").replace(
        "Checkpoint age        0", "Checkpoint age        1234"
    )
    blocks, _ = parse_bytes(innodb_status, text.encode())
    assert list(metric_series(blocks)["checkpoint_age"][1]) == [1234]


# ---- rates -------------------------------------------------------------------------------------


def expected_rates(times: list[float], statuses: list[str]) -> dict[str, np.ndarray]:
    vals = [raw_counters(s) for s in statuses]
    dt = np.diff(times)
    return {k + "/s": np.diff([v[k] for v in vals]) / dt for k in vals[0]}


def check_rates(raw: bytes, times: list[float], statuses: list[str]) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    blocks, ctx = parse_bytes(innodb_status, raw)
    got = metric_series(blocks)
    want = expected_rates(times, statuses)
    rates = {k for k in got if k.endswith("/s")}
    assert rates == set(want)
    for k, v in want.items():
        assert same(got[k][0], times[1:]), k
        assert same(got[k][1], v), k
    assert ctx.units["log_bytes/s"] == "B/s" and ctx.units["pages_written/s"] == "pages/s"
    return got


def test_rates_between_marked_snapshots_are_the_raw_deltas() -> None:
    raw = (FIX / (MARIADB + "G-TS-5x1s.txt")).read_bytes()
    text = raw.decode()
    times = [float(x) for x in re.findall(r"^TS (\S+) ", text, re.M)]
    assert len(times) == 5
    got = check_rates(raw, times, [s for _, s in raw_statuses(text)])
    # by hand: (41600655 - 32151674) B over 1795317888.531616920 - 1795317887.511872839 s
    assert got["log_bytes/s"][1][0] == pytest.approx(
        (41600655 - 32151674) / (1795317888.531616920 - 1795317887.511872839)
    )
    assert got["pages_written/s"][1][0] == pytest.approx((1255 - 778) / (1795317888.531616920 - 1795317887.511872839))
    # the TS marker wins over the header (whole seconds)
    assert list(got["checkpoint_age"][0]) == times


def test_rates_between_header_timed_snapshots() -> None:
    raw = (FIX / (MARIADB + "bare-3x2s.txt")).read_bytes()
    statuses = raw_statuses(raw.decode())
    got = check_rates(raw, [t for t, _ in statuses], [s for _, s in statuses])
    assert list(got["log_bytes/s"][1]) == [(96761256 - 79925778) / 2, (106947577 - 96761256) / 2]


def test_pt_stalk_files_concatenated_give_semaphore_rates() -> None:
    raw = b"".join(p.read_bytes() for p in PT_STALK)
    statuses = raw_statuses(raw.decode())
    assert len(statuses) == 3
    got = check_rates(raw, [t for t, _ in statuses], [s for _, s in statuses])
    # by hand: `Mutex spin waits 12033970052` then `12033977328`, 13:24:56 -> 13:29:56
    assert got["mutex_spin_waits/s"][1][0] == pytest.approx((12033977328 - 12033970052) / 300)
    assert got["rw_excl_os_waits/s"][1][0] == pytest.approx((15143742 - 15143736) / 300)
    assert got["log_bytes/s"][1][0] == pytest.approx((22611258576197 - 22611157035212) / 300)
    assert "rw_sx_spins/s" not in got  # 5.5 has no RW-sx line


def test_old_one_line_rw_form() -> None:
    one = (FIX / "innodb_status_5.1-percona_xtradb-small.txt").read_text()
    later = one.replace("100904 10:24:51", "100904 10:24:59").replace(  # 8 s later
        "RW-shared spins 4, OS waits 4; RW-excl spins 0, OS waits 0",
        "RW-shared spins 20, OS waits 12; RW-excl spins 8, OS waits 4",
    )
    blocks, _ = parse_bytes(innodb_status, (one + later).encode())
    got = metric_series(blocks)
    assert list(got["rw_shared_spins/s"][1]) == [2.0] and list(got["rw_shared_os_waits/s"][1]) == [1.0]
    assert list(got["rw_excl_spins/s"][1]) == [1.0] and list(got["rw_excl_os_waits/s"][1]) == [0.5]
    assert "rw_shared_rounds/s" not in got


def test_a_restart_is_a_gap_not_a_negative_rate() -> None:
    a, b = PT_STALK[0].read_text(), PT_STALK[1].read_text()
    b = b.replace("Log sequence number 22611258576197", "Log sequence number 1000")
    blocks, ctx = parse_bytes(innodb_status, (a + b).encode())
    rate = metric_series(blocks)["log_bytes/s"][1]
    assert len(rate) == 1 and np.isnan(rate[0])
    assert any("reset" in w for w in map(str, ctx.warnings))


def test_a_single_snapshot_is_a_source_with_single_points() -> None:
    blocks, ctx = parse_bytes(innodb_status, PT_STALK[0].read_bytes())
    got = metric_series(blocks)
    assert all(len(t) == 1 for t, _ in got.values())
    assert not [k for k in got if k.endswith("/s")]
    assert not ctx.warnings


# ---- shapes ------------------------------------------------------------------------------------


def assert_same_series(a: bytes, b: bytes) -> None:
    sa, sb = metric_series(parse_bytes(innodb_status, a)[0]), metric_series(parse_bytes(innodb_status, b)[0])
    assert sa.keys() == sb.keys()
    for k in sa:
        assert same(sa[k][0], sb[k][0]) and same(sa[k][1], sb[k][1]), k


def test_batch_g_and_bare_captures_of_one_snapshot_agree() -> None:
    bare = (FIX / (MARIADB + "bare.txt")).read_bytes()
    for shape in ("B", "G"):
        assert_same_series((FIX / (MARIADB + f"{shape}.txt")).read_bytes(), bare)
    _, ctx = parse_bytes(innodb_status, (FIX / (MARIADB + "B.txt")).read_bytes())
    assert "batch (-B)" in ctx.variant and not ctx.warnings


def test_shapes_built_from_one_snapshot_agree() -> None:
    for path in (*PT_STALK, FIX / "innodb_status_8.0.32-percona_G.txt"):
        g = path.read_text()
        bare = g.split("Status:", 1)[1].lstrip(" \n")
        cell = bare.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n")
        batch = f"Type\tName\tStatus\nInnoDB\t\t\\n{cell}\n"
        assert "\t(" in bare or "8.0" in path.name  # 5.5 prints TABs: escaped as \t in batch mode
        assert_same_series(g.encode(), bare.encode())
        assert_same_series(g.encode(), batch.encode())
        assert_same_series(g.encode(), f"InnoDB\t\t\\n{cell}\n".encode())  # -N: no header line


# ---- buffer pool instances ---------------------------------------------------------------------

# Shape of MySQL 5.6-8.0 with innodb_buffer_pool_instances=2 (totals first, then one block per
# instance), as seen in public captures; numbers made up so that totals and instances differ.
INSTANCES = """=====================================
2024-12-17 10:14:53 0x7f15 INNODB MONITOR OUTPUT
=====================================
---
LOG
---
Log sequence number          27021675909
Last checkpoint at           27021600000
----------------------
BUFFER POOL AND MEMORY
----------------------
Buffer pool size   131062
Buffer pool size, bytes 2147352576
Free buffers       2048
Database pages     128980
Modified db pages  10
Pages read 53800, created 194798, written 266624
Pages read ahead 0.00/s, evicted without access 0.00/s, Random read ahead 0.00/s
----------------------
INDIVIDUAL BUFFER POOL INFO
----------------------
---BUFFER POOL 0
Buffer pool size   65532
Free buffers       1024
Database pages     64491
Modified db pages  4
Pages read 27048, created 88012, written 145052
---BUFFER POOL 1
Buffer pool size   65530
Free buffers       1024
Database pages     64489
Modified db pages  6
Pages read 26752, created 106786, written 121572
--------------
ROW OPERATIONS
--------------
------------
TRANSACTIONS
------------
History list length 7
----------------------------
END OF INNODB MONITOR OUTPUT
============================
"""


def test_several_buffer_pool_instances_use_the_totals() -> None:
    blocks, ctx = parse_bytes(innodb_status, INSTANCES.encode())
    got = metric_series(blocks)
    assert got["buffer_pool_size"][1][0] == 131062 and got["free_buffers"][1][0] == 2048
    assert got["database_pages"][1][0] == 128980 and got["modified_db_pages"][1][0] == 10
    assert got["checkpoint_age"][1][0] == 75909 and got["history_list_length"][1][0] == 7
    assert "several buffer pool instances (totals used)" in ctx.variant and not ctx.warnings
    later = INSTANCES.replace("10:14:53", "10:14:55").replace("written 266624", "written 266724")
    got = metric_series(parse_bytes(innodb_status, (INSTANCES + later).encode())[0])
    assert list(got["pages_written/s"][1]) == [50.0]


# ---- truncated and hostile input ----------------------------------------------------------------


def test_truncated_sample_warns_and_keeps_its_complete_lines() -> None:
    blocks, ctx = parse_bytes(innodb_status, (FIX / "innodb_status_5.1-xtradb_truncated.txt").read_bytes())
    assert any(w.startswith("line 2: ") and "truncated" in w for w in map(str, ctx.warnings))
    assert "truncated" in ctx.variant
    assert metric_series(blocks)["history_list_length"][1][0] == 426


def test_a_status_cut_inside_a_value_line_drops_that_value() -> None:
    lines = (FIX / (MARIADB + "G-TS-5x1s.txt")).read_text().split("\n")
    third = [i for i, x in enumerate(lines) if x.startswith("TS ")][2]
    cut = next(i for i in range(third, len(lines)) if lines[i].startswith("Log sequence number"))
    fourth = [i for i, x in enumerate(lines) if x.startswith("TS ")][3]
    text = "\n".join([*lines[:cut], "Log sequence number 527", *lines[fourth:]])
    blocks, ctx = parse_bytes(innodb_status, text.encode())
    got = metric_series(blocks)
    assert list(got["history_list_length"][1]) == [15, 18, 21, 21, 15]  # complete lines kept
    ages = got["checkpoint_age"][1]
    assert np.isnan(ages[2]) and not np.isnan(ages[[0, 1, 3, 4]]).any()  # the cut LSN is not read as 527
    log = got["log_bytes/s"]
    assert len(log[1]) == 3 and list(log[0]) == list(got["checkpoint_age"][0][[1, 3, 4]])
    header = next(i for i in range(third, len(lines)) if "INNODB MONITOR OUTPUT" in lines[i]) + 1
    assert any(w.startswith(f"line {header}: ") and "truncated" in w for w in map(str, ctx.warnings))


def test_unreadable_numbers_are_skipped_with_their_line_number() -> None:
    text = (FIX / (MARIADB + "G-TS-5x1s.txt")).read_text()
    bad = text.replace("History list length 18", "History list length 1B").replace(
        "Pages read 170, created 1637, written 1839", "Pages read 170, created 16x7, written 1839"
    )
    blocks, ctx = parse_bytes(innodb_status, bad.encode())
    got = metric_series(blocks)
    assert np.isnan(got["history_list_length"][1][1]) and got["history_list_length"][1][0] == 15
    assert np.isnan(got["pages_written/s"][1][1:3]).all()
    n1 = text.split("\n").index("History list length 18") + 1
    assert any(w.startswith(f"line {n1}: unreadable number") for w in map(str, ctx.warnings))
    assert sum("unreadable number" in w for w in map(str, ctx.warnings)) == 2


def test_garbage_and_binary_never_raise() -> None:
    clean = (FIX / (MARIADB + "G-TS-5x1s.txt")).read_bytes()
    lines = clean.split(b"\n")
    second = [i for i, x in enumerate(lines) if x.startswith(b"TS ")][1]
    blob = random.Random(0).randbytes(20000)
    hostile = b"\n".join([*lines[:second], b"garbage here 1 2 3", blob, b"\x00" * 300, *lines[second:]])
    blocks, ctx = parse_bytes(innodb_status, hostile)
    got, want = metric_series(blocks), metric_series(parse_bytes(innodb_status, clean)[0])
    for k in want:  # the garbage sits between two statuses: no value moves
        assert same(got[k][1], want[k][1]), k
    assert any(w.startswith(f"line {second + 1}: not part of an InnoDB status") for w in map(str, ctx.warnings))
    for raw in (blob, b"", b"\x00" * 5000, os.urandom(100000), clean[: len(clean) // 2], clean.replace(b"\n", b"\r\n")):
        parse_bytes(innodb_status, raw)
    _, ctx = parse_bytes(innodb_status, blob)
    assert any("no InnoDB status" in w for w in map(str, ctx.warnings))


def test_binary_inside_a_status_is_reported_once() -> None:
    text = PT_STALK[0].read_bytes()
    bad = text.replace(b"Ibuf: size 1,", b"\x00\x00\xff\xfe junk\nIbuf: size 1,")
    blocks, ctx = parse_bytes(innodb_status, bad)
    assert metric_series(blocks)["history_list_length"][1][0] == 5198
    assert sum("binary" in w for w in map(str, ctx.warnings)) == 1


def test_random_damage_never_raises() -> None:
    rng = random.Random(7)
    for path in FILES:
        lines = path.read_bytes().split(b"\n")
        for _ in range(15):
            damaged = list(lines)
            for _ in range(rng.randint(1, 8)):
                i = rng.randrange(max(len(damaged), 1))
                op = rng.random()
                if op < 0.3:
                    damaged.insert(i, rng.randbytes(rng.randint(1, 200)))
                elif op < 0.5 and damaged:
                    del damaged[i]
                elif op < 0.7 and damaged:
                    damaged[i] = damaged[i][: rng.randint(0, len(damaged[i]))]
                else:
                    damaged.insert(i, rng.choice(lines))
            blocks, _ = parse_bytes(innodb_status, b"\n".join(damaged))
            for b in blocks:
                assert all(len(v) == len(b.t) for v in b.values.values())


def test_several_statuses_after_one_marker() -> None:
    raw = b"TS 1795317900.5 2026-11-22 03:25:00\n" + (FIX / (MARIADB + "bare-3x2s.txt")).read_bytes()
    blocks, ctx = parse_bytes(innodb_status, raw)
    t = metric_series(blocks)["checkpoint_age"][0]
    assert list(t) == [1795317900.5, *(h for h, _ in raw_statuses(raw.decode())[1:])]
    assert sum("another InnoDB status after the marker" in w for w in map(str, ctx.warnings)) == 2


def test_variants_are_recorded() -> None:
    _, ctx = parse_bytes(innodb_status, (FIX / "innodb_status_5.0_twopart-lsn.txt").read_bytes())
    assert "two-part LSN (MySQL 5.0)" in ctx.variant and "YYMMDD header (MySQL <= 5.6)" in ctx.variant
    _, ctx = parse_bytes(innodb_status, (FIX / "innodb_status_8.0.32-percona_G.txt").read_bytes())
    assert "8.0.30+ LOG section" in ctx.variant and "\\G" in ctx.variant
    _, ctx = parse_bytes(innodb_status, (FIX / (MARIADB + "bare.txt")).read_bytes())
    assert "MariaDB (dirty pages percent line)" in ctx.variant and "bare text" in ctx.variant


def test_probe_with_a_raw_clock_gives_naive_header_seconds() -> None:
    from benchlens.importers._read import chunks
    from benchlens.importers._types import RawClock

    ctx = Context(RawClock())
    with open(PT_STALK[0], "rb") as f:
        blocks = list(innodb_status.parse(chunks(f), ctx))
    assert blocks[0].t[0] == datetime(2018, 3, 5, 13, 24, 56, tzinfo=UTC).timestamp()
