"""mpstat details not covered by the goldens alone."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from benchlens import importers
from tests.conftest import FIXTURES, head_of, parse_series

MP = FIXTURES / "mpstat"


def test_json_cpu_minus_1_is_all() -> None:
    """sysstat 12.0's `mpstat -o JSON` labels the all-CPU row `"cpu": "-1"` (issue 13: it became a
    CPU named -1, so nothing found the `all` row). It is `all`, with the same values."""
    mpstat = importers.by_name("mpstat")
    old = parse_series(mpstat, (MP / "mpstat_12.0_C_JSON-P-ALL_cpu-minus-1_handwritten.txt").read_bytes())[0]
    new = parse_series(mpstat, (MP / "mpstat_12.6.1_C_JSON-P-ALL.txt").read_bytes())[0]
    assert not any(entity == "-1" for _, entity in old)
    assert old.keys() == new.keys()
    for key, (t, v) in new.items():
        assert old[key][0].tolist() == t.tolist() and old[key][1].tolist() == v.tolist(), key
    assert old[("%usr", "all")][1].tolist() == [20.10, 22.45]  # the printed values


CJK = [MP / f"mpstat_12.6.1_{loc}_P-ALL.txt" for loc in ("ja_JP", "ko_KR", "zh_CN")]


@pytest.mark.parametrize("path", CJK, ids=[p.name for p in CJK])
def test_cjk_row_times_are_read(path: Path) -> None:
    """ja_JP and zh_CN print row times as `18時53分08秒` / `18时53分08秒`, ko_KR as `18시 53분 08초`
    (three tokens), the banner's date as `2026年11月23日` / `2026년 11월 23일`: every row is read, with
    the values and times a naive reading of the text gives."""
    mpstat = importers.by_name("mpstat")
    assert importers.detect(head_of(path)) is mpstat
    lines = path.read_text().splitlines()
    y, mo, d = map(int, re.findall(r"\d+", lines[0].split("\t")[1]))
    want: dict[tuple[str, str], list[tuple[float, float]]] = {}
    cols: list[str] = []
    for line in lines[1:]:
        m = re.match(r"(\d\d)\D{1,3}(\d\d)\D{1,3}(\d\d)\S*\s+(\S+)\s+(.*)$", line)
        if not m:
            continue  # blank, or the summary (`平均値:`)
        if m[4] == "CPU":
            cols = m[5].split()
            continue
        t = datetime(y, mo, d, int(m[1]), int(m[2]), int(m[3]), tzinfo=UTC).timestamp()
        for c, v in zip(cols, m[5].split(), strict=True):
            want.setdefault((c, m[4]), []).append((t, float(v)))
    got, ctx = parse_series(mpstat, path.read_bytes())
    assert not ctx.warnings and got.keys() == want.keys() and len(want) == 30
    for key, pairs in want.items():
        wt, wv = np.array(pairs).T
        assert got[key][0].tolist() == wt.tolist() and got[key][1].tolist() == wv.tolist(), key


JSON_CJK = [
    FIXTURES / tool / f"{tool}_12.6.1_{loc}_JSON-{variant}.txt"
    for tool, variant in (("mpstat", "P-ALL"), ("iostat", "x-t"))
    for loc in ("ja_JP", "ko_KR", "zh_CN")
]
_CJK_STAMP = re.compile(
    r"(?:(\d{4})(?:年|년 )(\d\d)(?:月|월 )(\d\d)[日일] )?(\d\d)(?:[時时]|시 )(\d\d)(?:分|분 )(\d\d)[秒초]"
)


@pytest.mark.parametrize("path", JSON_CJK, ids=[p.name for p in JSON_CJK])
def test_json_reports_are_timed_in_cjk_locales(path: Path) -> None:
    """`-o JSON` under ja_JP, ko_KR and zh_CN localises the header's `"date": "2026年11月26日"` and
    each `"timestamp"` (`10時45分40秒`; iostat -t: `2026년 11월 26일 10시 45분 41초`): every report
    is read at the time the text says (it was "unreadable JSON timestamps": mpstat read nothing,
    iostat fell back to report numbers)."""
    fmt = importers.by_name(path.name.split("_")[0])
    series, ctx = parse_series(fmt, path.read_bytes())
    assert not [w for w in ctx.warnings if w.kind == "time"], ctx.warnings
    text = path.read_text()
    (date,) = set(re.findall(r'"date": "(\d{4})(?:年|년 )(\d\d)(?:月|월 )(\d\d)[日일]"', text))
    want = []
    for m in _CJK_STAMP.finditer("\n".join(re.findall(r'"timestamp": "([^"]+)"', text))):
        y, mo, d = (int(x) for x in (m.group(1, 2, 3) if m[1] else date))
        want.append(datetime(y, mo, d, int(m[4]), int(m[5]), int(m[6]), tzinfo=UTC).timestamp())
    if fmt.name == "iostat":
        want = want[1:]  # the first report is the average since boot, dropped
    assert want and all(t.tolist() == want for t, _ in series.values()), (want, next(iter(series.values()))[0])
