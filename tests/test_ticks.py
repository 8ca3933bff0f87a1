"""app/ticks.py: value labels in human units, ticks whose labels never touch, and a time axis
that speaks the run's scale (issue 12)."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

import pytest

from benchlens.app.ticks import (
    TICK_GAP_EM,
    format_ticks,
    heading,
    log_ticks,
    nice_ticks,
    time_ticks,
    value_ticks,
)

RELATIVE = "relative to run start"


def width(text: str) -> float:
    return 7.0 * len(text)  # a monospace font, 7 px a character


@pytest.mark.parametrize(
    ("values", "unit", "labels"),
    [
        ([0, 1e8, 2e8], "B", ["0 MB", "100 MB", "200 MB"]),  # was 1e+08
        ([0, 1e5, 2e5], "kB/s", ["0 MB/s", "100 MB/s", "200 MB/s"]),
        ([0, 512, 1024], "KiB", ["0 MB", "0.52 MB", "1.05 MB"]),
        ([0, 5000, 10000, 15000], "", ["0", "5k", "10k", "15k"]),
        ([0, 500, 1000, 1500], "1/s", ["0", "500", "1000", "1500"]),
        ([0, 2e6, 4e6], "pages", ["0", "2M", "4M"]),
        ([0, 2.5, 5, 7.5], "ms", ["0 ms", "2.5 ms", "5.0 ms", "7.5 ms"]),
        ([3.2, 3.4, 3.6], "ms", ["3.2 ms", "3.4 ms", "3.6 ms"]),
        ([0, 0.1, 0.2], "ms", ["0 µs", "100 µs", "200 µs"]),
        ([0, 200, 400], "us", ["0 µs", "200 µs", "400 µs"]),
        ([0, 1500, 3000], "ms", ["0 s", "1.5 s", "3.0 s"]),
        ([0, 50, 100], "%", ["0 %", "50 %", "100 %"]),
        ([80, 85, 90], "%", ["80 %", "85 %", "90 %"]),
        ([-10, 0, 10], "", ["-10", "0", "10"]),
    ],
)
def test_values_are_written_in_human_units(values: list[float], unit: str, labels: list[str]) -> None:
    assert format_ticks(values, unit) == labels


def test_a_tick_set_shares_one_prefix_and_round_values() -> None:
    assert format_ticks([0.1 + 0.2, 0.6], "") == ["0.3", "0.6"]
    assert nice_ticks(0, 0.9, 9)[3] == 0.3  # not 0.30000000000000004


@pytest.mark.parametrize("length", [60, 110, 140, 300, 700])
@pytest.mark.parametrize(("lo", "hi"), [(0, 1.9e8), (-3, 97), (1.234, 1.236), (300, 1900)])
def test_value_labels_never_touch(length: float, lo: float, hi: float) -> None:
    line = 14.0
    ticks = value_ticks(lo, hi, length, line, "B")
    assert len(ticks) >= 1 and len({label for _, label in ticks}) == len(ticks)  # every label tells its tick apart
    px = [v / (hi - lo) * length for v, _ in ticks]
    assert all(b - a >= line * (1 + TICK_GAP_EM) - 1e-6 for a, b in itertools.pairwise(px))
    assert all(lo <= v <= hi for v, _ in ticks)
    assert len(ticks) >= min(3, int(length / (line * (1 + TICK_GAP_EM)) / 2.5))  # and not too few


def test_a_log_axis_is_labelled_in_decades_of_the_unit() -> None:
    assert [t for _, t in log_ticks(-3, 0, 300, 14, "s")] == ["1 ms", "10 ms", "100 ms", "1 s"]
    assert len(log_ticks(0, 12, 60, 14, "")) <= 3  # decades thinned to fit


def test_the_unit_is_said_once_next_to_the_title() -> None:
    assert heading("Throughput (tps)", "1/s") == "Throughput (tps)"  # throughput says tps, not 1/s
    assert heading("sysbench:tps", "1/s") == "sysbench:tps"
    assert heading("Disk vda: IOPS", "1/s") == "Disk vda: IOPS"
    assert heading("Disk vda: %util", "%") == "Disk vda: %util"
    assert heading("CPU (%)", "%") == "CPU (%)"
    assert heading("History list length", "") == "History list length"
    assert heading("History list length", "") == "History list length"
    assert heading("Throughput", "1/s", ["tps"]) == "Throughput (tps)"
    assert heading("Waits", "1/s", ["waits"]) == "Waits (/s)"


def test_ticks_that_say_their_unit_leave_it_out_of_the_title() -> None:
    """Issue 12: a latency panel titled "(ms)" had ticks reading `1 s`. Bytes and durations are
    said by the ticks, in the prefix that fits; the title names no unit, a stale one is dropped."""
    assert heading("Checkpoint age", "B") == "Checkpoint age"
    assert heading("iostat:w_await", "us") == "iostat:w_await"
    assert heading("Latency p95 (ms)", "ms") == "Latency p95"  # a view saved before the fix
    assert heading("Top waits (ms/s)", "ms/s") == "Top waits"
    assert heading("Disk vda: await (µs)", "us") == "Disk vda: await"
    assert heading("Writes (kB/s)", "kB/s") == "Writes"
    assert heading("Latency (p95)", "ms") == "Latency (p95)"  # not a unit: kept
    ticks = [t for _, t in value_ticks(0, 1500, 200, 12, "ms")]
    assert ticks[-1].endswith(" s") and ticks[0] == "0 s"  # the values say their unit


def test_minutes_read_in_seconds() -> None:
    ticks, scale = time_ticks(0, 79, 1000, width, False, RELATIVE)
    assert [t for _, t in ticks][:3] == ["0", "5", "10"] and scale.title == f"seconds, {RELATIVE}"


def test_an_hour_reads_in_minutes_and_seconds() -> None:
    ticks, scale = time_ticks(0, 3000, 1000, width, False, RELATIVE)
    assert [t for _, t in ticks][:3] == ["0:00", "5:00", "10:00"] and scale.title == f"time (m:ss), {RELATIVE}"


def test_a_day_reads_in_hours_not_80000_seconds() -> None:
    ticks, scale = time_ticks(0, 86_400, 1200, width, False, RELATIVE)
    labels = [t for _, t in ticks]
    assert labels[0] == "0:00" and labels[-1] == "24:00" and "12:00" in labels
    assert scale.title == f"time (h:mm), {RELATIVE}"
    zoomed, scale = time_ticks(43_200, 43_500, 1200, width, False, RELATIVE)  # zoomed into the day
    assert [t for _, t in zoomed][:2] == ["12:00:00", "12:00:30"] and "h:mm:ss" in scale.title


def test_negative_offsets_keep_their_sign() -> None:
    ticks, _ = time_ticks(-1800, 1800, 1000, width, False, RELATIVE)
    assert [t for _, t in ticks][0] == "-30:00"


@pytest.mark.parametrize("length", [200, 500, 1200, 3000])
@pytest.mark.parametrize(("lo", "hi"), [(0, 79), (0, 3000), (0, 86_400), (0, 7 * 86_400), (0.0, 0.5)])
def test_time_labels_never_overlap(length: float, lo: float, hi: float) -> None:
    ticks, _ = time_ticks(lo, hi, length, width, False, RELATIVE)
    placed = [((v - lo) / (hi - lo) * length, t) for v, t in ticks]
    for (a, ta), (b, tb) in itertools.pairwise(placed):
        assert b - a >= (width(ta) + width(tb)) / 2 + width("0"), (a, ta, b, tb)


@pytest.mark.parametrize(("lo", "absolute"), [(14_343.7, False), (900.2, False), (1.79e9 + 3.2, True)])
def test_a_few_seconds_on_a_clock_never_repeat_a_label(lo: float, absolute: bool) -> None:
    """Zoomed to a 3 s drop at 3:59:04 of a 4-hour run, the axis read 3:59:04 3:59:04 3:59:05 ...
    (ticks every 0.5 s, labels in whole seconds): on a clock, ticks are whole seconds apart."""
    ticks, _ = time_ticks(lo, lo + 5.5, 945, width, absolute, RELATIVE)
    labels = [t for _, t in ticks]
    assert len(labels) >= 3 and len(set(labels)) == len(labels)
    assert all(v == round(v) for v, _ in ticks)


def test_on_the_clock_the_axis_reads_dates_and_times() -> None:
    t0 = datetime(2026, 11, 22, 4, 59, tzinfo=UTC).timestamp()
    ticks, scale = time_ticks(t0, t0 + 600, 1000, width, True, "")
    assert [t for _, t in ticks][:2] == ["04:59", "05:00"] and scale.title == "time (UTC), 2026-11-22"
    ticks, scale = time_ticks(t0, t0 + 2 * 86_400, 1000, width, True, "")
    assert [t for _, t in ticks][0] == "11-22 06:00" and scale.title == "date and time (UTC)"
    ticks, scale = time_ticks(t0, t0 + 30 * 86_400, 1000, width, True, "")
    assert [t for _, t in ticks][0] == "2026-11-23" and scale.title == "date (UTC)"


def test_a_value_in_text_reads_in_the_unit_its_size_calls_for() -> None:
    """Issue 24: "vda writes 0.00583 → 1.81 GB/s", "9.541e+04" in the drops tree."""
    from benchlens.app.analysis.evidence import span
    from benchlens.app.ticks import reading, reading_span

    assert reading(95410) == "95,410" and reading(12.3e6) == "12.3M" and reading(0.333) == "0.333"
    assert reading(5830, "kB/s") == "5.83 MB/s" and reading(2932, "ms") == "2.93 s" and reading(85.4, "%") == "85.4 %"
    assert reading(0.0000123) == "0.000012" and reading(1253, "1/s") == "1,253 /s"
    assert reading_span(5830, 1.81e6, "kB/s") == "5.83 MB/s \u2192 1.81 GB/s"
    assert reading_span(4708, 237648, "kB/s") == "4.71 \u2192 238 MB/s"
    assert span(5830, 1.81e6, "kB/s") == "5.83 MB/s \u2192 1.81 GB/s" and span(0, 0.0000123, "") == "0 \u2192 0.000012"


def test_a_small_gap_between_runs_is_said() -> None:
    """Issue 24: an axis fitted to the values drew a 3 % gap as half the panel's height."""
    from benchlens.app.ticks import gap_note

    assert gap_note([738.669, 722.907]) == "means within 2.13 %"
    assert gap_note([630.0, 134.0]) == "" and gap_note([700.0]) == "" and gap_note([700.0, float("nan")]) == ""
