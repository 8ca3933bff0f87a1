"""The sampling interval of a file without clock times, inferred from what its folder holds.

A file without times (`iostat -mx 5` without -t, a `mysql -e` status loop) is placed one report
per interval; a wrong interval stretches every rate and every time by the same factor, so it is
never assumed. The evidence, strongest first (EVIDENCE_STRENGTH):
- `--interval` given by the user: it wins, always;
- a command line: printed in the file (`+ iostat -mx 5`, `$ mysqladmin ext -i 2`, a `sleep 2` loop)
  or recorded for the file in benchlens-run.json (with its `interval`);
- the run script beside it (`iostat -mx $REPORT ... >> $OUTDIR/iostat.ro.$thread.res &` in
  run.sysbench, `REPORT=5` above it): the monitor's command line that writes a file of this name,
  or the only interval the script gives that monitor; a script in the folder above counts for the
  files it writes into a folder of this folder's name. A script says what was meant to run, not
  what ran, so it is warned about when it decides;
- the file's own clock: a status loop carrying `Uptime` is spaced by its deltas;
- a span beside it: the seconds a timed file of the folder covers, a relative benchmark log's
  length (sysbench's 48 s against 24 iostat reports), divided by the file's report count;
- the file's modification time (its last write) against the folder's launch (its first report).
The strongest is used; a weaker one that disagrees is named in a warning with both values; the
note says which evidence placed the file. With none, 1 s is used and the note says so.
"""

from __future__ import annotations

import fnmatch
import functools
import math
import re
import shlex
from dataclasses import dataclass

# How much each kind of evidence is trusted (the larger wins).
OVERRIDE, COMMAND, SCRIPT, OWN_CLOCK, SPAN, MTIME = 6, 5, 4, 3, 2, 1
EVIDENCE_STRENGTH = {
    "--interval": OVERRIDE,
    "command": COMMAND,
    "script": SCRIPT,
    "own clock": OWN_CLOCK,
    "span": SPAN,
    "mtime": MTIME,
}
# Intervals people pass to monitors; a span or an mtime only tells the interval roughly, so it is
# rounded to one of these (a 48 s log over 23 report intervals is 2 s, not 2.09 s).
COMMON = (1.0, 2.0, 3.0, 5.0, 10.0, 15.0, 20.0, 30.0, 60.0, 120.0, 300.0, 600.0)
# Two values within this ratio agree (a span of 47 s for 24 reports at 2 s is no conflict).
AGREE = 1.25
DEFAULT = 1.0

# tools whose positional number after the options is the interval, and their options that take a
# value (so `-P 0`, `-p 1234`, `-c 3` are never read as an interval)
_TOOLS = {
    "iostat": {"-p", "-j", "-o", "-g", "-f", "+f", "--dec"},
    "vmstat": {"-S", "-p", "-c", "--unit"},
    "mpstat": {"-P", "-I", "-N", "-o", "--dec"},
    "sar": {"-P", "-n", "-I", "-f", "-o", "-s", "-e", "-m", "-i", "--dec", "-j"},
    "pidstat": {"-p", "-C", "-G", "-e", "--dec", "-U"},
    "dstat": {"-C", "-D", "-I", "-N", "-S", "--output"},
}
# the tools whose command line applies to a file of each format (others: a `sleep N` loop, mysqladmin -i)
_FOR_FORMAT = {"iostat": "iostat", "vmstat": "vmstat", "mpstat": "mpstat", "sar": "sar", "pidstat": "pidstat"}
_WORD = re.compile(r"(?:^|[\s;&|(`$'\"])(?:\S*/)?(iostat|vmstat|mpstat|sar|pidstat|dstat|mysqladmin)(?=\s)")
_SLEEP = re.compile(r"\bsleep\s+(\d+(?:\.\d+)?)\b")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")
HEAD_LINES = 20  # a command line is printed before the output, not in the middle of it


@dataclass(frozen=True)
class Evidence:
    seconds: float
    kind: str  # a key of EVIDENCE_STRENGTH
    what: str  # what it is, for the note: "the command line `iostat -mx 5` printed in the file"


@dataclass(frozen=True)
class Interval:
    seconds: float
    note: str  # which evidence placed the file
    warnings: tuple[str, ...] = ()


def command_interval(text: str, fmt: str, first_lines: int | None = HEAD_LINES) -> tuple[float, str] | None:
    """(seconds, the command) of the first command line in `text` that tells the interval of a
    file of format `fmt`: the monitor's positional interval, mysqladmin's `-i N`, a `sleep N` loop."""
    lines = text.splitlines()[:first_lines] if first_lines else text.splitlines()
    want = _FOR_FORMAT.get(fmt)
    for line in lines:
        for m in _WORD.finditer(line):
            tool = m.group(1)
            if want is not None and tool != want:
                continue
            args = _args(line[m.end() :])
            secs = _mysqladmin(args) if tool == "mysqladmin" else _positional(args, _TOOLS[tool])
            if secs is not None:
                return secs, line.strip()
        if want is None and (s := _SLEEP.search(line)):
            secs = float(s.group(1))
            if secs > 0:
                return secs, line.strip()
    return None


