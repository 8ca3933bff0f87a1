"""The issue's acceptance points on real run folders captured here (tests/fixtures/runs)."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pytest

from benchlens.app.store import Library
from tests import naive
from tests.conftest import FIXTURES, cli_json, run_series

RUNS = FIXTURES / "runs"
LOCALES = ("locales_C", "locales_en_US", "locales_de_DE", "locales_fr_FR", "locales_ISO")


@pytest.fixture
def utc_elsewhere(monkeypatch: pytest.MonkeyPatch):
    """Run in a zone far from UTC: the folders carry their own zone evidence."""
    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_import_lists_three_sources_and_dump_gives_the_tools_values(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], utc_elsewhere: None
) -> None:
    db = str(tmp_path / "lib.sqlite")
    out = cli_json(capsys, "import", str(RUNS / "c_basic"), "--db", db, "--json")
    run = out["runs"][0]
    assert {(s["path"], s["format"]) for s in run["sources"]} == {
        ("vmstat.log", "vmstat"),
        ("iostat.log", "iostat"),
        ("mpstat.log", "mpstat"),
    }
    expected = {}
    expected.update(naive.vmstat_t(RUNS / "c_basic" / "vmstat.log"))
    expected.update(naive.iostat_xt(RUNS / "c_basic" / "iostat.log"))
    expected.update(naive.mpstat_p_all(RUNS / "c_basic" / "mpstat.log"))
    listed = cli_json(capsys, "series", "c_basic", "--db", db, "--json")
    assert {(s["source"], s["metric"], s["entity"]) for s in listed} == set(expected)
    for (source, metric, entity), points in expected.items():
        args = ["dump", "c_basic", "--source", source, "--metric", metric, "--entity", entity, "--db", db, "--json"]
        got = cli_json(capsys, *args)
        assert got["t"] == [p[0] for p in points], (source, metric, entity)
        assert got["v"] == [p[1] for p in points], (source, metric, entity)


def series_of(lib: Library, run: str) -> dict[tuple[str, str, str], tuple[np.ndarray, np.ndarray]]:
    return run_series(lib, lib.run(run).id)


def test_same_capture_under_every_locale_gives_the_same_series(lib: Library, utc_elsewhere: None) -> None:
    from benchlens.app.ingest import import_path

    results = {}
    for name in LOCALES:
        import_path(lib, RUNS / name)
        results[name] = series_of(lib, name)
    reference = results["locales_C"]
    assert len(reference) > 50
    for name, series in results.items():
        assert set(series) == set(reference), name
        for key, (t, v) in series.items():
            assert np.array_equal(t, reference[key][0]), (name, key)
            assert np.array_equal(v, reference[key][1], equal_nan=True), (name, key)


def test_files_without_times_are_placed_from_the_timed_file(lib: Library) -> None:
    from benchlens.app.ingest import import_path

    rep = import_path(lib, RUNS / "notimes", __import__("benchlens.app.ingest").app.ingest.Options(tz="UTC"))
    by = {s.path: s for s in rep.sources}
    assert "file times" in by["mpstat.log"].clock
    for untimed in ("vmstat.log", "iostat.log"):
        assert "launch" in by[untimed].clock
        assert any("no times in the file" in w.text for w in by[untimed].warnings)
    series = series_of(lib, "notimes")
    mp_t = series[("mpstat", "%usr", "all")][0]
    vm_t = series[("vmstat", "us", "")][0]
    io_t = series[("iostat", "w/s", "vda")][0]
    # the three monitors were started together: sample k of each lands within a second of the others
    n = min(len(mp_t), len(vm_t), len(io_t))
    assert n >= 5
    assert np.abs(vm_t[:n] - mp_t[:n]).max() <= 1.0
    assert np.abs(io_t[:n] - mp_t[:n]).max() <= 1.0
    assert np.all(np.diff(vm_t) == 1.0)


def test_pt_stalk_files_start_at_their_names_and_merge_into_one_series(lib: Library, tmp_path: Path) -> None:
    """pt-stalk writes one vmstat file per collection, without -t: each starts at its name's time."""
    from benchlens.app.ingest import Options, import_path

    folder = tmp_path / "pt-stalk"
    folder.mkdir()
    raw = (FIXTURES / "vmstat" / "vmstat_4.0.2_C_plain.txt").read_bytes()
    (folder / "2018_03_05_13_24_55-vmstat").write_bytes(raw)
    (folder / "2018_03_05_13_29_55-vmstat").write_bytes(raw)
    rep = import_path(lib, folder, Options(tz="UTC"))
    assert all("pt-stalk name" in s.clock for s in rep.sources)
    (us,) = [s for s in lib.series(rep.id) if s.metric == "us"]
    t, _v = lib.load(us)
    start = 1520256295.0  # 2018-03-05 13:24:55 UTC
    assert list(t - start) == [1.0, 2.0, 3.0, 301.0, 302.0, 303.0]
    assert us.n == 6 and len(us.ids) == 2


@pytest.mark.skipif(not (FIXTURES / "innodb_status").is_dir(), reason="no innodb_status fixtures")
def test_a_pt_stalk_folder_of_innodb_status_snapshots_gives_rates(lib: Library, tmp_path: Path) -> None:
    """Three real pt-stalk files, one snapshot each, 5 minutes apart: one source, rates between them."""
    from benchlens.app.ingest import Options, import_path

    folder = tmp_path / "pt-stalk"
    folder.mkdir()
    for src in sorted((FIXTURES / "innodb_status").glob("*pt-stalk-*.txt")):
        hhmmss = src.stem.rsplit("pt-stalk-", 1)[1]  # the collection's time, as pt-stalk named it
        (folder / f"2018_03_05_{hhmmss}-innodbstatus1").write_bytes(src.read_bytes())
    names = sorted(p.name for p in folder.iterdir())
    assert len(names) == 3, names
    rep = import_path(lib, folder, Options(tz="UTC"))
    (src,) = rep.sources
    assert src.format == "innodb_status" and "(+2 pt-stalk files)" in src.path
    series = {s.metric: s for s in lib.series(rep.id)}
    t, _age = lib.load(series["checkpoint_age"])
    assert len(t) == 3 and np.all(np.diff(t) > 200)
    rt, rate = lib.load(series["log_bytes/s"])
    assert len(rt) == 2 and np.all(rate > 0)
