"""What the columns of dstat's and dool's database plugins are: a rate, a gauge, a setting or a
clock, and their units (importers/_dstat_layout.py names every other column).

dool 1.3's own MySQL/InnoDB plugins (dool/plugins/dool_mysql_*.py, dool_innodb_*.py in dool's
wheel), by the group title they print:
- `mysql5 cmds` sel/ins/upd/del: Com_select ... differenced over the interval, per second (1/s);
- `mysql5 io` recv/sent: Bytes_received/Bytes_sent per second (B/s, suffixes in 1024s);
- `mysql5 conn` ThCon/ThRun: Threads_connected/Threads_running, gauges that the plugin divides
  by the elapsed seconds (the value itself at a 1-s delay), %Con: Threads_connected as % of
  max_connections;
- `mysql5 key status` used/read/writ/rreq/wreq: Key_* counters since start divided by the elapsed
  seconds (not differenced);
- `innodb pool` crt/rea/wri: pages created/read/written per second (SHOW ENGINE INNODB STATUS);
- `innodb io ops` rea/wri/syn: OS file reads/writes/fsyncs per second;
- `innodb ops` ins/upd/del/rea: rows inserted/updated/deleted/read per second;
- `MySQL InnoDB basic|extra|full` (`mysql-innodb`, DOOL_INNODB_OPT): qps, sel/s ... con/s,
  r#read ... wrlog per second; thcon/thrun/slow as they stand (gauges; slow counts since start);
  %dirty: dirty pages as % of the buffer pool.

DBPA's plugins (the dool captures of the DBPA anomaly benchmark; only their PostgreSQL twins are
published, reproduction/server_files/plugins for dool/ in github.com/hjhhsy120/DBPA):
- `mysql5 time` Time: integer epoch seconds (the clock of the row);
- `mysql5 conn` Conn/Act: connections, active ones (gauges); %Con: Conn as % of max_connections;
- `mysql5 locks` Locks: lock waits (gauge);
- `mysql5 settings`: server variables (Innodb_buffer_pool_size, max_connections ...): settings of
  the run, not series;
- `mysql5 all`: buffer pool pages data/free/dirty (gauges), flushed, readr/reads (page read
  requests and reads, per second), ratio (hit %), size (database bytes), grow (B/s),
  insert/update/delete (rows per second), comm/roll (commits and rollbacks in the interval: the
  PostgreSQL twin differences them without dividing by the seconds).
"""

from __future__ import annotations

# group -> (suffix base, {column: unit}); a column not listed has no unit
PLUGINS: dict[str, tuple[int, dict[str, str]]] = {
    "mysql5 cmds": (1000, dict.fromkeys(("sel", "ins", "upd", "del"), "1/s")),
    "mysql5 io": (1024, dict.fromkeys(("recv", "sent"), "B/s")),
    "mysql5 conn": (1000, {"ThCon": "", "ThRun": "", "%Con": "%", "Conn": "", "Act": ""}),
    "mysql5 key status": (1000, dict.fromkeys(("used", "read", "writ", "rreq", "wreq"), "")),
    "mysql5 locks": (1000, {"Locks": ""}),
    "innodb pool": (1000, dict.fromkeys(("crt", "rea", "wri"), "1/s")),
    "innodb io ops": (1000, dict.fromkeys(("rea", "wri", "syn"), "1/s")),
    "innodb ops": (1000, dict.fromkeys(("ins", "upd", "del", "rea"), "1/s")),
    "mysql5 all": (
        1000,
        {"data": "pages", "free": "pages", "dirty": "pages", "flushed": "1/s", "readr": "1/s", "reads": "1/s"}
        | {"ratio": "%", "size": "B", "grow": "B/s", "insert": "1/s", "update": "1/s", "delete": "1/s"}
        | {"comm": "1/interval", "roll": "1/interval"},
    ),
}
_INNODB = {"qps": "1/s", "thcon": "", "thrun": "", "slow": "", "%dirty": "%"}
_INNODB |= {nick: "1/s" for nick in ("sel/s", "ins/s", "upd/s", "del/s", "con/s", "rdphy", "rdlgc", "wrdat")}
_INNODB |= {nick: "1/s" for nick in ("r#read", "r#ins", "r#upd", "r#del", "wrlog")}
for _mode in ("basic", "extra", "full"):
    PLUGINS[f"MySQL InnoDB {_mode}"] = (1000, _INNODB)

# groups whose `Time` column is the row's clock in epoch seconds (DBPA's time plugins)
TIME_GROUPS = frozenset({"mysql5 time", "postgresql time"})
# groups whose columns are the server's settings (the same value every row)
SETTING_GROUPS = frozenset({"mysql5 settings", "postgresql settings"})
# pcp-dstat's CSV prints PCP's values as PCP keeps them: these groups' metrics in KiB (its text
# scales them to bytes): disk.dev.read_bytes, mem.util.*, swapdev.* (`pminfo -d`, PCP 6.0.3)
PCP_KIB = frozenset({"dsk", "memory", "swap"})


def plugin(group: str, nick: str) -> tuple[int, str] | None:
    """(suffix base, unit) of a known plugin column, None for a group this table does not hold."""
    known = PLUGINS.get(group)
    if known is None:
        return None
    return known[0], known[1].get(nick, "")
