"""The configuration a run folder holds: no series, settings (ctx.meta.settings, stored with the
source) that `benchlens diff` compares between runs (app/analysis/config.py).

Variants covered (fixtures in tests/fixtures/config):
- my.cnf-style option files (MySQL 5.5-8.4, MariaDB 10-11, Percona): `[section]` headers (mysqld,
  mariadb, server, client ...), `name = value`, `name=value`, bare `name` (a boolean switched on),
  `#`/`;` comments, quoted values, `#` after a value; `!include FILE` and `!includedir DIR` are kept
  as settings of scope `include` (shown, never followed: a folder is untrusted and may point anywhere);
  a file of sections alone (Debian's conf.d/mysql.cnf is `[mysql]`; 60-galera.cnf has every option
  commented out) sets nothing: no settings, one warning naming its sections;
- `SHOW GLOBAL VARIABLES` (or `SHOW VARIABLES`) in any client shape (table, `mysql -B` TSV with or
  without its header, `\\G` vertical; see _mysql_table), alone or in snapshots after marker lines:
  the last complete snapshot is the server's configuration (scope `variables`); a value that changed
  between snapshots (SET GLOBAL during the run) is warned with both values;
- benchlens-run.json (`benchlens record`, any record version: unknown keys are not read): the commands
  (scope `command`, name: the file written),
  tool versions (`tool`), and the benchmark's options read off its command line (`benchmark`:
  sysbench `--threads --tables --table-size --report-interval --time --rate` and the test name,
  tpcc-mysql `tpcc_start -w -c -r -l -i`).
Anything else in such a file is a warning with its line; nothing is executed or followed. Passwords
(an option named *password*/*passwd*/*pass*, `--…password=`, `-pSECRET` on a command line) are stored
as `***`."""

from __future__ import annotations

import itertools
import json
import re
import shlex
from collections.abc import Iterator

from benchlens.importers import _mysql_table as mt
from benchlens.importers._snapshots import snapshots
from benchlens.importers._types import Block, Context, Setting

name = "config"

MAX_JSON = 1 << 20  # a benchlens-run.json is a few kB
MAX_SETTINGS = 20_000  # a server has ~600-1,000 variables; more is not a configuration
_SECTION = re.compile(r"^\[\s*([A-Za-z0-9_.\-]{1,64})\s*\]\s*(?:[#;].*)?$")
_OPTION = re.compile(r"^([A-Za-z][A-Za-z0-9_\-.]{0,127})\s*(?:=\s*(.*?))?\s*$")
_INCLUDE = re.compile(r"^!(include|includedir)\s+(\S.*?)\s*$")
_SERVER_SECTIONS = re.compile(r"^(?:mysqld|mariadb|mariadbd|server|mysqld_safe|galera|client-server)(?:-[\d.]+)?$")
# lower-case names only SHOW VARIABLES prints (status variables are capitalised)
_VARIABLE_NAMES = re.compile(
    r"(?:^|[|\s])(innodb_buffer_pool_size|innodb_flush_log_at_trx_commit|max_connections|datadir|basedir|"
    r"version|version_comment|sync_binlog|autocommit|character_set_server|innodb_log_file_size|"
    r"innodb_flush_method|table_open_cache|tmp_table_size|sql_mode|port|socket|log_bin|server_id|"
    r"innodb_io_capacity|thread_cache_size|transaction_isolation|tx_isolation|key_buffer_size)(?=\s*\||\t|\s*$)",
    re.M,
)
_VARIABLES_HEADER = re.compile(r"^\|?\s*Variable_name\s*(?:\||\t)\s*Value\s*\|?\s*$", re.M | re.I)
_RECORDED = re.compile(r'"format"\s*:\s*"benchlens-run"')
HEADERS = (frozenset({"variable_name", "value"}),)
# Credentials never reach the library: an option file's password, a command line's
HIDDEN = "***"
_SECRET = re.compile(r"pass(?:word|wd)?$|password", re.I)
_COMMAND_SECRET = re.compile(r"(?i:(--[\w-]*pass(?:word|wd)?[= ]))\S+|(?<=\s)(-p)(?!\s)\S+")  # -P: a port


def hide_secrets(command: str) -> str:
    """`--mysql-password=x`, `--password x`, `-px` -> their option with the value hidden."""
    hidden = _COMMAND_SECRET.sub(lambda m: (m.group(1) or m.group(2)) + HIDDEN, command)
    if _benchmark_of(command) == "tpcc_start":  # tpcc_start's `-p PASSWORD` (its port is -P)
        hidden = re.sub(r"(\s-p\s+)\S+", lambda m: m.group(1) + HIDDEN, hidden)
    return hidden


