"""Import a run folder (or one file) into the library: list and sniff the files, read the
folder's clock from their heads, then stream every file into the library in one transaction.
A failed or cancelled import leaves the library as it was; an unchanged folder is a no-op.
A file whose bytes turn out unreadable while it streams (corrupt or unbounded compressed data)
is rolled back alone (a savepoint per file) and listed as skipped with the reason.

The steps: scan the folder (sniff and probe every file: app/scan.py) -> plan (the folder's clock,
the run it updates) -> import each file -> place the files without times of their own -> finish
the run.
How a file is placed in time is decided by its importer's `SourceMeta.timing` alone."""

from __future__ import annotations

import contextlib
import hashlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from benchlens.app import trend
from benchlens.app.analysis.onset import load_onset
from benchlens.app.clock import FolderClock, resolve
from benchlens.app.dedup import Fingerprint, keep_first, same
from benchlens.app.folder import (
    FolderError,
    FolderFile,
    chained,
    open_regular,
    shown,
)
from benchlens.app.interval import DEFAULT as DEFAULT_INTERVAL
from benchlens.app.interval import (
    Evidence,
    Interval,
    choose,
    command_interval,
    from_span,
    script_interval,
)
from benchlens.app.model import Run, SeriesInfo, SeriesRef, SourceFile
from benchlens.app.rundata import LibraryRunData
from benchlens.app.scan import PROBE, Scan, nothing, probe, scan_folder
from benchlens.app.store.library import Library
from benchlens.app.store.writer import ImportTxn, SeriesSink
from benchlens.importers import sysbench
from benchlens.importers._read import Reading, UnreadableCapture, chunks
from benchlens.importers._types import (
    Block,
    Context,
    FormatError,
    ImportCancelled,
    SourceWarning,
    Timing,
)

DEDUP_MAX_BYTES = 64 << 20  # files of one format larger than this are not compared for duplicates


@dataclass
class Options:
    name: str | None = None
    tz: str | None = None
    interval: float | None = None  # seconds between reports of files without times; None: inferred
    progress: Callable[[int, int], None] | None = None  # (bytes done, bytes total); raise ImportCancelled to stop


@dataclass
class SourceReport:
    path: str
    format: str
    series: int = 0
    samples: int = 0
    warnings: list[SourceWarning] = field(default_factory=list)
    variant: str = ""
    clock: str = ""
    notes: list[str] = field(default_factory=list)  # how the file was placed: the evidence used
    settings: int = 0  # configuration settings read (format config: a source without series)


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
                    "notes": s.notes,
                    "series": s.series,
                    "samples": s.samples,
                    "settings": s.settings,
                    "warnings": [str(w) for w in s.warnings],
                }
                for s in self.sources
            ],
            "skipped": self.skipped,
        }


def import_path(lib: Library, path: str | Path, opts: Options | None = None) -> RunReport:
    opts = opts or Options()
    root = _resolved(path)
    scan = scan_folder(root)
    plan = _plan(lib, root, scan, opts)
    if plan.existing is not None and plan.same_files(scan.files):
        return _unchanged(lib, plan.existing, scan.skipped)
    with lib.begin_import() as txn:
        run_id = txn.upsert_run(plan.folder, plan.name, plan.existing)
        job = _Job(lib, txn, run_id, plan.clock, opts, sum(f.size for f in scan.files))
        reports, bench = _import_files(job, scan)
        if not any(r.series for r in reports):  # no sources, or configuration alone: no run
            only = [{"path": r.path, "reason": _settings_only(r.path, scan)} for r in reports]
            raise nothing(root, scan.skipped + only)
        if plan.existing is not None and plan.same_hashes(txn.source_hashes(run_id)):
            txn.rollback()
            return _unchanged(lib, plan.existing, scan.skipped)
        same = txn.finish_run(run_id, _run_fields(scan.files, plan.clock, bench))
        if same is not None:  # these very files are a run already (imported on another machine)
            txn.rollback()
            return _unchanged(lib, same, scan.skipped)
        trend.on_import(lib, run_id, scan.recorded)  # its tags and its summary, in the same commit
        txn.commit()
    return RunReport(run_id, lib.run(run_id).name, reports, scan.skipped, warnings=plan.warnings)


