"""`vmstat -s` in a loop (`while :; do date; vmstat -s; sleep 1; done`): real captures
(tests/fixtures/vmstat/MANIFEST.md). Such a file was "not a known format"; now the memory lines are
gauges and the counters since boot per-second rates, checked against a naive reading of the text;
a summary with no time to place it at is refused in words that name it."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from benchlens import importers
from benchlens.importers import _vmstat_s, vmstat
from tests.conftest import FIXTURES, fixture_files, head_of, parse_series, sample_files

VM = FIXTURES / "vmstat"
LOOPS = [VM / "vmstat_4.0.2_C_s-loop-date.txt", VM / "vmstat_4.0.2_C_s-loop-date-Is.txt"]
REFUSED = sorted((VM / "refused").glob("*.txt"))


def naive(path: Path) -> dict[str, tuple[list[float], list[float]]]:
    """{label: (times, values)} of every `<number> [K ]<label>` line after a `date` / `date -Is` line."""
    out: dict[str, tuple[list[float], list[float]]] = {}
    t = None
    for line in path.read_text().splitlines():
        w = line.split()
        if not w[0].isdigit():
            stamp = line.replace(" UTC ", " ")  # `Fri Nov 27 00:22:46 UTC 2026`, or ISO 8601
            fmt = "%a %b %d %H:%M:%S %Y"
            try:
                t = datetime.strptime(stamp, fmt).replace(tzinfo=UTC).timestamp()
            except ValueError:
                t = datetime.fromisoformat(line).timestamp()
            continue
        label = " ".join(w[2:] if w[1] == "K" else w[1:])
        out.setdefault(label, ([], []))[0].append(t)
        out[label][1].append(float(w[0]))
    return out


@pytest.mark.parametrize("path", LOOPS, ids=[p.name for p in LOOPS])
def test_a_loop_reads_gauges_and_rates(path: Path) -> None:
    assert importers.detect(head_of(path)) is vmstat
    got, ctx = parse_series(vmstat, path.read_bytes())
    assert not ctx.warnings and ctx.variant == ["summary snapshots (-s)"]
    want = naive(path)
    assert len(want) == 28 and len(got) == 27  # `boot time` is no series
    for label, (t, v) in want.items():
        if label in _vmstat_s.GAUGES:
            assert got[label, ""][0].tolist() == t and got[label, ""][1].tolist() == v, label
            assert ctx.units[label] == "kB"
        elif label in _vmstat_s.COUNTERS:
            rate = np.diff(v) / np.diff(t)
            assert got[f"{label}/s", ""][0].tolist() == t[1:] and got[f"{label}/s", ""][1].tolist() == rate.tolist()
        else:
            assert label == "boot time" and len(set(v)) == 1
    assert ctx.units["paged out/s"] == "kB/s" and ctx.units["system cpu ticks/s"] == "ticks/s"
    assert ctx.units["CPU context switches/s"] == "1/s"


def test_the_c_loop_shows_the_load_it_ran_beside() -> None:
    """Captured beside `yes` and a direct-I/O `dd` (MANIFEST): CPUs busy, writes in MB/s."""
    got, _ = parse_series(vmstat, LOOPS[0].read_bytes())
    assert np.all(got["idle cpu ticks/s", ""][1] < 20)  # 2 CPUs: 200 ticks a second when idle
    assert np.all(got["paged out/s", ""][1] > 100_000)


@pytest.mark.parametrize("path", REFUSED, ids=[p.name for p in REFUSED])
def test_a_summary_without_a_time_is_refused_by_name(path: Path) -> None:
    """A single `vmstat -s`, and a de_DE loop (its `date` prints `Fr 27. Nov 00:22:46 UTC 2026`,
    its labels are translated): claimed as vmstat -s and refused in one line saying why."""
    assert importers.detect(head_of(path)) is vmstat
    got, ctx = parse_series(vmstat, path.read_bytes())
    assert not got
    assert [w.kind for w in ctx.warnings] == ["format"]
    assert ctx.warnings[0].text.startswith("vmstat -s summary without a `date` line benchlens reads before it")


def test_a_cut_and_a_reboot() -> None:
    """A loop cut inside its last summary keeps its complete lines, and the lines it lost are gaps
    (the cut line itself is reported by the reader, importers/_read.py); a counter that goes down
    (a reboot between two snapshots) gives no rate there, warned."""
    raw = LOOPS[1].read_bytes()
    got, ctx = parse_series(vmstat, raw[: raw.rindex(b"K free memory")])
    assert not ctx.warnings and got["used memory", ""][1][-1] == 561992  # the last summary's
    assert np.isnan(got["free memory", ""][1][-1]) and np.isnan(got["forks/s", ""][1][-1])
    lines = raw.decode().splitlines(keepends=True)
    last = max(i for i, line in enumerate(lines) if line.endswith(" forks\n"))
    lines[last] = "            1 forks\n"
    got, ctx = parse_series(vmstat, "".join(lines).encode())
    assert np.isnan(got["forks/s", ""][1][-1]) and [w.kind for w in ctx.warnings] == ["counter_reset"]


def test_no_other_capture_looks_like_vmstat_s() -> None:
    others = [f.name for f in importers.FORMATS if f.name != "vmstat"]
    for path in [p for fmt in others for p in fixture_files(fmt) + sample_files(fmt)] + fixture_files("vmstat"):
        if "_s-loop" not in path.name:
            assert not _vmstat_s.looks_like(head_of(path)), path.name
