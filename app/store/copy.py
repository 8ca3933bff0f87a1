"""`benchlens library copy SRC DST`: runs with their sources, series, annotations, trend's tags,
summaries and marks, and the saved views that show only copied runs, from one library to another
(file -> server to share, server -> file to take a set of runs along). Each run is one
transaction of the destination, its BLOBs copied as they are stored (the series come out bit for
bit the same). A run whose content the destination holds already (the content hash of
app/store/writer.py) is skipped, so copying twice, or back, changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from benchlens.app.model import Run
from benchlens.app.store.errors import LibraryError
from benchlens.app.store.library import Library
from benchlens.app.store.writer import ImportTxn, content_hash

Progress = Callable[[int, int, str, str], None]  # (runs done, runs in all, run name, what happened)


@dataclass
class CopyReport:
    copied: list[dict[str, Any]] = field(default_factory=list)  # {"name", "id" (in DST), "sources", "series"}
    present: list[dict[str, Any]] = field(default_factory=list)  # already in DST: {"name", "id"}
    views: list[str] = field(default_factory=list)
    views_skipped: list[dict[str, str]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "copied": self.copied,
            "present": self.present,
            "views": self.views,
            "views_skipped": self.views_skipped,
        }


def copy_runs(
    src: Library, dst: Library, refs: list[str] | None = None, progress: Progress | None = None
) -> CopyReport:
    runs = [src.run(r) for r in refs] if refs else src.runs()
    report = CopyReport()
    id_map: dict[int, int] = {}
    for k, run in enumerate(runs, 1):
        content = run_content(src, run)
        row = dst.conn.execute("SELECT id FROM runs WHERE content = ?", (content,)).fetchone()
        if row is not None:
            id_map[run.id] = int(row[0])
            report.present.append({"name": run.name, "id": int(row[0])})
            state = "already there"
        else:
            with dst.begin_import() as txn:
                new_id, counts = _copy_run(src, txn, run, content)
                txn.commit()
            id_map[run.id] = new_id
            report.copied.append({"name": dst.run(new_id).name, "id": new_id, **counts})
            state = f"copied ({counts['sources']} sources, {counts['series']} series)"
        if progress is not None:
            progress(k, len(runs), run.name, state)
    _copy_views(src, dst, id_map, report)
    return report


def run_content(lib: Library, run: Run) -> str:
    """The run's content hash as stored, or computed (a run imported before the hash was kept)."""
    row = lib.conn.execute("SELECT content FROM runs WHERE id = ?", (run.id,)).fetchone()
    if row is not None and row[0]:
        return str(row[0])
    return content_hash(run.name, run.tz, [(s.path, s.sha256) for s in lib.sources(run.id)])


def _copy_run(src: Library, txn: ImportTxn, run: Run, content: str) -> tuple[int, dict[str, int]]:
    row = src.conn.execute(
        "SELECT folder, host, kernel, cpus, start, end, bench_start, bench_end, tz, notes, imported "
        "FROM runs WHERE id = ?",
        (run.id,),
    ).fetchone()
    run_id = txn.new_run_row(run.name, row, content)
    counts = {"sources": 0, "series": 0}
    sources = src.conn.execute(
        "SELECT id, path, sha256, size, mtime_ns, format, variant, clock, warnings, meta FROM sources WHERE run_id = ?",
        (run.id,),
    ).fetchall()
    for s in sources:
        source_id = int(
            txn.conn.execute(
                "INSERT INTO sources (run_id, path, sha256, size, mtime_ns, format, variant, clock, warnings, meta) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (run_id, *s[1:]),
            ).lastrowid
        )
        counts["sources"] += 1
        counts["series"] += _copy_source(src, txn, int(s[0]), source_id)
    for a in src.conn.execute(
        "SELECT start, end, kind, state, label, source, metric, entity, created, author, updated, updated_by "
        "FROM annotations WHERE run_id = ?",
        (run.id,),
    ).fetchall():
        txn.conn.execute(
            "INSERT INTO annotations (run_id, start, end, kind, state, label, source, metric, entity, created, "
            "author, updated, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (run_id, *a),
        )
    _copy_trend(src, txn, run.id, run_id)
    return run_id, counts


