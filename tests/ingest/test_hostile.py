"""Huge and hostile inputs, end to end through `benchlens import` in a subprocess (a generous
timeout catches a hang, never measures): a 100 MB line, FIFOs, symlink loops, device files, a
folder of 10,000 files, file names with newlines, bytes that are not UTF-8, terminal escapes and
bidi overrides. Each gets a clear outcome; names are printed escaped, one line each; nothing in a
folder is executed or unpickled; every SQL statement is parameterised.

(tests/ingest/test_skipped_files.py, test_garbage_lines.py and the other bad-input tests cover these
in-process at the API level; here the whole command runs.)"""

from __future__ import annotations

import ast
import builtins
import json
import marshal
import os
import pickle
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from benchlens.app.folder import _UNSAFE, shown
from benchlens.app.ingest import FolderError, Options, import_path
from benchlens.app.store import Library
from tests.conftest import FIXTURES, ROOT, run_series

sys.path.insert(0, str(ROOT / "bench"))
from robustness import WITH_HWM  # the CLI reporting its own peak RSS

RUN = FIXTURES / "runs" / "c_basic"
HANG = 300  # seconds: catches a hang only
pytestmark = pytest.mark.usefixtures("remove_big_files")  # inputs and libraries here are big


def benchlens(db: Path, *args: str) -> tuple[int, str, str, int]:
    """`benchlens import ARGS --db DB` in a fresh process: exit code, stdout, stderr and peak RSS
    (KiB). Its output is encoded as strict UTF-8: a name that cannot be encoded would raise."""
    hwm = db.parent / f"{db.name}.hwm"
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(db.parent),
        "PYTHONPATH": str(ROOT),
        "LANG": "C.UTF-8",
        "PYTHONIOENCODING": "utf-8:strict",
        "HWM_FILE": str(hwm),
    }
    cmd = [sys.executable, "-c", WITH_HWM, "import", *args, "--db", str(db)]
    try:
        p = subprocess.run(cmd, capture_output=True, cwd=ROOT, env=env, timeout=HANG)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"benchlens import {args} hung for {HANG} s") from None
    peak = int(hwm.read_text())
    hwm.unlink()
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8"), peak


def assert_clean_output(out: str, err: str) -> None:
    """No traceback, and no character that could break a line or rewrite the terminal."""
    assert "Traceback" not in err, err
    for line in (out + err).splitlines():
        assert not _UNSAFE.search(line), repr(line)


def run_folder(tmp_path: Path, name: str = "run") -> Path:
    return shutil.copytree(RUN, tmp_path / name)


# ---- a 100 MB line --------------------------------------------------------------------------------


def test_100_mb_line_in_a_capture(tmp_path: Path) -> None:
    """A 100 MB line (no monitor prints one) between the reports of vmstat.log: the import works,
    says the line was skipped, keeps every report, and the process never holds the line in memory."""
    d = run_folder(tmp_path)
    lines = (RUN / "vmstat.log").read_bytes().splitlines(keepends=True)
    with (d / "vmstat.log").open("wb") as f:
        f.writelines(lines[:8])
        for _ in range(100):
            f.write(b"7" * (1 << 20))
        f.write(b"\n")
        f.writelines(lines[8:])
    rc, out, err, rss = benchlens(tmp_path / "lib.sqlite", str(d), "--tz", "UTC")
    assert rc == 0, err
    assert_clean_output(out, err)
    assert "longer than 1 MiB" in out
    with Library(tmp_path / "lib.sqlite") as lib:
        plain = import_path(lib, shutil.copytree(RUN, tmp_path / "plain"), Options(tz="UTC"))
        got = run_series(lib, lib.run("run").id)
        want = run_series(lib, plain.id)
    assert set(got) == set(want)
    for key, (t, v) in want.items():
        assert np.array_equal(got[key][0], t) and np.array_equal(got[key][1], v, equal_nan=True), key
    assert rss < 400 << 10, f"peak RSS {rss >> 10} MiB for a 100 MB line"


def test_100_mb_file_of_one_line_alone(tmp_path: Path) -> None:
    """A 100 MB file that is a single line without a newline: one line saying it is not a known
    format, exit 1."""
    path = tmp_path / "blob.log"
    with path.open("wb") as f:
        for _ in range(100):
            f.write(b"x" * (1 << 20))
    rc, out, err, _ = benchlens(tmp_path / "lib.sqlite", str(path))
    assert rc == 1
    assert_clean_output(out, err)
    assert err.strip().splitlines() == [f"benchlens: {path}: nothing to import (blob.log: not a known format)"]


