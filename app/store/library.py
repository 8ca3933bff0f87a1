"""The benchlens library file: open (WAL, foreign keys, busy timeout), read runs, sources, series,
annotations and saved views as the records of app/model.py, and start one import as one
transaction (app/store/writer.py)."""

from __future__ import annotations

import getpass
import json
import os
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from benchlens.app.model import RUN_COLUMNS, Annotation, Run, SeriesInfo, SourceFile
from benchlens.app.store.backend import Backend, SqliteBackend
from benchlens.app.store.errors import LibraryError
from benchlens.app.store.loading import SharedTimes, load_many
from benchlens.app.store.migrations import NewerLibrary, ensure_schema
from benchlens.app.store.target import ServerTarget, parse_target
from benchlens.app.store.trend_tables import TrendTables
from benchlens.importers._types import SourceMeta, SourceWarning

if TYPE_CHECKING:
    from benchlens.app.store.writer import ImportTxn

BUSY_TIMEOUT_S = 15.0
_RUN_SELECT = ", ".join("coalesce(c.n, 0)" if c == "sources" else f"r.{c}" for c in RUN_COLUMNS)
# The source counts of all runs in one pass (a count per run took ~4x longer for 10,000 runs);
# a lookup filters first (the WHERE clauses below, chosen by code, values as parameters).
_RUN_FROM = "FROM runs r LEFT JOIN (SELECT run_id, count(*) AS n FROM sources GROUP BY run_id) c ON c.run_id = r.id"
_RUN_WHERE = {"": "", "name": " WHERE r.name = ?", "id": " WHERE r.id = ?", "folder": " WHERE r.folder = ?"}
_ANNOTATION_COLUMNS = "id, run_id, start, end, kind, state, label, author, created, updated, updated_by"


def current_user() -> str:
    """Who makes a note or a drop decision: $BENCHLENS_USER, else the OS user."""
    try:
        return os.environ.get("BENCHLENS_USER") or getpass.getuser()
    except (KeyError, OSError):  # no login name and no passwd entry (a bare container)
        return "unknown"


def connect(target: str | Path, busy_timeout: float) -> Backend:
    """The backend of a `--db` value: a file path or a mysql:// URL (LibraryError when it cannot open)."""
    where = parse_target(target)
    if isinstance(where, ServerTarget):
        from benchlens.app.store.server import ServerBackend  # the driver only when a server is named

        return ServerBackend(where, busy_timeout)
    return SqliteBackend(where, busy_timeout)