def _resolved(path: str | Path) -> Path:
    try:
        return Path(path).resolve()
    except (RuntimeError, OSError) as e:  # a symlink loop
        raise FolderError(f"{shown(str(path))}: cannot resolve the path ({shown(str(e))})") from None


def _settings_only(path: str, scan: Scan) -> str:
    return "the run's record, and no capture beside it" if path == scan.recorded_path else "settings only"


# ---- plan: the folder's clock and the run it updates ------------------------------------------


@dataclass
class _Plan:
    folder: str
    name: str
    clock: FolderClock
    warnings: list[str]  # about the folder (its clock)
    existing: Run | None  # the run imported from this folder before
    old: list[SourceFile]  # its sources

    def same_files(self, files: list[FolderFile]) -> bool:
        """Nothing to do: the same files (names, sizes, times), the same clock and name."""
        if self.existing is None or self.existing.name != self.name or self.existing.tz != self.clock.description:
            return False
        return sorted((f.rel, f.size, f.mtime_ns) for f in files) == sorted(
            (s.path, s.size, s.mtime_ns) for s in self.old
        )

    def same_hashes(self, hashes: list[tuple[str, str]]) -> bool:
        """The files read had the same contents as before (only their times changed)."""
        if self.existing is None or self.existing.name != self.name:
            return False
        return sorted(hashes) == sorted((s.path, s.sha256) for s in self.old)


def _plan(lib: Library, root: Path, scan: Scan, opts: Options) -> _Plan:
    warnings: list[str] = list(scan.warnings)
    clock = _folder_clock(scan, opts, warnings)
    _drop_duplicates(scan, clock, warnings)
    _drop_summary_copies(scan, warnings)
    name = shown(opts.name or (root.name if root.is_dir() else root.stem))
    folder = shown(str(root))
    existing = lib.run_by_folder(folder)
    old = lib.sources(existing.id) if existing is not None else []
    return _Plan(folder, name, clock, warnings, existing, old)


def _folder_clock(scan: Scan, opts: Options, warnings: list[str]) -> FolderClock:
    """The zone from the evidence the files print, and the launch that places the files without
    times (the earliest launch a timed file tells)."""
    clock = resolve(_zone_evidence(scan), opts.tz, warnings)
    clock.interval = opts.interval or DEFAULT_INTERVAL
    launches = [launch for f in scan.files if (launch := _launch(f, clock, clock.interval)) is not None]
    if launches:
        clock.origin, origin_file = min(launches)
        clock.description += f"; files without times start at the launch of {origin_file}"
    return clock


def _drop_duplicates(scan: Scan, clock: FolderClock, warnings: list[str]) -> None:
    """Of files of one format that hold the same capture (app/dedup.py), one is kept; the other
    is listed as skipped, and a warning names both and says why."""
    by_format: dict[str, list[FolderFile]] = {}
    for f in scan.files:
        by_format.setdefault(f.fmt.name, []).append(f)
    for files in by_format.values():
        prints = {f.rel: fp for f in files if len(files) > 1 and (fp := _fingerprint(f, clock)) is not None}
        kept: list[FolderFile] = []
        for f in sorted(files, key=lambda f: (f.mtime_ns, len(f.rel), f.rel)):
            twin = next(
                ((k, why) for k in kept if f.rel in prints and (why := same(prints[k.rel], prints[f.rel]))), None
            )
            if twin is None:
                if f.rel in prints:
                    kept.append(f)
                continue
            k, why = twin
            first, reason = keep_first(prints[k.rel], prints[f.rel], *(x.meta.timing is Timing.WALL for x in (k, f)))
            winner, loser = (k, f) if first else (f, k)
            kept[kept.index(k)] = winner
            scan.files.remove(loser)
            said = f"{winner.rel} and {loser.rel} hold the same capture ({why}): {winner.rel} kept ({reason})"
            scan.skipped.append(
                {"path": loser.rel, "reason": f"the same capture as {winner.rel} ({why}); not counted twice"}
            )
            warnings.append(said)
            winner.notes.append(said)


