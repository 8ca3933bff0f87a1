"""The `config` format (issue 14): option files, SHOW GLOBAL VARIABLES in every client shape and
benchlens-run.json read into settings. Each fixture has a golden (`<fixture>.json`: variant, warnings,
settings; BENCHLENS_REGEN=1 rewrites them), and the settings are checked against naive readings of
the raw text here."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from benchlens import importers
from benchlens.importers import config
from tests.conftest import parse_bytes

FIX = Path(__file__).resolve().parents[1] / "fixtures"
CONFIG = FIX / "config"
VARIABLES = CONFIG / "config_mariadb-10.11.19_variables"
RUN_1 = FIX / "runs" / "config_trx_commit_1"


def read(path: Path) -> tuple[list[list[object]], list[str], list[str]]:
    blocks, ctx = parse_bytes(config, path.read_bytes())
    assert blocks == []  # settings, never series
    return [s.to_json() for s in ctx.meta.settings], ctx.variant, [str(w) for w in ctx.warnings]


@pytest.mark.parametrize("path", sorted(CONFIG.glob("*.txt")), ids=lambda p: p.name)
def test_fixture_matches_golden(path: Path) -> None:
    settings, variant, warnings = read(path)
    got = {"variant": variant, "warnings": warnings, "settings": settings}
    golden = path.with_name(path.name + ".json")
    if os.environ.get("BENCHLENS_REGEN"):
        golden.write_text(json.dumps(got, indent=0) + "\n")
    assert got == json.loads(golden.read_text())


@pytest.mark.parametrize("path", [*sorted(CONFIG.glob("*.txt")), *(RUN_1 / n for n in ("my.cnf", "variables.txt"))])
def test_every_fixture_is_detected_as_config(path: Path) -> None:
    assert importers.detect(path.read_text()[:65536]) is config


def test_benchlens_run_json_is_config_although_its_commands_name_other_formats() -> None:
    head = (RUN_1 / "benchlens-run.json").read_text()
    assert importers.detect(head) is config  # not a tie with innodb_mutex / perfschema


def test_show_global_status_is_not_config() -> None:
    status = (FIX / "runs" / "recorded_mariadb_oltp" / "global_status.log").read_text()[:65536]
    assert importers.detect(status) is not config


def naive_batch(path: Path) -> dict[str, str]:
    rows = [line.split("\t") for line in path.read_text().splitlines()]
    return {r[0]: r[1] for r in rows if len(r) == 2 and r[0] != "Variable_name"}


def test_every_shape_of_show_variables_gives_the_same_settings() -> None:
    """The four shapes were taken from one server one after the other: the same rows, read naively
    from the -B TSV. The table shape cannot hold ft_boolean_syntax (its value has a `|`): warned."""
    want = naive_batch(Path(f"{VARIABLES}_batch.txt"))
    assert len(want) > 600 and want["innodb_flush_log_at_trx_commit"] == "2"
    for shape in ("batch", "batch-N", "vertical", "table"):
        settings, _, warnings = read(Path(f"{VARIABLES}_{shape}.txt"))
        got = {s[1]: s[2] for s in settings}
        assert all(s[0] == "variables" for s in settings)
        if shape == "table":
            assert want.pop("ft_boolean_syntax") == '+ -><()~*:""&|'
            assert len(warnings) == 1 and "3 cells where the table has 2 columns" in warnings[0]
        assert got == want, shape


def test_snapshots_keep_the_last_and_warn_what_set_global_changed() -> None:
    settings, _, warnings = read(Path(f"{VARIABLES}_snapshots-set-global.txt"))
    got = {s[1]: s[2] for s in settings}
    assert got["innodb_flush_log_at_trx_commit"] == "0" and got["max_connections"] == "80"
    assert any("innodb_flush_log_at_trx_commit 2 -> 0" in w and "max_connections 50 -> 80" in w for w in warnings)


def naive_options(path: Path) -> list[list[object]]:
    out: list[list[object]] = []
    section = ""
    for no, line in enumerate(path.read_text().splitlines(), 1):
        line = line.strip()
        if line.startswith("["):
            section = line.strip("[]")
        elif line.startswith("!include"):
            word, _, where = line.partition(" ")
            out.append(["include", word, where.strip(), no])
        elif line and not line.startswith(("#", ";")):
            name, eq, value = line.partition("=")
            value = value.split(" #")[0].strip().strip('"') if eq else "ON"
            out.append([section, name.strip(), value, no])
    return out


@pytest.mark.parametrize("path", sorted(CONFIG.glob("config_*cnf*.txt")), ids=lambda p: p.name)
def test_option_files_against_a_naive_reading(path: Path) -> None:
    assert read(path)[0] == naive_options(path)


def test_includes_are_shown_not_followed() -> None:
    settings, _, _ = read(CONFIG / "config_debian12_mariadb.cnf.txt")
    assert ["include", "!includedir", "/etc/mysql/mariadb.conf.d/", 29] in settings
    assert all(s[0] in ("include", "client-server") for s in settings)  # nothing read from /etc/mysql/...


def test_benchlens_run_json_commands_tools_and_the_benchmark_options() -> None:
    settings, variant, _ = read(RUN_1 / "benchlens-run.json")
    recorded = json.loads((RUN_1 / "benchlens-run.json").read_text())
    assert variant == ["benchlens-run.json"]
    assert {s[1]: s[2] for s in settings if s[0] == "command"} == recorded["commands"]
    assert {s[1]: s[2] for s in settings if s[0] == "tool"} == recorded["tools"]
    bench = {s[1]: s[2] for s in settings if s[0] == "benchmark"}
    assert bench == {
        "sysbench test": "oltp_write_only",
        "sysbench tables": "2",
        "sysbench table-size": "10000",
        "sysbench threads": "2",
        "sysbench time": "8",
        "sysbench report-interval": "1",
    }


def test_tpcc_start_options() -> None:
    got = config.benchmark_options("./tpcc_start -h127.0.0.1 -d tpcc -u root -w 10 -c 32 -r 60 -l 600 -i 1")
    assert got == [
        ("tpcc warehouses", "10"),
        ("tpcc connections", "32"),
        ("tpcc rampup", "60"),
        ("tpcc measure", "600"),
        ("tpcc report-interval", "1"),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        '{"format": "benchlens-run", "commands": [1, 2], "tools": "x"}',
        '{"format": "benchlens-run", "commands": {"a": "sysbench \\"unbalanced run"}}',
        "[mysqld]\n\x00\x01garbage\n",
    ],
)
def test_bad_input_is_warned_never_raised(text: str) -> None:
    settings, _, warnings = read_text(text)
    assert warnings or settings


def read_text(text: str) -> tuple[list[list[object]], list[str], list[str]]:
    _, ctx = parse_bytes(config, text.encode())
    return [s.to_json() for s in ctx.meta.settings], ctx.variant, [str(w) for w in ctx.warnings]


def test_passwords_never_reach_the_settings() -> None:
    settings, _, _ = read_text("[client]\nuser = bench\npassword = s3cr3t\n[mysqld]\nport = 3306\n")
    assert ["client", "password", "***", 3] in settings and "s3cr3t" not in str(settings)
    for cmd, hidden in (
        ("sysbench oltp_read_only --mysql-password=s3cr3t --threads=2 run", "--mysql-password=***"),
        ("mysql -uroot -ps3cr3t -e 'SHOW GLOBAL STATUS'", "-p***"),
        ("./tpcc_start -h127.0.0.1 -P3306 -d tpcc -u root -p s3cr3t -w 10", "-p ***"),
    ):
        assert config.hide_secrets(cmd) == cmd.replace("s3cr3t", "***").replace("-p***", hidden)
        assert "s3cr3t" not in config.hide_secrets(cmd) and hidden in config.hide_secrets(cmd)
    assert config.hide_secrets("iostat -p ALL -x 1") == "iostat -p ALL -x 1"


def test_a_run_record_without_a_final_newline_is_read_whole() -> None:
    """A benchlens-run.json written by hand or by another tool may end in `}` with no newline;
    the reader keeps a JSON document's last line (its parser refuses a cut one), where a text
    capture's unterminated last line is left out."""
    raw = (RUN_1 / "benchlens-run.json").read_text().rstrip("\n")
    assert read_text(raw)[0] == read(RUN_1 / "benchlens-run.json")[0] != []
    cut = raw[: len(raw) // 2]
    settings, _, warnings = read_text(cut)
    assert settings == [] and any("not valid JSON" in w or "JSON" in w for w in warnings)
