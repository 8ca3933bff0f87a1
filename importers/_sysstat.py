"""What iostat and mpstat (sysstat) share: the banner, the decimal separator, the JSON layout,
and the row machinery for token arrays."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterator

import numpy as np

from benchlens.importers._times import AM, CLOCK_OTHER_SEPARATORS, CLOCK_TEXT, PM, dates, iso_date, pick_date_style
from benchlens.importers._tokens import KIND_TEXT, Tokens, tokenize
from benchlens.importers._types import Context, FormatError

# "Linux 6.1.0-18-amd64 (host) \t11/22/26 \t_x86_64_\t(2 CPU)" -- fields separated by tabs.
BANNER = re.compile(
    r"^(?P<sys>\S+) (?P<kernel>\S+) \((?P<host>[^)]*)\)\s+(?P<date>\d{4}년 \d\d월 \d\d일|\S+)\s+(?:_(?P<arch>\S+)_)?\s*"
    r"(?:\((?P<cpus>\d+) CPU\))?"
)
_COMMA_NUMBER = re.compile(r"-?\d+,\d+")
_DOT_NUMBER = re.compile(r"-?\d+\.\d+")
MAX_JSON = 256 << 20


def parse_banner(line: str, ctx: Context) -> str | None:
    """Record host, kernel and CPU count; return the banner's date text."""
    m = BANNER.match(line)
    if not m:
        return None
    meta = ctx.meta
    if meta.host is None:
        meta.host = m["host"]
    if meta.kernel is None:
        meta.kernel = f"{m['sys']} {m['kernel']}"
    if m["cpus"] and meta.cpus is None:
        meta.cpus = int(m["cpus"])
    return m["date"]


def banner_day(date: str, decimal: str) -> int:
    """Days since the epoch of the banner's date in any layout sysstat prints (the locale's %x:
    `11/23/26`, `26/11/26`, `26.11.26`, `11/23/2026`, `23.11.2026`, `23/11/2026`, `2026年11月23日`,
    `2026년 11월 23일`; ISO `2026-11-23`)."""
    date = iso_date(date)
    style = pick_date_style([date], decimal == ",")
    days, ok = dates(tokenize(date.encode()), np.array([0]), style) if style else (None, [False])
    if days is None or not ok[0]:
        raise FormatError(f"unreadable date in the banner: {date!r}")
    return int(days[0])


_CLOCK = re.compile(r"\d\d:\d\d:\d\d")
_ROW_CLOCK = re.compile(rf"({CLOCK_TEXT})[ \t]+\S+[ \t]+\S")  # a time, then a label or header and more
LOCAL_CLOCKS = {"時": "hh時mm分ss秒", "时": "hh时mm分ss秒", "시": "hh시 mm분 ss초"}


_OTHER_CLOCK = re.compile(CLOCK_OTHER_SEPARATORS)


def time_tokens(toks: Tokens, ctx: Context) -> int | None:
    """How many tokens a row's time takes, from the first row of the chunk: 1 (`02:09:24`, 24 h;
    `02時09分24秒` ja_JP, `02时09分24秒` zh_CN), 2 (`02:09:24 AM`, 12 h, as en_US prints it) or 3
    (`02시 09분 24초`, ko_KR); None while no row has been seen."""
    layout = clock_layout(toks, ctx)
    return None if layout is None else layout[0]


def clock_layout(toks: Tokens, ctx: Context, other_separators: bool = False) -> tuple[int, str] | None:
    """(tokens a row's time takes, the separator of its `HH:MM:SS`) from the first row of the chunk
    (see time_tokens); with `other_separators`, fi_FI's `02.09.24` and `02,09,24` too (separator
    '.' or ','). None while no row has been seen."""
    for i in range(toks.n_lines):
        words = toks.words(i)
        if len(words) >= 3 and _CLOCK.fullmatch(words[0]):
            k = 2 if toks.hash[toks.tok_first[i] + 1] in (AM, PM) else 1
            ctx.note_variant("12-hour AM/PM times" if k == 2 else "24-hour times")
            return k, ":"
        if other_separators and len(words) >= 3 and _OTHER_CLOCK.fullmatch(words[0]):
            sep = words[0][2]
            ctx.note_variant(f"24-hour times (hh{sep}mm{sep}ss)")
            return 1, sep
        m = _ROW_CLOCK.match(toks.line(i).lstrip()) if len(words) >= 3 else None
        if m:
            ctx.note_variant(f"24-hour times ({LOCAL_CLOCKS.get(m.group(1)[2], m.group(1))})")
            return len(m.group(1).split()), ":"
    return None


