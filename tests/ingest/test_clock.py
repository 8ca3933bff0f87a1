"""One clock per folder: zone evidence from the folder, then --tz, then this machine's zone."""

from __future__ import annotations

import os
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.clock import ClockError, parse_tz, resolve
from benchlens.app.ingest import Options, import_path
from benchlens.app.store import Library
from tests.conftest import FIXTURES


def naive(text: str) -> np.ndarray:
    return np.array([datetime.fromisoformat(text).replace(tzinfo=UTC).timestamp()])


def epoch(text: str) -> float:
    return datetime.fromisoformat(text).timestamp()


@pytest.fixture(params=["UTC", "Asia/Tokyo", "America/Los_Angeles"])
def machine_zone(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    yield request.param
    monkeypatch.undo()
    time.tzset()


def test_iso_offset_in_the_folder_wins(machine_zone: str) -> None:
    warnings: list[str] = []
    clock = resolve([("iostat.log", "offset", 7200.0), ("vmstat.log", "abbrev", "CEST")], "Asia/Tokyo", warnings)
    assert clock.wall(naive("2026-11-22 12:00:00"))[0] == epoch("2026-11-22T10:00:00+00:00")
    assert warnings == []


def test_vmstat_zone_abbreviation_applies_to_the_folder(machine_zone: str) -> None:
    clock = resolve([("vmstat.log", "abbrev", "JST")], None, [])
    assert clock.wall(naive("2026-11-22 09:00:00"))[0] == epoch("2026-11-22T00:00:00+00:00")
    assert "JST" in clock.description


def test_tz_option_then_machine_zone(machine_zone: str) -> None:
    clock = resolve([], "Europe/Paris", [])
    assert clock.wall(naive("2026-07-01 12:00:00"))[0] == epoch("2026-07-01T10:00:00+00:00")  # CEST
    assert clock.wall(naive("2026-12-01 12:00:00"))[0] == epoch("2026-12-01T11:00:00+00:00")  # CET
    local = resolve([], None, [])
    expected = datetime(2026, 11, 22, 12, 0, 0).timestamp()  # naive datetime = machine zone
    assert local.wall(naive("2026-11-22 12:00:00"))[0] == expected
    assert "machine zone" in local.description


def test_a_span_across_a_dst_change_is_converted_per_sample() -> None:
    clock = resolve([], "Europe/Paris", [])
    t = clock.wall(np.concatenate([naive("2026-03-29 01:59:00"), naive("2026-03-29 03:01:00")]))
    assert t[1] - t[0] == 120.0  # 01:59 CET -> 03:01 CEST is two real minutes


def test_ambiguous_abbreviation_warns_and_uses_machine_zone(machine_zone: str) -> None:
    warnings: list[str] = []
    clock = resolve([("vmstat.log", "abbrev", "IST")], None, warnings)
    assert clock.tz is None
    assert warnings and "ambiguous" in warnings[0]


def test_conflicting_offsets_are_reported() -> None:
    warnings: list[str] = []
    resolve([("a", "offset", 0.0), ("b", "offset", 3600.0)], None, warnings)
    assert any("different UTC offsets" in w for w in warnings)


@pytest.mark.parametrize("bad", ["Mars/Olympus", "+25:99x", ""])
def test_bad_tz_is_a_clear_error(bad: str) -> None:
    with pytest.raises(ClockError):
        parse_tz(bad)


def test_untimed_reports_are_placed_from_the_origin() -> None:
    clock = resolve([], "UTC", [])
    clock.origin, clock.interval = 1000.0, 2.0
    assert list(clock.index(np.array([0, 1, 5]))) == [1000.0, 1002.0, 1010.0]


def test_untimed_file_starts_at_the_first_time_of_the_timed_files(tmp_path: Path) -> None:
    """Issue 13 (a pt-mysql-summary folder): an InnoDB status timed by its headers and a status
    snapshot without times. No timed file told a launch, so the untimed one went to its own
    modification time (years away: one run of 3.4 years) with a note saying the folder had no
    times. It starts at the first time the timed file holds."""
    d = tmp_path / "summary"
    d.mkdir()
    shutil.copy(FIXTURES / "innodb_status" / "innodb_status_10.11.19_mariadb_bare-3x2s.txt", d / "innodb-status")
    shutil.copy(
        FIXTURES / "global_status" / "global_status_mariadb-10.11.19_table-loop-uneven-sleeps.txt", d / "status"
    )
    os.utime(d / "status", (1_900_000_000, 1_900_000_000))  # copied years after the capture
    with Library(tmp_path / "lib.sqlite") as lib:
        rep = import_path(lib, d, Options(tz="UTC"))
        firsts = {s.format: [] for s in lib.series(rep.id)}
        for s in lib.series(rep.id):
            firsts[s.format].append(float(lib.load(s)[0][0]))
        status = next(s for s in rep.sources if s.path == "status")
        assert "files without times start at the first time in innodb-status" in status.clock
        assert not any("no times in the folder" in w.text for w in status.warnings)
        uptime = next(s for s in lib.series(rep.id) if s.metric == "Uptime")
        assert float(lib.load(uptime)[0][0]) == min(firsts["innodb_status"])
        run = lib.run(rep.id)
        assert run.end - run.start < 3600
