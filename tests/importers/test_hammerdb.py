"""HammerDB: the transaction counter log and the TEST RESULT lines (tests/fixtures/hammerdb,
hand-written in HammerDB's printed layouts: MANIFEST there) against goldens and a naive reading."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path

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
