"""Import a run folder (or one file) into the library: list and sniff the files, read the
folder's clock from their heads, then stream every file into the library in one transaction.
A failed or cancelled import leaves the library as it was; an unchanged folder is a no-op.
A file whose bytes turn out unreadable while it streams (corrupt or unbounded compressed data)
is rolled back alone (a savepoint per file) and listed as skipped with the reason."""

from __future__ import annotations

import hashlib
import io
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from app.analysis.onset import load_onset
from app.clock import FolderClock, resolve
from app.folder import (
    FolderError,
    FolderFile,
    candidates,
    chained,
    group_pt_stalk,
    open_regular,
    pt_stalk_time,
    shown,
)
from app.record import read_metadata
from app.store.library import Library, LibraryError
from app.store.writer import ImportTxn, SeriesSink
from importers import AmbiguousFormat, detect
from importers._read import HEAD, Reading, UnreadableCapture, chunks, decode_head, looks_binary, read_head
from importers._types import Context, FormatError, ImportCancelled, RawClock

PROBE = 256 << 10


@dataclass
class Options:
    name: str | None = None
    tz: str | None = None
    interval: float = 1.0
    progress: Callable[[int, int], None] | None = None  # (bytes done, bytes total); raise ImportCancelled to stop


@dataclass
class SourceReport:
    path: str
    format: str
    series: int = 0
    samples: int = 0
    warnings: list[str] = field(default_factory=list)
    variant: str = ""
    clock: str = ""


@dataclass
class RunReport:
    id: int
    name: str
    sources: list[SourceReport]
    skipped: list[dict[str, str]]
    unchanged: bool = False
    warnings: list[str] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "unchanged": self.unchanged,
            "warnings": self.warnings,
            "sources": [
                {
                    "path": s.path,
                    "format": s.format,
                    "variant": s.variant,
                    "clock": s.clock,
                    "series": s.series,
                    "samples": s.samples,
                    "warnings": s.warnings,
                }
                for s in self.sources
            ],
            "skipped": self.skipped,
        }


def _probe(path: Path, fmt: ModuleType, interval: float) -> dict[str, Any]:
    """Parse the head of a file with a raw clock: zone evidence, launch time, timed or not."""
    with open_regular(path) as f:
        raw, _ = read_head(f, PROBE)
    cut = raw.rfind(b"\n") + 1 if len(raw) == PROBE else len(raw)
    ctx = Context(RawClock())
    try:
        for _ in fmt.parse(chunks(io.BytesIO(raw[:cut])), ctx):
            pass
    except FormatError:
        pass
    meta = dict(ctx.meta)
    meta["timed"] = "no timestamps" not in ctx.variant and not meta.get("relative")
    return meta


