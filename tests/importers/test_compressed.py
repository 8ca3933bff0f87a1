"""Compressed captures: gzip, xz, bzip2 (and zstd when a zstd module is importable) are recognised
by their magic bytes, never by their names, and streamed through the same reader as text: the
series are those of the uncompressed capture, the source's hash and the progress count the file's
own bytes. A cut compressed file keeps its complete lines with a warning; corrupt data, a
decompression bomb (ratio and absolute bounds) or a zstd file without a zstd module are refused
with a clear reason, and nothing of such a file reaches the library.

Every compressed file is made here from the real captures in tests/fixtures."""

from __future__ import annotations

import bz2
import functools
import gzip
import hashlib
import io
import lzma
import re
import shutil
import subprocess
import tarfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import benchlens.importers._read as read_mod
from benchlens.app.cli import main
from benchlens.app.ingest import FolderError, Options, import_path
from benchlens.app.store import Library
from benchlens.importers._read import Reading, UnreadableCapture, chunks, read_head
from tests.conftest import FIXTURES, assert_same_series, invented, make_folder, run_series, snapshot

RUN = FIXTURES / "runs" / "c_basic"
UTC = Options(tz="UTC")
pytestmark = pytest.mark.usefixtures("remove_big_files")  # inputs and libraries here are big

try:
    import zstandard
except ImportError:
    zstandard = None


def _zstd(data: bytes) -> bytes:
    assert zstandard is not None
    return zstandard.ZstdCompressor(write_checksum=True).compress(data)


COMPRESS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": lambda d: gzip.compress(d, mtime=0),
    "xz": lzma.compress,
    "bzip2": bz2.compress,
}
if zstandard is not None:
    COMPRESS["zstd"] = _zstd
CODECS = sorted(COMPRESS)

REAL = [
    RUN / "iostat.log",
    RUN / "vmstat.log",
    RUN / "mpstat.log",
    FIXTURES / "iostat" / "iostat_12.6.1_de_DE_x-t.txt",
    FIXTURES / "iostat" / "iostat_12.6.1_C_JSON-x-t.txt",
    FIXTURES / "mpstat" / "mpstat_12.6.1_C_A.txt",
    FIXTURES / "innodb_status" / "innodb_status_10.11.19_mariadb_G-TS-5x1s.txt",
    FIXTURES / "global_status" / "global_status_mariadb-10.11.19_mysqladmin-i1-c4.txt",
]

# ---- helpers ------------------------------------------------------------------------------------


MTIME_NS = 1_795_316_000 * 10**9  # one modification time for every file (files without times are placed by it)
folder = functools.partial(make_folder, mtime_ns=MTIME_NS)


def long_vmstat(rows: int) -> bytes:
    """c_basic's vmstat -t capture extended to `rows` reports one second apart (~100 bytes each)."""
    lines = (RUN / "vmstat.log").read_text().splitlines()
    head, body = lines[:2], lines[2:]
    t0 = np.datetime64("2026-11-22T02:47:13", "s")
    out = list(head)
    for k in range(rows):
        stamp = str(t0 + k).replace("T", " ")
        out.append(body[k % len(body)][: -len(stamp)] + stamp)
    return ("\n".join(out) + "\n").encode()


def reasons(rep: Any) -> dict[str, str]:
    return {s["path"]: s["reason"] for s in rep.skipped}


# ---- the reader ---------------------------------------------------------------------------------


@pytest.mark.parametrize("codec", CODECS)
def test_reader_streams_the_text_and_hashes_the_file(codec: str) -> None:
    """chunks() of the compressed bytes gives exactly the chunks of the text (complete lines,
    over several 4 MiB blocks), while the hash and the byte count are those of the file."""
    text = long_vmstat(90_000)  # ~9 MB: three read blocks
    packed = COMPRESS[codec](text)
    reading = Reading(sha=hashlib.sha256())
    got = list(chunks(io.BytesIO(packed), reading))
    want = list(chunks(io.BytesIO(text)))
    assert b"".join(got) == b"".join(want) == text
    assert all(c.endswith(b"\n") for c in got)
    assert reading.sha.hexdigest() == hashlib.sha256(packed).hexdigest()
    assert reading.done == len(packed)
    assert reading.notes == []
    head, kind = read_head(io.BytesIO(packed), 64 << 10)
    assert (head, kind) == (text[: 64 << 10], codec)


