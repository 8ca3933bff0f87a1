"""Huge and hostile inputs, end to end: `python bench/robustness.py [--quick] [--gb G] [--tmp DIR]`.

Every case makes its input in a temporary folder (removed at the end, big files included), runs
`benchlens import --json` (python -m benchlens.app.cli) on it in a subprocess, and prints one row: the
input, the outcome, the wall time, the peak RSS of the import process (os.wait4, the largest of
the processes for the concurrent case), and whether the library is intact: PRAGMA
integrity_check and foreign_key_check pass, no orphan rows, and exactly the runs expected (none
of a refused or killed import).

Cases: a 2 GiB iostat -x capture streamed (made here, with progress); a 100 MB single line; a
FIFO; symlink loops; /dev/zero; a folder of 10,000 small captures; the capture compressed with
gzip, xz and zstd; decompression bombs (1 GB of zeros behind a real head, gzip and xz); kill -9 in
the middle of an import (when half the file was read) then a re-import; two imports into one
library at once. --quick makes everything ~10x smaller (under a minute here).
Targets (PRODUCT.md): bad input never gives a traceback or a half-written library; a 2 GB file
imports in < 500 MB RSS.
"""

from __future__ import annotations

import argparse
import gzip
import importlib.util
import json
import lzma
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
RUN = ROOT / "tests" / "fixtures" / "runs" / "c_basic"
TIMEOUT = 1800  # seconds for one import: only stops a hang
MiB = 1 << 20


@dataclass
class Row:
    case: str
    outcome: str
    secs: float
    rss_mb: float
    intact: str


@dataclass
class Done:
    rc: int
    out: str
    err: str
    secs: float
    rss_mb: float
    killed_at: float | None = None  # fraction of the input read when killed


def status(text: str) -> None:
    """A progress line on stderr, overwritten by the next one."""
    sys.stderr.write(f"\r\033[K{text}")
    sys.stderr.flush()


