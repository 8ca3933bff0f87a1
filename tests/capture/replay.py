#!/usr/bin/env python3
"""Same measurements, several locales: record /proc + /sys/block snapshots, replay them.

Files the tools read on every interval (checked with strace on this machine):
  vmstat 4.0.2 -t      : /proc/stat, /proc/vmstat (fd kept open, lseek+read);
                         /proc/meminfo is read only before the first row (see MANIFEST)
  iostat 12.6.1 -x -t  : /proc/uptime, /proc/stat, /sys/block/<dev>/stat (fopen each time)
  mpstat 12.6.1 -P ALL : /proc/uptime, /proc/stat
All of them (plus /proc/meminfo) are faked. Times printed by the tools come from the
real clock, so all processes are started in the same second.

  replay.py record SNAPSHOTS.json.gz [N]   one snapshot per second (run a load meanwhile)
  replay.py replay SNAPSHOTS.json.gz OUTROOT [STYLE...]
        re-executes itself under `unshare -m`, bind-mounts a regular file over each path,
        rewrites the files in place at T0+k-0.5 s and starts every tool x style at T0
        (they sample at T0+k), writing OUTROOT/locales_<STYLE>/{vmstat,iostat,mpstat}.log
  replay.py verify OUTROOT [STYLE...]     assert all styles carry identical numbers
Stdlib only; needs root (mount namespaces, bind mounts).
"""

import datetime as dt
import glob
import gzip
import json
import os
import re
import subprocess
import sys
import tempfile
import time

STYLES = {
    "C": {"LC_ALL": "C.UTF-8"},
    "en_US": {"LC_ALL": "en_US.UTF-8"},
    "de_DE": {"LC_ALL": "de_DE.UTF-8"},
    "ISO": {"LC_ALL": "C.UTF-8", "S_TIME_FORMAT": "ISO"},
    "fr_FR": {"LC_ALL": "fr_FR.UTF-8"},
}
DEFAULT_STYLES = ["C", "en_US", "de_DE", "ISO"]
INTERVALS = 8  # reports after the since-boot one
TOOLS = {  # each reads snapshots 0..INTERVALS
    "vmstat": ["vmstat", "-t", "1", str(INTERVALS + 1)],
    "iostat": ["iostat", "-x", "-t", "1", str(INTERVALS + 1)],
    "mpstat": ["mpstat", "-P", "ALL", "1", str(INTERVALS)],
}


def paths():
    ps = ["/proc/stat", "/proc/vmstat", "/proc/meminfo", "/proc/uptime"]
    # /sys/block/X is a symlink; bind-mount over the real sysfs file
    ps += [os.path.realpath(d) + "/stat" for d in sorted(glob.glob("/sys/block/*"))]
    return ps


def sleep_until(t):
    d = t - time.time()
    if d > 0:
        time.sleep(d)


def record(out, n=10):
    ps = paths()
    t0 = int(time.time()) + 1
    snaps = []
    for k in range(n):
        sleep_until(t0 + k)
        snap = {"t": round(time.time(), 3), "files": {}}
        for p in ps:
            with open(p) as f:
                snap["files"][p] = f.read()
        snaps.append(snap)
    with gzip.GzipFile(out, "wb", mtime=0) as f:
        f.write(json.dumps(snaps, indent=0, sort_keys=True).encode())
    print(f"recorded {n} snapshots of {len(ps)} files -> {out}")


def tool_env(style):
    env = {"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "TZ": os.environ.get("TZ", "UTC")}
    env.update(STYLES[style])
    return env


def replay(snapfile, outroot, styles):
    if os.environ.get("BENCHLENS_IN_NS") != "1":
        os.environ["BENCHLENS_IN_NS"] = "1"
        os.execvp(
            "unshare",
            [
                "unshare",
                "-m",
                "--propagation",
                "private",
                sys.executable,
                os.path.abspath(__file__),
                "replay",
                snapfile,
                outroot,
                *styles,
            ],
        )
    with gzip.open(snapfile) as f:
        snaps = json.load(f)
    assert len(snaps) >= INTERVALS + 1, "need INTERVALS+1 snapshots"
    work = tempfile.mkdtemp(prefix="benchlens_replay.")
    subprocess.check_call(["mount", "-t", "tmpfs", "tmpfs", work])  # private to the namespace
    fds = {}
    for i, p in enumerate(snaps[0]["files"]):
        if not os.path.exists(p):
            print(f"skip {p}: not present now", file=sys.stderr)
            continue
        b = os.path.join(work, f"f{i}")
        with open(b, "w") as f:
            f.write(snaps[0]["files"][p])
        subprocess.check_call(["mount", "--bind", b, p])
        fds[p] = os.open(b, os.O_RDWR)  # same inode: rewritten in place, never replaced

    def put(k):
        for p, fd in fds.items():
            data = snaps[k]["files"][p].encode()
            os.pwrite(fd, data, 0)
            os.ftruncate(fd, len(data))

    t0 = int(time.time()) + 2
    sleep_until(t0 + 0.02)
    procs = []
    for style in styles:
        d = os.path.join(outroot, f"locales_{style}")
        os.makedirs(d, exist_ok=True)
        for tool, argv in TOOLS.items():
            with open(os.path.join(d, f"{tool}.log"), "w") as out:
                procs.append(subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, env=tool_env(style), cwd="/"))
    started = time.time() - t0
    for k in range(1, len(snaps)):
        sleep_until(t0 + k - 0.5)  # half-way between two samples: no torn reads
        put(k)
    rcs = [p.wait() for p in procs]
    for fd in fds.values():
        os.close(fd)
    print(
        f"{len(procs)} processes started within {started:.3f}s after T0="
        f"{dt.datetime.fromtimestamp(t0, dt.UTC):%Y-%m-%d %H:%M:%S} UTC; rcs={set(rcs)}"
    )
    # unmounts happen when the namespace goes away
    subprocess.call(["umount", "-R", work])
    os.rmdir(work)


