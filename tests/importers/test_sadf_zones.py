"""Timestamps of sysstat's exports that name their zone (tests/fixtures/sar, MANIFEST there): one
data file recorded under TZ=Asia/Shanghai, exported by sadf 12.7.5 as `"tz": "UTC"`, `-T` under
America/New_York (`EST`) and `-t` (the creator's `CST`), beside the same data as sar 12.6.1 text in
Shanghai time. Every export gives the same instants, whatever zone the folder is read in."""

from __future__ import annotations

import io
import shutil
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

import numpy as np
import pytest

from benchlens.app.clock import FolderClock
from benchlens.app.ingest import Options, import_path
from benchlens.app.store import Library
from benchlens.importers import sar
from benchlens.importers._read import chunks
from benchlens.importers._types import Context
from tests.conftest import FIXTURES

SAR = FIXTURES / "sar"
TEXT = SAR / "sar_12.6.1_C_Shanghai-u-q.txt"  # 08:27:46 ... 08:27:48 in Shanghai (UTC+8)
FIRST = datetime(2026, 11, 27, 0, 27, 46, tzinfo=UTC).timestamp()
EST = timezone(timedelta(hours=-5))


def read(path: Path, zone: object) -> tuple[dict[tuple[str, str], tuple[np.ndarray, np.ndarray]], Context]:
    """{(metric, entity): (t, v)} of a capture read on a folder clock in `zone`."""
    ctx = Context(FolderClock(zone, f"{zone} (test)"))  # type: ignore[arg-type]
    blocks = sar.parse(chunks(io.BytesIO(path.read_bytes())), ctx)
    out = {(m, b.entity): (b.t, v) for b in blocks for m, v in b.values.items()}
    return out, ctx


def test_the_text_is_shanghai_time() -> None:
    got, _ = read(TEXT, ZoneInfo("Asia/Shanghai"))
    assert got[("%user", "all")][0].tolist() == [FIRST, FIRST + 1, FIRST + 2]
    assert len(got) == 12


@pytest.mark.parametrize("zone", ["America/New_York", "Asia/Shanghai", "UTC", "Asia/Kolkata"])
def test_tz_utc_stamps_are_utc_in_any_folder_zone(zone: str) -> None:
    """sysstat >= 12.7 writes `"tz": "UTC"` where 12.6 wrote `"utc": 1`: the stamps were read on the
    folder's clock (New York: every sample 5 hours late, silently)."""
    want, _ = read(TEXT, ZoneInfo("Asia/Shanghai"))
    got, ctx = read(SAR / "sadf_12.7.5_C_j-u-q.txt", ZoneInfo(zone))
    assert set(got) == set(want) and "UTC times" in ctx.variant and ctx.meta.zone_abbrev is None
    for key, (t, v) in want.items():
        assert np.array_equal(got[key][0], t), key
        assert np.array_equal(got[key][1], v), key


@pytest.mark.parametrize(
    ("name", "abbrev", "zone"),
    [
        ("sadf_12.7.5_C_j-T-EST-u-q.txt", "EST", EST),  # -T: the zone sadf ran in (`19:27:46`, the day before)
        ("sadf_12.7.5_C_d-T-EST-u-q.txt", "EST", EST),  # the same as `;` rows: `2026-11-26 19:27:46 EST`
        ("sadf_12.7.5_C_j-t-CST-u-q.txt", "CST", ZoneInfo("Asia/Shanghai")),  # -t: the creator's zone
    ],
)
def test_a_named_zone_is_kept_as_the_files_zone(name: str, abbrev: str, zone: object) -> None:
    """A stamp in another zone names it: the name is the file's zone evidence (the folder clock turns
    EST into UTC-5; CST, ambiguous, only with --tz or a machine in CST), and on that clock the times
    are the instants the text shows. `EST` rows of `sadf -d` were refused before."""
    want, _ = read(TEXT, ZoneInfo("Asia/Shanghai"))
    got, ctx = read(SAR / name, zone)
    assert ctx.meta.zone_abbrev == abbrev and not ctx.warnings
    assert f"local times in {abbrev} (-t or -T)" in ctx.variant
    for key, (t, _) in want.items():
        assert np.array_equal(got[key][0], t), key


@pytest.mark.parametrize(
    ("name", "offset"), [("sadf_12.7.5_C_d-T-plus0545-u-q.txt", "+0545"), ("sadf_12.7.5_C_j-T-minus03-u-q.txt", "-03")]
)
def test_a_zone_named_by_its_offset_is_that_offset(name: str, offset: str) -> None:
    """Zones without an abbreviation print their offset (`-T` under Asia/Kathmandu: `06:12:46 +0545`,
    America/Sao_Paulo: `"tz": "-03"`): exact instants on any folder clock, no zone evidence claimed."""
    want, _ = read(TEXT, ZoneInfo("Asia/Shanghai"))
    got, ctx = read(SAR / name, ZoneInfo("Europe/Paris"))
    assert f"times at UTC{offset}" in ctx.variant and ctx.meta.zone_abbrev is None and not ctx.warnings
    for key, (t, v) in want.items():
        assert np.array_equal(got[key][0], t), key
        assert np.array_equal(got[key][1], v), key


def test_import_places_tz_utc_and_est_exports_on_the_same_instants(tmp_path: Path) -> None:
    """Through the folder clock: a `"tz": "UTC"` export in a folder read as Tokyo time, and an `EST`
    one with no zone given (the machine's zone decides nothing: EST names its offset)."""
    firsts = []
    for name, tz in (("sadf_12.7.5_C_j-u-q.txt", "Asia/Tokyo"), ("sadf_12.7.5_C_j-T-EST-u-q.txt", None)):
        folder = tmp_path / name.removesuffix(".txt")
        folder.mkdir()
        shutil.copy(SAR / name, folder / "sadf.json")
        with Library(tmp_path / f"{name}.sqlite") as lib:
            rep = import_path(lib, folder, Options(tz=tz))
            user = next(s for s in lib.series(rep.id) if s.metric == "%user" and s.entity == "all")
            firsts.append(lib.load(user)[0].tolist())
    assert firsts == [[FIRST, FIRST + 1, FIRST + 2]] * 2


def test_two_zones_in_one_file_are_warned() -> None:
    """An export across a daylight-saving change names two zones (`EDT` then `EST`): one clock cannot
    place both, and the file says so."""
    raw = (SAR / "sadf_12.7.5_C_d-T-EST-u-q.txt").read_bytes().replace(b"19:27:46 EST", b"20:27:46 EDT", 1)
    ctx = Context(FolderClock(EST, "EST (test)"))
    list(sar.parse(chunks(io.BytesIO(raw)), ctx))
    assert ctx.meta.zone_abbrev == "EDT"
    assert [w.kind for w in ctx.warnings] == ["time"] and "EDT and in EST" in ctx.warnings[0].text
