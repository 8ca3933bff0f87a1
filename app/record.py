"""`benchlens record FOLDER [options] -- BENCHMARK COMMAND`: capture a run folder that imports
without guessing. Runs on the benchmark server; no Qt.

It starts `vmstat -t`, `iostat -x -t` and `mpstat -P ALL` (C locale, ISO times so the folder
carries its own UTC offset), and, given `--mysql "CLIENT OPTIONS"`, loops that snapshot SHOW ENGINE
INNODB STATUS, SHOW ENGINE INNODB MUTEX, SHOW GLOBAL STATUS and the Performance Schema wait summary
behind `TS <epoch> <date>` marker lines. Then it runs the benchmark (its output goes to bench.log
and to the terminal), stops everything, and writes benchlens-run.json: host, zone, start and
benchmark start/end times, the commands and the tools' versions.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from benchlens.app.errors import BenchlensError

METADATA = "benchlens-run.json"
FORMAT = "benchlens-run"
MONITORS = {
    "vmstat.log": ["vmstat", "-t", "{interval}"],
    "iostat.log": ["iostat", "-x", "-t", "{interval}"],
    "mpstat.log": ["mpstat", "-P", "ALL", "{interval}"],
}
SNAPSHOTS = {
    "innodb_status.log": "SHOW ENGINE INNODB STATUS\\G",
    "innodb_mutex.log": "SHOW ENGINE INNODB MUTEX",
    "global_status.log": "SHOW GLOBAL STATUS",
    "perfschema.log": "SELECT EVENT_NAME, COUNT_STAR, SUM_TIMER_WAIT FROM "
    "performance_schema.events_waits_summary_global_by_event_name WHERE COUNT_STAR > 0",
}


class RecordError(BenchlensError):
    pass


def _version(cmd: list[str]) -> str | None:
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    out = (p.stdout or p.stderr).strip().splitlines()
    return out[0] if out else None


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.update({"LC_ALL": "C", "S_TIME_FORMAT": "ISO"})  # stable layouts; iostat prints UTC offsets
    return env


class _SnapshotLoop(threading.Thread):
    def __init__(self, client: list[str], query: str, out: IO[str], every: float, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.client, self.query, self.out, self.every, self.stop = client, query, out, every, stop
        self.errors = 0

    def run(self) -> None:
        while not self.stop.is_set():
            now = time.time()
            stamp = time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(now))
            try:
                p = subprocess.run([*self.client, "-e", self.query], capture_output=True, text=True, timeout=30)
                self.out.write(f"TS {now:.6f} {stamp}\n{p.stdout}")
                self.out.flush()
                self.errors += p.returncode != 0
            except (OSError, subprocess.TimeoutExpired):
                self.errors += 1
            self.stop.wait(max(0.0, self.every - (time.time() - now)))


def _run_bench(bench: list[str], log_path: Path) -> int:
    """Run the benchmark, its output to the log and the terminal; Ctrl-C is passed on to it."""
    with log_path.open("w") as log:
        try:
            p = subprocess.Popen(bench, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        except OSError as e:
            raise RecordError(f"cannot run {bench[0]}: {e.strerror}") from None
        assert p.stdout is not None
        try:
            for line in p.stdout:
                log.write(line)
                log.flush()
                sys.stdout.write(line)
            return p.wait()
        except KeyboardInterrupt:
            p.send_signal(signal.SIGINT)
            return p.wait()


@dataclass(frozen=True)
class _BenchRun:
    argv: list[str]
    start: float
    end: float
    exit_code: int


class _Monitors:
    """What runs around the benchmark: the sysstat monitors and the MySQL snapshot loops, the
    files they write, and the command behind each file (for the metadata)."""

    def __init__(self) -> None:
        self.procs: dict[str, subprocess.Popen[bytes]] = {}
        self.loops: list[_SnapshotLoop] = []
        self.files: list[IO[Any]] = []
        self.commands: dict[str, str] = {}
        self.done = threading.Event()

    def start_sysstat(self, folder: Path, interval: int) -> None:
        env = _env()
        for name, argv in MONITORS.items():
            cmd = [a.format(interval=interval) for a in argv]
            if shutil.which(cmd[0]) is None:
                print(f"benchlens record: {cmd[0]} not found; {name} not recorded", file=sys.stderr)
                continue
            out = (folder / name).open("wb")
            self.files.append(out)
            self.procs[name] = subprocess.Popen(cmd, stdout=out, stderr=subprocess.DEVNULL, env=env)
            self.commands[name] = shlex.join(cmd)

    def start_snapshots(self, folder: Path, mysql: str, every: float) -> None:
        # -v echoes each statement: even an empty result (MariaDB's mutex list) says what it is
        client = ["mysql", "-v", *shlex.split(mysql)]
        for name, query in SNAPSHOTS.items():
            text = (folder / name).open("w")
            self.files.append(text)
            self.loops.append(_SnapshotLoop(client, query, text, every, self.done))
            self.commands[name] = f"{shlex.join(client)} -e {shlex.quote(query)} every {every:g} s"
        for loop in self.loops:
            loop.start()

    def stop(self) -> None:
        self.done.set()
        for loop in self.loops:
            loop.join(timeout=40)
        for proc in self.procs.values():
            proc.send_signal(signal.SIGINT)  # sysstat prints its averages and exits
        for proc in self.procs.values():
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        for handle in self.files:
            handle.close()


def record(
    folder: Path,
    bench: list[str],
    interval: int = 1,
    mysql: str | None = None,
    every: float = 10.0,
    tags: dict[str, str] | None = None,
    settle: float = 2.0,
) -> dict[str, Any]:
    """Start the monitors, run the benchmark between two idle stretches, stop the monitors, and
    write what happened to benchlens-run.json."""
    if not bench:
        raise RecordError("give the benchmark command after --")
    if folder.exists() and any(folder.iterdir()):
        raise RecordError(f"{folder} exists and is not empty")
    folder.mkdir(parents=True, exist_ok=True)
    start = time.time()
    monitors = _Monitors()
    monitors.start_sysstat(folder, interval)
    if mysql:
        monitors.start_snapshots(folder, mysql, every)
    try:
        run = _run_settled(bench, folder / "bench.log", settle)
    finally:  # whatever happened, nothing keeps running behind the user's back
        monitors.stop()
    meta = _metadata(start, run, interval, monitors.commands, mysql)
    if tags:  # imported as the run's tags (app/run_record.py)
        meta["tags"] = {k: v for k, v in tags.items() if v}
    (folder / METADATA).write_text(json.dumps(meta, indent=1) + "\n")
    return meta


def _run_settled(bench: list[str], log_path: Path, settle: float) -> _BenchRun:
    time.sleep(settle)  # the monitors' first (since-boot) reports, and an idle stretch before the load
    start = time.time()
    code = _run_bench(bench, log_path)
    end = time.time()
    time.sleep(settle)
    return _BenchRun(bench, start, end, code)


def _metadata(
    start: float, run: _BenchRun, interval: int, commands: dict[str, str], mysql: str | None
) -> dict[str, Any]:
    offset = -time.altzone if time.localtime(start).tm_isdst > 0 else -time.timezone
    return {
        "format": FORMAT,
        "version": 1,
        "host": socket.gethostname(),
        "zone": time.strftime("%Z", time.localtime(start)),
        "utc_offset": offset,
        "start": start,
        "bench_start": run.start,
        "bench_end": run.end,
        "end": time.time(),  # before the tools' versions are asked for
        "interval": interval,
        "bench_exit_code": run.exit_code,
        "commands": {**commands, "bench.log": shlex.join(run.argv)},
        "tools": _tools(run.argv[0], bool(mysql)),
    }


def _tools(bench: str, mysql: bool) -> dict[str, str]:
    versions = {
        "vmstat": _version(["vmstat", "-V"]),
        "sysstat": _version(["iostat", "-V"]),
        "mysql": _version(["mysql", "--version"]) if mysql else None,
        "benchmark": _version([bench, "--version"]),
    }
    return {k: v for k, v in versions.items() if v}


def read_metadata(text: str) -> dict[str, Any] | None:
    """The metadata of a recorded folder, recognised by its content."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):  # a folder is untrusted input
        return None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return None
    return data
