"""The benchlens library file: open (WAL, foreign keys, busy timeout), read runs and series,
and start one import as one transaction (app/store/writer.py)."""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from app.store.migrations import NewerLibrary, ensure_schema, refuse_foreign

if TYPE_CHECKING:
    from app.store.writer import ImportTxn

BUSY_TIMEOUT_S = 15.0


class LibraryError(Exception):
    """A one-line reason for the user (locked, not found, ambiguous, newer schema ...)."""


@dataclass(frozen=True)
class SeriesInfo:
    """One series of a run. A run can hold several files of one format (pt-stalk's one file per
    snapshot, rotated logs): their series with the same metric and entity are one series here,
    `ids` lists the stored pieces and load() joins them in time order."""

    id: int
    source_id: int
    source: str  # format name
    metric: str
    entity: str
    unit: str
    n: int
    start: float | None
    end: float | None
    ids: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if not self.ids:
            object.__setattr__(self, "ids", (self.id,))


class Library:
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.busy_timeout = BUSY_TIMEOUT_S
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.conn = sqlite3.connect(str(self.path), timeout=self.busy_timeout, isolation_level=None)
            refuse_foreign(self.conn)  # before anything below changes the file (WAL mode is persistent)
            # Big pages suit a file made mostly of array BLOBs (no effect on an existing library).
            self.conn.execute("PRAGMA page_size = 65536")
            self.conn.execute("PRAGMA foreign_keys = ON")
            mode = self.conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise LibraryError(f"{self.path}: could not switch to WAL mode (got {mode})")
            self.conn.execute("PRAGMA synchronous = NORMAL")
            ensure_schema(self.conn, self.path)
        except NewerLibrary as e:
            raise LibraryError(f"{self.path}: {e}") from None
        except sqlite3.OperationalError as e:
            if "locked" in str(e) or "busy" in str(e):
                raise LibraryError(
                    f"{self.path} is busy ({e}): another benchlens held it for over {self.busy_timeout:g} s; "
                    "try again when it has finished"
                ) from None
            raise LibraryError(f"{self.path}: cannot open the library ({e})") from None
        except (sqlite3.DatabaseError, OSError) as e:
            raise LibraryError(f"{self.path}: cannot open the library ({e})") from None

    def close(self) -> None:
        self.conn.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- runs -------------------------------------------------------------------------------------
    def runs(self) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT r.id, r.name, r.start, r.end, r.host, r.kernel, r.cpus, r.folder, r.tz, r.notes, r.bench_start, "
            "r.bench_end, "
            "(SELECT count(*) FROM sources s WHERE s.run_id = r.id) FROM runs r ORDER BY r.start, r.id"
        ).fetchall()
        keys = [
            "id",
            "name",
            "start",
            "end",
            "host",
            "kernel",
            "cpus",
            "folder",
            "tz",
            "notes",
            "bench_start",
            "bench_end",
            "sources",
        ]
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def run(self, ref: str | int) -> dict[str, Any]:
        """A run by id or by unique name."""
        runs = self.runs()
        text = str(ref)
        by_name = [r for r in runs if r["name"] == text]
        if len(by_name) == 1:
            return by_name[0]
        if text.isdigit():
            by_id = [r for r in runs if r["id"] == int(text)]
            if by_id:
                return by_id[0]
        raise LibraryError(f"no run {text!r} in {self.path}")

    def run_by_folder(self, folder: str) -> dict[str, Any] | None:
        for r in self.runs():
            if r["folder"] == folder:
                return r
        return None

    def sources(self, run_id: int) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT id, path, sha256, size, mtime_ns, format, variant, clock, warnings, meta FROM sources "
            "WHERE run_id = ? ORDER BY path",
            (run_id,),
        ).fetchall()
        out = []
        for r in rows:
            out.append(
                {
                    "id": r[0],
                    "path": r[1],
                    "sha256": r[2],
                    "size": r[3],
                    "mtime_ns": r[4],
                    "format": r[5],
                    "variant": r[6],
                    "clock": r[7],
                    "warnings": json.loads(r[8]),
                    "meta": json.loads(r[9]),
                }
            )
        return out

    def rename_run(self, run_id: int, name: str) -> None:
        try:
            self.conn.execute("UPDATE runs SET name = ? WHERE id = ?", (name, run_id))
        except sqlite3.IntegrityError:
            raise LibraryError(f"a run named {name!r} exists already") from None

    def delete_run(self, run_id: int) -> None:
        self.conn.execute("DELETE FROM runs WHERE id = ?", (run_id,))

    # ---- series -----------------------------------------------------------------------------------
    def source_series(self, run_id: int) -> list[SeriesInfo]:
        """Every stored series of the run, one per source file."""
        rows = self.conn.execute(
            "SELECT se.id, se.source_id, so.format, se.metric, se.entity, se.unit, se.n, se.start, se.end "
            "FROM series se JOIN sources so ON so.id = se.source_id WHERE so.run_id = ? "
            "ORDER BY so.format, se.metric, se.entity, se.start",
            (run_id,),
        ).fetchall()
        return [SeriesInfo(*r) for r in rows]

    def series(self, run_id: int) -> list[SeriesInfo]:
        """The run's series, pieces of the same format, metric and entity merged."""
        merged: dict[tuple[str, str, str], SeriesInfo] = {}
        for s in self.source_series(run_id):
            key = (s.source, s.metric, s.entity)
            m = merged.get(key)
            if m is None:
                merged[key] = s
                continue
            starts = [x for x in (m.start, s.start) if x is not None]
            ends = [x for x in (m.end, s.end) if x is not None]
            merged[key] = SeriesInfo(
                m.id,
                m.source_id,
                m.source,
                m.metric,
                m.entity,
                m.unit,
                m.n + s.n,
                min(starts) if starts else None,
                max(ends) if ends else None,
                m.ids + s.ids,
            )
        return list(merged.values())

    def find_series(self, run_id: int, source: str, metric: str, entity: str | None) -> SeriesInfo:
        found = [
            s
            for s in self.series(run_id)
            if s.source == source and s.metric == metric and (entity is None or s.entity == entity)
        ]
        if not found:
            raise LibraryError(f"no series {source}:{metric}" + (f":{entity}" if entity is not None else ""))
        if len(found) > 1:
            entities = ", ".join(repr(s.entity) for s in found[:8])
            raise LibraryError(f"{source}:{metric} has several entities ({entities}); choose one with --entity")
        return found[0]

    def load(self, series: int | SeriesInfo) -> tuple[np.ndarray, np.ndarray]:
        """Times (epoch s) and values of a series, as contiguous float64 arrays."""
        if isinstance(series, SeriesInfo):
            if len(series.ids) > 1:
                parts = [self.load(i) for i in series.ids]
                t = np.concatenate([p[0] for p in parts])
                order = np.argsort(t, kind="stable")
                return t[order], np.concatenate([p[1] for p in parts])[order]
            series = series.id
        series_id = series
        rows = self.conn.execute(
            "SELECT t.t, c.scale, c.v FROM chunks c JOIN times t ON t.id = c.times_id WHERE c.series_id = ? "
            "ORDER BY c.seq",
            (series_id,),
        ).fetchall()
        if not rows:
            return np.zeros(0), np.zeros(0)
        if len(rows) == 1:
            return np.frombuffer(rows[0][0], "<f8"), decode(rows[0][2], rows[0][1])
        return (
            np.concatenate([np.frombuffer(r[0], "<f8") for r in rows]),
            np.concatenate([decode(r[2], r[1]) for r in rows]),
        )

    # ---- annotations: manual notes, and decisions on detected drops ----------------------------
    def annotations(self, run_id: int) -> list[dict[str, Any]]:
        rows = self.conn.execute(
            "SELECT id, run_id, start, end, kind, state, label FROM annotations WHERE run_id = ? ORDER BY start, id",
            (run_id,),
        ).fetchall()
        keys = ["id", "run_id", "start", "end", "kind", "state", "label"]
        return [dict(zip(keys, r, strict=True)) for r in rows]

    def add_annotation(
        self, run_id: int, start: float, end: float, label: str, kind: str = "note", state: str = ""
    ) -> int:
        if kind not in ("note", "drop") or not (end >= start):
            raise LibraryError("an annotation is a note or a drop decision over start <= end")
        cur = self.conn.execute(
            "INSERT INTO annotations (run_id, start, end, kind, state, label, created) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (run_id, start, end, kind, state, label, time.time()),
        )
        return int(cur.lastrowid or 0)

    def update_annotation(self, ann_id: int, **fields: Any) -> None:
        allowed = {"start", "end", "label", "state"}
        if not fields or set(fields) - allowed:
            raise LibraryError(f"annotation fields are {', '.join(sorted(allowed))}")
        sets = ", ".join(f"{k} = ?" for k in fields)  # keys checked above; values parameterised
        self.conn.execute(f"UPDATE annotations SET {sets} WHERE id = ?", (*fields.values(), ann_id))

    def delete_annotation(self, ann_id: int) -> None:
        self.conn.execute("DELETE FROM annotations WHERE id = ?", (ann_id,))

    def begin_import(self) -> ImportTxn:
        from app.store.writer import ImportTxn

        return ImportTxn(self)


_INT32 = 2.0**31 - 1


def encode(v: np.ndarray) -> tuple[bytes, int]:
    """Values as int32 counts of 10^-k when decode() gives back the very same doubles, else float64."""
    for k in (2, 0):
        scaled = np.rint(v * 10.0**k)
        if scaled.size and np.abs(scaled).max() <= _INT32 and np.array_equal(scaled / 10.0**k, v):
            return scaled.astype("<i4").tobytes(), k
    return v.astype("<f8").tobytes(), -1


def decode(blob: bytes, scale: int) -> np.ndarray:
    if scale < 0:
        return np.frombuffer(blob, "<f8")
    return np.frombuffer(blob, "<i4") / 10.0**scale