def import_path(lib: Library, path: str | Path, opts: Options | None = None) -> RunReport:
    opts = opts or Options()
    try:
        root = Path(path).resolve()
    except (RuntimeError, OSError) as e:  # a symlink loop
        raise FolderError(f"{shown(str(path))}: cannot resolve the path ({shown(str(e))})") from None
    files, skipped = candidates(root)
    base = root if root.is_dir() else root.parent
    found: list[FolderFile] = []
    recorded: dict[str, Any] | None = None
    recorded_path = ""
    for p in files:
        rel = shown(str(p.relative_to(base)))
        try:
            st = p.stat()
            with open_regular(p) as f:
                raw, packed = read_head(f, HEAD)
            head = decode_head(raw)
        except OSError as e:
            skipped.append({"path": rel, "reason": f"cannot read ({e.strerror or e})"})
            continue
        except UnreadableCapture as e:
            skipped.append({"path": rel, "reason": str(e)})
            continue
        inside = f" (inside {packed} data)" if packed else ""
        if st.st_size == 0 or not raw:
            skipped.append({"path": rel, "reason": "empty file" + inside})
            continue
        if head is None:
            skipped.append({"path": rel, "reason": (looks_binary(raw) or "not text") + inside})
            continue
        if head.lstrip().startswith("{") and (meta := read_metadata(head)) is not None:
            recorded = meta  # benchlens record's description of the run: used, not imported
            recorded_path = rel
            continue
        try:
            fmt = detect(head)
        except AmbiguousFormat as e:
            skipped.append({"path": rel, "reason": str(e)})
            continue
        if fmt is None:
            skipped.append({"path": rel, "reason": "not a known format" + inside})
            continue
        try:
            meta = _probe(p, fmt, opts.interval)
        except UnreadableCapture as e:
            skipped.append({"path": rel, "reason": str(e)})
            continue
        except OSError as e:
            skipped.append({"path": rel, "reason": f"cannot read ({e.strerror or e})"})
            continue
        found.append(
            FolderFile(rel, p, st.st_size, st.st_mtime_ns, fmt, meta, bool(meta.pop("timed")), pt_stalk_time(p.name))
        )
    if not found:
        raise _nothing(root, skipped)

    found = group_pt_stalk(found)
    folder_warnings: list[str] = []
    clock = _folder_clock(found, opts, folder_warnings, recorded, recorded_path)
    name = shown(opts.name or (root.name if root.is_dir() else root.stem))
    folder = shown(str(root))
    existing = lib.run_by_folder(folder)
    old = lib.sources(existing["id"]) if existing is not None else []
    if existing is not None and _same_files(existing, old, found, clock) and name == existing["name"]:
        return _unchanged(lib, existing, skipped)

    total = sum(f.size for f in found)
    txn = lib.begin_import()
    try:
        run_id = txn.upsert_run(folder, name, existing)
        reports: list[SourceReport] = []
        done = 0
        bench: tuple[float, float] | None = None
        # Logs timed relative to their own start go last: they are placed from the others.
        for item in sorted(found, key=lambda f: bool(f.meta.get("relative"))):
            method = None
            if item.meta.get("relative") and recorded is not None and "bench_start" in recorded:
                clock.bench_start = float(recorded["bench_start"])
                method = f"relative times placed at the benchmark start recorded in {recorded_path}"
            elif item.meta.get("relative"):
                clock.bench_start, method = _bench_anchor(lib, run_id)
            txn.savepoint()
            try:
                rep = _import_file(txn, run_id, item, clock, opts, done, total, method)
            except UnreadableCapture as e:  # nothing of this file stays; the others are imported
                txn.rollback_to_savepoint()
                skipped.append({"path": item.rel, "reason": str(e)})
                done += item.size
                continue
            txn.release_savepoint()
            done += item.size
            reports.append(rep)
            if item.meta.get("relative") and bench is None:
                span = txn.conn.execute(
                    "SELECT min(se.start), max(se.end) FROM series se JOIN sources so ON so.id = se.source_id "
                    "WHERE so.run_id = ? AND so.path = ?",
                    (run_id, item.rel),
                ).fetchone()
                if span[0] is not None:  # t = 0 of the log is the benchmark's start
                    bench = (clock.bench_start if clock.bench_start is not None else span[0], span[1])
        if not reports:
            txn.rollback()
            raise _nothing(root, skipped)
        if recorded is not None and "bench_start" in recorded and "bench_end" in recorded:
            bench = (float(recorded["bench_start"]), float(recorded["bench_end"]))
        if existing is not None and _same_hashes(old, txn, run_id) and name == existing["name"]:
            txn.rollback()
            return _unchanged(lib, existing, skipped)
        host = next((f.meta.get("host") for f in found if f.meta.get("host")), None)
        kernel = next((f.meta.get("kernel") for f in found if f.meta.get("kernel")), None)
        cpus = next((f.meta.get("cpus") for f in found if f.meta.get("cpus")), None)
        txn.finish_run(
            run_id,
            {"host": host, "kernel": kernel, "cpus": cpus, "tz": clock.description, "bench": bench},
        )
        txn.commit()
    except sqlite3.Error as e:  # disk full, I/O error ...: a clear line, and nothing written
        txn.rollback()
        raise LibraryError(f"{lib.path}: the import was not written ({e})") from None
    except BaseException:
        txn.rollback()
        raise
    final_name = lib.run(run_id)["name"]
    return RunReport(run_id, final_name, reports, skipped, warnings=folder_warnings)


