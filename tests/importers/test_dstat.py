"""dstat: real captures (tests/fixtures/dstat, MANIFEST there) against their goldens and against a
naive reading of the raw text and CSV, the text and the CSV of one run agreeing, locales, a
terminal capture (colours, repeated headers), detection, cut files and the 0.7.2 CSV layout."""

from __future__ import annotations

import csv
import re
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from benchlens import importers
from benchlens.importers import _dstat_reader, dstat
from benchlens.importers._types import Timing
from tests import golden
from tests.conftest import FIXTURES, assert_every_cut_is_a_prefix, fixture_files, head_of, parse_series, sample_files

DSTAT = FIXTURES / "dstat"
FILES = sorted(DSTAT.glob("*.txt")) + sorted(DSTAT.glob("*.csv"))
YEAR = 2026  # the captures' year: what dstat's year-less text is read as on the day they were made
BYTES = ("dsk", "net", "memory", "swap", "paging")
POWER = {"": 0, "B": 0, "k": 1, "M": 2, "G": 3}


@pytest.fixture(autouse=True)
def _capture_year(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_dstat_reader, "latest_year", lambda month, day: YEAR)


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_fixture_matches_golden(path: Path) -> None:
    got = golden.check(dstat, path)
    assert got["series"], path.name


def _group(title: str) -> tuple[str, str]:
    """(metric prefix, entity) of a group title, written out by hand."""
    title = title.strip("-").replace("-", " ") if "/" not in title else title.strip("-")
    if title.endswith("cpu usage") or re.fullmatch(r"cpu\d+ usage", title):
        return "cpu", "total" if title.startswith("total") else title[3:].split()[0]
    kind, _, entity = title.partition("/")
    return {"memory usage": "memory", "load avg": "load"}.get(kind, kind), entity