@pytest.mark.parametrize("codec", CODECS)
def test_reader_skips_a_huge_line_inside_compressed_data(codec: str) -> None:
    """A 5 MiB line (longer than a read block) inside the compressed text is skipped with the same
    note as in a text file."""
    text = long_vmstat(50)
    cut = text.index(b"\n", 2000) + 1
    data = text[:cut] + b"7" * (5 << 20) + b"\n" + text[cut:]
    reading = Reading()
    got = b"".join(chunks(io.BytesIO(COMPRESS[codec](data)), reading))
    assert got == text
    assert any("longer than 1 MiB" in n.text for n in reading.notes), reading.notes


# ---- real captures ------------------------------------------------------------------------------


@pytest.mark.parametrize("codec", CODECS)
@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_compressed_capture_imports_like_the_text(lib: Library, tmp_path: Path, path: Path, codec: str) -> None:
    """Each real capture compressed, under the very same file name (no .gz: the content decides):
    same format, variant, warnings and series as the text; the stored hash is the file's."""
    raw = path.read_bytes()
    packed = COMPRESS[codec](raw)
    plain = import_path(lib, folder(tmp_path, "plain", {path.name: raw}), UTC)
    rep = import_path(lib, folder(tmp_path, "packed", {path.name: packed}), UTC)
    assert rep.skipped == [] and len(rep.sources) == 1
    a, b = plain.sources[0], rep.sources[0]
    assert (b.format, b.variant, b.series, b.samples, b.warnings) == (
        a.format,
        a.variant,
        a.series,
        a.samples,
        a.warnings,
    )
    assert b.series > 0
    assert_same_series(run_series(lib, rep.id), run_series(lib, plain.id))
    stored = lib.sources(rep.id)[0]
    assert stored.sha256 == hashlib.sha256(packed).hexdigest()
    assert stored.size == len(packed)


def test_run_folder_with_every_file_compressed_differently(lib: Library, tmp_path: Path) -> None:
    """c_basic with iostat gzipped, vmstat xz'd and mpstat bzip2'd: the folder's clock (zone read
    from vmstat's header) and every series are those of the text folder."""
    files = {
        "iostat.log.gz": COMPRESS["gzip"]((RUN / "iostat.log").read_bytes()),
        "vmstat.log.xz": COMPRESS["xz"]((RUN / "vmstat.log").read_bytes()),
        "mpstat.log.bz2": COMPRESS["bzip2"]((RUN / "mpstat.log").read_bytes()),
    }
    rep = import_path(lib, folder(tmp_path, "packed", files))
    plain = import_path(lib, shutil.copytree(RUN, tmp_path / "plain"))
    assert sorted(s.format for s in rep.sources) == ["iostat", "mpstat", "vmstat"]
    assert re.sub(r"\.(gz|xz|bz2)\b", "", lib.run(rep.id).tz) == lib.run(plain.id).tz
    assert_same_series(run_series(lib, rep.id), run_series(lib, plain.id))


def test_the_name_never_decides(lib: Library, tmp_path: Path) -> None:
    """Text named `.gz` is read as text, gzip data named `.txt` as gzip."""
    raw = (RUN / "vmstat.log").read_bytes()
    d = folder(
        tmp_path, "names", {"vmstat.log.gz": raw, "iostat.txt": COMPRESS["gzip"]((RUN / "iostat.log").read_bytes())}
    )
    rep = import_path(lib, d)
    assert sorted((s.path, s.format) for s in rep.sources) == [("iostat.txt", "iostat"), ("vmstat.log.gz", "vmstat")]
    assert rep.skipped == []


def test_reimporting_a_compressed_folder_is_a_no_op(lib: Library, tmp_path: Path) -> None:
    d = folder(tmp_path, "packed", {"iostat.log": COMPRESS["xz"]((RUN / "iostat.log").read_bytes())})
    first = import_path(lib, d, UTC)
    before = snapshot(lib.conn)
    again = import_path(lib, d, UTC)
    assert again.unchanged and again.id == first.id
    assert snapshot(lib.conn) == before


def test_progress_counts_the_compressed_bytes(lib: Library, tmp_path: Path) -> None:
    """The progress of a compressed file runs up to the file's size, never past the total."""
    packed = COMPRESS["gzip"](long_vmstat(60_000))
    seen: list[tuple[int, int]] = []
    import_path(
        lib, folder(tmp_path, "p", {"vmstat.log": packed}), Options(tz="UTC", progress=lambda d, t: seen.append((d, t)))
    )
    assert seen
    assert all(t == len(packed) for _, t in seen)
    done = [d for d, _ in seen]
    assert done == sorted(done) and done[-1] == len(packed)


