"""es_ES prints sysstat's dates (strftime %x) as `26/11/26`, day first with a two-digit year, and
uk_UA as `26.11.26`: sar, mpstat and pidstat refused such a capture ("unreadable date in the
banner") and iostat -t read no times. C prints `11/26/26` (month first): a field above 12, or the
decimal comma these locales print, says which. Real captures, side by side (tests/fixtures/*/MANIFEST.md)."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import pytest

from benchlens import importers
from benchlens.importers._times import pick_date_style
from tests.conftest import FIXTURES, parse_series

FILES = [
    FIXTURES / tool / f"{tool}_12.6.1_{loc}_{variant}.txt"
    for tool, variant in (("sar", "u-r-d"), ("iostat", "x-t"), ("mpstat", "P-ALL"), ("pidstat", "u"))
    for loc in ("es_ES", "uk_UA")
]
LAYOUT = {"es_ES": "%d/%m/%y", "uk_UA": "%d.%m.%y"}


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_first_sample_is_on_the_day_the_banner_says(path: Path) -> None:
    tool, loc = path.name.split("_")[0], "_".join(path.name.split("_")[2:4])
    text = path.read_text()
    day = datetime.strptime(text.split("\t")[1].strip(), LAYOUT[loc]).replace(tzinfo=UTC)
    clocks = re.findall(r"^(?:\S+ )?(\d\d):(\d\d):(\d\d)\s", text, re.M)
    series, ctx = parse_series(importers.by_name(tool), path.read_bytes())
    assert series and not [w for w in ctx.warnings if w.kind == "time"], ctx.warnings
    first = min(float(t[0]) for t, _ in series.values())
    h, m, s = (int(x) for x in clocks[1 if tool in ("iostat",) else 0])
    want = day.replace(hour=h, minute=m, second=s).timestamp()
    # the first row (sar, mpstat, pidstat: the header's time is the interval's start; iostat's first
    # report is the average since boot, dropped)
    assert abs(first - want) <= 1, (first, want)


def test_c_stays_month_first() -> None:
    assert pick_date_style(["11/26/26"]) == "MM/DD/YY"
    assert pick_date_style(["11/10/26"]) == "MM/DD/YY"
    assert pick_date_style(["11/10/26"], decimal_comma=True) == "DD/MM/YY"
    assert pick_date_style(["26/11/26"]) == "DD/MM/YY"
    assert pick_date_style(["26.11.26"]) == "DD.MM.YY"