# ---- FIFOs, loops, devices ------------------------------------------------------------------------


def test_fifos_loops_and_devices_in_a_folder(tmp_path: Path) -> None:
    """A FIFO without a writer, a link to it, a folder linking to itself, a link loop, links to
    /dev/zero and /dev/urandom: each listed as skipped with a reason (none is opened, so nothing
    hangs or reads forever); the captures are imported."""
    d = run_folder(tmp_path)
    os.mkfifo(d / "pipe")
    os.symlink(d / "pipe", d / "pipe_link")
    os.symlink(d, d / "self")
    os.symlink(d / "loop_b", d / "loop_a")
    os.symlink(d / "loop_a", d / "loop_b")
    for dev in ("zero", "urandom"):
        if Path(f"/dev/{dev}").exists():
            os.symlink(f"/dev/{dev}", d / dev)
    rc, out, err, _ = benchlens(tmp_path / "lib.sqlite", str(d), "--json")
    assert rc == 0, err
    assert_clean_output(out, err)
    (run,) = json.loads(out)["runs"]
    assert sorted(s["path"] for s in run["sources"]) == ["iostat.log", "mpstat.log", "vmstat.log"]
    why = {s["path"]: s["reason"] for s in run["skipped"]}
    assert "not a regular file" in why["pipe"] and "not a regular file" in why["pipe_link"]
    assert "folder" in why["self"]
    assert "cannot read" in why["loop_a"] and "cannot read" in why["loop_b"]
    for dev in ("zero", "urandom"):
        if dev in why or Path(f"/dev/{dev}").exists():
            assert "not a regular file" in why[dev]


@pytest.mark.parametrize("target", ["fifo", "/dev/zero", "/dev/urandom", "/dev/null", "loop", "link_to_zero"])
def test_special_path_given_to_import_is_one_line(tmp_path: Path, target: str) -> None:
    """`benchlens import` of a FIFO, a device, a symlink loop or a link to a device: exit 1 and one
    line saying why, without waiting for a writer or reading the device."""
    if target == "fifo":
        path = tmp_path / "capture.log"
        os.mkfifo(path)
    elif target == "loop":
        path = tmp_path / "a"
        os.symlink(tmp_path / "b", path)
        os.symlink(path, tmp_path / "b")
    elif target == "link_to_zero":
        path = tmp_path / "zero.log"
        os.symlink("/dev/zero", path)
    else:
        path = Path(target)
    if target.startswith("/dev") and not path.exists():
        pytest.skip(f"no {target} here")
    rc, out, err, _ = benchlens(tmp_path / "lib.sqlite", str(path))
    assert rc == 1
    assert_clean_output(out, err)
    (line,) = err.strip().splitlines()
    assert line.startswith("benchlens: ")
    assert re.search(r"not a regular file|cannot resolve|no such file", line), line
    with Library(tmp_path / "lib.sqlite") as lib:
        assert lib.runs() == []


# ---- 10,000 files ---------------------------------------------------------------------------------


def test_folder_of_10000_files(tmp_path: Path) -> None:
    """10,000 entries (notes, empty files, binaries, sub-folders) around the three captures: the
    captures are imported, every other entry is listed as skipped with a reason, and a second
    import says unchanged."""
    d = run_folder(tmp_path)
    for k in range(9_997):
        kind = k % 4
        if kind == 0:
            (d / f"note{k:05d}.txt").write_text(f"run {k}: nothing special\n")
        elif kind == 1:
            (d / f"empty{k:05d}.log").write_bytes(b"")
        elif kind == 2:
            (d / f"core{k:05d}").write_bytes(bytes(range(256)))
        else:
            (d / f"sub{k:05d}").mkdir()
    db = tmp_path / "lib.sqlite"
    rc, out, err, _ = benchlens(db, str(d), "--json")
    assert rc == 0, err
    (run,) = json.loads(out)["runs"]
    assert sorted(s["path"] for s in run["sources"]) == ["iostat.log", "mpstat.log", "vmstat.log"]
    assert len(run["skipped"]) == 9_997
    assert all(s["reason"] for s in run["skipped"])
    rc, out, err, _ = benchlens(db, str(d))
    assert rc == 0, err
    lines = out.splitlines()
    assert lines[0].endswith("unchanged, 3 sources")
    assert sum(line.startswith("  skipped ") for line in lines) == 9_997