def _drop_summary_copies(scan: Scan, warnings: list[str]) -> None:
    """A sysbench log of one run's summary beside the log of the same run's reports, which ends
    with that summary (importers/sysbench.summary_copies), is skipped: its point is no sample."""
    logs = {f.rel: f for f in scan.files if f.fmt.name == "sysbench" and not f.parts and f.size <= DEDUP_MAX_BYTES}
    if len(logs) < 2:
        return
    texts = {}
    for rel, f in logs.items():
        with contextlib.suppress(UnreadableCapture, OSError), open_regular(f.path) as fh:
            texts[rel] = b"".join(chunks(fh)).decode("utf-8", "replace")
    for copy, source in sysbench.summary_copies(texts).items():
        scan.files.remove(logs[copy])
        why = f"the summary of the run whose reports {source} holds (the same totals)"
        scan.skipped.append({"path": copy, "reason": f"{why}; its one point is no sample, not imported"})
        warnings.append(f"{copy} is {why}: skipped")
        logs[source].notes.append(f"{copy} is {why}: skipped")


def _fingerprint(f: FolderFile, clock: FolderClock) -> Fingerprint | None:
    """The samples of a file parsed with the folder's clock (files without times by report
    number), or None when it is too big to compare or unreadable."""
    if f.parts or f.size > DEDUP_MAX_BYTES:
        return None
    origin = 0.0 if f.named_start is None else float(clock.wall(_arr(f.named_start))[0])  # pt-stalk's file names
    ctx = Context(replace(clock, origin=origin, interval=1.0, bench_start=0.0))
    fp = Fingerprint()
    try:
        with open_regular(f.path) as fh, contextlib.suppress(FormatError):
            for _ in fp.add(f.fmt.parse(chunks(fh), ctx)):
                pass
    except (UnreadableCapture, OSError):
        return None
    fp.warnings = len(ctx.warnings)
    return fp


def _zone_evidence(scan: Scan) -> list[tuple[str, str, float | str]]:
    evidence: list[tuple[str, str, float | str]] = []
    if scan.recorded is not None and isinstance(scan.recorded.get("utc_offset"), int | float):
        evidence.append((scan.recorded_path, "offset", float(scan.recorded["utc_offset"])))
    for f in scan.files:
        if f.meta.utc_offset is not None:
            evidence.append((f.rel, "offset", f.meta.utc_offset))
        if f.meta.zone_abbrev is not None:
            evidence.append((f.rel, "abbrev", f.meta.zone_abbrev))
    return evidence


def _launch(f: FolderFile, clock: FolderClock, interval: float) -> tuple[float, str] | None:
    """(epoch, file) of a timed file's launch, when its head tells."""
    meta = f.meta
    if meta.timing is not Timing.WALL:
        return None
    if meta.launch is not None:
        # iostat's times carry their offset: its launch is an epoch already
        aware = meta.utc_offset is not None and f.fmt.name == "iostat"
        return (meta.launch if aware else float(clock.wall(_arr(meta.launch))[0])), f.rel
    if meta.first_time is not None:  # mpstat prints its first row one interval after launch
        first = float(clock.wall(_arr(meta.first_time))[0])
        return first - (meta.interval if meta.interval is not None else interval), f.rel
    return None


def _arr(x: float) -> np.ndarray:
    return np.array([x])


# ---- import each file ---------------------------------------------------------------------------


@dataclass
class _Job:
    """One import under way: where it writes, the folder's clock, the bytes read so far."""

    lib: Library
    txn: ImportTxn
    run_id: int
    clock: FolderClock
    opts: Options
    total: int  # bytes of all the files
    done: int = 0  # bytes of the files already imported