def detect_decimal(head: str) -> str:
    """',' when the numbers of this file use a decimal comma (LC_NUMERIC=de_DE, fr_FR ...)."""
    words = head.split()
    commas = sum(1 for w in words if _COMMA_NUMBER.fullmatch(w))
    dots = sum(1 for w in words if _DOT_NUMBER.fullmatch(w))
    return "," if commas > dots else "."


def line_signature(toks: Tokens, lines: np.ndarray, skip: int = 0) -> np.ndarray:
    """A 64-bit signature of the tokens of each line from token `skip` on (identical header lines
    get identical signatures), computed without decoding them."""
    first = toks.tok_first[lines] + skip
    counts = np.maximum(toks.tok_first[lines + 1] - first, 0)
    total = int(counts.sum())
    if total == 0:
        return counts.astype(np.uint64)
    offsets = np.cumsum(counts) - counts
    pos = np.arange(total) - np.repeat(offsets, counts)
    idx = np.repeat(first, counts) + pos
    weighted = toks.hash[idx] * (pos.astype(np.uint64) * np.uint64(2) + np.uint64(1))
    sig = np.zeros(len(lines), np.uint64)
    nz = counts > 0
    sig[nz] = np.add.reduceat(weighted, offsets[nz])
    return sig ^ counts.astype(np.uint64)


def in_order_of_appearance(sigs: np.ndarray) -> np.ndarray:
    """The distinct header signatures of a chunk's rows, in the order the rows first show them: the
    series of a capture whose header changes come out in file order, however it is chunked."""
    distinct, first = np.unique(sigs, return_index=True)
    return distinct[np.argsort(first)]


def label_rows(toks: Tokens, label_at: int = 0) -> np.ndarray:
    """Lines shaped `[prefix tokens] LABEL NUMBER...`: tokens after the label all numeric, with
    `label_at` tokens before the label. Returns a boolean mask over lines."""
    count = toks.count
    numeric = toks.numeric_after(label_at + 1)
    return (count >= label_at + 2) & (numeric == count - label_at - 1)


def gather(toks: Tokens, rows: np.ndarray, start: int, ncols: int) -> np.ndarray:
    """Values of `ncols` numeric tokens from token `start` of each row, as a (rows, ncols) array."""
    return toks.gather(rows, start, ncols)


def header_in_force(hdr_lines: np.ndarray, hdr_sigs: np.ndarray, rows: np.ndarray, carried: int) -> np.ndarray:
    """Signature of the header each row stands under (`carried` for rows before the first header
    of the chunk): rows are then grouped by the few distinct headers, not by header line."""
    which = np.searchsorted(hdr_lines, rows) - 1
    sigs = np.concatenate((np.array([carried], np.uint64), hdr_sigs.astype(np.uint64)))
    return sigs[which + 1]


def label_order(
    toks: Tokens, label_tok: np.ndarray, names: dict[int, str]
) -> tuple[np.ndarray, list[tuple[str, slice]]]:
    """Order rows by the text of their label token (device, CPU) and give each label its slice of
    that order: groups are then contiguous, so columns are sliced, not gathered per label. Labels
    are compared by token hash, so only one per group is decoded; `names` caches hash -> text."""
    if len(label_tok) == 0:  # every row of the chunk was refused (wrong number of values)
        return np.zeros(0, np.int64), []
    labels = toks.hash[label_tok]
    order = np.argsort(labels, kind="stable")
    ordered = labels[order]
    bounds = np.concatenate(([0], np.flatnonzero(np.diff(ordered)) + 1, [len(ordered)]))
    groups = []
    for a, b in itertools.pairwise(bounds):
        h = int(ordered[a])
        label = names.get(h)
        if label is None:
            label = names[h] = toks.text(int(label_tok[order[a]]))
        groups.append((label, slice(int(a), int(b))))
    return order, groups


def label_groups(
    toks: Tokens, label_tok: np.ndarray, names: dict[int, str]
) -> tuple[np.ndarray | None, list[tuple[str, slice]]]:
    """Like label_order, without sorting when the rows cycle through the same labels in the same
    order (`all 0 1 ... 63 all 0 1 ...`, as sar and mpstat print every interval): label j's rows
    are then every P-th row from j (order None: the rows stay as they are)."""
    labels = toks.hash[label_tok]
    n = len(labels)
    repeat = np.flatnonzero(labels[1:] == labels[0]) + 1 if n else labels
    period = int(repeat[0]) if len(repeat) else n
    if n == 0 or not np.array_equal(labels[period:], labels[:-period]):  # a chunk may end mid-cycle
        return label_order(toks, label_tok, names)
    first = labels[:period]
    if len(np.unique(first)) != period:  # a label twice in one cycle: not one row per label
        return label_order(toks, label_tok, names)
    groups = []
    for j in range(period):
        h = int(first[j])
        label = names.get(h)
        if label is None:
            label = names[h] = toks.text(int(label_tok[j]))
        groups.append((label, slice(j, None, period)))
    return None, groups


