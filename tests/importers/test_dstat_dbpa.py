"""The 104 dool captures of the DBPA anomaly benchmark (../shared/corpora/dbpa, MANIFEST.md there):
every case is read as dstat with no flags, on its own clock (the `mysql5 time` column, epochs of
UTC+8) with the first and last sample times of its ground_truth.json, its abnormal window on
sample times, and its `mysql5 settings` as settings that reach the config diff. Skipped when the
corpus is not next to the checkout."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchlens import importers
from benchlens.app.analysis.config import config_diff
from benchlens.app.analysis.run_drops import throughput
from benchlens.app.analysis.server_rate import SERVER_TPS
from benchlens.app.ingest import import_path
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.importers import dstat
from tests.conftest import ROOT, parse_series

CORPUS = ROOT.parent / "shared" / "corpora" / "dbpa" / "mysql_32_128"
CASES = sorted(CORPUS.glob("*/case-*")) if CORPUS.is_dir() else []
pytestmark = pytest.mark.skipif(not CASES, reason="../shared/corpora/dbpa is not here")


def _case(case: Path) -> tuple[dict[str, Any], bytes]:
    return json.loads((case / "ground_truth.json").read_text()), gzip.decompress(
        (case / "run/dool.csv.gz").read_bytes()
    )


def test_the_corpus_is_whole() -> None:
    assert len(CASES) == 8 * 12 + 8  # 12 cases of 8 anomaly types and normal, all 8 small-buffer ones


@pytest.mark.parametrize("case", CASES, ids=[f"{c.parent.name}/{c.name}" for c in CASES])
def test_every_case_reads_on_its_own_clock(case: Path) -> None:
    truth, raw = _case(case)
    assert importers.detect(raw[:65536].decode()) is dstat
    s, ctx = parse_series(dstat, raw)
    t = s[("cpu.usr", "total")][0]
    rows = [line for line in raw.decode().splitlines() if line[:1].isdigit()]
    epochs = [float(r.split(",", 1)[0]) for r in rows]  # `mysql5 time`, the first column
    # dool's first row is its since-boot report: dropped, its time kept as the launch (local time)
    assert ctx.meta.utc_offset == 8 * 3600  # the Date row (CST) against the first epoch
    assert ctx.meta.launch is not None and ctx.meta.launch - ctx.meta.utc_offset == truth["first_sample"]["epoch"]
    assert t.tolist() == epochs[1:] and t[-1] == truth["last_sample"]["epoch"] and len(rows) == truth["rows"]
    assert ctx.meta.interval == 5.0  # `--noupdate 5`
    assert [w.kind for w in ctx.warnings] == ["since_boot"]
    if truth["abnormal"] is not None:  # the abnormal samples are samples (the first unless it is row 0)
        first, last = truth["abnormal"]["sample_epochs"]
        assert last in t and (truth["abnormal"]["rows"][0] == 0 or first in t)
    settings = {x.name: x.value for x in ctx.meta.settings}
    assert float(settings["Innodb_buffer_pool_size"]) == truth["observed"]["innodb_buffer_pool_size"][0]
    assert set(settings) == {
        "Innodb_buffer_pool_size",
        "innodb_buffer_pool_instances",
        "innodb_buffer_pool_chunk_size",
        "max_connections",
    }
    assert not any(m.startswith("mysql5_settings") for m, _ in s)  # settings, not series
    comm = s[("mysql5_all.comm", "")][1]
    if truth["observed"].get("first_row_since_boot"):
        # the dropped row held the server's cumulative commits (millions): none of it is a sample
        assert float(rows[0].split(",")[-2]) > 1e6 and np.nanmax(comm) < 1e5


def test_units_of_the_mysql_plugins() -> None:
    _, raw = _case(CORPUS / "normal" / "case-001")
    _, ctx = parse_series(dstat, raw)
    got = {m: ctx.units[m] for m in ("mysql5_conn.%Con", "mysql5_all.comm", "mysql5_all.ratio", "mysql5_all.size")}
    assert got == {
        "mysql5_conn.%Con": "%",
        "mysql5_all.comm": "1/interval",
        "mysql5_all.ratio": "%",
        "mysql5_all.size": "B",
    }


def _two_runs(lib: Any) -> tuple[int, int]:
    a = import_path(lib, CORPUS / "normal" / "case-001" / "run").id
    b = import_path(lib, CORPUS / "small_shared_buffer" / "case-001" / "run").id
    return a, b


def test_settings_are_stored_with_the_source(lib: Any) -> None:
    a, b = _two_runs(lib)
    for run, pool in ((a, "8589934592"), (b, "268435456")):
        (src,) = lib.sources(run)
        assert src.format == "dstat"
        assert ("variables", "Innodb_buffer_pool_size", pool) in [(x.scope, x.name, x.value) for x in src.meta.settings]


def test_the_buffer_pool_size_is_the_setting_that_differs(lib: Any) -> None:
    """dool's `mysql5 settings` reach the config diff (app/analysis/config.py SETTING_FORMATS)."""
    a, b = _two_runs(lib)
    diff = config_diff(LibraryRunData(lib), a, b)
    assert [d.name for d in diff.changed] == ["innodb_buffer_pool_size"]
    assert diff.changed[0].label() == "innodb_buffer_pool_size 8589934592 \u2192 268435456"


def test_the_servers_throughput_is_its_commits_and_rollbacks_per_second(lib: Any) -> None:
    """No benchmark log in a DBPA case: server:tps is `mysql5 all` comm + roll, counts per 5-s
    interval, divided by the interval (app/analysis/server_rate.py)."""
    run = import_path(lib, CORPUS / "normal" / "case-001" / "run").id
    data = LibraryRunData(lib)
    assert throughput(data, run) == SERVER_TPS
    t, v = data.data(run, SERVER_TPS)
    _, comm = data.data(run, SeriesRef("dstat", "mysql5_all.comm"))
    _, roll = data.data(run, SeriesRef("dstat", "mysql5_all.roll"))
    assert np.allclose(v[1:], (comm + roll)[1:] / np.diff(t))
    assert np.median(np.diff(t)) == 5.0