def _import_files(job: _Job, scan: Scan) -> tuple[list[SourceReport], tuple[float, float] | None]:
    """Every file, each in a savepoint; and the benchmark's (start, end) when known."""
    reports: list[SourceReport] = []
    bench: tuple[float, float] | None = None
    timed: list[tuple[int, str]] = []  # (source id, path) of the files with clock times, imported
    # Files with clock times first, then those placed from them: files without times (when no
    # launch was seen; those spaced by their own clock first, their span is evidence for the
    # others' interval), logs timed relative to their own start (from the CPU series' load onset).
    for f in sorted(scan.files, key=lambda f: (_ORDER[f.meta.timing], f.meta.spacing is None)):
        relative = f.meta.timing is Timing.RELATIVE
        method = _anchor_relative(job, scan) if relative else None
        interval = None
        if f.meta.timing is Timing.INDEX:
            if job.clock.origin is None:
                _origin_from_timed(job, timed)
            interval = _interval(job, scan, f, timed)
        imported = _import_saved(job, f, method, scan.skipped, interval, record=f.rel == scan.recorded_path)
        if imported is None:
            continue
        report, source_id = imported
        reports.append(report)
        if f.meta.timing is Timing.WALL or f.meta.spacing is not None:
            timed.append((source_id, f.rel))
        if relative and bench is None:
            bench = _bench_span(job, source_id)
    return reports, scan.recorded_bench() or bench


_ORDER = {Timing.WALL: 0, Timing.INDEX: 1, Timing.RELATIVE: 2}


def _interval(job: _Job, scan: Scan, f: FolderFile, spanned: list[tuple[int, str]]) -> Interval:
    """The interval between the reports of a file without times, from the evidence its folder
    holds (app/interval.py); `spanned`: the sources imported so far that cover a known span."""
    if f.meta.spacing is not None and f.meta.interval is not None:
        return Interval(f.meta.interval, f"spaced by {f.meta.spacing}")
    evidence = []
    if job.opts.interval is not None:
        evidence.append(Evidence(job.opts.interval, "--interval", "--interval"))
    if f.command is not None:
        evidence.append(Evidence(f.command[0], "command", f"the command line `{f.command[1]}` printed in the file"))
    if (recorded := _recorded_command(scan, f)) is not None:
        evidence.append(recorded)
    script, disagree = script_interval(scan.scripts, f.path.name, f.fmt.name)
    if script is None and disagree is None and scan.parent_scripts and not f.parts:
        script, disagree = script_interval(scan.parent_scripts, f.path.name, f.fmt.name, f.path.parent.name)
    if script is not None:
        evidence.append(script)
    if job.opts.interval is None:  # the override decides alone
        evidence += _span_evidence(job, scan, f, spanned)
    chosen = choose(evidence)
    return replace(chosen, warnings=(*chosen.warnings, disagree)) if disagree else chosen


def _span(span: tuple[float | None, float | None]) -> float:
    first, last = span
    return last - first if first is not None and last is not None else 0.0


def _recorded_command(scan: Scan, f: FolderFile) -> Evidence | None:
    """The command benchlens-run.json recorded for this file (benchlens record's monitors)."""
    commands = scan.recorded.get("commands") if scan.recorded is not None else None
    cmd = commands.get(f.rel) if isinstance(commands, dict) else None
    if not isinstance(cmd, str) or (found := command_interval(cmd, f.fmt.name, None)) is None:
        return None
    return Evidence(found[0], "command", f"the command line `{found[1]}` recorded in {scan.recorded_path}")


def _span_evidence(job: _Job, scan: Scan, f: FolderFile, spanned: list[tuple[int, str]]) -> list[Evidence]:
    """What the spans beside the file say: a timed file's span, a relative log's length and the
    file's own modification time, each over the file's report count."""
    n = f.reports if f.reports is not None else probe(f.path, f.fmt, None)[1]
    if not n or n < 2 or f.parts:
        return []
    out = []
    spans = [(_span(job.txn.source_span(sid)), rel) for sid, rel in spanned]
    longest = max(((s, rel) for s, rel in spans if s > 0), default=None)
    if longest is not None and (secs := from_span(longest[0], n, round_up=False)) is not None:
        out.append(Evidence(secs, "span", f"{longest[1]}'s {longest[0]:g} s over this file's {n} reports"))
    for log in scan.files:
        if log.meta.timing is not Timing.RELATIVE:
            continue
        length = log.meta.last_relative if log.size <= PROBE else probe(log.path, log.fmt, None)[0].last_relative
        if length and (secs := from_span(length, n, round_up=True)) is not None:
            out.append(Evidence(secs, "span", f"{log.rel}'s {length:g} s over this file's {n} reports"))
            break
    origin, mtime = job.clock.origin, f.mtime_ns / 1e9
    if origin is not None and f.named_start is None and (secs := from_span(mtime - origin, n, False)) is not None:
        out.append(Evidence(secs, "mtime", f"its modification time, {mtime - origin:.0f} s after the folder's launch"))
    return out


