"""The configuration of a run and the settings that differ between two runs (`benchlens diff`, the
window's B vs A view).

A run's settings come from its `config` sources (importers/config.py: my.cnf-style option files,
SHOW GLOBAL VARIABLES captures, benchlens-run.json), from dool's `mysql5 settings` columns
(importers/dstat.py, scope `variables` as SHOW VARIABLES) and from its benchmark log (tpcc-mysql's header,
sysbench's thread counts and report spacing when no command line said them). They are grouped:
`server` (SHOW VARIABLES and the server sections of option files: mysqld, mariadb, server ...;
the server's own values win over the option files'), `benchmark`, `tool`, `command`, `include`
(`!include` lines, shown as such), and the other option-file sections by name (`client` ...).

Values are compared normalised, as MySQL reads them, so that spelling is never a change: option
names with `-` or `_` and a `loose-` prefix are one name; `64M` = `65536K` = 67108864 (K M G T P E,
powers of 1024); `ON` = `on` = `1` = `TRUE` = `YES`, `OFF` = `0`; numbers by value (`10.000000` =
`10`); comma lists (sql_mode) as sets; words case-insensitively (`O_DIRECT` = `o_direct`); paths
case-sensitively as the file system compares them, repeated and trailing `/` dropped.
Session and volatile variables (the clock, random seeds, GTID positions) never differ."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from benchlens.app.model import RunData, SeriesRef
from benchlens.importers._types import Setting

# the formats whose sources state settings: option files and SHOW VARIABLES (config), and dool's
# `mysql5 settings` plugin (dstat: the server's variables as it printed them every row)
SETTING_FORMATS = ("config", "dstat")
SERVER_SECTION = re.compile(r"^(?:mysqld|mariadb|mariadbd|server|client-server|galera)(?:-[\d.]+)?$")
# the order groups are listed in: what the server ran with first
GROUP_ORDER = ("server", "benchmark", "tool", "command", "include")
# SHOW VARIABLES rows that change by themselves (the clock, seeds, positions, this session)
_VOLATILE = """timestamp rand_seed1 rand_seed2 pseudo_thread_id last_insert_id insert_id identity
warning_count error_count gtid_binlog_pos gtid_current_pos gtid_binlog_state gtid_slave_pos
gtid_executed gtid_purged last_gtid server_uuid in_transaction external_user proxy_user
pseudo_slave_mode innodb_buffer_pool_load_at_startup_status"""
VOLATILE = frozenset(_VOLATILE.split())
_BOOL = {"on": "1", "true": "1", "yes": "1", "off": "0", "false": "0", "no": "0"}
_SIZE = re.compile(r"^([+-]?\d+(?:\.\d+)?)([kmgtpe]?)$", re.I)
_POWER = {"": 0, "k": 1, "m": 2, "g": 3, "t": 4, "p": 5, "e": 6}


def normalise(value: str) -> str:
    """A value as MySQL compares it (see the module's docstring)."""
    v = value.strip()
    low = v.lower()
    if low in _BOOL:
        return _BOOL[low]
    if m := _SIZE.match(v):
        x = float(m.group(1)) * 1024 ** _POWER[m.group(2).lower()]
        return str(int(x)) if math.isfinite(x) and x == int(x) else repr(x)
    if "/" in v:  # a path: case kept
        path = re.sub(r"/{2,}", "/", v)
        return path.rstrip("/") or "/"
    if "," in v:
        return ",".join(sorted(x.strip().lower() for x in v.split(",") if x.strip()))
    return low


def option_name(name: str) -> str:
    """`innodb-buffer-pool-size`, `loose_innodb_buffer_pool_size` -> innodb_buffer_pool_size."""
    n = name.strip().lower().replace("-", "_")
    return n.removeprefix("loose_")


@dataclass(frozen=True)
class RunSetting:
    group: str  # server, benchmark, tool, command, include, or an option-file section (client ...)
    name: str
    value: str  # as printed
    origin: str  # where it was read: "SHOW VARIABLES line 198", "option file [mysqld] line 12"
    explicit: bool = False  # set by an option file or the benchmark's command (not a default)

    @property
    def normalised(self) -> str:
        return self.value if self.group in ("tool", "command", "include") else normalise(self.value)


def _keyed(s: Setting) -> tuple[str, str, str] | None:
    """(group, name, origin) of a stored setting."""
    at = f" line {s.line}" if s.line is not None else ""
    if s.scope == "variables":
        name = option_name(s.name)
        return None if name in VOLATILE else ("server", name, "SHOW VARIABLES" + at)
    if s.scope in ("benchmark", "tool", "command"):
        return s.scope, s.name, "benchlens-run.json"
    if s.scope == "include":
        return "include", f"{s.name} {s.value}", "option file" + at
    group = "server" if SERVER_SECTION.match(s.scope) else s.scope
    return group, option_name(s.name), f"option file [{s.scope}]{at}"


def run_settings(data: RunData, run_id: int) -> dict[tuple[str, str], RunSetting]:
    """Every setting of a run by (group, name). Option files first, then SHOW VARIABLES (the
    server's own values win), then the benchmark log's facts where nothing else said them."""
    out: dict[tuple[str, str], RunSetting] = {}
    stored = [s for fmt in SETTING_FORMATS for meta in data.source_meta(run_id, fmt) for s in meta.settings]
    for s in sorted(stored, key=lambda s: s.scope == "variables"):
        keyed = _keyed(s)
        if keyed is not None:
            group, name, origin = keyed
            before = out.get((group, name))
            explicit = s.scope != "variables" or (before is not None and before.explicit)
            out[(group, name)] = RunSetting(group, name, s.value if group != "include" else "", origin, explicit)
    for key, value, origin in _benchmark_facts(data, run_id):
        if ("benchmark", key) not in out:
            out[("benchmark", key)] = RunSetting("benchmark", key, value, origin)
    return out


def _benchmark_facts(data: RunData, run_id: int) -> list[tuple[str, str, str]]:
    """What the benchmark's log says of its load: tpcc-mysql's header, sysbench's threads (the
    thread counts it reported) and report interval (the spacing of its reports)."""
    facts: list[tuple[str, str, str]] = []
    for meta in data.source_meta(run_id, "tpcc"):
        for run in meta.tpcc_runs[:1]:
            for key, said in (("warehouses", run.warehouses), ("connections", run.threads), ("rampup", run.rampup)):
                if said is not None:
                    facts.append((f"tpcc {key}", str(said), "tpcc log header"))
    if (series := data.data(run_id, SeriesRef("sysbench", "thds"))) is not None:
        t, v = np.asarray(series[0], np.float64), np.asarray(series[1], np.float64)
        levels = sorted({int(x) for x in v[np.isfinite(v)]})
        if levels:
            facts.append(("sysbench threads", ",".join(map(str, levels)), "sysbench reports"))
        steps = np.diff(t)
        if len(steps) >= 2:
            facts.append(("sysbench report-interval", f"{float(np.median(steps)):g}", "sysbench reports"))
    return facts


@dataclass(frozen=True)
class SettingDiff:
    group: str
    name: str
    a: RunSetting | None  # None: the run does not say it
    b: RunSetting | None

    @property
    def kind(self) -> str:
        return "changed" if self.a and self.b else ("only_a" if self.a else "only_b")

    def label(self) -> str:
        """`innodb_flush_log_at_trx_commit 1 → 2`; normalised values in brackets when spelt otherwise."""
        a = self.a.value if self.a else "(not set)"
        b = self.b.value if self.b else "(not set)"
        text = f"{self.name} {a} → {b}"
        na, nb = (self.a.normalised if self.a else a), (self.b.normalised if self.b else b)
        if (self.a and na != a) or (self.b and nb != b):
            text += f" ({na} → {nb})"
        return text if self.group == "server" else f"[{self.group}] {text}"

    def as_json(self) -> dict[str, object]:
        def side(s: RunSetting | None) -> dict[str, str] | None:
            return None if s is None else {"value": s.value, "normalised": s.normalised, "origin": s.origin}

        return {"group": self.group, "name": self.name, "kind": self.kind, "a": side(self.a), "b": side(self.b)}


@dataclass(frozen=True)
class ConfigDiff:
    """The settings that differ: `changed` (both runs say them, values differ), `only` (one run
    sets it explicitly: an option file, the benchmark, a tool); `unlisted`: variables only one
    server has (another version), counted."""

    changed: list[SettingDiff]
    only: list[SettingDiff]
    unlisted: int
    known: tuple[int, int]  # settings of A and of B

    def as_json(self) -> dict[str, object]:
        return {
            "changed": [d.as_json() for d in self.changed],
            "only_in_one": [d.as_json() for d in self.only],
            "variables_only_in_one": self.unlisted,
            "settings": {"a": self.known[0], "b": self.known[1]},
        }


def _order(d: SettingDiff) -> tuple[int, bool, str]:
    group = GROUP_ORDER.index(d.group) if d.group in GROUP_ORDER else len(GROUP_ORDER)
    explicit = any(s is not None and s.explicit for s in (d.a, d.b))  # what a run set itself first
    return group, not explicit, d.name


def config_diff(data: RunData, a: int, b: int) -> ConfigDiff:
    """The settings of run B that differ from run A's, normalised; server settings first."""
    sa, sb = run_settings(data, a), run_settings(data, b)
    changed, only, unlisted = [], [], 0
    for key in sorted(set(sa) | set(sb)):
        x, y = sa.get(key), sb.get(key)
        d = SettingDiff(key[0], key[1], x, y)
        one = x or y
        if x is not None and y is not None:
            if x.normalised != y.normalised:
                changed.append(d)
        elif one is not None and one.origin.startswith("SHOW VARIABLES"):
            unlisted += 1
        else:
            only.append(d)
    return ConfigDiff(sorted(changed, key=_order), sorted(only, key=_order), unlisted, (len(sa), len(sb)))