def sniff(head: str) -> float:
    if head.lstrip().startswith("{"):
        # 1.0: its recorded commands name the statements other formats sniff for
        return 1.0 if _RECORDED.search(head[:4096]) else 0.0
    names = {m.group(1) for m in _VARIABLE_NAMES.finditer(head)}
    if len(names) >= 2 and (_VARIABLES_HEADER.search(head) or len(names) >= 4):
        return 0.9
    return _option_file_score(head)


def _option_file_score(head: str) -> float:
    lines = [x.strip() for x in head.splitlines()[:400]]
    lines = [x for x in lines if x and not x.startswith(("#", ";"))]
    if len(head) >= 4096:
        lines = lines[:-1]  # the head may cut its last line
    if not lines or not (_SECTION.match(lines[0]) or _INCLUDE.match(lines[0])):
        return 0.0
    if all(_INCLUDE.match(x) for x in lines):  # a top file that only includes others (mysql-common's)
        return 0.8
    sections = [m.group(1).lower() for x in lines if (m := _SECTION.match(x))]
    known = any(_SERVER_SECTIONS.match(s) or s in ("client", "mysql", "mysqldump") for s in sections)
    fitting = sum(1 for x in lines if _SECTION.match(x) or _INCLUDE.match(x) or _OPTION.match(x))
    # one line is enough when it is a section: Debian's conf.d/mysql.cnf is `[mysql]` alone
    return 0.9 if known and fitting == len(lines) and (len(lines) >= 2 or sections) else 0.0


def parse(chunks: Iterator[bytes], ctx: Context) -> Iterator[Block]:
    first = next(chunks, b"")
    rest = _prepend(first, chunks)
    if first.lstrip()[:1] == b"{":
        if _recorded(rest, ctx):
            yield from ()
            return
    elif _VARIABLE_NAMES.search(first[:65536].decode("utf-8", "replace")) and not _looks_option_file(first):
        _variables(rest, ctx)
    elif _option_file(rest, ctx):
        return  # sections without options: said
    if not ctx.meta.settings:
        ctx.warn(None, "no settings found", kind="format")
    yield from ()


def _prepend(first: bytes, rest: Iterator[bytes]) -> Iterator[bytes]:
    if first:
        yield first
    yield from rest


def _looks_option_file(first: bytes) -> bool:
    return _option_file_score(first[:65536].decode("utf-8", "replace")) > 0


def _add(ctx: Context, setting: Setting) -> bool:
    if len(ctx.meta.settings) >= MAX_SETTINGS:
        ctx.warn(setting.line, f"more than {MAX_SETTINGS} settings: the rest not read", kind="limit")
        return False
    ctx.meta.settings.append(setting)
    return True


# ---- my.cnf -----------------------------------------------------------------------------------


def _option_file(chunks: Iterator[bytes], ctx: Context) -> bool:
    """Read an option file's settings; True when it has sections but sets nothing (Debian ships
    such files: every option commented out), which is said in a warning that names them."""
    ctx.note_variant("option file")
    section = ""
    sections: list[str] = []
    for snap in snapshots(chunks, ctx):  # no markers in an option file: one snapshot of every line
        for no, raw in enumerate(snap.lines, snap.first_line):
            line = raw.strip()
            if not line or line.startswith(("#", ";")):
                continue
            if m := _SECTION.match(line):
                section = m.group(1).lower()
                sections.append(section)
            elif m := _INCLUDE.match(line):
                if not _add(ctx, Setting("include", "!" + m.group(1), m.group(2), no)):
                    return False
            elif (m := _OPTION.match(line)) and section:
                value = HIDDEN if _SECRET.search(m.group(1)) else _option_value(m.group(2))
                if not _add(ctx, Setting(section, m.group(1), value, no)):
                    return False
            elif ctx.room():
                ctx.warn(no, f"not an option line: {line[:80]!r}", kind="unreadable")
    if ctx.meta.settings or not sections:
        return False
    more = f" (+{len(sections) - 6} more)" if len(sections) > 6 else ""
    ctx.warn(None, f"an option file that sets no option (sections: {', '.join(sections[:6])}{more})", kind="format")
    return True


def _option_value(text: str | None) -> str:
    """The value as MySQL's option parser reads it: quotes removed, a `#` comment after an unquoted
    value dropped; a bare option (no `=`) is a boolean switched on."""
    if text is None:
        return "ON"
    text = text.strip()
    if len(text) >= 2 and text[0] in "'\"" and text[0] in text[1:]:
        return text[1 : text.index(text[0], 1)]
    return re.split(r"\s+#", text, maxsplit=1)[0].strip()


# ---- SHOW GLOBAL VARIABLES --------------------------------------------------------------------


