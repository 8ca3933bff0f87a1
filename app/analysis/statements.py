"""Another client known by the statements it issued: statements that do work on the data (a dump's
SHOW CREATE TABLE, a bulk load's INSERT ... SELECT, a schema change's ALTER TABLE), none of which
the server ran in the steady state, counted during a drop (issue #23: what started, before what
piled up).

Where a status loop reads the Com_* counters, a benchmark's own statement mix is the steady state:
a counter that never moved there and moves in the window is someone else's work, whatever the
server's other counters drowned it in. The churn workload's own 15,800 full scans a second hid a
mysqldump loop's (held-out dump-short-churn: full scans down with the commits, x0.83, while SHOW
CREATE TABLE went 0 -> 5.1 a second and the deadlocks, the workload's own, read as the cause).

No threshold: zero in every steady sample (explain's reference level of a series at 0 throughout
is 0; one at 0 most of the time but not always is its mean, above 0) and more than zero over the
window. bench/rules_null.py: 0 of 519 stretches of runs where nothing was injected saw any Com_*
counter appear, of any statement; the truth windows of the recorded dumps, bulk loads, restores
and rebuilds all saw theirs (bench/cause_margins.py, its rule "work statements appeared").

Left to other causes: the lock statements (FLUSH TABLES, LOCK TABLES: causes.lock_waits, whose
waits they make), the session's own bookkeeping (SET, BEGIN, ROLLBACK, savepoints, prepared
statements: a benchmark's clients connecting or leaving issue them too, a rolled-back lock holder,
a SET GLOBAL that shrinks a pool) and the SHOW statements a monitor issues (pt-stalk collects when
a stall triggers it: its statements come with the drop, not before it).
"""

from __future__ import annotations

from benchlens.app.analysis.causes import Finding, appeared, own_work_name
from benchlens.app.analysis.evidence import Change, Evidence, span

# the statements that do work on the data, as a verdict names them, and what they say together
WORK_STATEMENTS = {
    "Com_show_create_table": ("SHOW CREATE TABLE", "a dump"),
    "Com_insert_select": ("INSERT ... SELECT", "a bulk load"),
    "Com_replace_select": ("REPLACE ... SELECT", "a bulk load"),
    "Com_load": ("LOAD DATA", "a bulk load"),
    "Com_create_table": ("CREATE TABLE", "a bulk load or a schema change"),
    "Com_alter_table": ("ALTER TABLE", "a schema change"),
    "Com_create_index": ("CREATE INDEX", "a schema change"),
    "Com_drop_index": ("DROP INDEX", "a schema change"),
    "Com_drop_table": ("DROP TABLE", "a schema change"),
    "Com_rename_table": ("RENAME TABLE", "a schema change"),
    "Com_truncate": ("TRUNCATE", "a schema change"),
    "Com_optimize": ("OPTIMIZE TABLE", "a table rebuilt"),
    "Com_repair": ("REPAIR TABLE", "a table rebuilt"),
    "Com_analyze": ("ANALYZE TABLE", "a table's statistics read"),
    "Com_check": ("CHECK TABLE", "a table read whole"),
    "Com_checksum": ("CHECKSUM TABLE", "a table read whole"),
}


# the least rate said as a rate: one statement in 100 s
SAID_RATE = 0.01


def work_appeared(ev: Evidence) -> list[Change]:
    """The work statements (WORK_STATEMENTS) at 0 in the steady state and above it in the window,
    most issued first."""
    seen = [c for m in WORK_STATEMENTS if (c := appeared(ev, m)) is not None]
    return sorted(seen, key=lambda c: -c.during)


def _said(c: Change) -> str:
    """A statement and its rate; one whose window holds a sliver of the interval that counted it (a
    long ALTER TABLE counted when it started, held-out rebuild-long-hot's 62-182 s: 0.0007 a
    second), seen."""
    name = WORK_STATEMENTS[c.ref.metric][0]
    return f"{name} {span(c.before, c.during, '/s')}" if c.during >= SAID_RATE else f"{name} seen"


def statements_seen(ev: Evidence) -> Finding | None:
    """Another client's work, known by the statements it issued that the steady state never did:
    a dump first (its SHOW CREATE TABLE names it whatever else it issues), else what the most
    issued statement does. The key is that statement's count: it says the work happened and
    confirms a drop (app/analysis/confirm.py), not how long it lasted (an ALTER TABLE is counted
    when it starts): its window is where a loop of them was counted sample after sample (a dump
    loop's SHOW CREATE TABLE: mechanism.counted_window), as FLUSH TABLES'."""
    seen = work_appeared(ev)
    if not seen:
        return None
    dump = next((c for c in seen if c.ref.metric == "Com_show_create_table"), None)
    first = dump or seen[0]
    said = ", ".join(_said(c) for c in seen[:3])
    text = f"another client's statements, none in the steady state ({WORK_STATEMENTS[first.ref.metric][1]}): {said}"
    held = own_work_name(ev)
    return Finding("workload", text + (f", while {held}" if held else ""), first, event=True)
