"""iostat -t under ja_JP, zh_CN and ko_KR prints each report's time as the locale's %x %X:
`2026年11月26日 10時48分54秒`, `2026年11月26日 10时48分54秒`, `2026년 11월 26일 10시 49분 00초` (six words).
Every report was "unreadable timestamp" and the file was placed by its modification time. Real
captures, run side by side (tests/fixtures/mpstat/MANIFEST.md lists the CJK captures)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from benchlens import importers
from tests.conftest import FIXTURES, parse_series

FILES = [FIXTURES / "iostat" / f"iostat_12.6.1_{loc}_x-t.txt" for loc in ("ja_JP", "zh_CN", "ko_KR")]
_DATE = r"(\d{4})(?:年|년 )(\d\d)(?:月|월 )(\d\d)[日일]"
_STAMP = re.compile(rf"^{_DATE} (\d\d)(?:[時时]|시 )(\d\d)(?:分|분 )(\d\d)[秒초]$", re.M)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_reports_are_timed_as_the_text_says(path: Path) -> None:
    series, ctx = parse_series(importers.by_name("iostat"), path.read_bytes())
    assert not [w for w in ctx.warnings if w.kind == "time"], ctx.warnings
    stamps = [datetime(*map(int, m.groups()), tzinfo=UTC).timestamp() for m in _STAMP.finditer(path.read_text())]
    assert len(stamps) == 3
    want = stamps[1:]  # the first report is the average since boot
    assert series and all(t.tolist() == want for t, _ in series.values())
    assert series[("%util", "vda")][0].tolist() == want
