"""Importers: one module per text format, each with `name`, `sniff(head) -> score` and
`parse(chunks, ctx) -> Iterator[Block]`. Pure Python + numpy: no Qt, no sqlite3.

The format of a file is detected from its content only (never its name): every importer scores
the head of the file; the best score above THRESHOLD wins; two importers with the same best score
is an error, never a silent pick.
"""

from __future__ import annotations

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


class AmbiguousFormat(Exception):
    pass


def by_name(name: str) -> Importer:
    for fmt in FORMATS:
        if fmt.name == name:
            return fmt
    raise KeyError(name)


def scores(head: str) -> dict[str, float]:
    return {fmt.name: float(fmt.sniff(head)) for fmt in FORMATS}


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
