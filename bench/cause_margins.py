"""What each hand-chosen threshold of app/analysis/causes.py separates, on the windows of both
corpora (issue #23: a threshold comes with the data that calibrates it).

    python bench/cause_margins.py [--json]   # ~1 min

For every disturbance of the recorded corpus (bench/drop_quality: its truth window) and every
window case of DBPA (../shared/corpora/dbpa: the abnormal interval), the explanation `benchlens
explain` gives over the window, and from it the quantity each rule compares with its threshold.
Per threshold: the values of the windows whose expected class is the rule's (it should pass them)
and of the others (it should not), and how many of each lie on the passing side. A threshold with
no window of one side near it is set by the data; one inside both is chosen by hand and says so.
The rules' other conditions are not applied (each quantity is read alone): this measures the
thresholds, not the verdicts, which score.py and dbpa.py do.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent / "drop_quality"))

import dbpa
import score

from benchlens.app.analysis import causes, foreign_io, statements
from benchlens.app.analysis.evidence import Change, Evidence
from benchlens.app.analysis.window import explain_window
from benchlens.app.ingest import import_path
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library


@dataclass(frozen=True)
class Window:
    name: str
    classes: frozenset[str]  # the expected classes (DBPA: a set)
    ev: Evidence


def _ratio(c: Change | None) -> float | None:
    return c.during / c.before if c is not None and c.before > 0 else None


def foreign(ev: Evidence) -> float | None:
    """The largest of min(grown, grown per commit) over FOREIGN_WORK, certain counters only."""
    own = causes._own_work(ev)
    if own is None:
        return None
    ratio = own.during / own.before
    got = [
        min(g, g / ratio) if ratio > 0 else g
        for m, _, _ in causes.FOREIGN_WORK
        if (c := ev.server(m)) is not None and c.change >= causes.EXTRA_EFFECT and (g := _ratio(c)) is not None
    ]
    return max(got, default=None)


def iowait(ev: Evidence) -> float | None:
    wa = ev.machine("cpu iowait")
    return _ratio(wa) if wa is not None and causes._certain(ev, wa) else None


def sessions(ev: Evidence) -> float | None:
    c = ev.server("Threads_connected")
    return _ratio(c) if c is not None and c.during - c.before >= causes.MORE_SESSIONS else None


def work_held(ev: Evidence) -> float | None:
    """The server's work over the window against its steady rate, where more sessions came."""
    own = causes._own_work(ev)
    return own.during / own.before if own is not None and sessions(ev) is not None else None


def purge(ev: Evidence) -> float | None:
    h = ev.get(causes.GS, "Innodb_history_list_length") or ev.get("innodb_status", "history_list_length")
    return _ratio(h) if h is not None and h.during - h.before >= causes.PURGE_MIN else None


def lock_rise(ev: Evidence) -> float | None:
    """The row lock time's ratio where it grew LOCK_WAIT_MS and beyond its own wander
    (causes._more_waited's other conditions)."""
    row = ev.get(causes.GS, "Innodb_row_lock_time")
    return _ratio(row) if row is not None and causes._more_waited(ev, row, rise=0.0) else None


def _points(ev: Evidence, c: Change | None) -> float | None:
    """A CPU share's rise in points, where it rose beyond its own noise (causes._moved's second
    condition, the threshold measured being its first)."""
    return c.during - c.before if c is not None and causes._certain(ev, c) else None


def cpu_points(ev: Evidence) -> float | None:
    got = [
        p
        for m in (causes.SYSTEM_CPU, causes.USER_CPU, causes.NICE_CPU)
        if (p := _points(ev, causes._cpu(ev, m))) is not None
    ]
    return max(got, default=None)


def idled(ev: Evidence) -> float | None:
    return _points(ev, ev.machine("cpu idle"))


def unexplained_cpu(ev: Evidence) -> float | None:
    """session_came's quantity (causes.session_cpu), where its other conditions hold."""
    got = causes.session_cpu(ev)
    return got[3] if got is not None else None


def requests(ev: Evidence) -> float | None:
    """foreign_io's quantity: a device's requests beyond the server's own account, a share of their
    steady rate (its device certain)."""
    got = foreign_io.unexplained(ev)
    return got.share if got is not None else None


def work_statements(ev: Evidence) -> float | None:
    """statements_seen's quantity: how many work statements (statements.WORK_STATEMENTS) were at 0
    in the steady state and above it in the window."""
    return float(len(statements.work_appeared(ev)))


