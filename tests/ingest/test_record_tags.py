"""`benchlens record --tag KEY=VALUE`: the tags go into benchlens-run.json and the import makes
them the run's tags."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from benchlens.app.cli import main
from benchlens.app.ingest import import_path
from benchlens.app.store import Library
from tests.conftest import cli_error
from tests.ingest.test_record import BENCH


def test_record_tags_reach_the_library(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "night-1"
    argv = ["record", str(folder), "--tag", "commit=abc123", "--tag", "build=7", "--tag", "empty="]
    assert main([*argv, "--", sys.executable, "-c", BENCH]) == 0
    recorded = json.loads((folder / "benchlens-run.json").read_text())
    assert recorded["tags"] == {"commit": "abc123", "build": "7"}
    with Library(tmp_path / "lib.sqlite") as lib:
        rid = import_path(lib, folder).id
        assert lib.tags(rid) == {rid: {"build": "7", "commit": "abc123"}}


def test_a_tag_that_is_not_key_value_is_refused_before_recording(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "night-2"
    said = cli_error(capsys, "record", str(folder), "--tag", "nokey", "--", sys.executable, "-c", BENCH)
    assert "KEY=VALUE" in said and not folder.exists()
