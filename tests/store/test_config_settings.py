"""A run's configuration (issue 14) stored with its sources and read back on both backends (a file
and the MariaDB server): the settings of two real recorded runs that differ by
innodb_flush_log_at_trx_commit, and the diff that names that setting first."""

from __future__ import annotations

from pathlib import Path

from benchlens.app.analysis.config import config_diff, run_settings
from benchlens.app.ingest import import_path
from benchlens.app.rundata import LibraryRunData

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"


def test_settings_round_trip_and_the_changed_setting_comes_first(lib) -> None:
    a = import_path(lib, RUNS / "config_trx_commit_1").id
    b = import_path(lib, RUNS / "config_trx_commit_2").id
    formats = {s.path: s.format for s in lib.sources(a)}
    assert formats["my.cnf"] == formats["variables.txt"] == formats["benchlens-run.json"] == "config"
    data = LibraryRunData(lib)
    sa = run_settings(data, a)
    flush = sa[("server", "innodb_flush_log_at_trx_commit")]
    assert (flush.value, flush.origin, flush.explicit) == ("1", "SHOW VARIABLES line 198", True)
    assert sa[("benchmark", "sysbench threads")].value == "2"
    assert sa[("include", "!include /tmp/bl_config/extra.cnf")].origin == "option file line 17"
    assert sa[("tool", "benchmark")].value == "sysbench 1.0.20"
    diff = config_diff(data, a, b)
    assert diff.changed[0].label() == "innodb_flush_log_at_trx_commit 1 → 2"
    # my.cnf spells the pool 64M in one run and 67108864 in the other: no change
    assert all(d.name != "innodb_buffer_pool_size" for d in [*diff.changed, *diff.only])
