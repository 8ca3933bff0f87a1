"""The detector against the recorded drop-quality corpus (bench/drop_quality: real sysbench runs on
MariaDB with disturbances injected at known times, and undisturbed runs). A change to detection or
explanation that loses a true drop, shifts its boundaries, flags noise or stops naming the disturbed
resource fails here, not only in the bench report."""

from __future__ import annotations

import sys

import pytest

from benchlens.app.store import Library
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "bench" / "drop_quality"))

import score

RUNS = sorted(p for p in (ROOT / "bench" / "drop_quality" / "runs").iterdir() if p.is_dir())


@pytest.fixture(scope="module")
def scored(tmp_path_factory: pytest.TempPathFactory) -> dict[str, score.RunScore]:
    lib = Library(tmp_path_factory.mktemp("quality") / "lib.sqlite")
    out = {}
    for folder in RUNS:
        truth = score.read_truth(score.HERE / "truth" / f"{folder.name}.tsv")
        out[folder.name] = score.score_run(lib, folder, truth, "normal", 3.0)
    lib.close()
    return out


def test_the_corpus_has_disturbed_and_quiet_runs() -> None:
    scenarios = {score.read_truth(score.HERE / "truth" / f"{f.name}.tsv").scenario for f in RUNS}
    assert scenarios == {"quiet", *score.EXPECTED}


@pytest.mark.parametrize("run", [f.name for f in RUNS])
def test_exactly_the_injected_disturbance_is_found(scored: dict[str, score.RunScore], run: str) -> None:
    r = scored[run]
    if r.scenario == "quiet":
        assert r.detected == []
    else:
        assert (r.tp, r.fp, r.fn) == (1, 0, 0), r.detected
        assert r.named, f"{score.EXPECTED[r.scenario]} not in the top five: {r.top5}"


def test_resources_of_series() -> None:
    from benchlens.app.model import SeriesRef

    assert score.resource(SeriesRef("iostat", "w_await", "vda")) == "disk"
    assert score.resource(SeriesRef("vmstat", "r")) == "cpu"
    assert score.resource(SeriesRef("vmstat", "bo")) == "disk"
    assert score.resource(SeriesRef("vmstat", "bi")) == "disk reads"
    assert score.resource(SeriesRef("iostat", "%idle")) == "cpu"  # avg-cpu, not a disk
    assert score.resource(SeriesRef("iostat", "%iowait")) == "disk"
    assert score.resource(SeriesRef("global_status", "Innodb_buffer_pool_reads")) == "buffer pool"
    assert score.resource(SeriesRef("global_status", "Threads_running")) == "waits"
    assert score.resource(SeriesRef("global_status", "Questions")) == "server"
