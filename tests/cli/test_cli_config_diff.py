"""`benchlens diff A B` lists the settings that differ first (issue 14), normalised as MySQL reads
them, on two real recorded runs that differ by innodb_flush_log_at_trx_commit; `--json` has them
under `config`. Without SHOW VARIABLES captures the option files alone name the setting."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from benchlens.app.analysis.config import normalise, option_name
from benchlens.app.cli import main

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"


@pytest.mark.parametrize(
    ("x", "y"),
    [
        ("64M", "67108864"),
        ("65536k", "64M"),
        ("1G", "1073741824"),
        ("ON", "1"),
        ("on", "TRUE"),
        ("OFF", "0"),
        ("10.000000", "10"),
        ("O_DIRECT", "o_direct"),
        ("STRICT_TRANS_TABLES,NO_ENGINE_SUBSTITUTION", "no_engine_substitution, strict_trans_tables"),
        ("/var/lib/mysql/", "/var/lib//mysql"),
    ],
)
def test_spellings_that_are_one_value(x: str, y: str) -> None:
    assert normalise(x) == normalise(y)


@pytest.mark.parametrize(("x", "y"), [("/Data", "/data"), ("1", "2"), ("64M", "64K"), ("O_DIRECT", "fsync")])
def test_values_that_differ(x: str, y: str) -> None:
    assert normalise(x) != normalise(y)


def test_option_names() -> None:
    assert option_name("innodb-buffer-pool-size") == option_name("loose_innodb_buffer_pool_size")


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    capsys.readouterr()
    assert main(list(args)) == 0
    return capsys.readouterr().out


def test_diff_names_the_changed_setting_first(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "lib.sqlite")
    for n in (1, 2):
        cli(capsys, "import", str(RUNS / f"config_trx_commit_{n}"), "--db", db)
    text = cli(capsys, "diff", "config_trx_commit_1", "config_trx_commit_2", "--db", db).splitlines()
    assert text[0].startswith("settings that differ")
    assert text[1].strip() == "innodb_flush_log_at_trx_commit 1 → 2"
    assert not any("innodb_buffer_pool_size" in line for line in text)  # 64M vs 67108864
    out = json.loads(cli(capsys, "diff", "config_trx_commit_1", "config_trx_commit_2", "--json", "--db", db))
    first = out["config"]["changed"][0]
    assert (first["name"], first["a"]["value"], first["b"]["value"]) == ("innodb_flush_log_at_trx_commit", "1", "2")
    assert out["series"]  # the measured differences follow


def test_option_files_alone_name_the_setting(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "lib.sqlite")
    for n in (1, 2):
        folder = tmp_path / f"run{n}"
        shutil.copytree(RUNS / f"config_trx_commit_{n}", folder)
        (folder / "variables.txt").unlink()
        cli(capsys, "import", str(folder), "--db", db)
    out = json.loads(cli(capsys, "diff", "run1", "run2", "--json", "--db", db))["config"]
    assert [d["name"] for d in out["changed"]] == ["innodb_flush_log_at_trx_commit"]
    assert out["changed"][0]["a"]["origin"] == "option file [mysqld] line 12"
    assert out["only_in_one"] == [] and out["variables_only_in_one"] == 0