def _origin_from_timed(job: _Job, timed: list[tuple[int, str]]) -> None:
    """No timed file told its launch (snapshot loops timed by markers or headers, InnoDB status):
    files without times start at the earliest time the imported timed files hold, never at their
    own modification time (a copied file's mtime is not the capture's day)."""
    firsts = [(first, rel) for sid, rel in timed if (first := job.txn.source_span(sid)[0]) is not None]
    if firsts:
        job.clock.origin, job.clock.origin_from = min(firsts)


def _anchor_relative(job: _Job, scan: Scan) -> str | None:
    """Set where t = 0 of a log timed relative to the benchmark start goes; say how it was found."""
    start = scan.recorded_start()
    if start is not None:
        job.clock.bench_start = start
        return f"relative times placed at the benchmark start recorded in {scan.recorded_path}"
    job.clock.bench_start, method = _bench_anchor(job.lib, job.run_id)
    return method


# CPU idle series a load onset is read from when the folder has no vmstat, the first one there,
# and what the placement note calls it
IDLE_SOURCES = (
    ("mpstat", SeriesRef("mpstat", "%idle", "all")),
    ("procstat", SeriesRef("procstat", "%idle", "all")),  # pt-stalk's /proc/stat loop
    ("sar", SeriesRef("sar", "%idle", "all")),
    ("dstat", SeriesRef("dstat", "cpu.idl", "total")),
    ("iostat avg-cpu", SeriesRef("iostat", "%idle")),
)


def _bench_anchor(lib: Library, run_id: int) -> tuple[float | None, str | None]:
    """Epoch of a relative log's t = 0: the load onset in the folder's CPU series, if any (vmstat,
    else the first of IDLE_SOURCES: mpstat's all row ... iostat's avg-cpu block)."""
    data = LibraryRunData(lib)  # reads the import's own transaction: the files placed so far
    us, sy = data.data(run_id, SeriesRef("vmstat", "us")), data.data(run_id, SeriesRef("vmstat", "sy"))
    if us is not None and sy is not None:
        busy, what = (us[0], us[1] + sy[1]), "vmstat us+sy"
    else:
        found = ((name, ref, d) for name, ref in IDLE_SOURCES if (d := data.data(run_id, ref)) is not None)
        idle = next(found, None)
        if idle is None:
            return None, None
        name, ref, (t, v) = idle
        busy, what = (t, 100.0 - v), f"{name} 100-{ref.metric}"
    onset = load_onset(*busy)
    if onset is None:
        return None, None
    when = datetime.fromtimestamp(onset, UTC).strftime("%H:%M:%S")
    return onset, f"relative times placed at the load onset seen in {what} ({when} UTC, ±1 sample)"


def _bench_span(job: _Job, source_id: int) -> tuple[float, float] | None:
    """The benchmark's (start, end) from a relative log: its t = 0 is the benchmark's start."""
    first, last = job.txn.source_span(source_id)
    if first is None or last is None:
        return None
    return (job.clock.bench_start if job.clock.bench_start is not None else first), last