def _copy_trend(src: Library, txn: ImportTxn, old: int, new: int) -> None:
    """Trend's rows of a run: its tags, its stored summaries, the marks put on it and by whom."""
    for row in src.conn.execute("SELECT name, value FROM run_tags WHERE run_id = ?", (old,)).fetchall():
        txn.conn.execute("INSERT INTO run_tags (run_id, name, value) VALUES (?, ?, ?)", (new, *row))
    for row in src.conn.execute(
        "SELECT metric, n, median, mean, p95, p99, facts, computed FROM run_summaries WHERE run_id = ?", (old,)
    ).fetchall():
        txn.conn.execute(
            "INSERT INTO run_summaries (run_id, metric, n, median, mean, p95, p99, facts, computed) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (new, *row),
        )
    for row in src.conn.execute("SELECT kind, author, created FROM trend_marks WHERE run_id = ?", (old,)).fetchall():
        txn.conn.execute("INSERT INTO trend_marks (run_id, kind, author, created) VALUES (?, ?, ?, ?)", (new, *row))


def _copy_source(src: Library, txn: ImportTxn, old: int, new: int) -> int:
    """A source's series and their chunks; one times row (and its chunks) in memory at a time."""
    series: dict[int, int] = {}
    for s in src.conn.execute(
        "SELECT id, metric, entity, unit, n, start, end FROM series WHERE source_id = ?", (old,)
    ).fetchall():
        cur = txn.conn.execute(
            "INSERT INTO series (source_id, metric, entity, unit, n, start, end) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (new, *s[1:]),
        )
        series[int(s[0])] = int(cur.lastrowid)
    limit = txn.db.max_chunk_points
    for (times_id,) in src.conn.execute("SELECT id FROM times WHERE source_id = ? ORDER BY id", (old,)).fetchall():
        (t,) = src.conn.execute("SELECT t FROM times WHERE id = ?", (times_id,)).fetchone()
        if limit is not None and len(t) > limit * 8:
            raise LibraryError(
                f"{txn.lib.name}: a stored time array of {len(t)} bytes is over the server's max_allowed_packet; "
                "raise max_allowed_packet to copy this run"
            )
        tid = txn.conn.execute("INSERT INTO times (source_id, t) VALUES (?, ?)", (new, t)).lastrowid
        rows = src.conn.execute(
            "SELECT series_id, seq, scale, v FROM chunks WHERE times_id = ?", (times_id,)
        ).fetchall()
        txn.conn.executemany(
            "INSERT INTO chunks (series_id, seq, times_id, scale, v) VALUES (?, ?, ?, ?, ?)",
            [(series[int(r[0])], r[1], tid, r[2], r[3]) for r in rows],
        )
    return len(series)


def _copy_views(src: Library, dst: Library, id_map: dict[int, int], report: CopyReport) -> None:
    """Saved views whose runs were all copied (or were there), their run ids those of DST. A view
    of the same name showing something else in DST is left alone and listed."""
    for name in src.view_names():
        spec = src.view(name) or {}
        runs = [int(r) for r in spec.get("runs", [])]
        if not runs or any(r not in id_map for r in runs):
            continue
        mapped = dict(spec)
        mapped["runs"] = [id_map[r] for r in runs]
        if isinstance(spec.get("offsets"), dict):
            mapped["offsets"] = {str(id_map.get(int(k), k)): v for k, v in spec["offsets"].items()}
        there = dst.view(name)
        if there is not None and there != mapped:
            report.views_skipped.append({"name": name, "reason": "a different view of that name is there"})
            continue
        if there is None:
            dst.save_view(name, mapped)
            report.views.append(name)
