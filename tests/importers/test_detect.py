"""Formats are detected from content only, each fixture as its own format and no other."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchlens import importers
from tests.conftest import FIXTURES, SAMPLES, TABLE_FORMATS, fixture_files, head_of, sample_files


@pytest.mark.parametrize("fmt", TABLE_FORMATS)
def test_every_fixture_is_its_own_format_only(fmt: str) -> None:
    files = fixture_files(fmt) + [p for p in sample_files(fmt) if "BSD" not in p.name]
    assert files, f"no fixtures for {fmt}"
    for path in files:
        scores = importers.scores(head_of(path))
        claimed = {name for name, s in scores.items() if s >= importers.THRESHOLD}
        assert claimed == {fmt}, (path.name, scores)


def test_run_folder_files_detected_by_content_not_name(tmp_path: Path) -> None:
    src = FIXTURES / "runs" / "c_basic"
    for name, fmt in (("vmstat.log", "vmstat"), ("iostat.log", "iostat"), ("mpstat.log", "mpstat")):
        renamed = tmp_path / f"{fmt[::-1]}.out"  # a misleading name
        renamed.write_bytes((src / name).read_bytes())
        detected = importers.detect(head_of(renamed))
        assert detected is not None and detected.name == fmt


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="../shared/samples not present")
def test_innodb_status_samples_are_claimed_by_innodb_status_only() -> None:
    for path in (SAMPLES / "innodb_status").iterdir():
        claimed = {n for n, s in importers.scores(head_of(path)).items() if s >= importers.THRESHOLD}
        assert claimed == {"innodb_status"}, path.name


@pytest.mark.skipif(not SAMPLES.is_dir(), reason="../shared/samples not present")
def test_other_captures_are_not_claimed() -> None:
    # the sar samples are sar's now (tests/importers/test_sar.py)
    others = [p for p in (SAMPLES / "vmstat").iterdir() if "BSD" in p.name]  # BSD layout: refused
    for path in others:
        assert importers.detect(head_of(path)) is None, path.name


def test_tie_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    class Twin:
        name = "twin"

        @staticmethod
        def sniff(head: str) -> float:
            return 0.9

    monkeypatch.setattr(importers, "FORMATS", (*importers.FORMATS, Twin))
    with pytest.raises(importers.AmbiguousFormat):
        importers.detect(head_of(FIXTURES / "runs" / "c_basic" / "vmstat.log"))


def test_json_of_another_tool_is_claimed_by_no_importer() -> None:
    """pt-query-digest's JSON names the queries it saw (`SHOW ENGINE INNODB MUTEX`, `SELECT
    EVENT_NAME, COUNT_STAR ...`): it was refused as "content matches several formats equally:
    innodb_mutex, perfschema"; only the importers that parse JSON score a JSON document."""
    for name in ("query_digest.json", "fio.json"):
        head = head_of(FIXTURES / "runs" / "unread_files" / name)
        assert importers.looks_json(head)
        assert importers.detect(head) is None, name


@pytest.mark.parametrize(
    ("head", "json"),
    [
        ('{"sysstat": {', True),
        ('[\n {"metric": "x"}', True),
        ("[mysqld]\ninnodb_buffer_pool_size = 1G\n", False),
        ("[ 10s ] thds: 8 tps: 1.0\n", False),
        ("[    0.000000] Linux version 6.1\n", False),
    ],
)
def test_what_looks_like_json(head: str, json: bool) -> None:
    assert importers.looks_json(head) is json