def _args(rest: str) -> list[str]:
    rest = re.split(r"[|;&>]|\$\(|`", rest, maxsplit=1)[0]
    try:
        return shlex.split(rest)
    except ValueError:  # an unbalanced quote: words as printed
        return rest.split()


def _positional(args: list[str], value_options: set[str]) -> float | None:
    skip = False
    for a in args:
        if skip:
            skip = False
        elif a in value_options:
            skip = True
        elif "$" in a or "`" in a:  # a variable not expanded: its value, maybe the interval, is unknown
            return None
        elif not a.startswith(("-", "+")) and _NUMBER.fullmatch(a):
            secs = float(a)
            return secs if secs > 0 else None
    return None


def _mysqladmin(args: list[str]) -> float | None:
    for i, a in enumerate(args):
        value = None
        if a in ("-i", "--sleep") and i + 1 < len(args):
            value = args[i + 1]
        elif a.startswith("--sleep="):
            value = a.split("=", 1)[1]
        elif a.startswith("-i") and len(a) > 2:
            value = a[2:]
        if value is not None and _NUMBER.fullmatch(value) and float(value) > 0:
            return float(value)
    return None


def from_span(span: float, reports: int, round_up: bool) -> float | None:
    """The interval a span of `span` seconds gives `reports` reports (report 0 at its start), as a
    common interval: the nearest, or with `round_up` the smallest not below it (a benchmark log
    runs inside the monitoring, so its span is a little shorter than the monitors')."""
    if reports < 2 or not math.isfinite(span) or span <= 0:
        return None
    raw = span / (reports - 1)
    if round_up:
        return next((c for c in COMMON if c >= raw * 0.9), None)
    if raw < COMMON[0] / 2 or raw > COMMON[-1] * 2:
        return None
    return min(COMMON, key=lambda c: abs(math.log(c / raw)))


def choose(evidence: list[Evidence]) -> Interval:
    """The interval from the strongest evidence, with a warning per weaker one that disagrees."""
    if not evidence:
        return Interval(DEFAULT, f"interval {DEFAULT:g} s assumed: nothing in the folder tells it (use --interval)")
    ranked = sorted(evidence, key=lambda e: -EVIDENCE_STRENGTH[e.kind])
    best = ranked[0]
    warnings = []
    if best.kind == "script":
        warnings.append(
            f"interval {best.seconds:g} s taken from {best.what}: the file prints no times and a script says "
            "what was meant to run, not what ran (--interval decides)"
        )
    seen: set[float] = set()
    for other in ranked[1:]:
        if max(other.seconds, best.seconds) / min(other.seconds, best.seconds) > AGREE and other.seconds not in seen:
            seen.add(other.seconds)
            warnings.append(
                f"interval {best.seconds:g} s from {best.what}; {other.what} suggests {other.seconds:g} s "
                f"(the stronger evidence is used; --interval decides)"
            )
    agreeing = [e.what for e in ranked[1:] if max(e.seconds, best.seconds) / min(e.seconds, best.seconds) <= AGREE]
    also = f" (agrees: {'; '.join(agreeing)})" if agreeing else ""
    return Interval(best.seconds, f"interval {best.seconds:g} s from {best.what}{also}", tuple(warnings))


# ---- run scripts ------------------------------------------------------------------------------

# `NAME=value` (export, local, readonly), the value plain or quoted, nothing computed in it
_ASSIGN = re.compile(
    r"^\s*(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=(\"[^\"`$]*\"|'[^']*'|[^\s\"'`$;&|()<>]*)\s*(?:[;#].*)?$"
)
_ANY_ASSIGN = re.compile(r"^\s*(?:export\s+|local\s+|readonly\s+)?([A-Za-z_]\w*)=")
_VAR = re.compile(r"\$(?:\{([A-Za-z_]\w*)(?::?-([^}$`]*))?\}|([A-Za-z_]\w*))")
_UNKNOWN = re.compile(r"\$\(\(.*?\)\)|\$\{[^}]*\}|\$\w+|`[^`]*`")
_TARGET = re.compile(r"(?:>>?|\btee\s+(?:-a\s+)?)\s*([^\s;&|<>]+)")