def _variables(chunks: Iterator[bytes], ctx: Context) -> None:
    taken: list[tuple[int, dict[str, tuple[str, int]]]] = []
    for snap in snapshots(chunks, ctx):
        parsed = mt.parse(enumerate(snap.lines, snap.first_line), ctx, HEADERS, ["Variable_name", "Value"])
        for no, text in parsed.errors:
            ctx.warn(no, f"the statement failed: {text[:120]}", kind="format")
        for res in parsed.results:
            if res.complete is False:
                ctx.warn(res.first_line, f"result cut short ({len(res.rows)} rows); skipped", kind="truncated")
            elif res.rows and "variable_name" in res.rows[0].cells:
                ctx.note_variant(mt.SHAPES.get(res.shape, res.shape))
                values = {r.cells["variable_name"]: (r.cells.get("value", ""), r.line) for r in res.rows}
                taken.append((res.first_line, values))
    if not taken:
        return
    last = taken[-1][1]
    if len(taken) > 1:
        _warn_changed(taken[0][1], last, taken[-1][0], ctx)
    for var, (value, no) in last.items():
        if var and not _add(ctx, Setting("variables", var, value, no)):
            return


def _warn_changed(first: dict[str, tuple[str, int]], last: dict[str, tuple[str, int]], line: int, ctx: Context) -> None:
    changed = [f"{k} {first[k][0]} -> {v}" for k, (v, _) in last.items() if k in first and first[k][0] != v]
    if changed:
        more = f" (+{len(changed) - 3} more)" if len(changed) > 3 else ""
        ctx.warn(
            line, "changed during the capture: " + "; ".join(changed[:3])[:300] + more + "; the last kept", kind="other"
        )


# ---- benchlens-run.json -----------------------------------------------------------------------


def _recorded(chunks: Iterator[bytes], ctx: Context) -> bool:
    """Read a benchlens-run.json's settings; True when it was one (a record that records no
    commands or tools is still the run's record, not a file without settings)."""
    raw = b""
    for chunk in chunks:
        raw += chunk
        if len(raw) > MAX_JSON:
            ctx.warn(None, f"larger than {MAX_JSON >> 10} KiB: not a benchlens-run.json", kind="limit")
            return False
    try:
        data = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        ctx.warn(None, "not valid JSON", kind="unreadable")
        return False
    if not isinstance(data, dict) or data.get("format") != "benchlens-run":
        ctx.warn(None, "not a benchlens-run.json", kind="format")
        return False
    ctx.note_variant("benchlens-run.json")
    for scope, key in (("command", "commands"), ("tool", "tools")):
        table = data.get(key)
        if table is not None and not isinstance(table, dict):
            ctx.warn(None, f"{key!r} is not an object of names and strings: not read", kind="format")
        for k, v in table.items() if isinstance(table, dict) else ():
            if isinstance(v, str):
                _add(ctx, Setting(scope, str(k), hide_secrets(v) if scope == "command" else v))
    for cmd in _bench_commands(data):
        for opt, value in benchmark_options(cmd):
            _add(ctx, Setting("benchmark", opt, value))
    if not ctx.meta.settings:
        ctx.note_variant("no commands or tools recorded")
    return True


def _bench_commands(data: dict[str, object]) -> list[str]:
    cmds = data.get("commands")
    found = [v for v in (cmds.values() if isinstance(cmds, dict) else ()) if isinstance(v, str)]
    extra = data.get("bench_command")
    found += [extra] if isinstance(extra, str) else []
    return [c for c in found if _benchmark_of(c) is not None]


def _benchmark_of(cmd: str) -> str | None:
    words = _words(cmd)
    for w in words[:3]:
        base = w.rsplit("/", 1)[-1]
        if base in ("sysbench", "tpcc_start"):
            return base
    return None


def _words(cmd: str) -> list[str]:
    try:
        return shlex.split(cmd)
    except ValueError:
        return cmd.split()


SYSBENCH_OPTIONS = ("threads", "tables", "table-size", "report-interval", "time", "rate", "events", "num-threads")
TPCC_OPTIONS = {"-w": "warehouses", "-c": "connections", "-r": "rampup", "-l": "measure", "-i": "report-interval"}


def benchmark_options(cmd: str) -> list[tuple[str, str]]:
    """The options of a sysbench or tpcc_start command line that shape the load: (name, value)."""
    words = _words(cmd)
    tool = _benchmark_of(cmd)
    out: list[tuple[str, str]] = []
    if tool == "sysbench":
        tests = [w for w in words[1:] if not w.startswith("-") and w not in ("run", "prepare", "cleanup")]
        out += [("sysbench test", tests[0])] if tests else []
        for w in words:
            key, _, value = w.partition("=")
            opt = key.removeprefix("--")
            if key.startswith("--") and opt in SYSBENCH_OPTIONS and value:
                out.append(("sysbench " + ("threads" if opt == "num-threads" else opt), value))
    elif tool == "tpcc_start":
        for flag, value in itertools.pairwise(words):
            if flag in TPCC_OPTIONS:
                out.append(("tpcc " + TPCC_OPTIONS[flag], value))
    return out
