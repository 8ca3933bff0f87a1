"""Helpers of the bad-input tests (PRODUCT.md "What bad input gets"): tests/ingest/test_skipped_files.py,
test_garbage_lines.py, test_truncated_files.py, test_line_ends_and_decimal_comma.py,
test_failed_import_and_reimport.py and tests/cli/test_cli_errors.py. Every hostile input is built in
tmp_path from the real captures of tests/fixtures/runs/c_basic (and the locale captures)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from benchlens.app.ingest import Options, RunReport, import_path
from benchlens.app.model import Run
from benchlens.app.store import Library
from benchlens.importers._types import RawClock, SourceWarning
from tests.conftest import FIXTURES, make_folder, snapshot

RUN = FIXTURES / "runs" / "c_basic"
FORMATS = ("iostat", "vmstat", "mpstat")
UTC = Options(tz="UTC")

# A line index (0-based, in the clean file) between two reports or two rows: a line inserted
# there breaks no header/value pairing, so the clean file's values must all survive.
NEUTRAL = {"iostat": 9, "vmstat": 8, "mpstat": 6}


def clean(fmt: str) -> bytes:
    return (RUN / f"{fmt}.log").read_bytes()


def import_one(lib: Library, tmp_path: Path, name: str, fmt: str, data: bytes) -> RunReport:
    """Import `data` as the only file (`<fmt>.log`) of a folder, read as UTC."""
    return import_path(lib, make_folder(tmp_path, name, {f"{fmt}.log": data}), UTC)


def says_cut(warnings: list[SourceWarning]) -> bool:
    """Some warning tells the user the last line was cut."""
    return any("cut" in w.text.lower() for w in warnings)


def line_numbers(warnings: list[SourceWarning]) -> set[int]:
    return {w.line for w in warnings if w.line is not None}


def insert_line(data: bytes, index: int, line: bytes) -> bytes:
    lines = data.split(b"\n")
    lines.insert(index, line)
    return b"\n".join(lines)


def last_data_line(data: bytes) -> tuple[int, int]:
    """(start, end) byte offsets of the last line that starts a table row (digit or indented)."""
    body = data.rstrip(b"\n")
    end = len(body)
    while True:
        start = body.rfind(b"\n", 0, end) + 1
        line = body[start:end]
        if re.match(rb"\s*\d", line) and not line.startswith(b"Average"):
            return start, end
        end = start - 1


def orphans(lib: Library) -> dict[str, int]:
    q = {
        "runs without sources": "SELECT count(*) FROM runs WHERE id NOT IN (SELECT run_id FROM sources)",
        "sources": "SELECT count(*) FROM sources WHERE run_id NOT IN (SELECT id FROM runs)",
        "series": "SELECT count(*) FROM series WHERE source_id NOT IN (SELECT id FROM sources)",
        "times": "SELECT count(*) FROM times WHERE source_id NOT IN (SELECT id FROM sources)",
        "chunks": "SELECT count(*) FROM chunks WHERE series_id NOT IN (SELECT id FROM series) "
        "OR times_id NOT IN (SELECT id FROM times)",
    }
    return {k: n for k, sql in q.items() if (n := lib.conn.execute(sql).fetchone()[0])}


def assert_untouched(lib: Library, before: dict[str, list[tuple[Any, ...]]], runs: list[Run]) -> None:
    """The library is exactly as `snapshot(lib.conn)` and `lib.runs()` found it, with no leftovers."""
    assert not lib.conn.in_transaction
    assert lib.runs() == runs
    assert snapshot(lib.conn) == before
    assert orphans(lib) == {}


def raising_after(real: Any, blocks: int, exc: BaseException) -> Any:
    """A parse() that yields `blocks` blocks of the real import, then raises (the head probe, which
    runs with a RawClock, is left alone)."""

    def parse(chunks: Iterator[bytes], ctx: Any) -> Iterator[Any]:
        if isinstance(ctx.clock, RawClock):
            yield from real(chunks, ctx)
            return
        for k, block in enumerate(real(chunks, ctx)):
            if k == blocks:
                raise exc
            yield block

    return parse
