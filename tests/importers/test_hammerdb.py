"""HammerDB: the transaction counter log and the TEST RESULT lines (tests/fixtures/hammerdb: real
captures and ones hand-written in HammerDB's printed layouts, MANIFEST there) against goldens and a
naive reading."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from benchlens import importers
from benchlens.importers import hammerdb
from benchlens.importers._types import Timing
from tests import golden
from tests.conftest import FIXTURES, fixture_files, head_of, parse_series, sample_files

FILES = fixture_files("hammerdb")


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_fixture_matches_golden(path: Path) -> None:
    assert golden.check(hammerdb, path)["series"]


def test_counter_lines_are_tpm_and_tps_at_their_times() -> None:
    path = FIXTURES / "hammerdb" / "hammerdb_4.x_C_tcount-timestamps-postgresql-handwritten.txt"
    rows = [line.split(" tpm @ ") for line in path.read_text().splitlines() if " tpm @ " in line]
    s, ctx = parse_series(hammerdb, path.read_bytes())
    want_t = [datetime.strptime(d.replace("UTC ", ""), "%a %b %d %H:%M:%S %Y").timestamp() for _, d in rows]
    assert s[("tpm", "")][0].tolist() == pytest.approx(want_t, abs=86400)  # naive: the machine's zone aside
    assert s[("tpm", "")][1].tolist() == [float(n.split()[0]) for n, _ in rows]
    assert s[("tps", "")][1].tolist() == [float(n.split()[0]) / 60 for n, _ in rows]
    assert ctx.meta.zone_abbrev == "UTC" and ctx.units["tps"] == "1/s" and ctx.units["tpm"] == "1/min"


def test_untimed_counter_log_is_placed_by_index() -> None:
    path = FIXTURES / "hammerdb" / "hammerdb_4.x_C_tcount-no-timestamps-sqlserver-handwritten.txt"
    s, ctx = parse_series(hammerdb, path.read_bytes())
    assert ctx.meta.timing is Timing.INDEX and s[("tpm", "")][1][2] == 88930.0


def test_results_in_either_order_are_one_point_per_run() -> None:
    path = FIXTURES / "hammerdb" / "hammerdb_3.x_C_cli-step-load-tpm-first-handwritten.txt"
    text = path.read_text()
    s, _ = parse_series(hammerdb, path.read_bytes())
    assert s[("tpm", "")][1].tolist() == [float(x) for x in re.findall(r"achieved (\d+) MySQL TPM", text)]
    assert s[("nopm", "")][1].tolist() == [float(x) for x in re.findall(r"at (\d+) NOPM", text)]
    assert s[("thds", "")][1].tolist() == [1, 2, 4, 8]
    path = FIXTURES / "hammerdb" / "hammerdb_4.x_C_cli-result-timestamps-nopm-first-handwritten.txt"
    s, ctx = parse_series(hammerdb, path.read_bytes())
    assert s[("nopm", "")][1].tolist() == [42332.0] and s[("tpm", "")][1].tolist() == [97427.0]
    assert ctx.meta.timing is Timing.WALL and s[("thds", "")][1].tolist() == [10.0]


def test_every_file_is_claimed_by_hammerdb_only() -> None:
    for path in FILES:
        assert importers.detect(head_of(path)) is hammerdb, path.name
    for fmt in (f.name for f in importers.FORMATS if f.name != "hammerdb"):
        for path in fixture_files(fmt) + sample_files(fmt):
            assert hammerdb.sniff(head_of(path)) == 0.0, path.name


# ---- real captures (MANIFEST there: PerfKitBenchmarker's test data, a published 100-user console,
# a v3 hammerdb.log step load), each value checked against a naive reading of its lines ----------

REAL = sorted(p for p in FILES if "handwritten" not in p.name)
XTPROF = FIXTURES / "hammerdb" / "hammerdb_4.x_C_xtprof-postgresql-64vu-summary.txt"
ZERO_TPM = FIXTURES / "hammerdb" / "hammerdb_4.x_C_result-zero-tpm-postgresql-compatible.txt"
RUN_LOGS = [p for p in REAL if "tcount" not in p.name and p not in (XTPROF, ZERO_TPM)]


def test_real_counter_log_is_every_line_at_its_second() -> None:
    path = FIXTURES / "hammerdb" / "hammerdb_4.3_C_tcount-timestamps-1s-postgresql.txt"
    rows = [line.split(" PostgreSQL tpm @ ") for line in path.read_text().splitlines() if " tpm @ " in line]
    s, ctx = parse_series(hammerdb, path.read_bytes())
    want_t = [datetime.strptime(d, "%a %b %d %H:%M:%S UTC %Y").replace(tzinfo=UTC).timestamp() for _, d in rows]
    assert s[("tpm", "")][0].tolist() == want_t  # 1 s apart but for the refresh HammerDB skipped (22:45:13)
    assert s[("tpm", "")][1].tolist() == [float(n) for n, _ in rows]
    assert s[("tps", "")][1].tolist() == [float(n) / 60 for n, _ in rows]
    assert ctx.meta.timing is Timing.WALL and ctx.meta.zone_abbrev == "UTC" and not ctx.warnings
    assert len(rows) == 99 and np.diff(want_t).max() == 2.0


def test_a_broken_line_of_a_real_counter_log_still_warns() -> None:
    path = FIXTURES / "hammerdb" / "hammerdb_4.3_C_tcount-timestamps-1s-postgresql.txt"
    raw = path.read_bytes().replace(b"324540 PostgreSQL tpm @ Thu Jun 30 22:43:41 UTC 2022", b"324540 PostgreSQL tp")
    s, ctx = parse_series(hammerdb, raw)
    assert len(s[("tpm", "")][1]) == 98 and [w.line for w in ctx.warnings] == [4]


def _naive_results(text: str) -> list[tuple[float, float, float]]:
    """(users, TPM, NOPM) of each TEST RESULT line, in the order HammerDB printed them: v4+
    `N NOPM from M <db> TPM`, v3 `M <db> TPM at N NOPM`; users from the line before that says so."""
    out, users = [], np.nan
    for line in text.splitlines():
        if line.endswith(" Active Virtual Users configured"):
            users = float(line.split(":")[-1].split()[0])
        elif "System achieved " in line:
            words = line.split("System achieved ")[1].split()
            nopm, tpm = (words[0], words[3]) if words[1] == "NOPM" else (words[-2], words[0])
            out.append((users, float(tpm), float(nopm)))
    return out


@pytest.mark.parametrize("path", RUN_LOGS, ids=[p.name for p in RUN_LOGS])
def test_real_run_logs_give_one_point_per_result_and_no_warnings(path: Path) -> None:
    want = _naive_results(path.read_text())
    s, ctx = parse_series(hammerdb, path.read_bytes())
    assert [tuple(row) for row in zip(*(s[(m, "")][1] for m in ("thds", "tpm", "nopm")), strict=True)] == want
    assert s[("tps", "")][1].tolist() == [tpm / 60 for _, tpm, _ in want]
    assert ctx.meta.timing is Timing.INDEX and s[("tpm", "")][0].tolist() == list(range(len(want)))
    # `4 VU TEST`, `101 Virtual Users Created with Monitor VU`: console lines, not counter lines gone wrong
    assert not ctx.warnings, ctx.warnings


@pytest.mark.parametrize("path", RUN_LOGS, ids=[p.name for p in RUN_LOGS])
def test_a_run_log_is_hammerdbs_before_its_first_result(path: Path) -> None:
    """A 100-user console holds ~70 KB before its TEST RESULT: more than the detector's head."""
    lines = path.read_text().splitlines(keepends=True)
    head = "".join(lines[: next(k for k, line in enumerate(lines) if "TEST RESULT" in line)])
    assert importers.detect(head) is hammerdb
    s, ctx = parse_series(hammerdb, head.encode())
    assert not s and any("TEST RESULT" in str(w) for w in ctx.warnings)


