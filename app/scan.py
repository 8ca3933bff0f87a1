"""Scan a run folder: every file sniffed and its head probed (zone evidence, launch, how it is
timed, its report count), the others skipped with one line that says what they are; the run's
record (benchlens-run.json) and the run scripts beside it (or above it) kept for placing the run.
The first step of an import (app/ingest.py)."""

from __future__ import annotations

import contextlib
import io
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import numpy as np

from benchlens.app.folder import (
    FolderError,
    FolderFile,
    candidates,
    group_pt_stalk,
    open_regular,
    parent_scripts,
    pt_stalk_time,
    shown,
)
from benchlens.app.interval import command_interval, states_intervals
from benchlens.app.record import read_metadata
from benchlens.app.run_record import RECORD_MARK, checked_record, used_for, why_not_read
from benchlens.app.unread import is_shell_script, not_a_capture, what
from benchlens.importers import AmbiguousFormat, detect
from benchlens.importers._read import HEAD, UnreadableCapture, chunks, decode_head, looks_binary, read_head
from benchlens.importers._types import Context, FormatError, Importer, RawClock, SourceMeta, Timing

PROBE = 256 << 10


def nothing(root: Path, skipped: list[dict[str, str]]) -> FolderError:
    reasons = "; ".join(f"{s['path']}: {s['reason']}" for s in skipped[:3])
    more = f"; {len(skipped) - 3} more" if len(skipped) > 3 else ""
    return FolderError(f"{shown(str(root))}: nothing to import" + (f" ({reasons}{more})" if reasons else ""))


class _Skip(Exception):
    """A file left out of the import (the reason shown to the user)."""


@dataclass
class Scan:
    files: list[FolderFile] = field(default_factory=list)
    skipped: list[dict[str, str]] = field(default_factory=list)
    recorded: dict[str, Any] | None = None  # `benchlens record`'s description of the run
    recorded_path: str = ""
    scripts: list[tuple[str, str]] = field(default_factory=list)  # (path, head) of the shell scripts beside
    parent_scripts: list[tuple[str, str]] = field(default_factory=list)  # those in the folder above
    warnings: list[str] = field(default_factory=list)  # about the folder, found while scanning

    def recorded_start(self) -> float | None:
        """The benchmark's start as recorded, if it was."""
        r = self.recorded
        return float(r["bench_start"]) if r is not None and "bench_start" in r else None

    def recorded_bench(self) -> tuple[float, float] | None:
        """The benchmark's (start, end) as recorded, if they were."""
        r = self.recorded
        if r is None or "bench_start" not in r or "bench_end" not in r:
            return None
        return float(r["bench_start"]), float(r["bench_end"])


def scan_folder(root: Path) -> Scan:
    """Every file of the folder (or the one file) sniffed and its head probed; the others skipped
    with a reason. Nothing to import is an error."""
    scan = Scan()
    paths, scan.skipped = candidates(root)
    base = root if root.is_dir() else root.parent
    for p in paths:
        rel = shown(str(p.relative_to(base)))
        try:
            _scan_file(scan, p, rel)
        except _Skip as e:
            scan.skipped.append({"path": rel, "reason": str(e)})
    if not scan.files:
        raise nothing(root, scan.skipped)
    scan.files = group_pt_stalk(scan.files)
    if root.is_dir() and any(f.meta.timing is Timing.INDEX for f in scan.files):
        scan.parent_scripts = _parent_scripts(root)
    return scan


def _parent_scripts(root: Path) -> list[tuple[str, str]]:
    """(`../name`, head) of the run scripts above the folder that run a monitor with an interval."""
    out = []
    for p in parent_scripts(root):
        with contextlib.suppress(_Skip):
            _, head, _ = _text_head(p)
            if is_shell_script(head, p.name) and states_intervals(head):
                out.append((f"../{shown(p.name)}", head))
    return out


