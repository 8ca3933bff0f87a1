"""A run folder on disk: which files to read (regular files only, never a FIFO or device), how a
file name is shown, and pt-stalk's naming, which times its files and groups its snapshot files
into one stream."""

from __future__ import annotations

import contextlib
import os
import re
import stat
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import BinaryIO

import numpy as np

from benchlens.app.clock import FolderClock
from benchlens.app.errors import BenchlensError
from benchlens.importers._read import Reading, chunks
from benchlens.importers._types import Importer, SourceMeta


class FolderError(BenchlensError):
    """The path cannot be read as a run (one-line reason)."""


# Characters a name never shows as is: C0/C1 controls (newline, ESC of terminal sequences ...),
# bidirectional marks, embeddings, overrides and isolates (they reorder the text printed around
# them), and the lone surrogates Python uses for bytes that are not UTF-8.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def shown(name: str) -> str:
    """A file name (or any text from the disk) as one printable line that SQLite can store: bytes
    that are not UTF-8 become \\xNN, controls and bidi marks \\xNN / \\uNNNN. Plain names are
    unchanged."""
    if not _UNSAFE.search(name):
        return name
    with contextlib.suppress(UnicodeError):  # (a lone surrogate that is not an undecodable byte stays)
        name = os.fsencode(name).decode("utf-8", "backslashreplace")

    def esc(m: re.Match[str]) -> str:
        c = ord(m.group())
        return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"

    return _UNSAFE.sub(esc, name)


@dataclass
class FolderFile:
    """A file of the folder to import: its format and what the head of it says (probed with a raw
    clock: zone evidence, launch time, how it is timed)."""

    rel: str  # shown relative path
    path: Path
    size: int
    mtime_ns: int
    fmt: Importer
    meta: SourceMeta
    named_start: float | None = None  # naive time from a pt-stalk file name
    parts: list[FolderFile] = field(default_factory=list)  # pt-stalk snapshot files read as one stream
    reports: int | None = None  # reports of a file without times, when its probe read all of it
    command: tuple[float, str] | None = None  # (interval, command line) printed at the head of the file
    notes: list[str] = field(default_factory=list)  # said about the file before it is imported (a duplicate left out)


def open_regular(path: Path) -> BinaryIO:
    """Open without blocking on FIFOs and refuse anything that is not a regular file."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise OSError("not a regular file")
    return os.fdopen(fd, "rb")


def candidates(root: Path) -> tuple[list[Path], list[dict[str, str]]]:
    if root.is_file():
        return [root], []
    if not root.is_dir():
        what = "no such file or folder" if not root.exists() else "not a regular file (FIFO, socket or device)"
        raise FolderError(f"{shown(str(root))}: {what}")
    files, skipped = [], []
    try:
        entries = sorted(os.scandir(root), key=lambda e: e.name)
    except OSError as e:
        raise FolderError(f"{shown(str(root))}: cannot list ({e.strerror})") from None
    for entry in entries:
        name = shown(entry.name)
        try:
            st = os.stat(entry.path)  # follows links: a link to a log is fine, a loop or dangling link is not
        except OSError as err:
            skipped.append({"path": name, "reason": f"cannot read ({err.strerror or err})"})
            continue
        if stat.S_ISDIR(st.st_mode):
            skipped.append({"path": name, "reason": "folder (run folders are read one level deep)"})
        elif not stat.S_ISREG(st.st_mode):
            skipped.append({"path": name, "reason": "not a regular file (FIFO, socket or device)"})
        else:
            files.append(Path(entry.path))
    return files, skipped


# The folder above a run folder may hold the script that wrote it (`run.sysbench` writing
# res00/iostat.ro.1.res): its files named as scripts are looked at, a bounded number of them.
SCRIPT_NAMES = re.compile(r"^run[\w.\-]*$|\.(?:sh|bash)$")
PARENT_ENTRIES = 1000  # entries of the parent folder looked at
PARENT_SCRIPTS = 20  # scripts read from it
SCRIPT_BYTES = 1 << 20  # a run script is a few kB


def parent_scripts(root: Path) -> list[Path]:
    """The files of the folder above `root` named as run scripts (`run.sysbench`, `bench.sh`),
    regular and small; never the run folder's own files, never followed further up."""
    found: list[Path] = []
    try:
        with os.scandir(root.parent) as it:
            for i, entry in enumerate(it):
                if i >= PARENT_ENTRIES or len(found) >= PARENT_SCRIPTS:
                    break
                if not SCRIPT_NAMES.search(entry.name) or entry.path == str(root):
                    continue
                with contextlib.suppress(OSError):
                    st = os.stat(entry.path)
                    if stat.S_ISREG(st.st_mode) and 0 < st.st_size <= SCRIPT_BYTES:
                        found.append(Path(entry.path))
    except OSError:
        return []
    return sorted(found)


# pt-stalk names every file of a collection after the moment it started: 2018_03_05_13_24_55-vmstat
_PT_STALK = re.compile(r"^(\d{4})_(\d\d)_(\d\d)_(\d\d)_(\d\d)_(\d\d)-.+")


def pt_stalk_time(name: str) -> float | None:
    m = _PT_STALK.match(name)
    if not m:
        return None
    try:
        y, mo, d, h, mi, s = (int(g) for g in m.groups())
        return datetime(y, mo, d, h, mi, s, tzinfo=UTC).timestamp()
    except ValueError:
        return None


# Formats made of snapshots: pt-stalk's one-snapshot files of these are read as one stream.
SNAPSHOT_FORMATS = ("innodb_status", "innodb_mutex", "global_status", "perfschema")


def group_pt_stalk(found: list[FolderFile]) -> list[FolderFile]:
    """pt-stalk snapshot files of one format become one source (rates need consecutive snapshots)."""
    groups: dict[str, list[FolderFile]] = {}
    out: list[FolderFile] = []
    for f in found:
        if f.named_start is not None and f.fmt.name in SNAPSHOT_FORMATS:
            groups.setdefault(f.fmt.name, []).append(f)
        else:
            out.append(f)
    for files in groups.values():
        if len(files) == 1:
            out.extend(files)
            continue
        files.sort(key=lambda f: (f.named_start, f.rel))
        first = files[0]
        rel = f"{first.rel} (+{len(files) - 1} pt-stalk files)"
        out.append(
            FolderFile(
                rel,
                first.path,
                sum(f.size for f in files),
                max(f.mtime_ns for f in files),
                first.fmt,
                first.meta,
                first.named_start,
                files,
            )
        )
    return sorted(out, key=lambda f: f.rel)


def chained(parts: list[FolderFile], reading: Reading, clock: FolderClock) -> Iterator[bytes]:
    """The parts one after the other, each behind a `TS <epoch>` marker from its file name."""
    for part in parts:
        assert part.named_start is not None
        epoch = float(clock.wall(np.array([part.named_start]))[0])
        yield f"TS {epoch:.6f} {part.path.name}\n".encode()
        with open_regular(part.path) as fh:
            yield from chunks(fh, reading)
            reading.drain(fh)
