"""dstat's text and CSV rows read all at once (importers/_dstat_rows.py) give exactly what reading them one
by one gives: the same series, values, times and warnings, on the real captures and on rows of a
real capture damaged in the ways a cut, edited or foreign file is (a stray word, a `b` suffix, a
bad date, a shifted column, non-ASCII, a value too long, `-` for no value, a repeated header)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchlens.importers import _dstat_reader, _dstat_rows, dstat
from tests.conftest import FIXTURES, parse_bytes

TEXTS = sorted((FIXTURES / "dstat").glob("*.txt")) + sorted((FIXTURES / "dstat").glob("*.csv"))
ROWS = FIXTURES / "dstat" / "dstat_0.7.4_C_t-load-io-proc.txt"


@pytest.fixture(autouse=True)
def _capture_year(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_dstat_reader, "latest_year", lambda month, day: 2026)


def _read(raw: bytes, monkeypatch: pytest.MonkeyPatch, *, at_once: bool) -> tuple[dict[Any, Any], list[str], int]:
    """Series, warnings and how many rows were taken all at once."""
    taken = 0
    real = _dstat_reader.Reader.taken

    def counting(self: _dstat_reader.Reader, *args: object) -> bool:
        nonlocal taken
        ok = real(self, *args)  # type: ignore[arg-type]
        taken += len(args[2].values) if ok else 0  # type: ignore[attr-defined]
        return ok

    with monkeypatch.context() as m:
        m.setattr(_dstat_reader.Reader, "taken", counting)
        if not at_once:
            m.setattr(_dstat_rows, "plan", lambda layout, group_line: None)
            m.setattr(_dstat_rows, "csv_plan", lambda layout: None)
        blocks, ctx = parse_bytes(dstat, raw)
    series = {(metric, b.entity): (b.t, v) for b in blocks for metric, v in b.values.items()}
    return series, [str(w) for w in ctx.warnings], taken


def _same(raw: bytes, monkeypatch: pytest.MonkeyPatch) -> int:
    fast, fast_warnings, taken = _read(raw, monkeypatch, at_once=True)
    slow, slow_warnings, none = _read(raw, monkeypatch, at_once=False)
    assert none == 0
    assert fast.keys() == slow.keys()
    for key, (t, v) in slow.items():
        assert np.array_equal(fast[key][0], t), key
        assert np.array_equal(fast[key][1], v, equal_nan=True), key
    assert fast_warnings == slow_warnings
    return taken


@pytest.mark.parametrize("path", TEXTS, ids=[p.name for p in TEXTS])
def test_real_captures_read_the_same_at_once(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    taken = _same(path.read_bytes(), monkeypatch)
    # read one by one: terminal captures (colours, CRs, dool's box characters) and pcp-dstat's CSV
    # rows that print one empty cell for a group of two (swap without a swap device)
    if not any(x in path.name for x in ("tty-color", "missed-ticks", "pcp-dstat_6.0.3_C_tcmsdn-load-io-proc.csv")):
        assert taken > 0, path.name


DAMAGE = (
    lambda row, rng: row[:40] + "x" + row[41:],  # a stray letter in a value
    lambda row, rng: row.replace("k", "b", 1),  # a --bits value
    lambda row, rng: row.replace("|", " ", 1),  # a separator lost
    lambda row, rng: row[:20] + "-" + row[21:],  # a dash inside a value
    lambda row, rng: row[:3] + "13" + row[5:],  # month 13
    lambda row, rng: "31-02" + row[5:],  # no such day
    lambda row, rng: row + " 42",  # a word past the last plugin
    lambda row, rng: row[:-1],  # one character short
    lambda row, rng: row[:30] + "é" + row[31:],  # not ASCII
    lambda row, rng: row[:16] + "  -" + row[19:],  # no value
    lambda row, rng: row[:15] + "9.9" + row[18:],  # a decimal in a cpu column
    lambda row, rng: row[:15] + "-12" + row[18:],  # a negative value
    lambda row, rng: row[:15] + " .5" + row[18:],  # no digit before the dot
    lambda row, rng: row[:15] + " 5." + row[18:],  # no digit after it
    lambda row, rng: row[:15] + " 5k" + row[18:],  # a suffix in a narrow column
    lambda row, rng: row[:15] + "5 5" + row[18:],  # two words in one column
    lambda row, rng: "",  # a blank line
)


@pytest.mark.parametrize("seed", range(6))
def test_damaged_rows_read_the_same_at_once(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = ROWS.read_text().splitlines()
    header, rows = lines[:2], [x for x in lines[2:] if x[:2].isdigit()]
    rng = random.Random(seed)
    out = list(header)
    for k in range(3000):
        row = rows[k % len(rows)]
        row = f"{(k // 86400) % 28 + 1:02d}-11 {k // 3600 % 24:02d}:{k // 60 % 60:02d}:{k % 60:02d}" + row[14:]
        if rng.random() < 0.05:
            row = rng.choice(DAMAGE)(row, rng)
        if rng.random() < 0.002:
            out += header  # dstat repeats its header
        out.append(row)
    assert _same(("\n".join(out) + "\n").encode(), monkeypatch) > 1500


def test_a_year_turning_reads_the_same_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = ROWS.read_text().splitlines()
    rows = [x for x in lines[2:] if x[:2].isdigit()]
    days = [f"{d:02d}-12" for d in range(29, 32)] + [f"{d:02d}-01" for d in range(1, 4)]
    out = lines[:2] + [f"{day} 10:00:{s:02d}" + rows[s % len(rows)][14:] for day in days for s in range(60)]
    assert _same(("\n".join(out) + "\n").encode(), monkeypatch) > 300


CSV_DAMAGE = (
    lambda row: row.replace(",", ",-,", 1),  # one field too many, a `-`
    lambda row: row.replace(",0,", ",-,", 1),  # no value
    lambda row: row.replace(",0,", ',"0",', 1),  # quoted
    lambda row: row.replace(",0,", ", 0,", 1),  # a space
    lambda row: row.replace(",0,", ",1e3,", 1),  # what float() reads and dstat.py does not
    lambda row: row.replace(",0,", ",inf,", 1),
    lambda row: row.replace(",0,", ",9" + "9" * 400 + ",", 1),  # too big: no value
    lambda row: row.rsplit(",", 1)[0],  # a field short
    lambda row: "31-02" + row[5:],  # no such day
    lambda row: "",  # a blank line
)


@pytest.mark.parametrize("seed", range(4))
def test_damaged_csv_rows_read_the_same_at_once(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = (FIXTURES / "dstat" / "dstat_0.7.4_C_tcdngy-output.csv").read_text().splitlines()
    k = next(i for i, x in enumerate(lines) if x[:2].isdigit())
    head, rows = lines[:k], lines[k:]
    rng = random.Random(seed)
    out = list(head)
    for n in range(3000):
        row = f"23-11 {n // 3600 % 24:02d}:{n // 60 % 60:02d}:{n % 60:02d}" + rows[n % len(rows)][14:]
        if rng.random() < 0.05:
            row = rng.choice(CSV_DAMAGE)(row)
        if rng.random() < 0.002:
            out += head  # dstat appends a new run to an existing file: a new banner
        out.append(row)
    assert _same(("\n".join(out) + "\n").encode(), monkeypatch) > 1500
