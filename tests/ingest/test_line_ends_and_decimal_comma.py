"""The same capture saved differently imports the same (PRODUCT.md "What bad input gets"): CRLF line
ends and a UTF-8 BOM change nothing; decimal-comma captures (de_DE, fr_FR) are never read as
thousands, a comma copy of a dot capture gives the same numbers, and a row in the other decimal mark
is a warning, never a mis-scaled value."""

from __future__ import annotations

import codecs
import re
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchlens.app.ingest import FolderError, import_path
from benchlens.app.store import Library
from tests.bad_input import FORMATS, RUN, UTC, clean, import_one, insert_line, line_numbers
from tests.conftest import FIXTURES, assert_same_series, invented, make_folder, run_series

# ---- 1. line ends and byte order mark ------------------------------------------------------------

VARIANTS = {
    "crlf": lambda b: b.replace(b"\n", b"\r\n"),
    "bom": lambda b: codecs.BOM_UTF8 + b,
    "bom_crlf": lambda b: codecs.BOM_UTF8 + b.replace(b"\n", b"\r\n"),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("fmt", FORMATS)
def test_crlf_and_bom_give_the_same_series(
    lib: Library, tmp_path: Path, reference: Any, fmt: str, variant: str
) -> None:
    """A capture saved with Windows line ends and/or a UTF-8 BOM imports exactly like the original."""
    rep = import_one(lib, tmp_path, "v", fmt, VARIANTS[variant](clean(fmt)))
    assert not any("line" in str(w) for w in rep.sources[0].warnings), rep.sources[0].warnings
    assert_same_series(run_series(lib, rep.id), reference(fmt))


def test_whole_folder_with_crlf_and_bom_gives_the_same_run(lib: Library, tmp_path: Path) -> None:
    """The folder's clock (zone read from vmstat's header) survives CRLF + BOM too."""
    files = {f"{fmt}.log": VARIANTS["bom_crlf"](clean(fmt)) for fmt in FORMATS}
    rep = import_path(lib, make_folder(tmp_path, "dos", files))
    plain = import_path(lib, shutil.copytree(RUN, tmp_path / "plain"))
    assert lib.run(rep.id).tz == lib.run(plain.id).tz
    assert_same_series(run_series(lib, rep.id), run_series(lib, plain.id))


# ---- 2. decimal comma ----------------------------------------------------------------------------

COMMA_CAPTURES = sorted(
    p
    for fmt in ("iostat", "mpstat")
    for p in (FIXTURES / fmt).glob("*.txt")
    if ("de_DE" in p.name or "fr_FR" in p.name) and "JSON" not in p.name
)


@pytest.mark.parametrize("path", COMMA_CAPTURES, ids=lambda p: p.name)
def test_decimal_comma_capture_is_never_read_as_thousands(lib: Library, path: Path) -> None:
    """de_DE / fr_FR captures: every percentage stays within 0..100 (a comma read as a thousands
    separator would give 5 000 for '5,00'). `--human` captures give nothing, so they are refused."""
    if "human" in path.name:
        with pytest.raises(FolderError, match=r"looks like iostat but no series .*--human"):
            import_path(lib, path, UTC)
        return
    rep = import_path(lib, path, UTC)
    percents = [s for s in lib.series(rep.id) if s.unit == "%"]
    for s in percents:
        v = lib.load(s)[1]
        assert np.nanmax(v, initial=0) < 101, (s.metric, s.entity, np.nanmax(v))
        assert np.nanmin(v, initial=0) >= 0
    assert percents


@pytest.mark.parametrize("fmt", ["iostat", "mpstat"])
def test_comma_copy_of_a_dot_capture_gives_the_same_values(
    lib: Library, tmp_path: Path, reference: Any, fmt: str
) -> None:
    """The C capture rewritten with decimal commas imports to exactly the same numbers."""
    data = clean(fmt)
    first_nl = data.index(b"\n")
    comma = data[:first_nl] + re.sub(rb"(?<=\d)\.(?=\d)", b",", data[first_nl:])
    rep = import_one(lib, tmp_path, "comma", fmt, comma)
    assert "decimal comma" in rep.sources[0].variant
    assert_same_series(run_series(lib, rep.id), reference(fmt))


def test_dot_line_inside_a_comma_file_is_a_warning(lib: Library, tmp_path: Path) -> None:
    """A C-locale row pasted into a de_DE capture is reported and not read."""
    data = (FIXTURES / "runs" / "locales_de_DE" / "iostat.log").read_bytes()
    ref = import_one(lib, tmp_path, "clean_de", "iostat", data)
    row = next(line for line in data.split(b"\n") if line.startswith(b"vda"))
    rep = import_one(lib, tmp_path, "bad", "iostat", insert_line(data, 9, row.replace(b",", b".")))
    assert 10 in line_numbers(rep.sources[0].warnings)
    assert_same_series(run_series(lib, rep.id), run_series(lib, ref.id))


def test_comma_file_with_a_dot_heavy_head_is_not_mis_scaled(lib: Library, tmp_path: Path) -> None:
    """A de_DE capture preceded by a long line of dot decimals (so the head looks C-locale): its
    comma values may be refused, never read with a wrong scale."""
    data = (FIXTURES / "runs" / "locales_de_DE" / "iostat.log").read_bytes()
    ref = import_one(lib, tmp_path, "clean_de", "iostat", data)
    try:
        rep = import_one(lib, tmp_path, "bad", "iostat", insert_line(data, 1, b" ".join([b"1.5"] * 2000)))
    except FolderError as e:  # every value refused: then the file is, with the reason
        assert "looks like iostat but no series could be read from it: line 6: not an iostat line" in str(e)
        return
    got, want = run_series(lib, rep.id), run_series(lib, ref.id)
    assert invented(got, want) == []