def test_zero_tpm_beside_new_orders_is_unknown_not_zero() -> None:
    """Issue 22: `System achieved 9 NOPM from 0 PostgreSQL TPM` (a PostgreSQL-compatible server whose
    transaction counter HammerDB could not read): 9 new orders a minute with 0 transactions is
    impossible. TPM (and tps) are unknown, with a warning, and NOPM stays."""
    s, ctx = parse_series(hammerdb, ZERO_TPM.read_bytes())
    assert ("tpm", "") not in s and ("tps", "") not in s  # NaN only: no series
    assert s[("nopm", "")][1].tolist() == [9.0]
    assert [str(w) for w in ctx.warnings] == [
        "line 1: 0 TPM with 9 NOPM: HammerDB could not read the server's transaction counter; TPM unknown"
    ]
    s, ctx = parse_series(hammerdb, b"Vuser 1:TEST RESULT : System achieved 0 NOPM from 0 MariaDB TPM\n")
    assert s[("tpm", "")][1].tolist() == [0.0] and not ctx.warnings  # nothing ran: both zero is a reading
    # v3 prints TPM first (`6960 MySQL TPM at 2397 NOPM`, the layout of the v3 fixtures): the same rule
    s, ctx = parse_series(hammerdb, b"Vuser 1:TEST RESULT : System achieved 0 MySQL TPM at 2397 NOPM\n")
    assert ("tpm", "") not in s and s[("nopm", "")][1].tolist() == [2397.0] and len(ctx.warnings) == 1