def test_folder_of_10000_junk_files_is_one_line(tmp_path: Path) -> None:
    d = tmp_path / "junk"
    d.mkdir()
    for k in range(10_000):
        (d / f"f{k:05d}.txt").write_text(f"notes {k}\n")
    rc, out, err, _ = benchlens(tmp_path / "lib.sqlite", str(d))
    assert rc == 1 and out == ""
    (line,) = err.strip().splitlines()
    assert "nothing to import" in line and "9997 more" in line


# ---- odd file names ---------------------------------------------------------------------------------

ODD_NAMES = {
    b"vm\nstat.log": "vm\\x0astat.log",  # a newline
    b"io\xffstat\xe9.log": "io\\xffstat\\xe9.log",  # bytes that are not UTF-8
    "\u202egol.tatspm".encode(): "\\u202egol.tatspm",  # a right-to-left override
    b"\x1b[2J\x1b[31mjunk\x07.txt": "\\x1b[2J\\x1b[31mjunk\\x07.txt",  # terminal escapes
    "notes \u200f\u061c.txt".encode(): "notes \\u200f\\u061c.txt",  # RTL and Arabic letter marks
    "שלום-עולם.txt".encode(): "שלום-עולם.txt",  # plain Hebrew: printable, kept as is
}


def odd_folder(tmp_path: Path, folder_name: bytes = b"odd\nrun\xfe") -> Path:
    d = os.path.join(os.fsencode(tmp_path), folder_name)
    os.mkdir(d)
    contents = {b"vm": RUN / "vmstat.log", b"io": RUN / "iostat.log", "\u202e".encode(): RUN / "mpstat.log"}
    for raw in ODD_NAMES:
        src = next((p for prefix, p in contents.items() if raw.startswith(prefix)), None)
        data = src.read_bytes() if src is not None else b"just some notes\n"
        with open(os.path.join(d, raw), "wb") as f:
            f.write(data)
    return Path(os.fsdecode(d))


def test_odd_file_names_are_printed_escaped(tmp_path: Path) -> None:
    """Names with a newline, non-UTF-8 bytes, ESC sequences, bidi overrides and marks: the import
    works, stdout (strict UTF-8) has one line per entry, each name escaped (\\x0a, \\xff, \\u202e),
    plain Hebrew kept as is."""
    d = odd_folder(tmp_path)
    rc, out, err, _ = benchlens(tmp_path / "lib.sqlite", str(d), "--tz", "UTC")
    assert rc == 0, err
    assert_clean_output(out, err)
    lines = out.splitlines()
    assert lines[0].startswith("run 1 'odd\\\\x0arun\\\\xfe': imported, 3 sources"), lines[0]
    for escaped in ODD_NAMES.values():
        assert sum(escaped in line for line in lines) == 1, (escaped, lines)
    assert sum(line.startswith("  skipped ") for line in lines) == 3


def test_odd_file_names_in_json_and_in_the_library(tmp_path: Path) -> None:
    """--json output is valid JSON with the escaped names; the library stores them (SQLite cannot
    store the raw undecodable bytes) and a re-import is a no-op."""
    d = odd_folder(tmp_path)
    db = tmp_path / "lib.sqlite"
    rc, out, err, _ = benchlens(db, str(d), "--tz", "UTC", "--json")
    assert rc == 0, err
    (run,) = json.loads(out)["runs"]
    names = {s["path"] for s in run["sources"]} | {s["path"] for s in run["skipped"]}
    assert names == set(ODD_NAMES.values())
    with Library(db) as lib:
        assert {s.path for s in lib.sources(run["id"])} == {s["path"] for s in run["sources"]}
    rc, out, err, _ = benchlens(db, str(d), "--tz", "UTC")
    assert rc == 0 and "unchanged" in out.splitlines()[0], err


def test_odd_name_in_an_error_is_one_escaped_line(tmp_path: Path) -> None:
    """A missing path and a folder of nothing importable, both with odd names: one escaped line."""
    missing = os.path.join(os.fsencode(tmp_path), b"no\nsuch\xff\x1b[2J")
    rc, out, err, _ = benchlens(tmp_path / "lib.sqlite", os.fsdecode(missing))
    assert rc == 1
    assert_clean_output(out, err)
    assert err.strip().splitlines() == [f"benchlens: {tmp_path}/no\\x0asuch\\xff\\x1b[2J: no such file or folder"]
    junk = os.path.join(os.fsencode(tmp_path), b"j\nunk")
    os.mkdir(junk)
    with open(os.path.join(junk, b"\x1b]0;title\x07.txt"), "wb") as f:
        f.write(b"notes\n")
    rc, out, err, _ = benchlens(tmp_path / "lib.sqlite", os.fsdecode(junk))
    assert rc == 1
    assert_clean_output(out, err)
    assert err.strip().splitlines() == [
        f"benchlens: {tmp_path}/j\\x0aunk: nothing to import (\\x1b]0;title\\x07.txt: not a known format)"
    ]