def _import_saved(
    job: _Job,
    f: FolderFile,
    relative_method: str | None,
    skipped: list[dict[str, str]],
    interval: Interval | None,
    record: bool = False,
) -> tuple[SourceReport, int] | None:
    """One file in a savepoint: (its report, its source id), or None when its bytes turned out
    unreadable or it gave no series (nothing of it stays, it is listed as skipped with the reason;
    the others are imported). The run's record (benchlens-run.json) stays a source without
    settings: it placed the run, it is never a skipped file."""
    job.txn.savepoint()
    try:
        imported = _import_file(job, f, relative_method, interval)
    except UnreadableCapture as e:
        job.txn.rollback_to_savepoint()
        skipped.append({"path": f.rel, "reason": str(e)})
        job.done += f.size
        return None
    job.done += f.size
    if imported[0].series == 0 and not imported[0].settings and not record:  # recognised, nothing read
        job.txn.rollback_to_savepoint()
        skipped.append({"path": f.rel, "reason": _read_nothing(imported[0])})
        return None
    job.txn.release_savepoint()
    return imported


def _read_nothing(report: SourceReport) -> str:
    """Why a file recognised as a format gave no series: its format and its first warnings."""
    said = [w for w in report.warnings if w.kind != "placement"]  # where nothing was placed: moot
    why = "; ".join(str(w) for w in said[:2])
    more = f" (+{len(said) - 2} more warnings)" if len(said) > 2 else ""
    what = "settings" if report.format == "config" else "series"  # configuration is read as settings
    return f"looks like {report.format} but no {what} could be read from it" + (f": {why}{more}" if why else "")


def _import_file(
    job: _Job, f: FolderFile, relative_method: str | None, interval: Interval | None
) -> tuple[SourceReport, int]:
    source_id = job.txn.add_source(job.run_id, f.rel, f.size, f.mtime_ns, f.fmt.name)
    clock = job.clock if interval is None else replace(job.clock, interval=interval.seconds)
    if f.named_start is not None and f.meta.timing is not Timing.WALL:
        # pt-stalk starts its collectors at the time its file names carry
        clock = replace(clock, origin=float(clock.wall(_arr(f.named_start))[0]))
    ctx = Context(clock)
    sha256, n_series, samples = _stream(job, source_id, f, clock, ctx)
    method = _place(job.txn, source_id, f, clock, ctx, relative_method)
    notes = list(f.notes)
    if interval is not None:
        notes.append(interval.note)
        method += f"; {interval.note}"
        for w in interval.warnings:
            ctx.warn(None, w, kind="placement")
    ctx.finish_warnings()
    warnings = [replace(w, text=shown(w.text)) for w in ctx.warnings]
    variant = "; ".join(ctx.variant)
    job.txn.finish_source(source_id, sha256, variant, method, warnings, ctx.meta.to_json())
    report = SourceReport(f.rel, f.fmt.name, n_series, samples, warnings, variant, method, notes)
    report.settings = len(ctx.meta.settings)
    return report, source_id


def _stream(job: _Job, source_id: int, f: FolderFile, clock: FolderClock, ctx: Context) -> tuple[str, int, int]:
    """Parse the file (pt-stalk's files one after the other) into the store: (sha256, series, samples)."""
    done, progress = job.done, job.opts.progress

    def on_read(n: int) -> None:
        if progress is not None:
            progress(done + n, job.total)

    reading = Reading(on_read, hashlib.sha256())
    sink = SeriesSink(job.txn, source_id, ctx.units)
    if f.parts:
        _parse(sink, f.fmt.parse(chained(f.parts, reading, clock), ctx), ctx)
    else:
        with open_regular(f.path) as fh:
            _parse(sink, f.fmt.parse(chunks(fh, reading), ctx), ctx)
            reading.drain(fh)
    for note in reading.notes:
        ctx.add(note)
    n_series, samples = sink.close()
    return reading.sha.hexdigest(), n_series, samples


def _parse(sink: SeriesSink, blocks: Iterator[Block], ctx: Context) -> None:
    try:
        sink.add(blocks)
    except FormatError as e:  # what was read before stays
        ctx.warn(None, f"stopped reading: {e}", kind="format")


# ---- place the files without times of their own -------------------------------------------------


