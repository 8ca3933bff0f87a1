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


TOPOLOGY = [MP / f"mpstat_12.6.1_{v}.txt" for v in ("C_T-P-ALL", "de_DE_T-P-ALL", "en_US_T-P-ALL", "C_T", "C_A-T")]


def _naive_topology(path: Path) -> dict[tuple[str, str], list[tuple[float, float]]]:
    """{(metric, cpu): [(epoch, value)]} of the CPU block of a `-T` capture read simply: a CPU's row
    has its CORE SOCK NODE before the values, the `all` row leaves them blank, so the values are
    the row's last fields whatever the row."""
    lines = path.read_text().splitlines()
    date = lines[0].split("\t")[1].strip()
    layout = {8: "%m/%d/%y", 10: "%d.%m.%Y" if "." in date else "%m/%d/%Y"}[len(date)]
    day = datetime.strptime(date, layout).replace(tzinfo=UTC)
    want: dict[tuple[str, str], list[tuple[float, float]]] = {}
    cols: list[str] = []
    for line in lines[1:]:
        w = line.split()
        if not w or w[0].endswith(":"):  # blank, `Average:`, `Durchschn.:`
            continue
        k = 2 if w[1] in ("AM", "PM") else 1
        if not w[k + 1][0].isdigit():  # a header: the CPU block's, or another one (NODE, intr/s ...)
            cols = w[k + 4 :] if w[k] == "CPU" and w[k + 1 : k + 4] == ["CORE", "SOCK", "NODE"] else []
            continue
        if not cols:
            continue
        clock = datetime.strptime(" ".join(w[:k]), "%I:%M:%S %p" if k == 2 else "%H:%M:%S")
        t = day.replace(hour=clock.hour, minute=clock.minute, second=clock.second).timestamp()
        for c, v in zip(cols, w[-len(cols) :], strict=True):
            want.setdefault((c, w[k]), []).append((t, float(v.replace(",", "."))))
    return want


@pytest.mark.parametrize("path", TOPOLOGY, ids=[p.name for p in TOPOLOGY])
def test_topology_columns_are_labels_not_values(path: Path) -> None:
    """`mpstat -T` prints CORE SOCK NODE after the CPU, blank on the `all` row: such a capture was
    "not a known format". Real captures (C, de_DE, en_US side by side, MANIFEST): every CPU row
    read with the values the text gives, the `all` row too; the topology is not a series."""
    mpstat = importers.by_name("mpstat")
    assert importers.detect(head_of(path)) is mpstat
    got, ctx = parse_series(mpstat, path.read_bytes())
    want = _naive_topology(path)
    intr = {k for k in got if k[0] == "intr/s"}  # -A's intr/s block, checked by the goldens
    assert not ctx.warnings and set(got) - intr == set(want) and "topology (-T): CORE SOCK NODE not kept" in ctx.variant
    for key, pairs in want.items():
        wt, wv = np.array(pairs).T
        assert got[key][0].tolist() == wt.tolist() and got[key][1].tolist() == wv.tolist(), key


def test_topology_in_json_is_not_a_metric() -> None:
    """`mpstat -T -o JSON` adds `"core": "", "socket": "", "node": ""` (filled on CPU rows): they were
    read as metrics `%core`, `%socket`, `%node` (NaN on `all`, the core number on the CPUs). The
    same series as the text, from the same keys."""
    import json

    path = MP / "mpstat_12.6.1_C_JSON-T-P-ALL.txt"
    got, ctx = parse_series(importers.by_name("mpstat"), path.read_bytes())
    assert not ctx.warnings
    stats = json.loads(path.read_text())["sysstat"]["hosts"][0]["statistics"]
    want = {
        (f"%{key}", load["cpu"]): [float(s["cpu-load"][i][key]) for s in stats]
        for i, load in enumerate(stats[0]["cpu-load"])
        for key in load
        if key not in ("cpu", "core", "socket", "node")
    }
    assert {k: v.tolist() for k, (_, v) in got.items()} == want
