"""vmstat under the locales procps translates its names line into (procps-ng 4.0.2's catalogues):
ko_KR (스왑 가용 버퍼 캐시, and 입 출 for both si/so and bi/bo), zh_CN (交换 空闲 缓冲 缓存), pl_PL
(`dz bl swap wolna ... uż sy be io sk`), sv_SE (`k b växl fritt ... an sy ia vä`), es_ES, pt_BR,
ro_RO, uk_UA, ka_GE. Such a capture was "not a known format" (ko_KR, zh_CN, pl_PL, sv_SE) or kept
translated names (`búf`, `inativ`, `sin`, `кеш` ...). Real captures, side by side with a C one
(tests/fixtures/MANIFEST.md)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pytest

from benchlens import importers
from tests.conftest import FIXTURES, head_of, parse_series

VM = FIXTURES / "vmstat"
TRANSLATED = sorted(
    p for p in VM.glob("vmstat_4.0.2_*_[at]-[tw].txt") if "_C_" not in p.name and "_en_US_" not in p.name
)


def reference(path: Path) -> Path:
    """The C capture of the same options."""
    return VM / f"vmstat_4.0.2_C_{path.stem.rsplit('_', 1)[1]}.txt"


def naive(path: Path, names: list[str]) -> dict[str, tuple[list[float], list[float]]]:
    """Rows read by position under the C capture's names; the since-boot row skipped."""
    out: dict[str, tuple[list[float], list[float]]] = {}
    rows = [w for line in path.read_text().splitlines() if (w := line.split()) and w[0].isdigit()]
    for w in rows[1:]:
        t = datetime.strptime(f"{w[-2]} {w[-1]}", "%Y-%m-%d %H:%M:%S").replace(tzinfo=UTC).timestamp()
        for name, value in zip(names, w[:-2], strict=True):
            out.setdefault(name, ([], []))[0].append(t)
            out[name][1].append(float(value))
    return out


@pytest.mark.parametrize("path", TRANSLATED, ids=[p.name for p in TRANSLATED])
def test_translated_names_read_as_c_names(path: Path) -> None:
    vmstat = importers.by_name("vmstat")
    assert importers.detect(head_of(path)) is vmstat
    names = next(w for line in reference(path).read_text().splitlines() if (w := line.split())[:1] == ["r"])[:-1]
    got, ctx = parse_series(vmstat, path.read_bytes())
    assert {m for m, _ in got} == set(names), ctx.variant
    assert not [w for w in ctx.warnings if w.kind in ("column", "unreadable")], ctx.warnings
    assert ctx.meta.zone_abbrev == "UTC"
    for name, (t, v) in naive(path, names).items():
        assert got[name, ""][0].tolist() == t and got[name, ""][1].tolist() == v, name


def test_korean_in_and_out_are_told_apart_by_position() -> None:
    """ko_KR prints `입 출 입 출` for si so bi bo: the same label, two columns."""
    path = VM / "vmstat_4.0.2_ko_KR_t-w.txt"
    got, _ = parse_series(importers.by_name("vmstat"), path.read_bytes())
    rows = [w for line in path.read_text().splitlines() if (w := line.split()) and w[0].isdigit()][1:]
    for j, name in ((6, "si"), (7, "so"), (8, "bi"), (9, "bo")):
        assert np.array_equal(got[name, ""][1], [float(w[j]) for w in rows]), name