@dataclass(frozen=True)
class ScriptCommand:
    line: int  # 1-based line of the script
    written: str  # the command line as the script writes it
    seconds: float
    target: str | None  # the path of the file it writes, variables as `*`: `*/iostat.ro.*.res`
    values: tuple[str, ...]  # the script's variables it used: `REPORT=5`


def script_commands(text: str, fmt: str) -> list[ScriptCommand]:
    """The command lines of a shell script that run the monitor of format `fmt` with an interval,
    the script's plain variables (`REPORT=5`) expanded; a variable assigned two values is unknown."""
    if fmt not in _FOR_FORMAT:
        return []
    lines = _logical_lines(text)
    values: dict[str, str | None] = {}
    for _, line in lines:
        if m := _ASSIGN.match(line):
            value = m.group(2).strip("\"'")
            values[m.group(1)] = value if values.get(m.group(1), value) == value else None
        elif m := _ANY_ASSIGN.match(line):  # computed (`$(...)`, `"$X"`): unknown, whatever else it is given
            values[m.group(1)] = None
    out = []
    for no, line in lines:
        if line.lstrip().startswith("#") or not _WORD.search(line):
            continue
        used: list[str] = []
        expanded = _VAR.sub(functools.partial(_expand, values=values, used=used), line)
        found = command_interval(expanded, fmt, None)
        if found is not None:
            target = _TARGET.search(expanded)
            path = _UNKNOWN.sub("*", target.group(1).strip("\"'")) if target else None
            out.append(ScriptCommand(no, line.strip(), found[0], path or None, tuple(dict.fromkeys(used))))
    return out


def _logical_lines(text: str) -> list[tuple[int, str]]:
    """(first line number, text) with `\\` continuations joined."""
    out: list[tuple[int, str]] = []
    pending: tuple[int, str] | None = None
    for no, raw in enumerate(text.splitlines(), 1):
        pending = (pending[0], pending[1] + " " + raw.strip()) if pending is not None else (no, raw)
        if not pending[1].endswith("\\"):
            out.append(pending)
            pending = None
        else:
            pending = (pending[0], pending[1][:-1])
    if pending is not None:
        out.append(pending)
    return out


def _expand(m: re.Match[str], values: dict[str, str | None], used: list[str]) -> str:
    name = m.group(1) or m.group(3)
    value = values.get(name)
    if value is not None:
        used.append(f"{name}={value}")
        return value
    if m.group(2) is not None and name not in values:  # ${NAME:-default}, NAME never assigned
        used.append(f"{name}={m.group(2)}")
        return m.group(2)
    return m.group(0)


def states_intervals(text: str) -> bool:
    """The script runs a monitor with an interval (it is evidence for files without times)."""
    return any(script_commands(text, fmt) for fmt in _FOR_FORMAT)


def script_interval(
    scripts: list[tuple[str, str]], name: str, fmt: str, folder: str | None = None
) -> tuple[Evidence | None, str | None]:
    """The interval the run scripts give a file named `name` of format `fmt`: the command lines
    that write a file of this name, else those whose output file is not named; (evidence, None),
    or (None, a warning) when they give different intervals, or (None, None). With `folder` (the
    scripts are in the parent of the run folder so named), only the lines that write this name
    into a folder of that name count (`>> $OUTDIR/iostat.ro.$thread.res`)."""
    found = [(script, c) for script, text in scripts for c in script_commands(text, fmt)]
    named = [(s, c) for s, c in found if _writes(c.target, name, folder)]
    chosen = named or ([(s, c) for s, c in found if _unnamed(c.target)] if folder is None else [])
    if not chosen:
        return None, None
    intervals = sorted({c.seconds for _, c in chosen})
    if len(intervals) > 1:
        said = ", ".join(f"{c.seconds:g} s in {s} line {c.line}" for s, c in chosen[:4])
        tool = _FOR_FORMAT[fmt]
        return None, f"the run scripts give {tool} different intervals ({said}): none used for {name}"
    script, c = chosen[0]
    numbers = [v for v in c.values if _NUMBER.fullmatch(v.split("=", 1)[1])]  # the ones an interval can be
    values = f" ({', '.join(numbers)})" if numbers else ""
    return Evidence(c.seconds, "script", f"the command line `{c.written}` in {script} line {c.line}{values}"), None


def _writes(target: str | None, name: str, folder: str | None) -> bool:
    """The script's output path names this file (and, from the parent, this folder)."""
    if target is None or target == "*":
        return False
    where, _, base = target.rpartition("/")
    if base in ("", "*") or not fnmatch.fnmatchcase(name, base):
        return False
    return folder is None or (where != "" and fnmatch.fnmatchcase(folder, where.rsplit("/", 1)[-1]))


def _unnamed(target: str | None) -> bool:
    """The output file's name is a variable (or there is none): it may be any file."""
    return target is None or target.rpartition("/")[2] in ("", "*")
