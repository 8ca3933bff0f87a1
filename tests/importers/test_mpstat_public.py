"""A public capture of one saturated core (issue #25): PerfKitBenchmarker's mpstat sample, an
`mpstat -o JSON` of a 2-CPU cloud VM (sysstat 12.0's `"cpu": "-1"` for the all-CPU row; provenance
in tests/fixtures/mpstat/MANIFEST.md). No public capture of more CPUs was found (docs/heatmaps.md)."""

from __future__ import annotations

from pathlib import Path

from benchlens.app.figure import default_layout
from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests.conftest import FIXTURES

PKB = FIXTURES / "mpstat" / "mpstat_12.x_pkb_JSON-A_hot-core_excerpt.txt"


def test_perfkitbenchmarkers_sample_is_one_saturated_core_beside_all(tmp_path: Path) -> None:
    with Library(tmp_path / "lib.sqlite") as lib:
        run = import_path(lib, PKB).id
        data = LibraryRunData(lib)
        busy = {c: data.data(run, SeriesRef("mpstat", "%busy", c)) for c in ("all", "0", "1")}
        assert all(b is not None for b in busy.values())  # `-1` is `all`: there is an aggregate
        assert [float(v) for v in busy["0"][1]] == [100.0, 100.0]  # type: ignore[index]
        assert [round(float(v), 2) for v in busy["all"][1]] == [50.02, 50.02]  # type: ignore[index]
        assert max(busy["1"][1]) < 0.05  # type: ignore[index]
        assert data.run(run).cpus == 2 and SeriesRef("mpstat", "%idle", "-1") not in data.available(run)


def test_a_capture_whose_every_series_is_flat_still_opens_on_its_panels(tmp_path: Path) -> None:
    """Both samples are equal in every column: each panel is `flat`, and none was shown (an empty
    window, and `export` said the runs have no series to plot)."""
    with Library(tmp_path / "lib.sqlite") as lib:
        run = import_path(lib, PKB).id
        panels = default_layout(LibraryRunData(lib), [run])
        cpu = next(p for p in panels if p.title.startswith("CPU"))
        assert SeriesRef("mpstat", "%usr", "all") in cpu.refs