def _naive_profile(text: str) -> dict[str, dict[str, float]]:
    """{PROC: {KEY: value}} of the block after `SUMMARY OF`, read with plain string code."""
    out: dict[str, dict[str, float]] = {}
    proc, summary = "", False
    for line in text.splitlines():
        if line.startswith(">>>>> SUMMARY OF"):
            summary = True
        elif line.startswith(">>>>> PROC: ") and summary:
            proc = line.split(": ")[1]
        elif summary and proc and ": " in line:
            for field in line.split("\t"):
                key, value = field.split(": ")
                out.setdefault(proc, {})[key] = value
    return {
        p: {k: float(v.rstrip("ms%")) for k, v in kv.items() if v.endswith(("ms", "%")) or k == "CALLS"}
        for p, kv in out.items()
    }


def test_a_time_profile_report_gives_per_transaction_latency_of_the_run() -> None:
    """Issue 22: a real 4.x `hdbxtprofile.log` (64 virtual users against PostgreSQL) was "not a known
    format". Its run-wide block is read: one point per transaction at the report's time."""
    text = XTPROF.read_text()
    assert importers.detect(head_of(XTPROF)) is hammerdb
    s, ctx = parse_series(hammerdb, XTPROF.read_bytes())
    want = _naive_profile(text)
    assert set(want) == {"NEWORD", "PAYMENT", "DELIVERY", "SLEV", "OSTAT"}
    got: dict[str, dict[str, float]] = {}
    for (metric, proc), (t, v) in s.items():
        assert len(t) == 1 and t[0] == s[("xt_calls", "NEWORD")][0][0]
        got.setdefault(proc, {})[metric] = float(v[0])
    for proc, kv in want.items():
        assert got[proc] == {
            ("xt_calls" if k == "CALLS" else "xt_ratio_pct" if k == "RATIO" else f"xt_{k.lower()}_ms"): v
            for k, v in kv.items()
        }, proc
    assert (
        got["NEWORD"]["xt_p99_ms"] == 191.622 and got["NEWORD"]["xt_calls"] == 1227768.0
    )  # the summary's, not user 2's
    assert ctx.units["xt_p99_ms"] == "ms" and ctx.units["xt_ratio_pct"] == "%" and ctx.units["xt_calls"] == "calls"
    report = datetime(2025, 7, 2, 0, 57, 52, tzinfo=UTC).timestamp()
    assert s[("xt_p50_ms", "OSTAT")][0][0] == report and ctx.meta.zone_abbrev == "UTC" and not ctx.warnings


def test_a_time_profile_report_cut_before_its_summary_says_so() -> None:
    text = XTPROF.read_text()
    cut = text[: text.index(">>>>> SUMMARY OF")]
    s, ctx = parse_series(hammerdb, cut.encode())
    assert not s
    assert [str(w) for w in ctx.warnings] == [
        "HammerDB time profile report without its run-wide block (`SUMMARY OF N ACTIVE VIRTUAL USERS`): "
        "cut short? its per-user blocks are not read"
    ]