def _nothing(root: Path, skipped: list[dict[str, str]]) -> FolderError:
    reasons = "; ".join(f"{s['path']}: {s['reason']}" for s in skipped[:3])
    more = f"; {len(skipped) - 3} more" if len(skipped) > 3 else ""
    return FolderError(f"{shown(str(root))}: nothing to import" + (f" ({reasons}{more})" if reasons else ""))


def _folder_clock(
    found: list[FolderFile], opts: Options, warnings: list[str], recorded: dict[str, Any] | None, recorded_path: str
) -> FolderClock:
    evidence: list[tuple[str, str, float | str]] = []
    if recorded is not None and isinstance(recorded.get("utc_offset"), int | float):
        evidence.append((recorded_path, "offset", float(recorded["utc_offset"])))
    for f in found:
        if "utc_offset" in f.meta:
            evidence.append((f.rel, "offset", f.meta["utc_offset"]))
        if "zone_abbrev" in f.meta:
            evidence.append((f.rel, "abbrev", f.meta["zone_abbrev"]))
    clock = resolve(evidence, opts.tz, warnings)
    clock.interval = opts.interval
    launches = []
    for f in found:
        if not f.timed:
            continue
        aware = "utc_offset" in f.meta and f.fmt.name == "iostat"
        if "launch" in f.meta:
            t = float(f.meta["launch"])
            launches.append((t if aware else float(clock.wall(_arr(t))[0]), f.rel))
        elif "first_time" in f.meta:  # mpstat prints its first row one interval after launch
            first = float(clock.wall(_arr(float(f.meta["first_time"])))[0])
            launches.append((first - float(f.meta.get("interval", opts.interval)), f.rel))
    if launches:
        clock.origin, origin_file = min(launches)
        clock.description += f"; files without times start at the launch of {origin_file}"
    return clock


def _arr(x: float) -> np.ndarray:
    return np.array([x])


def _bench_anchor(lib: Library, run_id: int) -> tuple[float | None, str | None]:
    """Epoch of a relative log's t = 0: the load onset in the folder's CPU series, if any."""
    series = {(s.source, s.metric, s.entity): s for s in lib.series(run_id)}
    busy = None
    if ("vmstat", "us", "") in series and ("vmstat", "sy", "") in series:
        t, us = lib.load(series[("vmstat", "us", "")])
        _, sy = lib.load(series[("vmstat", "sy", "")])
        busy, what = (t, us + sy), "vmstat us+sy"
    elif ("mpstat", "%idle", "all") in series:
        t, idle = lib.load(series[("mpstat", "%idle", "all")])
        busy, what = (t, 100.0 - idle), "mpstat 100-%idle"
    if busy is None:
        return None, None
    onset = load_onset(*busy)
    if onset is None:
        return None, None
    when = datetime.fromtimestamp(onset, UTC).strftime("%H:%M:%S")
    return onset, f"relative times placed at the load onset seen in {what} ({when} UTC, ±1 sample)"


