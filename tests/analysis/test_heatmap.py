"""Heatmap panels without Qt (issue #25): `SOURCE:METRIC:*` specs, the grid both the window and
the exports draw (rows, bins of the highest value, a colour scale that an outlier does not wash
out), and the default layout's heatmap past 8 CPUs or devices."""

from __future__ import annotations

import csv
import io

import numpy as np
import pytest

from benchlens.app.analysis.heatmap import GAP, HEATMAP_FROM, LUT, Row, as_lines, grid, members
from benchlens.app.analysis.layout import Panel, default_panels, parse_panel
from benchlens.app.figure import build, csv_rows
from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests.conftest import FIXTURES


def _cpus(n: int) -> list[SeriesRef]:
    names = ["all", *map(str, range(n))]
    return [SeriesRef("mpstat", m, c) for c in names for m in ("%usr", "%sys", "%iowait", "%idle")]


def test_every_entity_of_a_metric_in_number_order_without_the_aggregate() -> None:
    have = _cpus(12)
    got = members(SeriesRef("mpstat", "%usr", "*"), have)
    assert [r.entity for r in got] == [str(c) for c in range(12)]  # 2 before 10; no `all`
    busy = members(SeriesRef("mpstat", "%busy", "*"), have)  # a made series: every CPU with %idle
    assert busy[0] == SeriesRef("mpstat", "%busy", "0") and len(busy) == 12
    assert members(SeriesRef("mpstat", "%intr", "*"), have) == []  # no %irq / %soft captured
    assert members(SeriesRef("vmstat", "us"), have) == [SeriesRef("vmstat", "us")]
    assert parse_panel("mpstat:%usr:*").refs == [SeriesRef("mpstat", "%usr", "*")]


def test_few_entities_are_lines_many_a_heatmap() -> None:
    panel = Panel("busy", [SeriesRef("mpstat", "%usr", "*")])
    few = as_lines(panel, [_cpus(2)])
    assert few.refs == [SeriesRef("mpstat", "%usr", "0"), SeriesRef("mpstat", "%usr", "1")]
    assert as_lines(panel, [_cpus(HEATMAP_FROM + 1)]) is panel


def test_the_default_layout_has_a_heatmap_past_eight_cpus_or_devices() -> None:
    def heat(have: list[SeriesRef]) -> list[SeriesRef]:
        return [r for p in default_panels(have) for r in p.refs if r.entity == "*"]

    assert heat(_cpus(16)) == [SeriesRef("mpstat", "%busy", "*")]
    assert heat(_cpus(8)) == []
    disks = [SeriesRef("iostat", m, f"sd{chr(97 + d)}") for d in range(20) for m in ("%util", "w/s")]
    assert heat(disks) == [SeriesRef("iostat", "%util", "*")]


def test_bins_keep_their_highest_value_and_a_gap_stays_a_gap() -> None:
    x = np.arange(100.0)
    y = np.full(100, 10.0)
    y[37] = 100.0  # one saturated second
    y[60:70] = np.nan  # no samples
    g = grid([Row(1, "0", x, y), Row(1, "1", x, y / 2)], 0.0, 99.0, 10, unit="%")
    assert g.values.shape == (2, 10) and g.values[0, 3] == 100.0 and g.values[1, 3] == 50.0
    assert np.isnan(g.values[0, 6]) and tuple(g.rgba()[0, 6]) == GAP
    assert tuple(g.rgba()[0, 3]) == tuple(LUT[255]) and g.clamp == 100 and not g.clamped
    # never more bins than samples: a 10-sample row is 10 bins at any width
    assert grid([Row(1, "0", x[:10], y[:10])], 0.0, 9.0, 1600).values.shape == (1, 10)


def test_an_outlier_does_not_wash_the_scale_out_and_the_clamp_is_said() -> None:
    rng = np.random.default_rng(3)
    x = np.arange(1000.0)
    rows = [Row(1, f"sd{chr(97 + d)}", x, rng.uniform(50, 150, 1000)) for d in range(10)]
    rows[4].y[500] = 50_000.0  # one sample of one device
    g = grid(rows, 0.0, 999.0, 200, unit="1/s")
    assert 140 <= g.clamp <= 150 and g.peak == 50_000.0 and g.clamped
    assert g.scale_text() == f"0 \u2013 {g.clamp:.3g} 1/s (p99, max 5e+04)"
    shown = g.rgba()[:, :, :3].astype(float)
    # without the clamp every cell but one would be within 0.3 % of white
    assert (shown.mean(axis=2) < 200).mean() > 0.3


def test_rows_by_load_put_the_busiest_first_per_run() -> None:
    x = np.arange(10.0)
    rows = [Row(r, str(c), x, np.full(10, float(c * (1 if r == 1 else -1) + 50))) for r in (1, 2) for c in range(3)]
    g = grid(rows, 0.0, 9.0, 10, order="load")
    assert g.rows == [(1, "2"), (1, "1"), (1, "0"), (2, "0"), (2, "1"), (2, "2")]
    assert grid(rows, 0.0, 9.0, 10).rows[:3] == [(1, "0"), (1, "1"), (1, "2")]
    assert g.at(4.5, 0) == (1, "2", 52.0) and g.at(4.5, 9) is None and g.at(-1.0, 0) is None


@pytest.fixture(scope="module")
def hog(tmp_path_factory: pytest.TempPathFactory) -> tuple[LibraryRunData, int]:
    lib = Library(tmp_path_factory.mktemp("heat") / "lib.sqlite")
    return LibraryRunData(lib), import_path(lib, FIXTURES / "runs" / "one_hot_core").id


def test_a_star_panel_exports_every_entity_in_the_csv(hog: tuple[LibraryRunData, int]) -> None:
    data, run = hog
    fig = build(data, [run], [parse_panel("mpstat:%busy:*"), parse_panel("mpstat:%soft:*")])
    header = next(csv.reader(io.StringIO("\n".join(",".join(r) for r in csv_rows(fig)))))
    name = data.run(run).name
    assert header[1:] == [f"{name} mpstat:{m}:{c} (%)" for m in ("%busy", "%soft") for c in ("0", "1")]
    assert fig.panels[0].legend() == ["0", "1"]  # two CPUs: lines, each in its own style
