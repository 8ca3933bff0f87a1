"""What trend keeps in the library (schema step 3): run tags, each run's steady-state summary of
a metric, and the marks users put on runs in a trend (a known shift, a run left out) with who did
it. The same statements serve the file and the server; reads join `runs` so a row of a run
deleted on a server without foreign keys enforced is never seen."""

from __future__ import annotations

import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from benchlens.app.store.errors import LibraryError

MARKS = ("shift", "out")  # a known shift (the history is split there); a run left out of trend
MAX_TAG = 255  # a tag's name, as the column holds it


@dataclass(frozen=True)
class SummaryRow:
    run_id: int
    name: str
    start: float | None
    host: str | None
    n: int
    stats: Mapping[str, float | None]  # median, mean, p95, p99
    facts: dict[str, Any]


@dataclass(frozen=True)
class Mark:
    run_id: int
    kind: str
    author: str
    created: float


class TrendTables:
    """Mixed into Library: `conn`, `db` and `name` are the library's."""

    conn: Any
    db: Any
    name: str

    # ---- tags -------------------------------------------------------------------------------------
    def set_tags(self, run_id: int, tags: dict[str, str]) -> None:
        """Set each tag; an empty value clears it. One transaction."""
        for key in tags:
            if not key or len(key) > MAX_TAG or key != key.strip():
                raise LibraryError(f"a tag name is 1-{MAX_TAG} characters without surrounding spaces: {key!r}")
        self._write(lambda: self.put_tags(run_id, tags))

    def put_tags(self, run_id: int, tags: dict[str, str]) -> None:
        """Set tags inside the caller's transaction (an import's: benchlens-run.json's "tags")."""
        for key, value in tags.items():
            self.conn.execute("DELETE FROM run_tags WHERE run_id = ? AND name = ?", (run_id, key))
            if value != "":
                self.conn.execute("INSERT INTO run_tags (run_id, name, value) VALUES (?, ?, ?)", (run_id, key, value))

    def tags(self, run_id: int | None = None) -> dict[int, dict[str, str]]:
        """{run id: {tag: value}} of every run, or of one."""
        if run_id is None:
            rows = self.conn.execute(
                "SELECT t.run_id, t.name, t.value FROM run_tags t JOIN runs r ON r.id = t.run_id ORDER BY t.name"
            )
        else:
            rows = self.conn.execute(
                "SELECT run_id, name, value FROM run_tags WHERE run_id = ? ORDER BY name", (run_id,)
            )
        out: dict[int, dict[str, str]] = {}
        for rid, key, value in rows:
            out.setdefault(int(rid), {})[str(key)] = str(value)
        return out

    # ---- summaries --------------------------------------------------------------------------------
    def put_summary(self, run_id: int, metric: str, n: int, stats: dict[str, float], facts: dict[str, Any]) -> None:
        """A run's summary of `metric` (replacing the one before); inside the caller's transaction."""
        clean = {k: (v if v == v and abs(v) != float("inf") else None) for k, v in stats.items()}
        self.conn.execute("DELETE FROM run_summaries WHERE run_id = ? AND metric = ?", (run_id, metric))
        self.conn.execute(
            "INSERT INTO run_summaries (run_id, metric, n, median, mean, p95, p99, facts, computed) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                run_id,
                metric,
                n,
                clean["median"],
                clean["mean"],
                clean["p95"],
                clean["p99"],
                json.dumps(facts, sort_keys=True),
                time.time(),
            ),
        )

    def save_summaries(self, rows: list[tuple[int, str, int, dict[str, float], dict[str, Any]]]) -> None:
        """Summaries computed for runs that had none (a library from before step 3), in one transaction."""

        def put() -> None:
            for r in rows:
                self.put_summary(*r)

        self._write(put)

    def summaries(self, metric: str) -> tuple[list[SummaryRow], list[int]]:
        """Every run with its summary of `metric` (by start), and the ids of runs without one."""
        rows = self.conn.execute(
            "SELECT r.id, r.name, r.start, r.host, s.n, s.median, s.mean, s.p95, s.p99, s.facts "
            "FROM runs r LEFT JOIN run_summaries s ON s.run_id = r.id AND s.metric = ? ORDER BY r.start, r.id",
            (metric,),
        ).fetchall()
        have, missing = [], []
        for r in rows:
            if r[4] is None:
                missing.append(int(r[0]))
                continue
            stats = dict(zip(("median", "mean", "p95", "p99"), r[5:9], strict=True))
            have.append(SummaryRow(int(r[0]), str(r[1]), r[2], r[3], int(r[4]), stats, json.loads(r[9])))
        return have, missing

    # ---- marks ------------------------------------------------------------------------------------
    def set_mark(self, run_id: int, kind: str, on: bool, author: str) -> None:
        if kind not in MARKS:
            raise LibraryError(f"a trend mark is one of {', '.join(MARKS)}")

        def put() -> None:
            self.conn.execute("DELETE FROM trend_marks WHERE run_id = ? AND kind = ?", (run_id, kind))
            if on:
                self.conn.execute(
                    "INSERT INTO trend_marks (run_id, kind, author, created) VALUES (?, ?, ?, ?)",
                    (run_id, kind, author, time.time()),
                )

        self._write(put)

    def marks(self) -> list[Mark]:
        rows = self.conn.execute(
            "SELECT m.run_id, m.kind, m.author, m.created FROM trend_marks m JOIN runs r ON r.id = m.run_id "
            "ORDER BY m.created"
        ).fetchall()
        return [Mark(int(r[0]), str(r[1]), str(r[2]), float(r[3])) for r in rows]

    # ---- one write transaction ----------------------------------------------------------------------
    def _write(self, work: Any) -> None:
        try:
            self.db.begin()
        except self.db.Error as e:
            raise LibraryError(f"{self.name}: cannot write ({e})") from None
        try:
            work()
            self.db.commit()
        except self.db.Error as e:
            self.db.rollback()
            raise LibraryError(f"{self.name}: not written ({e})") from None
        except BaseException:
            self.db.rollback()
            raise