def _import_file(
    txn: ImportTxn,
    run_id: int,
    f: FolderFile,
    clock: FolderClock,
    opts: Options,
    done: int,
    total: int,
    relative_method: str | None = None,
) -> SourceReport:
    source_id = txn.add_source(run_id, f.rel, f.size, f.mtime_ns, f.fmt.name)
    if f.named_start is not None and not f.timed:
        # pt-stalk starts its collectors at the time its file names carry
        clock = replace(clock, origin=float(clock.wall(_arr(f.named_start))[0]))
    ctx = Context(clock)

    def on_read(n: int) -> None:
        if opts.progress is not None:
            opts.progress(done + n, total)

    reading = Reading(on_read, hashlib.sha256())
    sink = SeriesSink(txn, source_id, ctx.units)
    if f.parts:
        try:
            sink.add(f.fmt.parse(chained(f.parts, reading, clock), ctx))
        except FormatError as e:
            ctx.warn(None, f"stopped reading: {e}")
    else:
        with open_regular(f.path) as fh:
            try:
                sink.add(f.fmt.parse(chunks(fh, reading), ctx))
            except FormatError as e:
                ctx.warn(None, f"stopped reading: {e}")
            reading.drain(fh)
    for note in reading.notes:
        ctx.warn(None, note)
    n_series, samples = sink.close()
    if f.meta.get("relative"):
        if relative_method is not None:
            method = relative_method
        else:
            last = _last_time(txn, source_id)
            txn.shift_source(source_id, f.mtime_ns / 1e9 - last)
            method = "relative times placed so the last report is at the file's modification time"
            ctx.warn(None, "no load onset in the folder's CPU series; placed by the file's modification time")
    elif f.timed:
        method = f"file times, read as {clock.description.split(';')[0]}"
    elif f.named_start is not None:
        method = f"no times in the file: report k placed at the pt-stalk name's time + k x {clock.interval:g} s"
    elif clock.origin is not None:
        method = f"no times in the file: report k placed at launch + k x {clock.interval:g} s ({clock.description})"
        ctx.warn(
            None,
            f"no times in the file; placed from the folder's other files, one report every "
            f"{clock.interval:g} s (--interval)",
        )
    else:
        delta = f.mtime_ns / 1e9 - _last_time(txn, source_id)
        txn.shift_source(source_id, delta)
        method = (
            f"no times in the folder: last report placed at the file's modification time, {clock.interval:g} s apart"
        )
        ctx.warn(None, "no times in the folder; placed so the last report is at the file's modification time")
    ctx.finish_warnings()
    ctx.warnings = [shown(w) for w in ctx.warnings]
    keep = (
        "host",
        "kernel",
        "cpus",
        "zone_abbrev",
        "utc_offset",
        "tool_version",
        "steps",
        "tpmc",
        "users",
        "rw",
        "warehouses",
        "threads",
    )
    meta = {k: v for k, v in ctx.meta.items() if k in keep}
    txn.finish_source(source_id, reading.sha.hexdigest(), "; ".join(ctx.variant), method, ctx.warnings, meta)
    return SourceReport(f.rel, f.fmt.name, n_series, samples, ctx.warnings, "; ".join(ctx.variant), method)


def _last_time(txn: ImportTxn, source_id: int) -> float:
    row = txn.conn.execute("SELECT max(end) FROM series WHERE source_id = ?", (source_id,)).fetchone()
    return float(row[0] or 0.0)


def _same_files(run: dict[str, Any], old: list[dict[str, Any]], found: list[FolderFile], clock: FolderClock) -> bool:
    now = sorted((f.rel, f.size, f.mtime_ns) for f in found)
    return now == sorted((s["path"], s["size"], s["mtime_ns"]) for s in old) and run["tz"] == clock.description


def _same_hashes(old: list[dict[str, Any]], txn: ImportTxn, run_id: int) -> bool:
    new = txn.conn.execute("SELECT path, sha256 FROM sources WHERE run_id = ?", (run_id,)).fetchall()
    return sorted((p, h) for p, h in new) == sorted((s["path"], s["sha256"]) for s in old)


def _unchanged(lib: Library, run: dict[str, Any], skipped: list[dict[str, str]]) -> RunReport:
    reports = []
    by_source: dict[int, list[Any]] = {}
    for x in lib.source_series(run["id"]):
        by_source.setdefault(x.source_id, []).append(x)
    for s in lib.sources(run["id"]):
        series = by_source.get(s["id"], [])
        reports.append(
            SourceReport(
                s["path"], s["format"], len(series), sum(x.n for x in series), s["warnings"], s["variant"], s["clock"]
            )
        )
    return RunReport(run["id"], run["name"], reports, skipped, unchanged=True)


__all__ = ["FolderError", "ImportCancelled", "Options", "RunReport", "import_path"]
