"""Importers: one module per text format, each with `name`, `sniff(head) -> score` and
`parse(chunks, ctx) -> Iterator[Block]`. Pure Python + numpy: no Qt, no sqlite3.

The format of a file is detected from its content only (never its name): every importer scores
the head of the file; the best score above THRESHOLD wins; two importers with the same best score
is an error, never a silent pick. A JSON document is scored only by the importers that parse JSON
(JSON_FORMATS): text importers sniff for words (`SHOW ENGINE INNODB MUTEX`, `EVENT_NAME`) that any
JSON of another tool may quote (pt-query-digest's report names the queries it saw), and none of
them could read it.
"""

from __future__ import annotations

import re

from benchlens.importers import (
    config,
    dbstress,
    diskstats,
    dstat,
    global_status,
    hammerdb,
    innodb_mutex,
    innodb_status,
    iostat,
    meminfo,
    mpstat,
    perfschema,
    pidstat,
    procstat,
    procvmstat,
    sar,
    sysbench,
    tpcc,
    vmstat,
)
from benchlens.importers._types import Importer

FORMATS: tuple[Importer, ...] = (
    vmstat,
    iostat,
    mpstat,
    sysbench,
    tpcc,
    dbstress,
    innodb_status,
    innodb_mutex,
    global_status,
    perfschema,
    sar,
    pidstat,
    diskstats,
    procstat,
    meminfo,
    procvmstat,
    dstat,
    hammerdb,
    config,
)
THRESHOLD = 0.5
# The importers whose parse reads JSON: `-o JSON` of iostat and mpstat, `sadf -j` (sar), and
# benchlens-run.json (config). An importer that learns to read JSON adds its name here.
JSON_FORMATS = frozenset({"iostat", "mpstat", "sar", "config"})
# an object, or an array of objects, arrays or strings: `[mysqld]` (an option file), `[ 10s ]`
# (a sysbench report) and `[    0.000000]` (dmesg) are not JSON
_JSON_START = re.compile(r"\ufeff?\s*(?:\{|\[\s*[\[{\"\]])")


class AmbiguousFormat(Exception):
    pass


def by_name(name: str) -> Importer:
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    raise KeyError(name)


def looks_json(head: str) -> bool:
    """The text starts as a JSON object or array does."""
    return _JSON_START.match(head) is not None


def scores(head: str) -> dict[str, float]:
    json = looks_json(head)
    return {fmt.name: float(fmt.sniff(head)) if not json or fmt.name in JSON_FORMATS else 0.0 for fmt in FORMATS}


def detect(head: str) -> Importer | None:
    """The importer for this text, None when no format claims it; AmbiguousFormat on a tie."""
    s = scores(head)
    best = max(s.values(), default=0.0)
    if best < THRESHOLD:
        return None
    winners = [name for name, v in s.items() if v == best]
    if len(winners) > 1:
        raise AmbiguousFormat(f"content matches several formats equally: {', '.join(winners)}")
    return by_name(winners[0])
