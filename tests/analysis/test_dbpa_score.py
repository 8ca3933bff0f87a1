"""bench/drop_quality/dbpa.py scores the DBPA corpus per anomaly type (issue #23's development
data): checked on a few cases so the scorer itself cannot rot (skipped without ../shared)."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest

from benchlens.app.store import Library
from tests.conftest import ROOT

sys.path.insert(0, str(ROOT / "bench" / "drop_quality"))
import dbpa

pytestmark = pytest.mark.skipif(not dbpa.CORPUS.is_dir(), reason="../shared/corpora/dbpa is not here")


def _scored(*cases: str) -> list[dbpa.CaseScore]:
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library(Path(tmp) / "l.sqlite")
        try:
            normal = dbpa._import(lib, dbpa.CORPUS / "normal" / "case-001")
            return [dbpa.score_case(lib, dbpa.CORPUS / c, normal, "normal") for c in cases]
        finally:
            lib.close()


def test_a_small_buffer_pool_is_named_by_diff_first() -> None:
    (row,) = _scored("small_shared_buffer/case-001")
    assert row.setting_first == "innodb_buffer_pool_size" and row.rank == 1 and row.found is None


def test_a_window_case_is_scored_on_its_abnormal_interval() -> None:
    row, normal = _scored("io_saturation/case-001", "normal/case-002")
    assert row.truth == (25.0, 95.0)  # interval_epochs of its ground_truth.json, s after the first sample
    assert row.found is not None and row.classes and normal.truth is None
    lines = {line["anomaly"]: line for line in dbpa.table([row, normal])}
    assert lines["io_saturation"]["cases"] == 1 and "found" in lines["io_saturation"]
    assert lines["normal"]["false_findings"] == normal.false_findings