def test_shown_is_identity_for_plain_names_and_escapes_the_rest() -> None:
    assert shown("iostat-x_2026.11.22 (copy).log") == "iostat-x_2026.11.22 (copy).log"
    assert shown("naïve-Größe-日本.log") == "naïve-Größe-日本.log"
    for raw, escaped in ODD_NAMES.items():
        assert shown(os.fsdecode(raw)) == escaped
    assert shown("tab\there\r") == "tab\\x09here\\x0d"
    assert shown("\x85\u2066x\u2069") == "\\x85\\u2066x\\u2069"


# ---- nothing is executed or unpickled -------------------------------------------------------------


class _Trap:
    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (self.marker, "w"))


def trap_folder(tmp_path: Path, marker: Path) -> Path:
    """A run folder with files that would leave `marker` behind if executed or unpickled."""
    d = run_folder(tmp_path)
    touch = f"open({str(marker)!r}, 'w').close()\n"
    (d / "state.pkl").write_bytes(pickle.dumps(_Trap(str(marker))))
    (d / "state.pickle0").write_bytes(pickle.dumps(_Trap(str(marker)), protocol=0))  # text-like pickle
    (d / "arr.npy").write_bytes(b"\x93NUMPY\x01\x00v\x00{'descr': '|O', 'fortran_order': False, 'shape': (1,), }\n")
    (d / "code.marshal").write_bytes(marshal.dumps(compile(touch, "x", "exec")))
    for name in ("sitecustomize.py", "__init__.py", "conftest.py", "setup.py", "app.py"):
        (d / name).write_text(touch)
    (d / "evil.pth").write_text(f"import os; {touch}")
    script = d / "vmstat"
    script.write_text(f"#!/bin/sh\ntouch {marker}\n")
    script.chmod(0o755)
    (d / "$(touch EXECUTED).log").write_bytes((RUN / "vmstat.log").read_bytes())
    (d / "benchlens-run.json").write_text(json.dumps({"host": "__import__('os').system('touch x')", "utc_offset": 0}))
    return d


def test_nothing_in_a_folder_is_executed_or_unpickled(tmp_path: Path) -> None:
    """Pickles, a numpy object array, marshalled code, Python files, a .pth, an executable named
    vmstat, a name with $(...) and a run description with code in it: `benchlens import` leaves
    no marker behind, lists the binaries as skipped, and imports the captures."""
    marker = tmp_path / "EXECUTED"
    d = trap_folder(tmp_path, marker)
    rc, out, err, _ = benchlens(tmp_path / "lib.sqlite", str(d), "--json")
    assert rc == 0, err
    assert not marker.exists()
    assert not (d / "EXECUTED").exists() and not (ROOT / "EXECUTED").exists()
    (run,) = json.loads(out)["runs"]
    sources = sorted(s["path"] for s in run["sources"])
    why = {s["path"]: s["reason"] for s in run["skipped"]}
    # the odd name holds a copy of vmstat.log: one of the two is read, the other named a duplicate
    copies = ["vmstat.log", "$(touch EXECUTED).log"]
    (kept,) = set(sources) & set(copies)
    assert sources == sorted(["iostat.log", "mpstat.log", kept])
    assert why[next(c for c in copies if c != kept)].startswith(f"the same capture as {kept} (")
    for name in ("state.pkl", "state.pickle0", "arr.npy", "code.marshal", "sitecustomize.py", "evil.pth", "vmstat"):
        assert why[name], name  # listed as skipped, with a reason


