"""One clock per folder: zone evidence from the folder, then --tz, then this machine's zone."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import numpy as np
import pytest

from benchlens.app.clock import ClockError, parse_tz, resolve


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