class Library(TrendTables):
    """A library: a file (the default) or a MariaDB/MySQL database (`mysql://...`, see
    app/store/target.py). `name` is how it is shown: the path or the URL, never a password.
    Trend's tables (tags, summaries, marks) are read and written by TrendTables' methods."""

    def __init__(self, target: str | Path) -> None:
        self.busy_timeout = BUSY_TIMEOUT_S
        self.db = connect(target, self.busy_timeout)
        self.conn = self.db.conn
        self.name = self.db.name
        self.path = self.db.path
        self.times = SharedTimes()  # the time arrays loaded and still in use, handed out again when equal
        try:
            ensure_schema(self.db)
        except NewerLibrary as e:
            self.db.close()
            raise LibraryError(f"{self.name}: {e}") from None
        except (self.db.Error, OSError) as e:
            self.db.close()
            if isinstance(e, self.db.Error) and self.db.busy(e):
                raise LibraryError(
                    f"{self.name} is busy ({e}): another benchlens held it for over {self.busy_timeout:g} s; "
                    "try again when it has finished"
                ) from None
            raise LibraryError(f"{self.name}: cannot open the library ({e})") from None

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> Library:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- runs ------------------------------------------------------------------------------------
    def runs(self, by: str = "", value: str | int | None = None) -> list[Run]:
        """Every run, or those whose `by` ('name', 'id', 'folder') is `value`; by start time."""
        where, params = _RUN_WHERE[by], (value,) if by else ()
        rows = self.conn.execute(f"SELECT {_RUN_SELECT} {_RUN_FROM}{where} ORDER BY r.start, r.id", params).fetchall()
        return [Run(*r) for r in rows]

    def run(self, ref: str | int) -> Run:
        """A run by id or by unique name."""
        text = str(ref)
        by_name = self.runs("name", text)
        if len(by_name) == 1:
            return by_name[0]
        if text.isdigit() and (by_id := self.runs("id", int(text))):
            return by_id[0]
        raise LibraryError(f"no run {text!r} in {self.name}")

    def run_by_folder(self, folder: str) -> Run | None:
        return next(iter(self.runs("folder", folder)), None)

    def run_names(self) -> set[str]:
        return {r[0] for r in self.conn.execute("SELECT name FROM runs")}

    def sources(self, run_id: int) -> list[SourceFile]:
        rows = self.conn.execute(
            "SELECT id, path, sha256, size, mtime_ns, format, variant, clock, warnings, meta FROM sources "
            "WHERE run_id = ? ORDER BY path",
            (run_id,),
        ).fetchall()
        return [
            SourceFile(
                r[0],
                r[1],
                r[2],
                r[3],
                r[4],
                r[5],
                r[6],
                r[7],
                warnings=[SourceWarning.from_json(w) for w in json.loads(r[8])],
                meta=SourceMeta.from_json(json.loads(r[9]), r[5]),
            )
            for r in rows
        ]

    def rename_run(self, run_id: int, name: str) -> None:
        try:
            self.conn.execute("UPDATE runs SET name = ? WHERE id = ?", (name, run_id))
        except self.db.Integrity:
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
            key = (s.format, s.metric, s.entity)
            merged[key] = merged[key].joined(s) if key in merged else s
        return list(merged.values())

    def find_series(self, run_id: int, fmt: str, metric: str, entity: str | None) -> SeriesInfo:
        found = [
            s
            for s in self.series(run_id)
            if s.format == fmt and s.metric == metric and (entity is None or s.entity == entity)
        ]
        if not found:
            raise LibraryError(f"no series {fmt}:{metric}" + (f":{entity}" if entity is not None else ""))
        if len(found) > 1:
            entities = ", ".join(repr(s.entity) for s in found[:8])
            raise LibraryError(f"{fmt}:{metric} has several entities ({entities}); choose one with --entity")
        return found[0]

    def load(self, series: int | SeriesInfo) -> tuple[np.ndarray, np.ndarray]:
        """Times (epoch s) and values of a series, as contiguous float64 arrays."""
        return load_many(self.conn, [series], self.times)[0]

    def load_many(self, series: Sequence[int | SeriesInfo]) -> list[tuple[np.ndarray, np.ndarray]]:
        """What load() gives for each series, read in a few queries (app/store/loading.py): the
        257 CPUs of a report at once, their one time array shared."""
        return load_many(self.conn, series, self.times)

    # ---- annotations: manual notes, and decisions on detected drops ----------------------------
    def annotations(self, run_id: int) -> list[Annotation]:
        rows = self.conn.execute(
            f"SELECT {_ANNOTATION_COLUMNS} FROM annotations WHERE run_id = ? ORDER BY start, id", (run_id,)
        ).fetchall()
        return [Annotation(*r) for r in rows]

    def annotation(self, ann_id: int) -> Annotation | None:
        row = self.conn.execute(f"SELECT {_ANNOTATION_COLUMNS} FROM annotations WHERE id = ?", (ann_id,)).fetchone()
        return Annotation(*row) if row else None

    def add_annotation(
        self, run_id: int, start: float, end: float, label: str, kind: str = "note", state: str = ""
    ) -> int:
        """A note or a drop decision, recorded with who made it (current_user()) and when."""
        if kind not in ("note", "drop") or not (end >= start):
            raise LibraryError("an annotation is a note or a drop decision over start <= end")
        cur = self.conn.execute(
            "INSERT INTO annotations (run_id, start, end, kind, state, label, created, author) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (run_id, start, end, kind, state, label, time.time(), current_user()),
        )
        return int(cur.lastrowid or 0)

    def update_annotation(self, ann_id: int, **fields: Any) -> None:
        """Change a note or a decision; who changed it last, and when, is recorded."""
        allowed = {"start", "end", "label", "state"}
        if not fields or set(fields) - allowed:
            raise LibraryError(f"annotation fields are {', '.join(sorted(allowed))}")
        fields = {**fields, "updated": time.time(), "updated_by": current_user()}
        sets = ", ".join(f"{k} = ?" for k in fields)  # keys checked above; values parameterised
        self.conn.execute(f"UPDATE annotations SET {sets} WHERE id = ?", (*fields.values(), ann_id))

    def delete_annotation(self, ann_id: int) -> None:
        self.conn.execute("DELETE FROM annotations WHERE id = ?", (ann_id,))

    # ---- saved views: a comparison's JSON spec by name ---------------------------------------------
    def save_view(self, name: str, spec: dict[str, Any]) -> None:
        try:
            self.db.save_view(name, json.dumps(spec), time.time())
        except self.db.Error as e:
            raise LibraryError(f"cannot save view {name!r}: {e}") from None

    def view_names(self) -> list[str]:
        """Saved views, the most recently saved first."""
        return [r[0] for r in self.conn.execute("SELECT name FROM views ORDER BY updated DESC")]

    def view(self, name: str) -> dict[str, Any] | None:
        row = self.conn.execute("SELECT spec FROM views WHERE name = ?", (name,)).fetchone()
        return dict(json.loads(row[0])) if row is not None else None

    def begin_import(self) -> ImportTxn:
        from benchlens.app.store.writer import ImportTxn

        return ImportTxn(self)