def test_import_calls_no_loader_or_runner(lib: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same folder imported with every loader and runner booby-trapped: none is called."""
    marker = tmp_path / "EXECUTED"
    d = trap_folder(tmp_path, marker)
    called: list[str] = []

    def trap(name: str) -> Any:
        def f(*a: Any, **k: Any) -> Any:
            called.append(name)
            raise AssertionError(f"{name} called during an import")

        return f

    _ = np.ma  # numpy imports numpy.ma lazily (np.unique asks for it): its own bytecode, not the folder's
    for mod, names in (
        (pickle, ("load", "loads", "Unpickler")),
        (marshal, ("load", "loads")),
        (np, ("load",)),
        (subprocess, ("Popen", "run", "call", "check_output")),
        (os, ("system", "popen", "execv", "execve", "spawnv", "startfile")),
        (builtins, ("eval", "exec", "compile")),
    ):
        for name in names:
            if hasattr(mod, name):
                monkeypatch.setattr(mod, name, trap(f"{mod.__name__}.{name}"))
    try:
        rep = import_path(lib, d, Options(tz="UTC"))
    finally:
        monkeypatch.undo()
    assert called == []
    assert not marker.exists()
    assert len(rep.sources) == 3  # and the copy of vmstat.log named a duplicate


# ---- SQL is parameterised ---------------------------------------------------------------------------

# The only statements built from text at run time, and why each is safe.
ALLOWED = {
    ("app/store/library.py", "update_annotation"),  # column names checked against a fixed set
    ("app/store/library.py", "runs"),  # the column list of app.model.Run, from the code
    ("app/store/library.py", "annotations"),  # _ANNOTATION_COLUMNS, a constant of the module
    ("app/store/library.py", "annotation"),  # the same
    ("app/store/loading.py", "load_many"),  # `IN (?, ?, ...)`: one `?` per id, the ids as parameters
    ("app/store/migrations.py", "ensure_schema"),  # the statements of schema.sql, shipped with the code
    ("app/store/migrations.py", "_apply"),  # the statements of MIGRATIONS, in the code
    ("app/store/server.py", "execute"),  # the server connection passes its caller's statement on
    ("app/store/server.py", "executemany"),  # the same
}


def sql_calls(path: Path) -> list[tuple[str, int, ast.expr]]:
    tree = ast.parse(path.read_text(), str(path))
    found = []
    for fn in ast.walk(tree):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for node in ast.walk(fn):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("execute", "executemany", "executescript")
                and node.args
            ):
                found.append((fn.name, node.lineno, node.args[0]))
    return found


def literal(node: ast.expr) -> bool:
    """A string literal, or literals joined by +, or an f-string of only int() / constants."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return literal(node.left) and literal(node.right)
    if isinstance(node, ast.JoinedStr):
        return all(
            isinstance(v, ast.Constant)
            or (isinstance(v, ast.FormattedValue) and (isinstance(v.value, ast.Constant) or is_int_call(v.value)))
            for v in node.values
        )
    return False


def is_int_call(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "int"


def test_every_sql_statement_is_parameterised() -> None:
    """Every execute()/executemany() in app/ and importers/ gets a literal SQL text (values go as
    parameters), or is one of the reviewed exceptions above; a statement made with a variable or an
    f-string of data would fail here."""
    offenders = []
    seen = 0
    for path in sorted([*ROOT.glob("app/**/*.py"), *ROOT.glob("importers/**/*.py")]):
        rel = str(path.relative_to(ROOT))
        for fn, line, arg in sql_calls(path):
            seen += 1
            if literal(arg) or (rel, fn) in ALLOWED:
                continue
            offenders.append(f"{rel}:{line} in {fn}: {ast.unparse(arg)[:80]}")
    assert seen > 30
    assert offenders == []


def test_the_sql_check_catches_a_statement_built_from_data(tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text(
        "def f(conn, name):\n"
        "    conn.execute(f\"SELECT * FROM runs WHERE name = '{name}'\")\n"
        "    conn.execute('SELECT 1 WHERE x = ' + name)\n"
        "    conn.execute(f'PRAGMA user_version = {int(name)}')\n"
    )
    calls = sql_calls(bad)
    assert [literal(a) for _, _, a in calls] == [False, False, True]


def test_values_from_files_reach_sqlite_as_parameters(lib: Library, tmp_path: Path) -> None:
    """A file named like an injection and a run named like one are stored as plain text."""
    d = tmp_path / "x'); DROP TABLE runs; --"
    d.mkdir()
    shutil.copy(RUN / "vmstat.log", d / "'; DELETE FROM series; --.log")
    rep = import_path(lib, d, Options(tz="UTC", name="r'); DROP TABLE sources; --"))
    assert lib.run(rep.id).name == "r'); DROP TABLE sources; --"
    assert [s.path for s in lib.sources(rep.id)] == ["'; DELETE FROM series; --.log"]
    assert len(lib.series(rep.id)) == 17


def test_folder_error_for_odd_root_names_is_escaped(lib: Library, tmp_path: Path) -> None:
    with pytest.raises(FolderError) as e:
        import_path(lib, tmp_path / "miss\ning")
    assert "\n" not in str(e.value) and "miss\\x0aing" in str(e.value)