def naive_text(path: Path) -> dict[tuple[str, str], list[float]]:
    """Rows after the first (since boot) split on `|` and `:` between groups; suffixes by hand."""
    lines = [re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", x).rstrip("\r") for x in path.read_text().splitlines()]
    k = next(i for i, x in enumerate(lines) if x.startswith("-"))
    titles, header = lines[k].split(), lines[k + 1]
    timed = "time" in header.split("|")[0]
    groups = [re.split(r"\s+", g.strip()) for g in re.split(r"[|:]", header.split("|", 1)[1] if timed else header)]
    titles = titles[1:] if timed else titles
    out: dict[tuple[str, str], list[float]] = {}
    rows = [x for x in lines[k + 2 :] if x[:2].strip().isdigit()][1:]
    for row in rows:
        parts = re.split(r"[|:]", row[15:] if timed else row)
        for title, nicks, part in zip(titles, groups, parts, strict=True):
            prefix, entity = _group(title)
            for nick, word in zip(nicks, part.split(), strict=True):
                m = re.fullmatch(r"([\d.]+)([BkMG]?)", word)
                assert m, word
                base = 1024 if prefix in BYTES else 1000
                out.setdefault((f"{prefix}.{nick}", entity), []).append(float(m[1]) * base ** POWER[m[2]])
    return out


# dstat 0.7.4's captures (pcp-dstat's and dool's: tests/importers/test_dstat_today.py)
TEXTS = [p for p in FILES if p.suffix == ".txt" and "epoch" not in p.name and p.name.startswith("dstat_")]


@pytest.mark.parametrize("path", TEXTS, ids=[p.name for p in TEXTS])
def test_every_text_value_is_what_the_text_says(path: Path) -> None:
    got, _ = parse_series(dstat, path.read_bytes())
    want = naive_text(path)
    assert set(got) == set(want)
    for key, values in want.items():
        assert got[key][1].tolist() == values, key


CSVS = [p for p in FILES if p.suffix == ".csv" and p.name.startswith("dstat_")]


@pytest.mark.parametrize("path", CSVS, ids=[p.name for p in CSVS])
def test_every_csv_value_is_the_raw_number(path: Path) -> None:
    rows = list(csv.reader(path.read_text().splitlines()))
    k = next(i for i, r in enumerate(rows) if r and r[0] in ("system", "total cpu usage"))
    groups, nicks, data = rows[k], rows[k + 1], rows[k + 3 :]  # k + 2: since boot
    got, _ = parse_series(dstat, path.read_bytes())
    title = ""
    for j, nick in enumerate(nicks):
        title = groups[j] or title
        if nick in ("time", "epoch"):
            continue
        prefix, entity = _group(nick.split(":")[0] if ":" in nick else title)
        key = (f"{prefix}.{nick.split(':')[-1]}", entity)
        assert got[key][1].tolist() == [float(r[j]) for r in data], key


def test_text_and_csv_of_one_run_agree() -> None:
    """--output writes the same samples the terminal shows: same times, values to the text's rounding."""
    for stem in ("dstat_0.7.4_C_tcdngy-output", "dstat_0.7.4_C_t-C-D-N-lists"):
        text, _ = parse_series(dstat, (DSTAT / f"{stem}.txt").read_bytes())
        table, ctx = parse_series(dstat, (DSTAT / f"{stem}.csv").read_bytes())
        assert set(text) == set(table) and ctx.meta.host == "vm" and ctx.meta.zone_abbrev == "UTC"
        for key, (t, v) in table.items():
            assert np.array_equal(text[key][0], t), key
            scale = np.maximum(np.abs(v), 1.0)
            assert np.all(np.abs(text[key][1] - v) <= 0.06 * scale + 0.5), key  # 4 digits + suffix


def test_times_epoch_and_untimed() -> None:
    s, ctx = parse_series(dstat, (DSTAT / "dstat_0.7.4_C_tcmsdn-epoch.txt").read_bytes())
    epochs = [float(x.split("|")[-1]) for x in (DSTAT / "dstat_0.7.4_C_tcmsdn-epoch.txt").read_text().splitlines()[3:]]
    assert s[("cpu.usr", "total")][0].tolist() == epochs and ctx.meta.launch is not None
    assert s[("memory.free", "")][1][0] == 20.7 * 1024**3 and ctx.units["memory.free"] == "B"
    text = (DSTAT / "dstat_0.7.4_C_tcdngy-output.txt").read_text().splitlines()
    s, _ = parse_series(dstat, "\n".join(text).encode() + b"\n")
    first = datetime(YEAR, 11, 23, *map(int, text[3][6:14].split(":")), tzinfo=UTC).timestamp()
    assert s[("cpu.usr", "total")][0][0] == first
    s, ctx = parse_series(dstat, (DSTAT / "dstat_0.7.4_C_cdngy-no-time-output.csv").read_bytes())
    assert ctx.meta.timing is Timing.INDEX and ctx.meta.interval == 1.0
    assert s[("dsk.read", "total")][0].tolist() == list(range(1, 8))  # the folder clock's origin is 0 here


def test_locales_print_alike_and_a_terminal_capture_reads() -> None:
    for loc in ("de_DE", "fr_FR"):
        s, ctx = parse_series(dstat, (DSTAT / f"dstat_0.7.4_{loc}_tcdngy-load-io.txt").read_bytes())
        assert 0 < s[("load.1m", "")][1][0] < 100 and ctx.units["io.read"] == "1/s"
    s, ctx = parse_series(dstat, (DSTAT / "dstat_0.7.4_C_tcdn-tty-color-repeated-header.txt").read_bytes())
    assert len(s[("cpu.usr", "total")][0]) == 13  # 14 rows, the since-boot one dropped, across two headers
    assert [w.line for w in ctx.warnings if w.line] == [21]  # script(1)'s closing line only


def test_every_capture_is_claimed_by_dstat_only() -> None:
    for path in FILES:
        assert importers.detect(head_of(path)) is dstat, path.name
    for fmt in (f.name for f in importers.FORMATS if f.name != "dstat"):
        for path in fixture_files(fmt) + sample_files(fmt):
            assert dstat.sniff(head_of(path)) == 0.0, path.name


def test_a_cut_capture_reads_a_prefix() -> None:
    assert_every_cut_is_a_prefix(dstat, (DSTAT / "dstat_0.7.4_C_t-C-D-N-lists.txt").read_bytes())
    assert_every_cut_is_a_prefix(dstat, (DSTAT / "dstat_0.7.4_C_t-C-D-N-lists.csv").read_bytes())


# dstat 0.7.2's CSV (an empty row after the banner; numbers as `%s` of a float), as published in a
# public blog post on dstat (excerpt of `dstat -tsp --socket --fs --output /tmp/ds.csv`, CST)
CSV_072 = b""""Dstat 0.7.2 CSV output"
"Author:","Dag Wieers <dag@wieers.com>",,,,"URL:","http://dag.wieers.com/home-made/dstat/"
"Host:","kube-master-1",,,,"User:","root"
"Cmdline:","dstat -tsp --socket --fs --output /tmp/ds.csv",,,,"Date:","03 Dec 2020 14:10:38 CST"

"system","swap",,"procs",,,"sockets",,,,,"filesystem",
"time","used","free","run","blk","new","tot","tcp","udp","raw","frg","files","inodes"
03-12 14:10:38,0.0,0.0,0.000,0.0,7.314,2015.0,777.0,6.0,0.0,0.0,7168.0,81918.0
03-12 14:10:39,0.0,0.0,3.0,0.0,3.0,2019.0,806.0,6.0,0.0,0.0,7168.0,81921.0
03-12 14:10:40,0.0,0.0,11.0,0.0,4.0,2019.0,789.0,6.0,0.0,0.0,7168.0,81923.0
"""


def test_dstat_0_7_2_csv() -> None:
    assert importers.detect(CSV_072.decode()) is dstat
    s, ctx = parse_series(dstat, CSV_072)
    assert ctx.meta.zone_abbrev == "CST" and ctx.meta.host == "kube-master-1" and ctx.meta.interval is None
    assert s[("procs.run", "")][1].tolist() == [3.0, 11.0] and s[("sockets.tcp", "")][1].tolist() == [806.0, 789.0]
    assert s[("procs.run", "")][0][0] == datetime(2020, 12, 3, 14, 10, 39, tzinfo=UTC).timestamp()  # naive, zone later
