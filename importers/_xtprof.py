"""HammerDB's time profile report (`xtprof`, v4.x: `/tmp/hdbxtprofile.log`), read for the hammerdb
importer: per-transaction latency summaries of the whole run.

Layout (a real 4.x capture is tests/fixtures/hammerdb/hammerdb_4.x_C_xtprof-*.txt):
    PostgreSQL Hammerdb Time Profile Report @ Wed Jul 02 00:57:52 UTC 2025
    +-+-+-+ ...
    >>>>> VIRTUAL USER 2 : ELAPSED TIME : 729979ms
    >>>>> PROC: NEWORD
    CALLS: 10741<TAB>MIN: 1.020ms<TAB>AVG: 42.720ms<TAB>MAX: 483.246ms<TAB>TOTAL: 458855.705ms
    P99: 182.633ms<TAB>P95: 117.765ms<TAB>P50: 33.106ms<TAB>SD: 38108.878<TAB>RATIO: 62.859%
    ... one block per virtual user, then
    >>>>> SUMMARY OF 64 ACTIVE VIRTUAL USERS : MEDIAN ELAPSED TIME : 713736ms
    (the same PROC blocks, over all users)
Later versions name the last block `>>>>> COMBINED METRICS ACROSS ALL USERS` and add P75/P25.
Only the run-wide block is read (the per-user blocks are parts of it); a report cut before it is
refused with one line that says so.

Series: one point per transaction (entity: the PROC name as printed, NEWORD ... OSTAT) at the
report's time (its banner, the end of the run; INDEX without one): `xt_calls` (calls over the
run), `xt_<key>_ms` for every value printed in ms (MIN AVG MAX P99 P95 P50 P75 P25 TOTAL, and SD
when it says ms) and `xt_ratio_pct` (the transaction's share of the run's time, %). An SD printed
without a unit (4.x before the ms suffix) is not read: its unit is not printed.
"""

from __future__ import annotations

import re

BANNER = re.compile(r"^(\S.*?) Hammerdb Time Profile Report @ (.*)$")
_PROC = re.compile(r"^>>>>> PROC: (\w{1,40})\s*$")
_RUN_WIDE = re.compile(r"^>>>>> (?:SUMMARY OF \d+ ACTIVE VIRTUAL USERS|COMBINED METRICS ACROSS ALL USERS)\b")
_USER = re.compile(r"^>>>>> VIRTUAL USER \d+ ")
_PAIR = re.compile(r"\b([A-Z][A-Z0-9]{1,9}): (\d+(?:\.\d+)?)(ms|%)?(?=\s|$)")
UNITS = {"xt_calls": "calls", "xt_ratio_pct": "%"}


class Profile:
    """Reads the lines of a time profile report; `rows` holds {(metric, proc): value} of the
    run-wide block once seen."""

    def __init__(self) -> None:
        self.rows: dict[tuple[str, str], float] = {}
        self.in_run_wide = False
        self.proc: str | None = None
        self.users = 0  # per-user blocks seen (passed over)
        self.summary_seen = False

    def line(self, raw: str) -> bool:
        """True when the line is part of a time profile report."""
        if _RUN_WIDE.match(raw):
            self.in_run_wide, self.summary_seen, self.proc = True, True, None
            return True
        if _USER.match(raw):
            self.in_run_wide, self.proc = False, None
            self.users += 1
            return True
        if m := _PROC.match(raw):
            self.proc = m.group(1)
            return True
        pairs = _PAIR.findall(raw)
        if not pairs or self.proc is None:
            return False
        if self.in_run_wide:
            for key, number, unit in pairs:
                metric = _metric(key, unit)
                if metric is not None:
                    self.rows[(metric, self.proc)] = float(number)
        return True


def _metric(key: str, unit: str) -> str | None:
    if key == "CALLS" and not unit:
        return "xt_calls"
    if key == "RATIO" and unit == "%":
        return "xt_ratio_pct"
    if unit == "ms":
        return f"xt_{key.lower()}_ms"
    return None