# (threshold's name, its value, the rule's class, the quantity, passing: above (True) or below)
RULES: tuple[tuple[str, float, str, Callable[[Evidence], float | None], bool], ...] = (
    ("EXTRA_RATIO (another client's work)", causes.EXTRA_RATIO, "workload", foreign, True),
    ("SESSIONS_RATIO (more sessions)", causes.SESSIONS_RATIO, "workload", sessions, True),
    ("WORK_HELD (the work held: load, not a pile-up)", causes.WORK_HELD, "workload", work_held, True),
    ("IOWAIT_RATIO (I/O waits)", causes.IOWAIT_RATIO, "disk", iowait, True),
    ("PURGE_RATIO (history list)", causes.PURGE_RATIO, "purge", purge, True),
    ("ROW_LOCK_RISE (more row lock waits)", causes.ROW_LOCK_RISE, "locks", lock_rise, True),
    (
        "FLUSHED_FELL (the page cleaner's writes, at the sync point)",
        causes.FLUSHED_FELL,
        "flushing",
        causes.standing_flushed,
        False,
    ),
    ("REQUESTS_EXTRA (another process's I/O requests)", foreign_io.REQUESTS_EXTRA, "disk", requests, True),
    ("CPU_POINTS (CPU taken)", causes.CPU_POINTS, "cpu", cpu_points, True),
    ("CPU_POINTS (the CPU idled: network, contention)", causes.CPU_POINTS, "network", idled, True),
    ("CPU_POINTS (a session came: CPU its work leaves)", causes.CPU_POINTS, "workload", unexplained_cpu, True),
    # no threshold: one statement that the steady state never issued (statements.statements_seen)
    ("work statements appeared (another client's statements)", 1.0, "workload", work_statements, True),
)


def imported(folders: Iterable[tuple[str, Path]]) -> Iterator[tuple[str, LibraryRunData, int]]:
    """(name, the library's data, run id) of each folder, imported into a library of their own
    that lasts as long as the loop."""
    with tempfile.TemporaryDirectory() as tmp:
        lib = Library(Path(tmp) / "runs.sqlite")
        try:
            data = LibraryRunData(lib)
            for name, folder in folders:
                yield name, data, import_path(lib, folder).id
        finally:
            lib.close()


def windows() -> list[Window]:
    """Each disturbance's truth window of both corpora, explained."""
    todo: dict[str, tuple[Path, tuple[float, float], frozenset[str]]] = {}
    for folder in sorted((score.HERE / "runs").iterdir()):
        truth = score.read_truth(score.HERE / "truth" / f"{folder.name}.tsv")
        if truth.start is not None and truth.end is not None and truth.klass:
            todo[folder.name] = (folder, (truth.start, truth.end), frozenset({truth.klass}))
    for case in sorted(dbpa.CORPUS.glob("*/case-*")):
        gt = json.loads((case / "ground_truth.json").read_text())
        window = (gt.get("abnormal") or {}).get("interval_epochs")
        if window and case.parent.name in dbpa.EXPECTED:
            span = (float(window[0]), float(window[1]))
            todo[f"dbpa/{case.parent.name}/{case.name}"] = (
                case / "run",
                span,
                frozenset(dbpa.EXPECTED[case.parent.name]),
            )
    out = []
    for name, data, rid in imported((name, folder) for name, (folder, _, _) in todo.items()):
        _, span, classes = todo[name]
        out.append(Window(name, classes, Evidence(explain_window(data, rid, span, "absolute").explain)))
    return out


def margins(ws: list[Window]) -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for name, threshold, klass, read, above in RULES:
        mine, others = [], []
        for w in ws:
            v = read(w.ev)
            if v is None or not math.isfinite(v):
                continue
            # a DBPA type whose expected classes hold the rule's class is the rule's to pass
            (mine if klass in w.classes else others).append((round(v, 3), w.name))

        def passes(v: float, threshold: float = threshold, above: bool = above) -> bool:
            return v >= threshold if above else v <= threshold

        out.append(
            {
                "threshold": name,
                "value": threshold,
                "its_class": klass,
                "its_windows_passing": f"{sum(passes(v) for v, _ in mine)} of {len(mine)}",
                "others_passing": f"{sum(passes(v) for v, _ in others)} of {len(others)}",
                "its_nearest_below": sorted((x for x in mine if not passes(x[0])), reverse=above)[:3],
                "others_nearest_above": sorted((x for x in others if passes(x[0])), reverse=not above)[:3],
                "others_nearest_below": sorted((x for x in others if not passes(x[0])), reverse=above)[:3],
            }
        )
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    got = margins(windows())
    if args.json:
        print(json.dumps(got, indent=1))
        return 0
    for m in got:
        print(f"{m['threshold']} = {m['value']:g} (class {m['its_class']}):")
        print(f"    its windows passing {m['its_windows_passing']}, others passing {m['others_passing']}")
        for key in ("its_nearest_below", "others_nearest_above", "others_nearest_below"):
            near = m[key]
            if isinstance(near, list) and near:
                print(f"    {key.replace('_', ' ')}: " + "; ".join(f"{v:g} {n}" for v, n in near))
    return 0


if __name__ == "__main__":
    sys.exit(main())