def first_is_text(toks: Tokens) -> np.ndarray:
    first = np.minimum(toks.tok_first[:-1], max(len(toks.kind) - 1, 0))
    if len(toks.kind) == 0:
        return np.zeros(toks.n_lines, bool)
    return (toks.kind[first] == KIND_TEXT) & (toks.count > 0)


def load_json(chunks: Iterator[bytes]) -> dict[str, object]:
    parts: list[bytes] = []
    size = 0
    for data in chunks:
        size += len(data)
        if size > MAX_JSON:
            raise FormatError(f"JSON capture larger than {MAX_JSON >> 20} MiB")
        parts.append(data)
    try:
        doc = json.loads(b"".join(parts).decode("utf-8"), parse_int=_json_int)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise FormatError(f"not valid JSON ({e})") from None
    except RecursionError:
        raise FormatError("JSON nested too deeply") from None
    return doc if isinstance(doc, dict) else {}


def _json_int(text: str) -> int | float:
    """A JSON integer; one too long for int() (Python refuses 4300+ digits) is a float (inf)."""
    return int(text) if len(text) <= 300 else float(text)


def json_hosts(doc: dict[str, object], ctx: Context) -> list[dict[str, object]]:
    """The host objects of a sysstat JSON document (`{"sysstat": {"hosts": [...]}}`)."""
    sysstat = doc.get("sysstat")
    hosts = sysstat.get("hosts") if isinstance(sysstat, dict) else None
    if not isinstance(hosts, list) or not hosts:
        raise FormatError("JSON without sysstat.hosts")
    out = [h for h in hosts if isinstance(h, dict)]
    meta = ctx.meta
    for h in out[:1]:
        host, release, cpus = h.get("nodename"), h.get("release"), h.get("number-of-cpus")
        if isinstance(host, str) and meta.host is None:
            meta.host = host
        if isinstance(release, str) and meta.kernel is None:
            meta.kernel = f"{h.get('sysname', 'Linux')} {release}"
        if isinstance(cpus, int) and meta.cpus is None:
            meta.cpus = cpus
    return out


def number(v: object) -> float:
    return float(v) if isinstance(v, int | float) and not isinstance(v, bool) else float("nan")


# ---- sar's column names (sar text and `sadf -d` print the same ones) ----------------------------

# older spellings -> (current name, factor to the current unit)
SAR_CONVERT = {
    "rd_sec/s": ("rkB/s", 0.5),
    "wr_sec/s": ("wkB/s", 0.5),
    "avgrq-sz": ("areq-sz", 0.5),
    "avgqu-sz": ("aqu-sz", 1.0),
    "rxbyt/s": ("rxkB/s", 1 / 1024),
    "txbyt/s": ("txkB/s", 1 / 1024),
}
# a name two reports print: (a column that tells the report, the name) -> its name here
SAR_SAME_NAME = {("call/s", "retrans/s"): "nfs-retrans/s"}
_CPU_COLUMN = re.compile(r"CPU\d+")


def sar_column(word: str, names: list[str], label: str) -> tuple[str, float, str]:
    """(metric, factor, entity suffix) of one sar column under a header naming `names` with this
    row label (`CPU`, `IFACE`, `INTR` ... or ""): `-I ALL`'s per-CPU columns (`INTR all CPU0 CPU1`)
    are `intr/s` of entity `IRQ` and `IRQ CPU0` ...."""
    metric, factor = SAR_CONVERT.get(word, (word, 1.0))
    for (tell, same), renamed in SAR_SAME_NAME.items():
        if same == word and tell in names:
            metric = renamed
    if label == "INTR" and (word == "all" or _CPU_COLUMN.fullmatch(word)):
        return "intr/s", 1.0, "" if word == "all" else " " + word
    return metric, factor, ""


def sar_unit(metric: str) -> str:
    if metric.startswith("%"):
        return "%"
    if metric.endswith("kB/s") or metric in ("pgpgin/s", "pgpgout/s"):
        return "kB/s"
    if metric in ("bread/s", "bwrtn/s", "bdscd/s"):
        return "blocks/s"  # 512-byte blocks
    if metric.endswith("/s") or metric == "tps":
        return "1/s"
    if metric.startswith("kb") or metric == "areq-sz":
        return "kB"
    if metric.startswith("MB"):
        return "MB"
    if metric == "await":
        return "ms"
    return {"MHz": "MHz", "degC": "degC", "rpm": "rpm", "drpm": "rpm"}.get(metric, "")