def test_concatenated_gzip_members_are_one_capture(lib: Library, tmp_path: Path) -> None:
    """`cat part1.gz part2.gz` (rotated logs glued together) reads as the whole capture."""
    text = long_vmstat(3000)
    cut = text.index(b"\n", len(text) // 2) + 1
    glued = COMPRESS["gzip"](text[:cut]) + COMPRESS["gzip"](text[cut:])
    whole = import_path(lib, folder(tmp_path, "whole", {"v.log": text}), UTC)
    rep = import_path(lib, folder(tmp_path, "glued", {"v.log": glued}), UTC)
    assert_same_series(run_series(lib, rep.id), run_series(lib, whole.id))


def test_zero_padding_after_the_data_is_ignored(lib: Library, tmp_path: Path) -> None:
    """A zero-filled block after the gzip data (left by a crash or a tape) is not an error."""
    text = (RUN / "iostat.log").read_bytes()
    whole = import_path(lib, folder(tmp_path, "whole", {"i.log": text}), UTC)
    rep = import_path(lib, folder(tmp_path, "padded", {"i.log": COMPRESS["gzip"](text) + bytes(4096)}), UTC)
    assert rep.skipped == []
    assert_same_series(run_series(lib, rep.id), run_series(lib, whole.id))


# ---- cut and corrupt files ------------------------------------------------------------------------


@pytest.mark.parametrize("fraction", [0.3, 0.7, 0.97])
@pytest.mark.parametrize("codec", CODECS)
def test_cut_compressed_file_keeps_its_complete_lines(
    lib: Library, tmp_path: Path, codec: str, fraction: float
) -> None:
    """A compressed capture cut short (copy interrupted, disk full): the lines before the cut are
    imported, nothing is made up, and the user is told the data ends early."""
    text = long_vmstat(20_000)
    packed = COMPRESS[codec](text)
    whole = import_path(lib, folder(tmp_path, "whole", {"v.log": text}), UTC)
    cut = packed[: int(len(packed) * fraction)]
    try:
        rep = import_path(lib, folder(tmp_path, "cut", {"v.log": cut}), UTC)
    except FolderError as e:  # cut before a first complete report: nothing to import, clearly
        assert "nothing to import" in str(e)
        return
    assert rep.skipped == []
    assert any("ends early" in w.text for w in rep.sources[0].warnings), rep.sources[0].warnings
    got, want = run_series(lib, rep.id), run_series(lib, whole.id)
    assert invented(got, want) == []
    if fraction > 0.5:
        assert all(len(got[k][0]) > 0 for k in want)


def test_truncated_gz_of_a_run_folder_via_the_cli(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`benchlens import` of a folder whose iostat.log.gz was cut: exit 0, the cut is a warning."""
    d = shutil.copytree(RUN, tmp_path / "run")
    packed = COMPRESS["gzip"]((d / "iostat.log").read_bytes())
    (d / "iostat.log").unlink()
    (d / "iostat.log.gz").write_bytes(packed[: len(packed) * 2 // 3])
    capsys.readouterr()
    assert main(["import", str(d), "--db", str(tmp_path / "lib.sqlite")]) == 0
    out, err = capsys.readouterr()
    assert "ends early" in out
    assert "Traceback" not in err


def corrupt(packed: bytes, at: float) -> bytes:
    b = bytearray(packed)
    for k in range(16):
        b[int(len(b) * at) + k] ^= 0x55
    return bytes(b)


@pytest.mark.parametrize("at", [0.1, 0.8])
@pytest.mark.parametrize("codec", CODECS)
def test_corrupt_compressed_file_is_skipped_and_nothing_of_it_stays(
    lib: Library, tmp_path: Path, codec: str, at: float
) -> None:
    """Damaged compressed data (in the head or far past it): the file is listed as skipped with a
    'corrupt' reason, none of its rows stay, the folder's other files are imported."""
    bad = corrupt(COMPRESS[codec](long_vmstat(20_000)), at)
    d = shutil.copytree(RUN, tmp_path / "run")
    (d / "vmstat.log").unlink()
    (d / "vmstat_big.log").write_bytes(bad)
    rep = import_path(lib, d, UTC)
    assert "corrupt" in reasons(rep)["vmstat_big.log"], rep.skipped
    assert sorted(s.path for s in rep.sources) == ["iostat.log", "mpstat.log"]
    assert [s.path for s in lib.sources(rep.id)] == ["iostat.log", "mpstat.log"]
    orphans = lib.conn.execute("SELECT count(*) FROM series WHERE source_id NOT IN (SELECT id FROM sources)")
    assert orphans.fetchone()[0] == 0
    assert {s.format for s in lib.series(rep.id)} == {"iostat", "mpstat"}


def test_gzip_with_a_wrong_checksum_is_refused(populated: Library, tmp_path: Path) -> None:
    """Data that inflates fine but fails the gzip CRC at the very end (read, parsed, then found
    damaged): refused, and the library is exactly as before."""
    lib = populated
    before, runs = snapshot(lib.conn), lib.runs()
    packed = bytearray(COMPRESS["gzip"](long_vmstat(20_000)))
    packed[-8] ^= 0xFF  # the CRC32 of the trailer
    with pytest.raises(FolderError, match=r"nothing to import \(v\.log: corrupt gzip data"):
        import_path(lib, folder(tmp_path, "crc", {"v.log": bytes(packed)}), UTC)
    assert lib.runs() == runs
    assert snapshot(lib.conn) == before


def test_trailing_garbage_after_the_gzip_data_is_refused(lib: Library, tmp_path: Path) -> None:
    packed = COMPRESS["gzip"]((RUN / "iostat.log").read_bytes()) + b"this is not gzip\n"
    with pytest.raises(FolderError, match="corrupt gzip data"):
        import_path(lib, folder(tmp_path, "tail", {"i.log": packed}), UTC)
    assert lib.runs() == []


# ---- decompression bombs ------------------------------------------------------------------------

GB = 1 << 30


def bomb(codec: str, head: bytes = b"", total: int = GB) -> bytes:
    """`head` then `total` bytes of zeros, as concatenated members/streams (a few MB at most)."""
    piece = {"gzip": 1 << 20, "xz": 16 << 20, "bzip2": 16 << 20, "zstd": 64 << 20}[codec]
    zeros = COMPRESS[codec](bytes(piece))
    return (COMPRESS[codec](head) if head else b"") + zeros * (total // piece)


@pytest.mark.parametrize("codec", CODECS)
def test_decompression_bomb_behind_a_real_head_is_refused(populated: Library, tmp_path: Path, codec: str) -> None:
    """A real vmstat head followed by 1 GB of zeros, compressed to a few MB at most: refused as a
    decompression bomb with a clear reason, the library exactly as before."""
    lib = populated
    before, runs = snapshot(lib.conn), lib.runs()
    data = bomb(codec, (RUN / "vmstat.log").read_bytes())
    assert len(data) < 2 << 20
    with pytest.raises(FolderError, match=r"nothing to import \(vmstat\.log: .*decompression bomb") as e:
        import_path(lib, folder(tmp_path, "bomb", {"vmstat.log": data}), UTC)
    assert f"over {read_mod.MAX_RATIO[codec]}x" in str(e.value)
    assert lib.runs() == runs
    assert snapshot(lib.conn) == before


def test_bomb_in_a_run_folder_is_skipped_and_the_rest_imported(lib: Library, tmp_path: Path) -> None:
    d = shutil.copytree(RUN, tmp_path / "run")
    (d / "extra.log").write_bytes(bomb("gzip", (RUN / "vmstat.log").read_bytes()))
    rep = import_path(lib, d, UTC)
    assert "decompression bomb" in reasons(rep)["extra.log"]
    assert sorted(s.path for s in rep.sources) == ["iostat.log", "mpstat.log", "vmstat.log"]
    assert [s.path for s in lib.sources(rep.id)] == ["iostat.log", "mpstat.log", "vmstat.log"]


@pytest.mark.parametrize("codec", CODECS)
def test_bomb_of_zeros_is_refused_at_its_head(lib: Library, tmp_path: Path, codec: str) -> None:
    """1 GB of zeros alone: its head is no text, so it is never streamed."""
    with pytest.raises(FolderError, match=f"no text .*inside {codec} data"):
        import_path(lib, folder(tmp_path, "zeros", {"z.log": bomb(codec)}), UTC)
    assert lib.runs() == []


def test_bomb_via_the_cli_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "capture.log"
    path.write_bytes(bomb("gzip", (RUN / "vmstat.log").read_bytes()))
    capsys.readouterr()
    rc = main(["import", str(path), "--db", str(tmp_path / "lib.sqlite")])
    err = capsys.readouterr().err
    assert rc == 1
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("benchlens: ") and "decompression bomb" in lines[0], err


def test_absolute_bound_on_the_decompressed_size(lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Past MAX_OUTPUT of text the file is refused whatever its ratio (here the bound is lowered
    to 1 MiB and the capture makes 2 MB)."""
    monkeypatch.setattr(read_mod, "MAX_OUTPUT", 1 << 20)
    text = long_vmstat(20_000)
    assert len(text) > 2 << 20
    with pytest.raises(FolderError, match="decompresses to more than 1 MiB"):
        import_path(lib, folder(tmp_path, "big", {"v.log": COMPRESS["gzip"](text)}), UTC)
    assert lib.runs() == []


def test_xz_needing_too_much_memory_is_refused(lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An xz stream whose dictionary needs more than MEMLIMIT (lowered here to 1 MiB; `xz -6`
    needs 9 MiB) is refused with the reason, never allocated."""
    monkeypatch.setattr(read_mod, "MEMLIMIT", 1 << 20)
    packed = lzma.compress((RUN / "vmstat.log").read_bytes(), preset=6)
    with pytest.raises(FolderError, match="needs more than 1 MiB of memory"):
        import_path(lib, folder(tmp_path, "mem", {"v.log": packed}), UTC)


# ---- zstd ---------------------------------------------------------------------------------------


def zst_file() -> bytes:
    """A real .zst of c_basic's vmstat.log (zstd command line or module)."""
    raw = (RUN / "vmstat.log").read_bytes()
    if zstandard is not None:
        return _zstd(raw)
    if shutil.which("zstd"):
        return subprocess.run(["zstd", "-q", "-c"], input=raw, capture_output=True, check=True).stdout
    pytest.skip("neither the zstd command nor a zstd module is here to make a .zst")


def test_zstd_without_a_zstd_module_is_a_clear_reason(
    lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No zstd module importable: the .zst is listed as skipped, saying to decompress it first."""
    monkeypatch.setattr(read_mod, "_zstd_codec", lambda: None)
    d = shutil.copytree(RUN, tmp_path / "run")
    (d / "vmstat.log").unlink()
    (d / "vmstat.log.zst").write_bytes(zst_file())
    rep = import_path(lib, d, UTC)
    assert re.search(r"zstd.*decompress it first", reasons(rep)["vmstat.log.zst"])
    with pytest.raises(FolderError, match=r"zstd.*decompress it first"):
        import_path(lib, d / "vmstat.log.zst", UTC)


@pytest.mark.skipif(zstandard is None, reason="no zstandard module here")
def test_zstd_imports_like_the_text_when_a_module_is_there(lib: Library, tmp_path: Path) -> None:
    raw = (RUN / "vmstat.log").read_bytes()
    plain = import_path(lib, folder(tmp_path, "plain", {"v.log": raw}), UTC)
    rep = import_path(lib, folder(tmp_path, "zst", {"v.log": zst_file()}), UTC)
    assert_same_series(run_series(lib, rep.id), run_series(lib, plain.id))


# ---- other containers ---------------------------------------------------------------------------


def test_archives_and_empty_compressed_files_get_their_reason(lib: Library, tmp_path: Path) -> None:
    """A tar.gz or a zip of a run folder says 'extract it first'; an empty .gz says empty."""
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        tar.add(RUN / "vmstat.log", arcname="run/vmstat.log")
    zbuf = io.BytesIO()
    with zipfile.ZipFile(zbuf, "w", zipfile.ZIP_DEFLATED) as z:
        z.write(RUN / "vmstat.log", "run/vmstat.log")
    d = folder(
        tmp_path,
        "odd",
        {"run.tar.gz": buf.getvalue(), "run.zip": zbuf.getvalue(), "empty.gz": COMPRESS["gzip"](b"")},
    )
    (d / "vmstat.log").write_bytes((RUN / "vmstat.log").read_bytes())
    rep = import_path(lib, d, UTC)
    why = reasons(rep)
    assert "tar archive (extract it first) (inside gzip data)" in why["run.tar.gz"]
    assert "zip archive (extract it first)" in why["run.zip"]
    assert why["empty.gz"] == "empty file (inside gzip data)"
    assert [s.path for s in rep.sources] == ["vmstat.log"]


def test_decompressed_head_errors_never_escape(tmp_path: Path) -> None:
    """read_head raises UnreadableCapture (never zlib.error/LZMAError/OSError) on damaged data."""
    for codec in CODECS:
        packed = COMPRESS[codec]((RUN / "vmstat.log").read_bytes())
        with pytest.raises(UnreadableCapture, match=f"corrupt {codec} data"):
            read_head(io.BytesIO(packed[:12] + bytes(range(256)) * 4), 64 << 10)
