"""Files a run folder holds around its captures (issue 22): each one benchlens does not read is
listed as skipped with one line saying what it is, never "not a known format" when it can be
named and never "matches several formats"; benchlens-run.json, the run's own record, is never a
skipped file, and a record of another version or a broken one is said so, never a traceback."""

from __future__ import annotations

import gzip
import json
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from benchlens.app.ingest import FolderError, import_path
from benchlens.app.interval import script_interval
from benchlens.app.store import Library
from benchlens.app.unread import what
from tests.bad_input import RUN, UTC
from tests.conftest import FIXTURES

UNREAD = FIXTURES / "runs" / "unread_files"
RECORDED = FIXTURES / "runs" / "recorded_mariadb_oltp"

# what each real capture of runs/unread_files is said to be
SAID = {
    "query_digest.json": "JSON of pt-query-digest --output json (top-level keys: classes, global)",
    "fio.json": "JSON of fio --output-format=json (fio-3.33) (top-level keys: fio version, timestamp,",
    "fio_notes.json": "JSON of fio --output-format=json (fio-3.33) (top-level keys: fio version, timestamp,",
    "fio.txt": "fio report (text, fio-3.33)",
    "pkb_samples.json": "JSON array of PerfKitBenchmarker samples (keys of its first item: metadata, metric,",
    "dmesg.txt": "kernel log (dmesg)",
    "mariadb.err": "MySQL/MariaDB error log",
    "top.txt": "top -b output",
    "pt-summary.txt": "pt-summary report (Percona Toolkit)",
    "pt-mysql-summary.txt": "pt-mysql-summary report (Percona Toolkit)",
    # they quote SHOW ENGINE INNODB MUTEX and SELECT EVENT_NAME, COUNT_STAR: were a tie innodb_mutex/perfschema
    "slow.log": "MySQL/MariaDB slow query log",
    "query_digest.txt": "pt-query-digest report",
}


def test_files_beside_the_captures_are_named_in_one_line(lib: Library, tmp_path: Path) -> None:
    d = tmp_path / "run"
    shutil.copytree(RUN, d)
    for p in UNREAD.iterdir():
        shutil.copy(p, d)
    rep = import_path(lib, d, UTC)
    assert sorted(s.path for s in rep.sources) == ["iostat.log", "mpstat.log", "vmstat.log"]
    why = {s["path"]: s["reason"] for s in rep.skipped}
    assert set(why) == set(SAID)
    for name, said in SAID.items():
        assert why[name].startswith(said), (name, why[name])
        assert why[name].endswith("not a format benchlens reads"), why[name]
        assert "\n" not in why[name]


def test_a_script_is_named_and_a_compressed_json_says_so(lib: Library, tmp_path: Path) -> None:
    d = tmp_path / "run"
    shutil.copytree(RUN, d)
    shutil.copy(FIXTURES.parent / "capture" / "unread_files.sh", d / "capture.sh")  # runs no monitor
    shutil.copy(FIXTURES.parent / "capture" / "interval_evidence.sh", d / "monitors.sh")  # iostat -x 2 16 >iostat.log
    (d / "fio.json.gz").write_bytes(gzip.compress((UNREAD / "fio.json").read_bytes()))
    why = {s["path"]: s["reason"] for s in import_path(lib, d, UTC).skipped}
    assert why["capture.sh"] == "shell script: not data, not imported"
    assert why["monitors.sh"] == "shell script: not imported; read for the intervals it gives the monitors"
    assert why["fio.json.gz"].startswith("JSON of fio --output-format=json (fio-3.33)")
    assert why["fio.json.gz"].endswith("(inside gzip data)")


# ---- benchlens-run.json ----------------------------------------------------------------------------


def recorded(tmp_path: Path, edit: dict[str, object] | None = None, text: str | None = None) -> Path:
    """The recorded MariaDB run with its benchlens-run.json edited as an older/newer/broken one."""
    d = shutil.copytree(RECORDED, tmp_path / "recorded")
    rec = d / "benchlens-run.json"
    if edit is not None:
        meta = json.loads(rec.read_text())
        meta.update(edit)
        rec.write_text(json.dumps({k: v for k, v in meta.items() if v is not None}, indent=1) + "\n")
    if text is not None:
        rec.write_text(text)
    return d


def test_a_record_without_commands_is_the_runs_record_not_a_skipped_file(lib: Library, tmp_path: Path) -> None:
    """Before: "looks like config but no series could be read from it: no settings found"."""
    d = recorded(tmp_path, text='{"format": "benchlens-run", "version": 1, "utc_offset": 0}\n')
    rep = import_path(lib, d)
    assert "benchlens-run.json" not in {s["path"] for s in rep.skipped}
    (src,) = [s for s in rep.sources if s.path == "benchlens-run.json"]
    assert src.notes == ["benchlens' run record: used for the zone"]
    assert "no commands or tools recorded" in src.variant
    assert not src.warnings


