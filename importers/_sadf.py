"""`sadf -d` and `sadf -j` (sysstat): sar's reports as `;`-separated rows or JSON, read for
importers/sar.py.

Each report opens with `# hostname;interval;timestamp;[LABEL;]col;col...`; rows are
`host;interval;timestamp;[label;]value;...`. Timestamps: `2026-11-23 15:57:45 UTC` (the default,
UTC), `2026-11-23 19:27:46 EST` (sysstat >= 12.7 with `-T`, the zone sadf ran in, or `-t`, the data
file creator's: placed by the folder clock, the name kept as the file's zone evidence; a zone
without an abbreviation is named by its offset, `+04`, `-03`, `+0545`, and applied as such),
`2026-11-23 15:57:45` (12.6 with `-t`/`-T`: local time, no zone named, placed by the folder clock)
or epoch seconds (`-U`). `sadf -j` stamps say the same with `"utc": 1|0` (12.6) or `"tz": "UTC"`,
`"tz": "EST"` (12.7). `sadf -x` (XML) and `-p` are not read. Values follow LC_NUMERIC (`73,85`
under de_DE: with `;` between fields a comma is always a decimal mark). The CPU `-1` is `all`;
`-I`'s `INTR;CPU*` header stands for an `all` column then one per CPU. Column names and conversions
are sar's (_sysstat.sar_column). Restart and comment records (`LINUX-RESTART`, `COM`) are skipped.
This is a plain per-line reader (~0.3 M lines/s): sadf output is an export, not what a monitor
writes during a benchmark.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np

from benchlens.importers import _sysstat as ss
from benchlens.importers._times import days_from_civil
from benchlens.importers._types import Block, Context

HEADER = "# hostname;interval;timestamp;"
_LABEL = re.compile(r"[A-Z][A-Z0-9]*")
_NUMBER = re.compile(r"[-+]?(?:\d+(?:[.,]\d*)?|[.,]\d+)")
# `2026-11-23 15:57:45 UTC`, `... 19:27:46 EST` (sysstat >= 12.7 names the zone of -T and -t), no zone
# (12.6 with -t/-T), or epoch seconds (-U)
_STAMP = re.compile(
    r"(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?: ([A-Za-z][A-Za-z0-9+:-]{0,9}|[+-]\d\d(?::?\d\d)?))?|(\d{1,12})"
)
UTC_NAMES = frozenset({"UTC", "GMT", "UCT", "Z"})
# zones without an abbreviation are named by their offset: `+04` (Asia/Dubai), `-03`, `+0545`
_OFFSET = re.compile(r"([+-])(\d\d):?(\d\d)?")
_SKIP = ("LINUX-RESTART", "COM")
Key = tuple[str, str]  # (entity, metric)


class CsvReader:
    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.label = ""  # the row label of the header in force (`CPU`, `IFACE` ...), "" host-wide
        self.cols: list[tuple[str, float, str] | None] | None = None  # None: no header yet
        self.star = False  # `INTR;CPU*`: as many columns as the rows have
        self.owners: dict[tuple[str, str, str], str] = {}
        self.variants: set[str] = set()

    def chunk(self, data: bytes, line_no: int) -> Iterator[Block]:
        times: dict[Key, list[float]] = {}
        values: dict[Key, list[float]] = {}
        for j, raw in enumerate(data.split(b"\n")):
            line = raw.decode("utf-8", "replace").rstrip("\r")
            if line.startswith(HEADER):
                self._header(line)
            elif line.strip() and not line.startswith("#"):
                self._row(line, line_no + j, times, values)
        for key, ts in times.items():
            yield Block(key[0], np.array(ts, np.float64), {key[1]: np.array(values[key], np.float64)})

    def _header(self, line: str) -> None:
        names = line[len(HEADER) :].split(";")
        self.label = names[0] if names and _LABEL.fullmatch(names[0]) else ""
        names = names[1:] if self.label else names
        self.star = self.label == "INTR" and names == ["CPU*"]
        self.cols = []
        tell = "|".join(names)
        for w in names if not self.star else []:
            metric, factor, suffix = ss.sar_column(w, names, self.label)
            if self.owners.setdefault((self.label, metric, suffix), tell) != tell or not w:
                self.cols.append(None)  # another report prints this name too: the first one keeps it
                continue
            self.cols.append((metric, factor, suffix))
            self.ctx.units[metric] = ss.sar_unit(metric)
        if self.star:
            self.ctx.units["intr/s"] = "1/s"

    def _row(self, line: str, line_no: int, times: dict[Key, list[float]], values: dict[Key, list[float]]) -> None:
        fields = line.split(";")
        lead = 3 + (self.label != "")
        if len(fields) >= 4 and fields[3].split("\t")[0].split(" ")[0] in _SKIP:
            return  # a restart or comment record
        if self.cols is None:
            self._warn(line_no, "a row before any `# hostname;interval;timestamp;...` header")
            return
        cols = self.cols
        if self.star:  # INTR;CPU*: all, CPU0, CPU1 ...
            cols = [("intr/s", 1.0, "" if i == 0 else f" CPU{i - 1}") for i in range(len(fields) - lead)]
        nums = fields[lead:]
        t = self._time(fields[2]) if len(fields) > 2 else None
        if len(nums) != len(cols) or t is None or not all(_NUMBER.fullmatch(v) for v in nums):
            self._warn(line_no, f"not a row of its header: {line[:80]!r}")
            return
        if self.ctx.meta.host is None:
            self.ctx.meta.host = fields[0]
        if self.ctx.meta.interval is None and _NUMBER.fullmatch(fields[1]) and float(fields[1]) > 0:
            self.ctx.meta.interval = float(fields[1])
        entity = fields[3] if self.label else ""
        if self.label == "CPU" and entity == "-1":
            entity = "all"
        for c, v in zip(cols, nums, strict=True):
            if c is not None:
                key = (entity + c[2], c[0])
                times.setdefault(key, []).append(t)
                values.setdefault(key, []).append(float(v.replace(",", ".")) * c[1])

    def _time(self, text: str) -> float | None:
        m = _STAMP.fullmatch(text)
        if m is None:
            return None
        if m[8]:
            self._variant("epoch times (-U)")
            return float(m[8])
        y, mo, d, h, mi, s = (int(m[i]) for i in range(1, 7))
        if not (1 <= mo <= 12 and 1 <= d <= 31 and h < 24 and mi < 60 and s < 61 and y >= 1970):
            return None
        day = days_from_civil(np.array([y]), np.array([mo]), np.array([d]))[0]
        return placed(float(day * 86400 + h * 3600 + mi * 60 + s), m[7], self.ctx)

    def _variant(self, text: str) -> None:
        if text not in self.variants:
            self.variants.add(text)
            self.ctx.note_variant(text)

    def _warn(self, line_no: int, text: str) -> None:
        if self.ctx.room():
            self.ctx.warn(line_no, text, kind="unreadable")


# ---- sadf -j -------------------------------------------------------------------------------------

# section -> (key naming the entity or "", how keys become sar's column names)
JSON_SECTIONS = {
    "cpu-load": ("cpu", "percent"),
    "process-and-context-switch": ("", "rate"),
    "swap-pages": ("", "rate"),
    "paging": ("", "rate"),
    "io": ("", "io"),
    "memory": ("", "memory"),
    "queue": ("", "as is"),
    "disk": ("disk-device", "disk"),
    "interrupts": ("intr", "intr"),
    "net-dev": ("iface", "rate"),
    "net-edev": ("iface", "rate"),
    "net-sock": ("", "as is"),
    "net-tcp": ("", "rate"),
    "net-etcp": ("", "rate"),
    "hugepages": ("", "memory"),
    "kernel": ("", "as is"),
    "serial": ("line", "rate"),
    "filesystems": ("filesystem", "as is"),  # `mountpoint` instead with -F MOUNT
    "softnet": ("cpu", "softnet"),
    "cpu-frequency": ("number", "frequency"),  # in `power-management`
    "psi-cpu": ("", "psi"),  # in `psi`, as psi-io and psi-mem
    "psi-io": ("", "psi"),
    "psi-mem": ("", "psi"),
    "net-nfs": ("", "nfs"),
    "net-sock6": ("", "as is"),
    **{
        f"net-{name}": ("", "rate")
        for name in ("nfsd", "ip", "eip", "icmp", "eicmp", "udp", "ip6", "eip6", "icmp6", "eicmp6", "udp6")
    },
}
# objects that hold sections rather than values
_CONTAINERS = ("network", "power-management", "psi")
_PSI = re.compile(r"(some|full)_avg(\d*)")
_DISK_AS_IS = {"tps", "areq-sz", "aqu-sz", "await"}
_DISK_OLD = {"rd_sec", "wr_sec", "dc_sec", "avgrq-sz", "avgqu-sz"}  # the same values in older units


def json_metric(key: str, rule: str) -> str | None:
    """sar's column name of a sadf -j key (`memfree` -> `kbmemfree`, `util-percent` -> `%util`, `rkB`
    -> `rkB/s`), None for a key that repeats another in older units."""
    if key.endswith("-percent"):
        return "%" + key.removesuffix("-percent")
    if rule == "percent":
        return "%" + key
    if rule == "memory":
        return "kbinact" if key == "inactive" else "kb" + key
    if rule == "disk":
        return None if key in _DISK_OLD else key if key in _DISK_AS_IS else key + "/s"
    if rule == "io":
        return key if key.endswith("tps") else key + "/s"
    if rule == "softnet":  # the backlog length is a gauge
        return key if key == "blg_len" else key + "/s"
    if rule == "nfs":  # sar prints the NFS client's `retrans/s` as ETCP does: the text reader renames it
        return "nfs-retrans/s" if key == "retrans" else key + "/s"
    if rule == "frequency":
        return "MHz" if key == "frequency" else None
    return key + "/s" if rule == "rate" else key


def _psi_metric(key: str, section: str) -> str | None:
    """`some_avg10` of psi-cpu -> `%scpu-10`, `full_avg` of psi-io -> `%fio` (sar -q PSI's columns)."""
    m = _PSI.fullmatch(key)
    if m is None:
        return None
    return f"%{m[1][0]}{section.removeprefix('psi-')}" + (f"-{m[2]}" if m[2] else "")


def read_json(doc: dict[str, object], ctx: Context) -> Iterator[Block]:
    """The statistics of the first host of a `sadf -j` document: the sections in JSON_SECTIONS
    (`network` holds the net-* ones); others are named in the variant and skipped."""
    series: dict[Key, tuple[list[float], list[float]]] = {}
    for host in ss.json_hosts(doc, ctx)[:1]:
        stats = host.get("statistics")
        for entry in stats if isinstance(stats, list) else []:
            if entry == {}:
                continue  # sadf closes the list with an empty record
            t = _json_time(entry.get("timestamp") if isinstance(entry, dict) else None, ctx)
            if t is None or not isinstance(entry, dict):
                ctx.warn(None, "a sadf -j record without a readable timestamp; skipped", kind="time")
                continue
            sections = dict(entry)
            for name in _CONTAINERS:
                inner = sections.pop(name, None)
                sections.update(inner if isinstance(inner, dict) else {})
            for name, body in sections.items():
                if name == "timestamp":
                    continue
                if name not in JSON_SECTIONS:
                    ctx.note_variant(f"sadf -j section {name!r} not read")
                    continue
                for item in body if isinstance(body, list) else [body]:
                    if isinstance(item, dict):
                        _json_item(item, name, t, series, ctx)
    for (entity, metric), (ts, vs) in series.items():
        yield Block(entity, np.array(ts, np.float64), {metric: np.array(vs, np.float64)})


def _json_item(
    item: dict[str, object], section: str, t: float, series: dict[Key, tuple[list[float], list[float]]], ctx: Context
) -> None:
    label, rule = JSON_SECTIONS[section]
    if section == "filesystems" and label not in item:
        label = "mountpoint"
    entity = str(item.get(label, "")) if label else ""
    if section == "cpu-load" and entity == "-1":
        entity = "all"
    for key, v in item.items():
        if key == label or isinstance(v, dict | list | str):
            if isinstance(v, dict) and section == "io" and key.startswith("io-"):  # io-reads, io-writes ...
                _json_item(v, "io", t, series, ctx)
            continue
        metric = "intr/s" if rule == "intr" else _psi_metric(key, section) if rule == "psi" else json_metric(key, rule)
        ent = f"{entity} {key}" if rule == "intr" and key != "all" else entity
        if metric is None:
            continue
        ctx.units[metric] = ss.sar_unit(metric)
        ts, vs = series.setdefault((ent, metric), ([], []))
        ts.append(t)
        vs.append(ss.number(v))


def _json_time(stamp: object, ctx: Context) -> float | None:
    if not isinstance(stamp, dict) or not isinstance(stamp.get("date"), str) or not isinstance(stamp.get("time"), str):
        return None
    m = _STAMP.fullmatch(f"{stamp['date']} {stamp['time']}")
    if m is None or m[8]:
        return None
    y, mo, d, h, mi, s = (int(m[i]) for i in range(1, 7))
    if not (1 <= mo <= 12 and 1 <= d <= 31 and h < 24 and mi < 60 and s < 61 and y >= 1970):
        return None
    naive = float(days_from_civil(np.array([y]), np.array([mo]), np.array([d]))[0] * 86400 + h * 3600 + mi * 60 + s)
    # 12.6 says `"utc": 1` (or 0: -t, -T), 12.7 names the zone: `"tz": "UTC"`, `"tz": "EST"` (-T, -t)
    zone = stamp.get("tz")
    return placed(naive, "UTC" if stamp.get("utc") == 1 else zone if isinstance(zone, str) and zone else None, ctx)


def placed(naive: float, zone: str | None, ctx: Context) -> float:
    """Epoch of a stamp in `zone`: UTC as is; an offset (`+04`, `-03`, `+0545`) applied; a named
    zone (`EST`, `CST`: the sadf user's with -T, the data file creator's with -t) on the folder
    clock, the name kept as evidence for its zone (an ambiguous one such as CST is only trusted
    when --tz or the machine agrees); no zone (12.6's -t and -T) on the folder clock."""
    if zone is not None and zone.upper() in UTC_NAMES:
        ctx.note_variant("UTC times")
        return naive
    if zone is not None and (m := _OFFSET.fullmatch(zone)):
        ctx.note_variant(f"times at UTC{zone}")
        east = (int(m[2]) * 3600 + int(m[3] or 0) * 60) * (1 if m[1] == "+" else -1)
        return naive - east
    variant = "local times (-t or -T, no zone named)" if zone is None else f"local times in {zone} (-t or -T)"
    if variant not in ctx.variant:  # once per zone named
        ctx.note_variant(variant)
        meta = ctx.meta
        if zone is not None and meta.zone_abbrev is None:
            meta.zone_abbrev = zone
        elif zone is not None and meta.zone_abbrev != zone:
            ctx.warn(
                None,
                f"times in {meta.zone_abbrev} and in {zone} (daylight saving time began or ended?): read on one "
                "clock; give --tz with the region's zone (America/New_York ...) to place both",
                kind="time",
            )
    return float(ctx.clock.wall(np.array([naive]))[0])