def _place(
    txn: ImportTxn, source_id: int, f: FolderFile, clock: FolderClock, ctx: Context, relative_method: str | None
) -> str:
    """How the file's times were placed (the source's clock text). A file without times and
    nothing else to place it by is moved so that its last report is at its modification time."""
    if f.meta.timing is Timing.RELATIVE:
        if relative_method is not None:
            return relative_method
        _end_at_mtime(txn, source_id, f)
        ctx.warn(
            None, "no load onset in the folder's CPU series; placed by the file's modification time", kind="placement"
        )
        return "relative times placed so the last report is at the file's modification time"
    if f.meta.timing is Timing.WALL:
        return f"file times, read as {clock.description.split(';')[0]}"
    if f.named_start is not None:
        return f"no times in the file: report k placed at the pt-stalk name's time + k x {clock.interval:g} s"
    if clock.origin is not None:
        ctx.warn(
            None,
            f"no times in the file; placed from the folder's other files, one report every {clock.interval:g} s",
            kind="placement",
        )
        where = f"; files without times start at the first time in {clock.origin_from}" if clock.origin_from else ""
        return (
            f"no times in the file: report k placed at launch + k x {clock.interval:g} s ({clock.description}{where})"
        )
    if (banner := _banner_day_instead(txn, source_id, f, clock, ctx)) is not None:
        return banner
    _end_at_mtime(txn, source_id, f)
    ctx.warn(
        None, "no times in the folder; placed so the last report is at the file's modification time", kind="placement"
    )
    return f"no times in the folder: last report placed at the file's modification time, {clock.interval:g} s apart"


def _end_at_mtime(txn: ImportTxn, source_id: int, f: FolderFile) -> None:
    _, last = txn.source_span(source_id)
    txn.shift_source(source_id, f.mtime_ns / 1e9 - (last or 0.0))


DAY = 86400.0


def _banner_day_instead(txn: ImportTxn, source_id: int, f: FolderFile, clock: FolderClock, ctx: Context) -> str | None:
    """A file whose banner prints the capture's day (iostat without -t) and whose modification
    time would start it on another day was copied: it is placed on the banner's day from 00:00
    (the time of day is unknown; said in a warning). None when the mtime agrees with the banner."""
    day = f.meta.header_day
    first, last = txn.source_span(source_id)
    if day is None or first is None or last is None:
        return None
    offset = day - float(clock.wall(_arr(day))[0])  # naive - epoch in the folder's zone
    start_naive = f.mtime_ns / 1e9 - (last - first) + offset
    if day - 3600 <= start_naive < day + DAY + 3600:  # launched on the banner's day (an hour of slack)
        return None
    txn.shift_source(source_id, float(clock.wall(_arr(day))[0]) - first)
    banner, modified = (datetime.fromtimestamp(x, UTC).strftime("%Y-%m-%d") for x in (day, start_naive))
    ctx.warn(
        None,
        f"no times in the folder; the file's modification time would start it on {modified}, not on {banner}, "
        "the day its banner prints (a copied file): placed from 00:00 of the banner's day, its time of day unknown",
        kind="placement",
    )
    return f"no times in the folder: report 0 placed at 00:00 of the banner's date {banner}, {clock.interval:g} s apart"


# ---- finish ---------------------------------------------------------------------------------------


def _run_fields(files: list[FolderFile], clock: FolderClock, bench: tuple[float, float] | None) -> dict[str, Any]:
    """The run's host facts (the first file that tells), its clock and the benchmark's span."""
    return {
        "host": next((f.meta.host for f in files if f.meta.host), None),
        "kernel": next((f.meta.kernel for f in files if f.meta.kernel), None),
        "cpus": next((f.meta.cpus for f in files if f.meta.cpus), None),
        "tz": clock.description,
        "bench": bench,
    }


def _unchanged(lib: Library, run: Run, skipped: list[dict[str, str]]) -> RunReport:
    by_source: dict[int, list[SeriesInfo]] = {}
    for x in lib.source_series(run.id):
        by_source.setdefault(x.source_id, []).append(x)
    reports = []
    for s in lib.sources(run.id):
        series = by_source.get(s.id, [])
        reports.append(
            SourceReport(s.path, s.format, len(series), sum(x.n for x in series), s.warnings, s.variant, s.clock)
        )
    return RunReport(run.id, run.name, reports, skipped, unchanged=True)


__all__ = ["FolderError", "ImportCancelled", "Options", "RunReport", "import_path"]