def test_a_newer_record_with_a_field_of_another_type_is_read_with_warnings(lib: Library, tmp_path: Path) -> None:
    """Before: ValueError from float('2026-11-22T02:41:26Z') (a traceback, nothing imported)."""
    d = recorded(tmp_path, {"version": 2, "bench_start": "2026-11-22T02:41:26Z", "cpu_model": "x"})
    rep = import_path(lib, d)
    assert rep.warnings[:3] == [
        "benchlens-run.json: written as record version 2; this benchlens reads version 1: the fields it knows are used",
        "benchlens-run.json: bench_start is not a number ('2026-11-22T02:41:26Z'): not used",
        "benchlens-run.json: fields this benchlens does not know, ignored: cpu_model",
    ]
    (src,) = [s for s in rep.sources if s.path == "benchlens-run.json"]
    assert src.notes == [
        "benchlens' run record: used for the zone, the benchmark's end, the monitors' commands (their intervals)"
    ]
    assert src.settings > 0


@pytest.mark.parametrize(
    ("cut", "said"),
    [
        (0.5, "benchlens' run record, not valid JSON (line "),
        (None, "benchlens' run record, not valid JSON (line 1 column 29: Extra data"),
    ],
)
def test_a_broken_record_is_skipped_with_what_it_is(lib: Library, tmp_path: Path, cut: float | None, said: str) -> None:
    """Before: "looks like config but no series could be read from it: not valid JSON; ..."."""
    text = (RECORDED / "benchlens-run.json").read_text()
    broken = text[: int(len(text) * cut)] if cut is not None else '{"format": "benchlens-run"} trailing\n'
    rep = import_path(lib, recorded(tmp_path, text=broken))
    why = {s["path"]: s["reason"] for s in rep.skipped}
    assert why["benchlens-run.json"].startswith(said), why["benchlens-run.json"]
    assert why["benchlens-run.json"].endswith("the times, zone and commands it records are not used")


def test_an_option_file_that_sets_nothing_says_so(lib: Library, tmp_path: Path) -> None:
    """Debian's conf.d/mysql.cnf (`[mysql]`) and 60-galera.cnf (all commented out): before,
    "not a known format"."""
    d = shutil.copytree(RUN, tmp_path / "run")
    for name in (
        "config_debian12_mysql-common_conf.d_mysql.cnf.txt",
        "config_debian12_mariadb-10.11_60-galera.cnf.txt",
    ):
        shutil.copy(FIXTURES / "config" / name, d / name.split("_", 3)[-1].replace(".txt", ""))
    why = {s["path"]: s["reason"] for s in import_path(lib, d, UTC).skipped}
    assert why == {
        "conf.d_mysql.cnf": "looks like config but no settings could be read from it: "
        "an option file that sets no option (sections: mysql)",
        "60-galera.cnf": "looks like config but no settings could be read from it: "
        "an option file that sets no option (sections: galera)",
    }


@settings(max_examples=300, deadline=None)
@given(
    text=st.one_of(
        st.text(max_size=400),
        st.sampled_from(sorted(SAID)).flatmap(
            lambda n: st.integers(0, 3000).map(lambda k: (UNREAD / n).read_text()[:k])  # cut anywhere
        ),
    ),
    name=st.sampled_from(["run.sh", "x.json", "notes"]),
)
def test_naming_any_text_never_raises(text: str, name: str) -> None:
    """What a file is, and the interval a script gives, are read from any text (a head cut
    anywhere, unbalanced quotes and brackets) without an exception: one line or nothing."""
    said = what(text, name)
    assert said is None or ("\n" not in said and said.strip())
    for fmt in ("iostat", "vmstat", "mpstat"):
        script_interval([(name, text)], "iostat.log", fmt)


def test_a_record_alone_is_named_in_the_refusal(lib: Library, tmp_path: Path) -> None:
    d = tmp_path / "only"
    d.mkdir()
    shutil.copy(RECORDED / "benchlens-run.json", d)
    shutil.copy(UNREAD / "fio.json", d)
    with pytest.raises(FolderError) as e:
        import_path(lib, d)
    assert "benchlens-run.json: the run's record, and no capture beside it" in str(e.value)
    assert "fio.json: JSON of fio --output-format=json" in str(e.value)


def test_a_record_without_a_version_is_read_as_version_1(lib: Library, tmp_path: Path) -> None:
    rep = import_path(lib, recorded(tmp_path, {"version": None}))
    assert rep.warnings[0] == "benchlens-run.json: no record version: read as version 1, the fields it knows are used"
    assert [s.settings for s in rep.sources if s.path == "benchlens-run.json"] != [0]