def rchar(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/io").read_text().splitlines():
            if line.startswith("rchar:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


# `python -m benchlens.app.cli ARGS` writing its peak RSS (VmHWM, KiB) to $HWM_FILE at exit. Not the rusage
# of the child: Linux carries the parent's peak RSS into the child's across fork + exec.
WITH_HWM = """
import atexit, os, runpy, sys
def hwm():
    with open("/proc/self/status") as f, open(os.environ["HWM_FILE"], "w") as out:
        out.write(next(line for line in f if line.startswith("VmHWM:")).split()[1])
atexit.register(hwm)
sys.argv = ["benchlens", *sys.argv[1:]]
runpy.run_module("benchlens.app.cli", run_name="__main__", alter_sys=True)
"""


def vm_hwm(pid: int) -> int:
    """Peak RSS (KiB) of a running process so far (what is known of one that gets killed)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


@dataclass
class Proc:
    p: subprocess.Popen[bytes]
    out: Any
    err: Any
    hwm: Path
    t0: float
    seen_hwm: int = 0


def start(args: list[str], db: Path, hwm: Path) -> Proc:
    out, err = tempfile.TemporaryFile(), tempfile.TemporaryFile()  # noqa: SIM115 (closed by finish())
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HWM_FILE": str(hwm)}
    cmd = [sys.executable, "-c", WITH_HWM, "import", *args, "--db", str(db), "--json"]
    p = subprocess.Popen(cmd, stdout=out, stderr=err, cwd=ROOT, env=env)
    return Proc(p, out, err, hwm, time.perf_counter())


def finish(proc: Proc, wait_status: int) -> Done:
    rc = proc.p.returncode = os.waitstatus_to_exitcode(wait_status)
    secs = time.perf_counter() - proc.t0
    proc.out.seek(0)
    proc.err.seek(0)
    out, err = proc.out.read().decode(), proc.err.read().decode()
    proc.out.close()
    proc.err.close()
    peak = int(proc.hwm.read_text()) if proc.hwm.exists() else proc.seen_hwm  # killed: the last seen
    proc.hwm.unlink(missing_ok=True)
    return Done(rc, out, err, secs, peak / 1024)


def run_import(args: list[str], db: Path, label: str, size: int = 0, kill_at: float | None = None) -> Done:
    """One `benchlens import`, with a progress line from /proc (bytes read of `size`); killed with
    SIGKILL once `kill_at` of `size` was read."""
    proc = start(args, db, Path(f"{db}.hwm"))
    killed = None
    while True:
        pid, st = os.waitpid(proc.p.pid, os.WNOHANG)
        if pid:
            break
        proc.seen_hwm = max(proc.seen_hwm, vm_hwm(proc.p.pid))
        read = rchar(proc.p.pid)
        elapsed = time.perf_counter() - proc.t0
        if size:
            status(f"{label}: {min(read, size) / MiB:,.0f} of {size / MiB:,.0f} MiB read, {elapsed:.0f} s")
        if kill_at is not None and killed is None and read >= kill_at * size:
            os.kill(proc.p.pid, signal.SIGKILL)
            killed = read / size
        if elapsed > TIMEOUT:
            os.kill(proc.p.pid, signal.SIGKILL)
        time.sleep(0.1)
    status("")
    done = finish(proc, st)
    done.killed_at = killed
    return done


def library_check(db: Path, expect: set[str]) -> str:
    """'yes' when the file passes SQLite's checks, has no orphan rows and holds exactly the runs
    expected; else what is wrong."""
    if not db.exists():
        return "yes (no file)" if not expect else "NO: no library"
    conn = sqlite3.connect(db)
    try:
        if conn.execute("PRAGMA integrity_check").fetchall() != [("ok",)]:
            return "NO: integrity_check"
        if conn.execute("PRAGMA foreign_key_check").fetchall():
            return "NO: foreign keys"
        if not conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'runs'").fetchone()[0]:
            return "yes (empty)" if not expect else "NO: no tables"
        orphans = {
            "run without sources": "SELECT count(*) FROM runs WHERE id NOT IN (SELECT run_id FROM sources)",
            "source without series": "SELECT count(*) FROM sources WHERE id NOT IN (SELECT source_id FROM series)",
            "series without chunks": "SELECT count(*) FROM series WHERE n > 0 "
            "AND id NOT IN (SELECT series_id FROM chunks)",
            "chunks without series": "SELECT count(*) FROM chunks WHERE series_id NOT IN (SELECT id FROM series)",
        }
        for what, sql in orphans.items():
            if conn.execute(sql).fetchone()[0]:
                return f"NO: {what}"
        names = {r[0] for r in conn.execute("SELECT name FROM runs")}
        if names != expect:
            return f"NO: runs {sorted(names)}, expected {sorted(expect)}"
        return "yes"
    finally:
        conn.close()


def outcome(d: Done) -> str:
    if d.rc == 0:
        rep = json.loads(d.out)
        runs = rep["runs"]
        n_src = sum(len(r["sources"]) for r in runs)
        samples = sum(s["samples"] for r in runs for s in r["sources"])
        skipped = sum(len(r["skipped"]) for r in runs)
        notes = {
            w for r in runs for s in r["sources"] for w in s["warnings"] if "longer than" in w or "ends early" in w
        }
        text = f"imported: {n_src} source{'s' * (n_src != 1)}, {samples:,} samples"
        text += f", {skipped:,} skipped" if skipped else ""
        return text + "".join(f"; {n[:60]}" for n in sorted(notes))
    if d.rc < 0:
        return f"killed by signal {-d.rc}"
    lines = d.err.strip().splitlines()
    tb = " TRACEBACK" if "Traceback" in d.err else ""
    last = lines[-1].removeprefix("benchlens: ") if lines else "(no message)"
    last = last.replace(" (decompress it yourself if it is a genuine capture)", "")
    if ": nothing to import (" in last:  # the reason of the one file, without the folder's name
        last = "nothing to import: " + last.split(": nothing to import (", 1)[1].removesuffix(")")
    return f"exit {d.rc}{tb}: {last}"


def short(text: str, root: Path) -> str:
    return text.replace(str(root) + "/", "")


# ---- inputs ------------------------------------------------------------------------------------

IOSTAT_HDR = (
    "Device            r/s     rkB/s   rrqm/s  %rrqm r_await rareq-sz     w/s     wkB/s   wrqm/s  %wrqm w_await "
    "wareq-sz     d/s     dkB/s   drqm/s  %drqm d_await dareq-sz     f/s f_await  aqu-sz  %util"
)


def make_iostat(path: Path, size: int, label: str, seed: int = 1) -> None:
    """An `iostat -x -t 1` capture (sysstat 12.x columns, 8 devices) of about `size` bytes."""
    rng = random.Random(seed)
    devs = [f"sd{chr(97 + i)}" for i in range(6)] + ["dm-0", "nvme0n1"]
    blocks = []
    for _ in range(64):
        rows = []
        for d in devs:
            vals = [rng.choice((0.0, rng.random() * 100, rng.random() * 50000)) for _ in range(22)]
            rows.append(f"{d:<12}" + "".join(f" {v:8.2f}" for v in vals))
        cpu = [rng.random() * 40, 0.0, rng.random() * 10, rng.random() * 5, 0.0]
        blocks.append(
            "avg-cpu:  %user   %nice %system %iowait  %steal   %idle\n"
            + "        "
            + "".join(f" {v:7.2f}" for v in cpu)
            + f" {100 - sum(cpu):7.2f}\n\n"
            + IOSTAT_HDR
            + "\n"
            + "\n".join(rows)
            + "\n\n"
        )
    t0 = 1795312800
    written = 0
    with path.open("w") as f:
        f.write("Linux 6.1.0-18-amd64 (bench) \t11/22/26 \t_x86_64_\t(2 CPU)\n\n")
        r = 0
        while written < size:
            batch = []
            for _ in range(2000):
                tm = time.gmtime(t0 + r)
                stamp = time.strftime("%m/%d/%y %H:%M:%S", tm)
                batch.append(f"{stamp}\n{blocks[r % 64]}")
                r += 1
            text = "".join(batch)
            f.write(text)
            written += len(text)
            status(f"{label}: making the capture, {written / MiB:,.0f} of {size / MiB:,.0f} MiB")
    status("")


def compress_cmd(tool: list[str], src: Path, dst: Path, fallback: Callable[[bytes], bytes]) -> None:
    if shutil.which(tool[0]):
        with dst.open("wb") as f:
            subprocess.run([*tool, "-c", str(src)], stdout=f, check=True)
    else:
        dst.write_bytes(fallback(src.read_bytes()))


# ---- cases -------------------------------------------------------------------------------------


class Bench:
    def __init__(self, tmp: Path, quick: bool, gb: float) -> None:
        self.tmp = tmp
        self.quick = quick
        self.gb = gb
        self.rows: list[Row] = []
        self.n = 0

    def folder(self, name: str) -> Path:
        d = self.tmp / name
        d.mkdir(parents=True)
        return d

    def db(self) -> Path:
        self.n += 1
        return self.tmp / f"lib{self.n}.sqlite"

    def add(self, case: str, d: Done, db: Path, expect: set[str], note: str = "") -> None:
        text = note or short(outcome(d), self.tmp)
        self.rows.append(Row(case, text, d.secs, d.rss_mb, library_check(db, expect)))
        r = self.rows[-1]
        status("")
        print(f"  {r.case}: {r.outcome} ({r.secs:.1f} s, {r.rss_mb:.0f} MB) intact: {r.intact}", file=sys.stderr)

    def one(self, case: str, target: Path, expect: set[str], *extra: str, size: int = 0) -> Done:
        db = self.db()
        d = run_import([str(target), *extra], db, case, size)
        self.add(case, d, db, expect)
        return d

    def big_capture(self) -> None:
        size = int(self.gb * (1 << 30))
        d = self.folder("big")
        case = f"{self.gb:g} GiB iostat -x capture, streamed"
        make_iostat(d / "iostat.log", size, case)
        real = (d / "iostat.log").stat().st_size
        self.one(case, d, {"big"}, size=real)
        (d / "iostat.log").unlink()

    def long_line(self) -> None:
        d = self.folder("longline")
        lines = (RUN / "vmstat.log").read_bytes().splitlines(keepends=True)
        with (d / "vmstat.log").open("wb") as f:
            f.writelines(lines[:8])
            for _ in range(100):
                f.write(b"7" * MiB)
            f.write(b"\n")
            f.writelines(lines[8:])
        self.one("100 MB single line inside vmstat.log", d, {"longline"})
        blob = self.tmp / "blob.log"
        with blob.open("wb") as f:
            for _ in range(100):
                f.write(b"x" * MiB)
        self.one("100 MB file of one line (no newline)", blob, set())
        blob.unlink()
        (d / "vmstat.log").unlink()

    def specials(self) -> None:
        fifo = self.tmp / "capture.fifo"
        os.mkfifo(fifo)
        self.one("FIFO as the path (no writer)", fifo, set())
        d = self.folder("withfifo")
        shutil.copy(RUN / "vmstat.log", d)
        os.mkfifo(d / "pipe")
        self.one("folder with a FIFO", d, {"withfifo"})
        os.symlink(self.tmp / "loop_b", self.tmp / "loop_a")
        os.symlink(self.tmp / "loop_a", self.tmp / "loop_b")
        self.one("symlink loop as the path", self.tmp / "loop_a", set())
        d = self.folder("withloops")
        shutil.copy(RUN / "vmstat.log", d)
        os.symlink(d, d / "self")
        os.symlink(d / "b", d / "a")
        os.symlink(d / "a", d / "b")
        self.one("folder with symlink loops", d, {"withloops"})
        if Path("/dev/zero").exists():
            self.one("/dev/zero as the path", Path("/dev/zero"), set())
            d = self.folder("withdev")
            shutil.copy(RUN / "vmstat.log", d)
            os.symlink("/dev/zero", d / "zero.log")
            os.symlink("/dev/urandom", d / "random.log")
            self.one("folder with links to /dev/zero, /dev/urandom", d, {"withdev"})

    def many_files(self) -> None:
        n = 2_000 if self.quick else 10_000
        d = self.folder("many")
        data = (RUN / "vmstat.log").read_bytes()
        for k in range(n):
            (d / f"vmstat{k:05d}.log").write_bytes(data)
        self.one(f"folder of {n:,} vmstat captures", d, {"many"})
        shutil.rmtree(d)

    def compressed(self) -> None:
        size = (10 if self.quick else 100) * MiB
        src = self.tmp / "plain.log"
        make_iostat(src, size, "compressed")
        real = src.stat().st_size
        has_zstd = importlib.util.find_spec("zstandard") is not None or sys.version_info >= (3, 14)
        for codec, tool, fallback in (
            ("gzip", ["gzip", "-1"], lambda b: gzip.compress(b, 1)),
            ("xz", ["xz", "-1", "-T2"], lambda b: lzma.compress(b, preset=1)),
            ("zstd", ["zstd", "-q", "-1"], None),
        ):
            if fallback is None and not shutil.which(tool[0]):
                continue  # no way to make a .zst here
            d = self.folder(f"packed_{codec}")
            status(f"compressing {real / MiB:,.0f} MiB with {codec}")
            compress_cmd(tool, src, d / "iostat.log", fallback or (lambda b: b))
            packed = (d / "iostat.log").stat().st_size
            expect = {d.name} if codec != "zstd" or has_zstd else set()  # without a zstd module: refused
            self.one(f"{real / MiB:,.0f} MiB capture as {codec} ({packed / MiB:,.1f} MiB)", d, expect, size=packed)
            shutil.rmtree(d)
        src.unlink()

    def bombs(self) -> None:
        head = (RUN / "vmstat.log").read_bytes()
        for codec, piece, comp in (
            ("gzip", MiB, lambda b: gzip.compress(b, 9)),
            ("xz", 16 * MiB, lambda b: lzma.compress(b)),
        ):
            data = comp(head) + comp(bytes(piece)) * ((1 << 30) // piece)
            d = self.folder(f"bomb_{codec}")
            (d / "vmstat.log").write_bytes(data)
            self.one(f"{codec} bomb: real head + 1 GiB of zeros ({len(data) / MiB:.1f} MiB)", d, set())
            zeros = self.folder(f"zeros_{codec}")
            (zeros / "z.log").write_bytes(comp(bytes(piece)) * ((1 << 30) // piece))
            self.one(f"{codec} bomb: 1 GiB of zeros alone", zeros, set())

    def kill(self) -> None:
        size = (100 if self.quick else 400) * MiB
        d = self.folder("killed")
        make_iostat(d / "iostat.log", size, "kill -9")
        real = (d / "iostat.log").stat().st_size
        db = self.db()
        case = f"kill -9 mid-import ({real / MiB:,.0f} MiB), then re-import"
        killed = run_import([str(d)], db, case, real, kill_at=0.5)
        check = library_check(db, set())
        again = run_import([str(d)], db, case + " (re-import)", real)
        state = "unchanged" if check.startswith("yes") else check
        note = (
            f"killed at {100 * (killed.killed_at or 0):.0f}% read: library {state}; "
            f"re-import {short(outcome(again), self.tmp)} in {again.secs:.1f} s"
            if killed.rc == -signal.SIGKILL
            else f"finished before the kill: {outcome(killed)}"
        )
        self.add(case, killed, db, {"killed"}, note)
        if not check.startswith("yes"):
            self.rows[-1].intact = f"NO after the kill: {check}"
        (d / "iostat.log").unlink()

    def concurrent(self) -> None:
        size = (20 if self.quick else 150) * MiB
        a, b = self.folder("writer_a"), self.folder("writer_b")
        make_iostat(a / "iostat.log", size, "concurrent", seed=2)
        make_iostat(b / "iostat.log", size, "concurrent", seed=3)
        db = self.db()
        procs = [start([str(x)], db, self.tmp / f"{x.name}.hwm") for x in (a, b)]
        status(f"two imports at once into one library ({size / MiB:,.0f} MiB each)")
        results = [finish(proc, os.waitpid(proc.p.pid, 0)[1]) for proc in procs]
        both = Done(max(r.rc for r in results), "", "", max(r.secs for r in results), max(r.rss_mb for r in results))
        text = "; ".join(f"{n}: {short(outcome(r), self.tmp)}" for n, r in zip("AB", results, strict=True))
        self.add(f"two CLI imports at once ({size / MiB:,.0f} MiB each)", both, db, {"writer_a", "writer_b"}, text)
        shutil.rmtree(a)
        shutil.rmtree(b)


def table(rows: list[Row]) -> str:
    w_case = max(len(r.case) for r in rows)
    w_out = min(max(len(r.outcome) for r in rows), 140)
    out = [f"{'input':{w_case}}  {'outcome':{w_out}}  {'time':>8}  {'peak RSS':>9}  library intact"]
    out.append("-" * len(out[0]))
    for r in rows:
        text = r.outcome if len(r.outcome) <= w_out else r.outcome[: w_out - 1] + "…"
        out.append(f"{r.case:{w_case}}  {text:{w_out}}  {r.secs:7.1f}s  {r.rss_mb:6.0f} MB  {r.intact}")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller inputs (a 0.2 GiB capture, 2,000 files ...)")
    ap.add_argument("--gb", type=float, help="size of the streamed capture in GiB (default 2, 0.2 with --quick)")
    ap.add_argument("--tmp", type=Path, help="where to make the inputs (default: the system temp dir)")
    args = ap.parse_args()
    gb = args.gb if args.gb is not None else (0.2 if args.quick else 2.0)
    from benchlens.importers._tokens import HAS_COMPILED_CORE

    print(
        f"benchlens robustness: {os.cpu_count()} CPUs, tokenizer {'compiled' if HAS_COMPILED_CORE else 'pure Python'}"
        f"{', quick' if args.quick else ''}",
        flush=True,
    )
    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="benchlens-robustness-", dir=args.tmp) as tmp:
        bench = Bench(Path(tmp), args.quick, gb)
        try:
            for step in (
                bench.big_capture,
                bench.long_line,
                bench.specials,
                bench.many_files,
                bench.compressed,
                bench.bombs,
                bench.kill,
                bench.concurrent,
            ):
                step()
        except KeyboardInterrupt:
            status("")
            print("interrupted; the inputs are removed", file=sys.stderr)
        finally:
            status("")
    if bench.rows:
        print(table(bench.rows))
    print(f"total {time.perf_counter() - t0:.0f} s")
    bad = [r for r in bench.rows if not r.intact.startswith("yes") or "TRACEBACK" in r.outcome]
    if bad:
        raise SystemExit(f"{len(bad)} case(s) left a damaged library or printed a traceback")


if __name__ == "__main__":
    main()