# ---------------------------------------------------------------- verification
NUM = re.compile(r"^-?\d+(?:[.,]\d+)?$")
TS_FORMATS = [
    "%m/%d/%y %H:%M:%S",
    "%m/%d/%Y %I:%M:%S %p",
    "%d.%m.%Y %H:%M:%S",
    "%d/%m/%Y %H:%M:%S",
    "%Y-%m-%dT%H:%M:%S%z",
]
DATE_FORMATS = ["%m/%d/%y", "%m/%d/%Y", "%d.%m.%Y", "%d/%m/%Y", "%Y-%m-%d"]


def num(tok):
    assert NUM.match(tok), tok
    return tok.replace(",", ".")


def parse_dt(s, fmts):
    for f in fmts:
        try:
            v = dt.datetime.strptime(s.strip(), f)
            return v.replace(tzinfo=None)
        except ValueError:
            pass
    raise ValueError(s)


def banner_date(lines):
    return parse_dt(lines[0].split("\t")[1], DATE_FORMATS).date().isoformat()


def parse_vmstat(text):
    rows = []
    for line in text.splitlines():
        t = line.split()
        if t and t[0].isdigit():
            rows.append(([num(x) for x in t[:17]], " ".join(t[17:19])))
    return rows


def parse_iostat(text):
    lines = text.splitlines()
    recs, mode = [("date", banner_date(lines))], None
    for line in lines[1:]:
        t = line.split()
        if not t:
            mode = None
        elif t[0] == "avg-cpu:":
            mode = "cpu"
        elif t[0] == "Device":
            mode = "dev"
        elif mode == "cpu":
            recs.append(("cpu", [num(x) for x in t]))
        elif mode == "dev":
            recs.append(("dev", t[0], [num(x) for x in t[1:]]))
        else:
            recs.append(("ts", parse_dt(line, TS_FORMATS).isoformat()))
    return recs


def parse_mpstat(text):
    lines = text.splitlines()
    recs = [("date", banner_date(lines))]
    for line in lines[1:]:
        t = line.split()
        if not t:
            continue
        if re.match(r"^\d\d:\d\d:\d\d$", t[0]):
            if len(t) > 1 and t[1] in ("AM", "PM"):
                when, rest = dt.datetime.strptime(" ".join(t[:2]), "%I:%M:%S %p").time(), t[2:]
            else:
                when, rest = dt.time.fromisoformat(t[0]), t[1:]
            when = when.isoformat()
        else:  # Average: / Durchschn.: / Moyenne :
            when, rest = "avg", t[2:] if t[1] == ":" else t[1:]
        if rest[0] in ("CPU", "NODE"):
            continue
        recs.append((when, rest[0], [num(x) for x in rest[1:]]))
    return recs


PARSERS = {"vmstat": parse_vmstat, "iostat": parse_iostat, "mpstat": parse_mpstat}


def verify(outroot, styles):
    ok = True
    for tool, parse in PARSERS.items():
        ref = None
        for style in styles:
            with open(os.path.join(outroot, f"locales_{style}", f"{tool}.log")) as f:
                got = parse(f.read())
            if ref is None:
                ref, refstyle = got, style
                print(f"{tool}: {len(got)} records parsed from locales_{style}")
            elif got != ref:
                ok = False
                diff = (
                    next(i for i, (a, b) in enumerate(zip(ref, got, strict=False)) if a != b)
                    if len(got) == len(ref)
                    else f"length {len(ref)} vs {len(got)}"
                )
                print(f"{tool}: locales_{style} DIFFERS from locales_{refstyle} at record {diff}")
                if isinstance(diff, int):
                    print("   ", ref[diff], "\n   ", got[diff])
            else:
                print(f"{tool}: locales_{style} identical to locales_{refstyle}")
    print("VERIFY", "OK" if ok else "FAILED")
    return ok


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "record":
        record(args[0], int(args[1]) if len(args) > 1 else INTERVALS + 2)
    elif cmd == "replay":
        replay(args[0], args[1], args[2:] or DEFAULT_STYLES)
    elif cmd == "verify":
        sys.exit(0 if verify(args[0], args[1:] or DEFAULT_STYLES) else 1)
    else:
        sys.exit(__doc__)