def _scan_file(scan: Scan, p: Path, rel: str) -> None:
    st, head, inside = _text_head(p)
    record = _run_record(scan, rel, head, st.st_size)
    if (said := not_a_capture(head, p.name)) is not None:  # a run script, a query log: never a capture
        _unread(scan, rel, head, p.name, said, inside)
    try:
        fmt = detect(head)
    except AmbiguousFormat as e:
        raise _Skip((what(head, p.name) or str(e)) + inside) from None
    if fmt is None:
        _unread(scan, rel, head, p.name, what(head, p.name) or "not a known format", inside)
    probed, reports = probe(p, fmt)
    found = FolderFile(rel, p, st.st_size, st.st_mtime_ns, fmt, probed, pt_stalk_time(p.name), reports=reports)
    found.command = command_interval(head, fmt.name)
    if record is not None:
        found.notes.append(record)
    scan.files.append(found)


def _unread(scan: Scan, rel: str, head: str, name: str, said: str, inside: str) -> NoReturn:
    """Skip a file no importer reads, with what it is; a run script is kept as interval evidence."""
    if is_shell_script(head, name) and states_intervals(head):
        scan.scripts.append((rel, head))
        said = "shell script: not imported; read for the intervals it gives the monitors"
    raise _Skip(said + inside)


def _run_record(scan: Scan, rel: str, head: str, size: int) -> str | None:
    """benchlens-run.json (`benchlens record`): the run's description, used to place the run (its
    settings are read by the config importer); the note that says so. A record that cannot be
    read is skipped with the reason; fields of the wrong type are left out with a warning."""
    if not head.lstrip().startswith("{") or not RECORD_MARK.search(head[:4096]):
        return None
    meta = read_metadata(head)
    if meta is None:
        why = why_not_read(head, size)
        raise _Skip(f"benchlens' run record, {why}: the times, zone and commands it records are not used")
    scan.recorded, scan.recorded_path = meta, rel
    notes = checked_record(meta)
    scan.warnings += [f"{rel}: {n}" for n in notes]
    return used_for(meta)


def _text_head(p: Path) -> tuple[os.stat_result, str, str]:
    """The file's stat, its head as text, and ` (inside gzip data)` when it is compressed."""
    try:
        st = p.stat()
        with open_regular(p) as f:
            raw, packed = read_head(f, HEAD)
        head = decode_head(raw)
    except OSError as e:
        raise _Skip(cannot_read(e)) from None
    except UnreadableCapture as e:
        raise _Skip(str(e)) from None
    inside = f" (inside {packed} data)" if packed else ""
    if st.st_size == 0 or not raw:
        raise _Skip("empty file" + inside)
    if head is None:
        raise _Skip((looks_binary(raw) or "not text") + inside)
    return st, head, inside


def cannot_read(e: OSError) -> str:
    return f"cannot read ({e.strerror or e})"


class _CountingClock(RawClock):
    """A raw clock that counts the reports of a file without times (report k is index k)."""

    def __init__(self) -> None:
        self.reports = 0

    def index(self, k: np.ndarray) -> np.ndarray:
        k = np.asarray(k, np.float64)
        if k.size and np.isfinite(k).any():
            self.reports = max(self.reports, int(np.nanmax(k)) + 1)
        return k


def probe(path: Path, fmt: Importer, limit: int | None = PROBE) -> tuple[SourceMeta, int | None]:
    """Parse the head of a file (all of it without `limit`) with a raw clock: zone evidence,
    launch time, how it is timed; and its report count when the head was the whole file."""
    clock = _CountingClock()
    ctx = Context(clock)
    try:
        with open_regular(path) as f:
            if limit is None:
                whole = True
                stream: Iterator[bytes] = chunks(f)
            else:
                raw, _ = read_head(f, limit)
                whole = len(raw) < limit
                stream = chunks(io.BytesIO(raw if whole else raw[: raw.rfind(b"\n") + 1]))
            with contextlib.suppress(FormatError):
                for _ in fmt.parse(stream, ctx):
                    pass
    except UnreadableCapture as e:
        raise _Skip(str(e)) from None
    except OSError as e:
        raise _Skip(cannot_read(e)) from None
    return ctx.meta, (clock.reports if whole else None)
