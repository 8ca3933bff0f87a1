"""Writing one import: the transaction (ImportTxn) and the buffered series writer (SeriesSink)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import time
import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import TYPE_CHECKING, Any

import numpy as np

from benchlens.app.store.blobs import encode
from benchlens.app.store.errors import LibraryError
from benchlens.importers._tokens import ahead
from benchlens.importers._types import Block, SourceWarning

if TYPE_CHECKING:
    from benchlens.app.model import Run
    from benchlens.app.store.library import Library  # the library opens an import (begin_import); never the other way


class ImportTxn:
    """Everything one import writes, in one transaction: commit() or rollback(), nothing between.
    Used as a context manager: leaving the block without commit() undoes everything, and a database
    error (disk full, I/O error, the server gone ...) comes out as a one-line LibraryError, nothing
    written.

    On a server several imports run side by side, so two things wait for commit(): the run's name
    (the run is written under a placeholder no one else can take, and named unique just before
    COMMIT, trying the next free name if another import took it meanwhile) and, for a new run, the
    check that no other run holds the same content (finish_run, under the backend's content lock)."""

    def __init__(self, lib: Library) -> None:
        self.lib = lib
        self.db = lib.db
        self.conn = lib.conn
        self.name: str | None = None  # the name the run gets at commit
        self.requested = ""  # the name asked for (part of the content hash)
        self.run_id: int | None = None
        self.new_run = False
        try:
            self.db.begin()
        except self.db.Error as e:
            if not self.db.busy(e):
                raise LibraryError(f"{lib.name}: cannot start the import ({e})") from None
            raise LibraryError(
                f"{lib.name} is busy ({e}): another import has been writing to it for over "
                f"{lib.busy_timeout:g} s; try again when it has finished"
            ) from None
        self.open = True

    def __enter__(self) -> ImportTxn:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.rollback()  # nothing to undo after commit()
        if isinstance(error, self.db.Error):
            raise LibraryError(f"{self.lib.name}: the import was not written ({error})") from None

    def upsert_run(self, folder: str, name: str, existing: Run | None) -> int:
        now = time.time()
        self.requested = name
        if existing is not None:
            self.conn.execute("DELETE FROM sources WHERE run_id = ?", (existing.id,))
            self.conn.execute("UPDATE runs SET imported = ? WHERE id = ?", (now, existing.id))
            self.name = name if name != existing.name else None
            self.run_id = existing.id
            return existing.id
        cur = self.conn.execute(
            "INSERT INTO runs (name, folder, imported) VALUES (?, ?, ?)",
            (_placeholder(), folder, now),
        )
        self.name, self.run_id, self.new_run = name, int(cur.lastrowid or 0), True
        return self.run_id

    def new_run_row(self, name: str, fields: tuple[Any, ...], content: str) -> int:
        """A run copied from another library: folder, host, kernel, cpus, start, end, bench_start,
        bench_end, tz, notes, imported as they were there (app/store/copy.py)."""
        cur = self.conn.execute(
            "INSERT INTO runs (name, folder, host, kernel, cpus, start, end, bench_start, bench_end, tz, notes, "
            "imported, content) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (_placeholder(), *fields, content),
        )
        self.name = self.requested = name
        self.run_id, self.new_run = int(cur.lastrowid or 0), True
        return self.run_id

    def _unique(self, name: str) -> str:
        taken = {r[0] for r in self.conn.execute("SELECT name FROM runs WHERE id <> ?", (self.run_id,))}
        if name not in taken:
            return name
        k = 2
        while f"{name} ({k})" in taken:
            k += 1
        return f"{name} ({k})"

    def _claim_name(self) -> None:
        """The run's final name, unique; another import may take the same one between our look and
        our write (a server): then the next free one."""
        if self.name is None or self.run_id is None:
            return
        for _ in range(100):
            try:
                self.conn.execute("UPDATE runs SET name = ? WHERE id = ?", (self._unique(self.name), self.run_id))
                return
            except self.db.Integrity:
                continue
        raise LibraryError(f"{self.lib.name}: no free run name like {self.name!r}")

    def add_source(self, run_id: int, path: str, size: int, mtime_ns: int, fmt: str) -> int:
        cur = self.conn.execute(
            "INSERT INTO sources (run_id, path, sha256, size, mtime_ns, format) VALUES (?, ?, '', ?, ?, ?)",
            (run_id, path, size, mtime_ns, fmt),
        )
        return int(cur.lastrowid or 0)

    def finish_source(
        self,
        source_id: int,
        sha256: str,
        variant: str,
        clock: str,
        warnings: list[SourceWarning],
        meta: dict[str, Any],
    ) -> None:
        """The rest of a source once read: warnings as a JSON list of SourceWarning.to_json()
        records, meta (SourceMeta.to_json()) as given."""
        records = [w.to_json() for w in warnings]
        self.conn.execute(
            "UPDATE sources SET sha256 = ?, variant = ?, clock = ?, warnings = ?, meta = ? WHERE id = ?",
            (sha256, variant, clock, json.dumps(records), json.dumps(meta, default=str), source_id),
        )

    def source_span(self, source_id: int) -> tuple[float | None, float | None]:
        """First and last time of a source's series as written so far (None, None without samples)."""
        row = self.conn.execute("SELECT min(start), max(end) FROM series WHERE source_id = ?", (source_id,)).fetchone()
        return row[0], row[1]

    def source_hashes(self, run_id: int) -> list[tuple[str, str]]:
        """(path, sha256) of every source of the run written so far."""
        rows = self.conn.execute("SELECT path, sha256 FROM sources WHERE run_id = ?", (run_id,)).fetchall()
        return [(str(p), str(h)) for p, h in rows]

    def finish_run(self, run_id: int, fields: dict[str, Any]) -> Run | None:
        """The run's span, host facts and content hash. A new run whose content another run holds
        already (the same folder imported on another machine, or before under another path) gives
        that run back: the caller rolls back and reports it unchanged."""
        span = self.conn.execute(
            "SELECT min(se.start), max(se.end) FROM series se JOIN sources so ON so.id = se.source_id "
            "WHERE so.run_id = ?",
            (run_id,),
        ).fetchone()
        bench = fields.get("bench") or (None, None)
        content = content_hash(self.requested, fields.get("tz"), self.source_hashes(run_id))
        self.conn.execute(
            "UPDATE runs SET host = ?, kernel = ?, cpus = ?, tz = ?, start = ?, end = ?, bench_start = ?, "
            "bench_end = ?, content = ? WHERE id = ?",
            (
                fields.get("host"),
                fields.get("kernel"),
                fields.get("cpus"),
                fields.get("tz"),
                span[0],
                span[1],
                bench[0],
                bench[1],
                content,
                run_id,
            ),
        )
        return self.same_content(run_id, content) if self.new_run else None

    def same_content(self, run_id: int, content: str) -> Run | None:
        """Another run holding this content, committed (looked up under the content lock, kept
        until this import commits or rolls back)."""
        self.db.content_lock(content)
        row = self.conn.execute("SELECT id FROM runs WHERE content = ? AND id <> ?", (content, run_id)).fetchone()
        return self.lib.run(int(row[0])) if row is not None else None

    def shift_source(self, source_id: int, delta: float) -> None:
        """Move every time of a source (files without times placed after parsing)."""
        for tid, blob in self.conn.execute("SELECT id, t FROM times WHERE source_id = ?", (source_id,)).fetchall():
            t = np.frombuffer(blob, "<f8") + delta
            self.conn.execute("UPDATE times SET t = ? WHERE id = ?", (t.astype("<f8").tobytes(), tid))
        self.conn.execute(
            "UPDATE series SET start = start + ?, end = end + ? WHERE source_id = ?", (delta, delta, source_id)
        )

    # One file of the import can be undone alone (its bytes turned out unreadable half-way).
    def savepoint(self) -> None:
        self.conn.execute("SAVEPOINT import_file")

    def release_savepoint(self) -> None:
        self.conn.execute("RELEASE SAVEPOINT import_file")

    def rollback_to_savepoint(self) -> None:
        self.conn.execute("ROLLBACK TO SAVEPOINT import_file")
        self.conn.execute("RELEASE SAVEPOINT import_file")

    def commit(self) -> None:
        if self.open:
            self._claim_name()
            self.db.commit()
            self.open = False
            self.db.release_content_lock()

    def rollback(self) -> None:
        """Undo everything; safe after the database rolled back by itself (disk full, I/O error)."""
        if self.open:
            self.open = False
            try:
                self.db.rollback()
            finally:
                self.db.release_content_lock()


def _placeholder() -> str:
    """A run's name until its import commits: unique, and never a name a user gives."""
    return f"\x00import {uuid.uuid4().hex}"


def content_hash(name: str, tz: str | None, files: list[tuple[str, str]]) -> str:
    """What makes two imports the same run: its name, the clock it was read with and the
    (path, sha256) of its files."""
    return hashlib.sha256(json.dumps([name, tz, sorted(files)]).encode()).hexdigest()


def _joined(parts: list[np.ndarray]) -> np.ndarray:
    """One little-endian float64 array of the parts, copied only when they are not one already."""
    whole = parts[0] if len(parts) == 1 else np.concatenate(parts)
    return np.ascontiguousarray(whole, "<f8")


def _block_bytes(b: Block) -> int:
    return len(b.t) * 8 * (1 + len(b.values))


@dataclass
class _Stat:
    n: int = 0
    start: float | None = None
    end: float | None = None
    seq: int = 0


class SeriesSink:
    """Buffers blocks of one source and writes them as chunks: every metric of a block shares one
    stored time array, and so do entities sampled at the same instants. Memory stays bounded:
    buffers are flushed past FLUSH_POINTS per group or MAX_BYTES in all, and the importer runs at
    most MAX_BYTES of blocks ahead (add())."""

    FLUSH_POINTS = 1 << 18
    MAX_BYTES = 64 << 20
    SHARED_TIMES = 8  # time arrays kept to find an entity sampled at the same instants as another

    def __init__(self, txn: ImportTxn, source_id: int, units: dict[str, str]) -> None:
        self.conn = txn.conn
        self.max_points = txn.db.max_chunk_points
        self.views = txn.db.blob_views
        self.source_id = source_id
        self.units = units
        self.pending: dict[tuple[str, tuple[str, ...]], list[Block]] = {}
        self.pending_points: dict[tuple[str, tuple[str, ...]], int] = {}
        self.bytes = 0
        self.ids: dict[tuple[str, str], int] = {}
        self.stats: dict[int, _Stat] = {}
        self.samples = 0
        self.written: dict[tuple[int, bytes, bytes], list[tuple[np.ndarray, int]]] = {}
        self.kept: list[tuple[int, bytes, bytes]] = []  # the keys of `written`, oldest first

    def add(self, blocks: Iterable[Block]) -> None:
        """Store the blocks as they come. The importer runs ahead in a thread of its own (ahead()),
        by up to MAX_BYTES of blocks: its numpy work goes on while a flush writes (sqlite3 lets go of
        the GIL while it writes). A flush writes MAX_BYTES at once; one block ahead, the importer
        waited for each flush to end (2M diskstats lines, 7 devices a flush: 0.57 s for the series'
        numbers and SQL against 0.45 s). The blocks, their order and so the chunks are as without
        the thread."""
        with contextlib.closing(ahead(blocks, self.MAX_BYTES, "benchlens-blocks", _block_bytes)) as got:
            self._add(got)

    def _add(self, blocks: Iterable[Block]) -> None:
        for b in blocks:
            if len(b.t) == 0:
                continue
            key = (b.entity, tuple(b.values))
            self.pending.setdefault(key, []).append(b)
            self.pending_points[key] = self.pending_points.get(key, 0) + len(b.t)
            self.bytes += _block_bytes(b)
            if self.pending_points[key] >= self.FLUSH_POINTS:
                self._flush(key)
            if self.bytes > self.MAX_BYTES:
                for k in list(self.pending):
                    self._flush(k)

    def close(self) -> tuple[int, int]:
        for k in list(self.pending):
            self._flush(k)
        for sid, st in self.stats.items():
            self.conn.execute("UPDATE series SET n = ?, start = ?, end = ? WHERE id = ?", (st.n, st.start, st.end, sid))
        return len(self.stats), self.samples

    def _flush(self, key: tuple[str, tuple[str, ...]]) -> None:
        blocks = self.pending.pop(key)
        npts = self.pending_points.pop(key)
        entity, metrics = key
        self.bytes -= npts * 8 * (1 + len(metrics))
        t = _joined([b.t for b in blocks])
        values = {m: _joined([b.values[m] for b in blocks]) for m in metrics}
        del blocks
        step = self.max_points or len(t)
        for k in range(0, len(t), step):  # a server takes BLOBs up to its max_allowed_packet
            self._write(entity, t[k : k + step], {m: v[k : k + step] for m, v in values.items()})

    def _times_id(self, t: np.ndarray) -> int:
        """The stored row of this time array: one written before for another entity of this source
        when it holds the same instants (mpstat -P ALL's CPUs, iostat's devices: one row for all,
        not one each), else a new one. The last SHARED_TIMES arrays written are kept to compare."""
        key = (len(t), t[:2].tobytes(), t[-2:].tobytes())
        for seen, tid in self.written.get(key, []):
            if seen is t or np.array_equal(seen, t):
                return tid
        cur = self.conn.execute("INSERT INTO times (source_id, t) VALUES (?, ?)", (self.source_id, t.tobytes()))
        tid = int(cur.lastrowid or 0)
        self.written.setdefault(key, []).append((t, tid))
        self.kept.append(key)
        while len(self.kept) > self.SHARED_TIMES:
            self.written[self.kept.pop(0)].pop(0)
        return tid

    def _write(self, entity: str, t: np.ndarray, values: dict[str, np.ndarray]) -> None:
        tid = self._times_id(t)
        finite = t[np.isfinite(t)]
        lo = float(finite.min()) if finite.size else None
        hi = float(finite.max()) if finite.size else None
        rows = []
        for m, v in values.items():
            sid = self._series_id(m, entity)
            st = self.stats[sid]
            st.n += len(v)
            if lo is not None and hi is not None:
                st.start = lo if st.start is None else min(st.start, lo)
                st.end = hi if st.end is None else max(st.end, hi)
            data, scale = encode(v)
            rows.append((sid, st.seq, tid, scale, data.data if self.views else data.tobytes()))
            st.seq += 1
            self.samples += len(v)
        self.conn.executemany("INSERT INTO chunks (series_id, seq, times_id, scale, v) VALUES (?, ?, ?, ?, ?)", rows)

    def _series_id(self, metric: str, entity: str) -> int:
        sid = self.ids.get((metric, entity))
        if sid is None:
            cur = self.conn.execute(
                "INSERT INTO series (source_id, metric, entity, unit) VALUES (?, ?, ?, ?)",
                (self.source_id, metric, entity, self.units.get(metric, "")),
            )
            sid = self.ids[(metric, entity)] = int(cur.lastrowid or 0)
            self.stats[sid] = _Stat()
        return sid
