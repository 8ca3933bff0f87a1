"""Drops of a run as the CLI and the app show them: detected on the benchmark's throughput (or
a chosen series), load steps segmented from the thread count, each explained by the run's other
series against the run's steady state (its benchmark interval outside every drop and the warm-up).

`run_drops` gives every throughput drop, as the window draws them one by one. `run_findings` gives
what a reader is told: the drops, recurring dips grouped into one finding each (members still
listed and explained), latency rises while the throughput held, and the throughput's stability.
Reads runs through app.model.RunData; no Qt, no library."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np

from benchlens.app.analysis import level_test
from benchlens.app.analysis.cause_edges import cause_edges
from benchlens.app.analysis.causes import Finding
from benchlens.app.analysis.confirm import key_p
from benchlens.app.analysis.drops import DETECT, Drop, detection, drop_over, retested, sample_step, steady_span
from benchlens.app.analysis.edges import placed
from benchlens.app.analysis.evidence import Change
from benchlens.app.analysis.explain import Explanation, Reference, classes, explain, verdict
from benchlens.app.analysis.layout import THROUGHPUT_FORMATS, Explained
from benchlens.app.analysis.mechanism import CauseWindow, came_after, cause_window, worth_saying
from benchlens.app.analysis.patterns import Recurring, recurring
from benchlens.app.analysis.rises import rises
from benchlens.app.analysis.stability import Stability, stability
from benchlens.app.analysis.steps import find_steps
from benchlens.app.analysis.verdict import finding
from benchlens.app.errors import AnalysisError
from benchlens.app.model import Annotation, RunData, SeriesRef

# A saved decision belongs to a detected drop whose both ends are this close (seconds): detection
# reports whole samples, so a drop found again on the same data has the very same ends; the margin
# only absorbs float rounding through the library.
DECISION_MATCH_S = 0.5
# latency series, most telling first: the benchmark's 95th percentile, then any other
LATENCY_ENTITIES = ("95", "99", "avg", "")


@dataclass(frozen=True)
class RunDrop:
    ref: SeriesRef
    drop: Drop
    explain: list[Change]
    # when its proven cause was there (app/analysis/mechanism.py: a purge lag's history list
    # growing, the series that shows any other cause at its drop level); None without one
    cause: CauseWindow | None = None
    # its edges are its cause's window, which its throughput fits as well as its own
    # (app/analysis/cause_edges.py)
    edges_of_cause: bool = False
    # the drops it was joined from, each explained over its own interval, when the throughput went
    # from one level below its baseline to another with no sample back at it (_phases_joined)
    phases: tuple[RunDrop, ...] = ()

    @property
    def kind(self) -> str:
        return self.drop.kind

    def classes(self) -> list[str]:
        """The resource classes of the explanation, best supported first."""
        return classes(self.explain)

    def verdict(self) -> str:
        if self.phases:  # what started it, then the levels it went through
            levels = ", then ".join(p.drop.label() for p in self.phases)
            first = self.phases[0].verdict()
            return f"began with {first}; in {len(self.phases)} phases, none back at the baseline: {levels}"
        said = verdict(self.explain)
        if self.edges_of_cause:
            said += "; its edges are its cause's, which the throughput fits as well as its own"
        if self.cause is None or not worth_saying(self.cause, self.drop):
            return said
        return f"{said}; {self.cause.said(self.drop)}"

    def as_json(self) -> dict[str, object]:
        d: dict[str, object] = {"source": self.ref.format, "metric": self.ref.metric, "entity": self.ref.entity}
        d.update(self.drop.as_json())
        d["label"] = self.drop.label()
        d["verdict"] = self.verdict()
        d["classes"] = self.classes()
        d["cause"] = self.cause.as_json() if self.cause is not None else None
        d["edges_of_cause"] = self.edges_of_cause
        d["explain"] = [c.as_json() for c in self.explain]
        d["phases"] = [{**p.drop.as_json(), "label": p.drop.label(), "verdict": p.verdict()} for p in self.phases]
        return d


@dataclass(frozen=True)
class RecurringDrops:
    """Recurring dips as one finding; `members` are the dips, each a drop of its own."""

    pattern: Recurring
    members: list[RunDrop]

    def label(self) -> str:
        return self.pattern.label()

    def as_json(self) -> dict[str, object]:
        d: dict[str, object] = dict(self.pattern.as_json())
        ref = self.members[0].ref
        d.update({"source": ref.format, "metric": ref.metric, "entity": ref.entity})
        d["members"] = [m.as_json() for m in self.members]
        return d


@dataclass
class Findings:
    """What a run's throughput says: drops, recurring dips, latency rises, stability."""

    ref: SeriesRef
    drops: list[RunDrop]  # every drop, recurring members included
    recurring: list[RecurringDrops] = field(default_factory=list)
    rises: list[RunDrop] = field(default_factory=list)
    stability: Stability | None = None
    steady: tuple[float, float] = (float("nan"), float("nan"))  # epochs of the steady part
    # candidates left out: the thresholds found them, their short series does not tell them from
    # its noise, and no other series confirms them (Drop.tested, _explained)
    dismissed: int = 0

    def singles(self) -> list[RunDrop]:
        """The drops that belong to no recurring group."""
        grouped = {id(m.drop) for g in self.recurring for m in g.members}
        return [d for d in self.drops if id(d.drop) not in grouped]

    def as_json(self) -> list[dict[str, object]]:
        """`drops --json`: drops, latency rises and recurring groups (with their members), by time."""
        items: list[tuple[float, dict[str, object]]] = [(d.drop.start, d.as_json()) for d in self.singles()]
        items += [(r.drop.start, r.as_json()) for r in self.rises]
        items += [(g.pattern.start, g.as_json()) for g in self.recurring]
        return [d for _, d in sorted(items, key=lambda x: x[0])]


def decision(annotations: list[Annotation], drop: Drop) -> Annotation | None:
    """The user's saved decision on a detected drop (accepted, renamed, dismissed), if any."""
    for a in annotations:
        if (
            a.kind == "drop"
            and abs(a.start - drop.start) < DECISION_MATCH_S
            and abs(a.end - drop.end) < DECISION_MATCH_S
        ):
            return a
    return None


def decided_label(annotations: list[Annotation], drop: Drop) -> tuple[str, str]:
    """(label, state) of a drop after the user's decision; state '', 'accepted' or 'dismissed'."""
    d = decision(annotations, drop)
    if d is None:
        return drop.label(), ""
    return (d.label or drop.label()), d.state


def throughput(data: RunData, run_id: int) -> SeriesRef | None:
    have = set(data.available(run_id))
    return next((SeriesRef(f, "tps") for f in THROUGHPUT_FORMATS if SeriesRef(f, "tps") in have), None)


def latency(data: RunData, run_id: int, ref: SeriesRef) -> SeriesRef | None:
    """The benchmark's own latency series next to its throughput (p95 first), if it logs one."""
    have = [r for r in data.available(run_id) if r.format == ref.format and r.metric in ("lat_ms", "rt_ms")]
    rank = {e: k for k, e in enumerate(LATENCY_ENTITIES)}
    return min(have, key=lambda r: (rank.get(r.entity, len(rank)), r.entity), default=None)


def latency_rises(
    data: RunData, run_id: int, ref: SeriesRef, steps: list[tuple[float, float]] | None = None
) -> tuple[SeriesRef | None, list[Drop]]:
    """The benchmark's latency series next to the throughput ref, and its rises (each load step on
    its own level)."""
    lat_ref = latency(data, run_id, ref)
    lat = data.data(run_id, lat_ref) if lat_ref is not None else None
    return lat_ref, (rises(*lat, segments=steps) if lat is not None and lat_ref else [])


def _series(data: RunData, run_id: int, ref: SeriesRef | None) -> tuple[SeriesRef, np.ndarray, np.ndarray]:
    ref = ref or throughput(data, run_id)
    if ref is None:
        raise AnalysisError("the run has no throughput series (tps); choose one with --metric")
    series = data.data(run_id, ref)
    if series is None:
        raise AnalysisError(f"no series {ref.spec()} in the run")
    return ref, np.asarray(series[0], np.float64), np.asarray(series[1], np.float64)


def _load_steps(data: RunData, run_id: int, ref: SeriesRef) -> list[tuple[float, float]] | None:
    """The steady part of each load step (a step load's thread counts), or None."""
    threads = data.data(run_id, SeriesRef(ref.format, "thds"))
    return [s.core for s in find_steps(*threads) if s.core] if threads is not None else None


def steady_reference(
    t: np.ndarray,
    v: np.ndarray,
    spans: list[Drop],
    sensitivity: str = "normal",
    span: tuple[float, float] | None = None,
) -> Reference:
    """The steady state of a run: its steady part (warm-up excluded; `span` when the detection
    gave it already) outside every span."""
    lo, hi = steady_span(t, v, sensitivity) if span is None else span
    return Reference(lo, hi, tuple((d.start, d.end) for d in spans))


def _steady(
    t: np.ndarray, v: np.ndarray, found: list[Drop], ups: list[Drop], sensitivity: str, span: tuple[float, float]
) -> Reference:
    """The run's steady state outside the drops and latency rises found, the ones their series does
    not prove as well, unless that leaves less of it than a level (DetectParams.level_s) and the
    proven ones alone do not: then the unproven drops are its noise (cpu-user-end-writes, the
    writes workload's first 2 s at 14,500 tps: the candidate 1-38 s at -23 %, unproven, left 2 s
    to explain the -67 % from 40 s against)."""
    spans = [*found, *ups]
    rest = [*(d for d in found if d.tested), *ups]
    if _outside(span, spans) < DETECT.level_s <= _outside(span, rest):
        spans = rest
    return steady_reference(t, v, spans, sensitivity, span)


def _outside(span: tuple[float, float], spans: list[Drop]) -> float:
    """Seconds of `span` outside every one of `spans`."""
    lo, hi = span
    covered, reach = 0.0, lo
    for d in sorted(spans, key=lambda d: d.start):
        a, b = max(d.start, reach), min(d.end, hi)
        if b > a:
            covered += b - a
            reach = b
    return max(0.0, hi - lo - covered)


def _explained(
    data: RunData,
    run_id: int,
    ref: SeriesRef,
    found: list[Drop],
    steady: Reference,
    top: int,
    confirmed: Iterable[Drop] = (),
    retest: Callable[[set[int]], list[Drop]] | None = None,
) -> list[RunDrop]:
    """Each drop or rise explained by the run's other series. A candidate its own series does not
    prove (a short series' test failed it: Drop.tested) is kept only when another series says it
    happened: its latency rose significantly over it (`confirmed`), or the explanation proves a
    cause whose key series moved over it beyond chance (_cause_confirms, step-down: _holm), or its
    own series proves it once those are out of its rest (`retest`: drops.retested, given the ids
    of the drops kept so far), in turns until none is added."""
    sure = {id(d) for d in confirmed}
    others = [r for r in data.available(run_id) if r.format != ref.format]
    load = partial(data.data, run_id)
    kept: dict[int, RunDrop] = {}
    open_: dict[int, tuple[Drop, list[Change], Finding | None, CauseWindow | None]] = {}
    for i, d in enumerate(found):
        if top <= 0 and (d.tested or id(d) in sure):  # where the drops are, not why (a figure's marks)
            kept[i] = RunDrop(ref, d, [])
            continue
        changes, proven, window = _explain_one(d, others, load, steady, top)
        if d.tested or id(d) in sure:
            kept[i] = RunDrop(ref, d, changes if top > 0 else [], window)
        elif d.confirm_alpha > 0 or retest is not None:
            open_[i] = (d, changes, proven, window)
    added = True
    while open_ and added:
        alphas = {i: d.confirm_alpha for i, (d, *_) in open_.items() if d.confirm_alpha > 0}
        new = _holm(alphas, lambda i, a: _cause_confirms(open_[i][2], open_[i][0], load, steady, others, a))
        own: set[int] = set()  # proven by their own series: tested after all
        if retest is not None:
            sure_now = {id(r.drop) for r in kept.values()} | {id(open_[i][0]) for i in new}
            again = {id(d) for d in retest(sure_now)}
            own = {i for i, (d, *_) in open_.items() if id(d) in again and i not in new}
        for i in [*new, *own]:
            d, why, _, window = open_.pop(i)
            kept[i] = RunDrop(ref, replace(d, tested=True) if i in own else d, why if top > 0 else [], window)
        new += own
        added = bool(new)
    return [kept[i] for i in sorted(kept)]


def _explain_one(
    d: Drop, others: list[SeriesRef], load: Callable[[SeriesRef], Any], steady: Reference, top: int
) -> tuple[Explanation, Finding | None, CauseWindow | None]:
    """A drop's (or rise's) explanation against the steady state, its proven cause and its window."""
    reference = Reference(steady.lo, steady.hi, steady.exclude, 1.0 - d.depth if d.kind == "drop" else 1.0)
    changes = explain(d, others, load, max(top, 1), reference=reference)
    return (changes, *_proven(changes, d, load))


def _one_cause_joined(
    found: list[RunDrop],
    t: np.ndarray,
    v: np.ndarray,
    explained: Callable[[Drop], tuple[Explanation, Finding | None, CauseWindow | None]],
) -> list[RunDrop]:
    """Consecutive drops of one cause episode as one drop: the same proven cause (class and key
    series), the cause window of the first reaching the second's. The throughput came back near its
    level for a few seconds inside it, the cause did not (held-out io-sync-long-churn: vda busy from
    30 to 70 s, the churn workload's commits -56 % 34-55 s and -68 % 60-70 s, each with that one
    window). The joined drop is explained anew; drops of two causes stay apart until their edges
    are placed (_phases_joined)."""

    def made(prev: RunDrop, rd: RunDrop, d: Drop) -> RunDrop:
        d = replace(d, tested=prev.drop.tested or rd.drop.tested)
        changes, _, window = explained(d)
        return RunDrop(prev.ref, d, changes if prev.explain else [], window)

    return _consecutive_joined(found, t, v, _one_episode, made)


def _phases_joined(found: list[RunDrop], t: np.ndarray, v: np.ndarray) -> list[RunDrop]:
    """Drops at their placed edges, the next beginning where one ended (no whole sample between
    them), as one drop in phases: the throughput went from one level below its baseline to another,
    one excursion from the steady state (held-out add-index-long-hot and rebuild-long-hot: another
    client's index build or table copy -33 % for 36 s, then its metadata lock at 0 for two
    minutes). What started it is its cause: the joined drop keeps its first phase's explanation
    and cause window, and every phase stays with its own (RunDrop.phases). An explanation of the
    whole interval would average two regimes into neither (held-out dool-rebuild-long-smooth: the
    copy's disk writes, then the lock's idle CPUs, read as small synchronous I/O). After the edges
    are placed: the level changes are where they are."""
    step = sample_step(t) if len(t) > 1 else 1.0

    def made(prev: RunDrop, rd: RunDrop, d: Drop) -> RunDrop:
        phases = (*(prev.phases or (prev,)), rd)
        d = replace(d, tested=any(p.drop.tested for p in phases), levels=tuple(p.drop.depth for p in phases))
        return RunDrop(prev.ref, d, phases[0].explain, phases[0].cause, phases=phases)

    return _consecutive_joined(found, t, v, lambda a, b: _unbroken(a, b, step), made)


def _consecutive_joined(
    found: list[RunDrop],
    t: np.ndarray,
    v: np.ndarray,
    joins: Callable[[RunDrop, RunDrop], bool],
    made: Callable[[RunDrop, RunDrop, Drop], RunDrop],
) -> list[RunDrop]:
    """The drops by time, each that `joins` the one before it (as joined so far) made one with it
    by `made`, from the throughput over both (drops.drop_over, the first one's baseline)."""
    out: list[RunDrop] = []
    for rd in sorted(found, key=lambda r: r.drop.start):
        if out and joins(out[-1], rd):
            prev = out[-1]
            out[-1] = made(prev, rd, drop_over(t, v, prev.drop.baseline, prev.drop.start, rd.drop.end))
            continue
        out.append(rd)
    return out


def _unbroken(a: RunDrop, b: RunDrop, step: float) -> bool:
    """Two drops with no whole sample between them: the throughput never came back to its level."""
    return a.kind == b.kind == "drop" and b.drop.start - a.drop.end < step


def _edges_placed(
    found: list[RunDrop],
    t: np.ndarray,
    v: np.ndarray,
    steady: Reference,
    explained: Callable[[Drop, Reference], tuple[Explanation, Finding | None, CauseWindow | None]],
    ups: list[Drop],
) -> list[RunDrop]:
    """The kept drops with their edges where the throughput's level changed (app/analysis/edges.py),
    then, where the throughput cannot tell them from its cause's window, at that window
    (app/analysis/cause_edges.py); those that moved explained anew over their new interval, which
    the steady state then leaves out too; the latency rises its series proves (`ups`) are no part
    of a drop's noise there. After every decision: which drops a run has is the tests'
    and the confirmations', on the edges the thresholds gave."""
    span = (steady.lo, steady.hi)
    found, steady = _moved(found, placed(t, v, [r.drop for r in found], span), steady, explained)
    windows = [(r.cause.start, r.cause.end) if r.cause is not None else None for r in found]
    moved = cause_edges(t, v, [r.drop for r in found], windows, span, tuple((r.start, r.end) for r in ups if r.tested))
    return _moved(found, moved, steady, explained, of_cause=True)[0]


def _moved(
    found: list[RunDrop],
    moved: list[Drop],
    steady: Reference,
    explained: Callable[[Drop, Reference], tuple[Explanation, Finding | None, CauseWindow | None]],
    of_cause: bool = False,
) -> tuple[list[RunDrop], Reference]:
    """The drops at their moved edges (`moved`, one per drop: the same Drop where it did not move),
    those that moved explained anew against the steady state without their new intervals, and that
    steady state. `of_cause`: the edges moved are the drops' causes' windows."""
    new = tuple((d.start, d.end) for rd, d in zip(found, moved, strict=True) if d is not rd.drop)
    steady = Reference(steady.lo, steady.hi, steady.exclude + new)
    out = []
    for rd, d in zip(found, moved, strict=True):
        if d is rd.drop:
            out.append(rd)
            continue
        changes, _, window = explained(d, steady)
        out.append(replace(rd, drop=d, explain=changes if rd.explain else [], cause=window, edges_of_cause=of_cause))
    return out, steady


def _one_episode(a: RunDrop, b: RunDrop) -> bool:
    if a.kind != "drop" or b.kind != "drop" or a.cause is None or b.cause is None:
        return False
    fa, fb = finding(a.explain), finding(b.explain)
    if fa is None or fb is None or fa.key is None or fb.key is None:
        return False
    return fa.klass == fb.klass and fa.key.ref == fb.key.ref and a.cause.end >= b.cause.start


def _proven(
    changes: Explanation, d: Drop, load: Callable[[SeriesRef], Any]
) -> tuple[Finding | None, CauseWindow | None]:
    """The drop's proven cause and its window, a cause that came only after the drop began passed
    over (mechanism.came_after: marked on the explanation, which every verdict of it then reads)."""
    proven = finding(changes)
    if proven is not None and came_after(proven, d, load):
        changes.late = frozenset({proven.klass})
        proven = finding(changes)
    return proven, cause_window(proven, d, load) if proven is not None else None


def _holm(alphas: dict[int, float], confirms: Callable[[int, float], bool]) -> list[int]:
    """The candidates (key -> the alpha its own series left it) that a second series confirms,
    weighted Holm's step-down: each tested at its alpha scaled by the alphas of all over those of
    the ones not yet confirmed, again after each round that confirms one. On noise alone the first
    round is the Bonferroni test the alphas were shared for (level_test.judged: alpha / k for k
    candidates), so the false-alarm rate is the same; a run with two disturbances whose first is
    confirmed tests the second at the whole alpha (a disk writer's dip confirmed by its bytes, then
    a CPU hog's -70 % for 11 s by its system CPU: it needed 0.0012 and read 0.0025 as a latency
    rise alone)."""
    total = sum(alphas.values())
    left = dict(alphas)
    out: list[int] = []
    while left:
        scale = total / sum(left.values())
        new = [i for i, a in left.items() if confirms(i, a * scale)]
        if not new:
            break
        out += new
        for i in new:
            del left[i]
    return out


def _cause_confirms(
    proven: Finding | None,
    d: Drop,
    load: Callable[[SeriesRef], Any],
    steady: Reference,
    others: list[SeriesRef],
    alpha: float,
) -> bool:
    """Whether a candidate its own series does not prove is confirmed by its cause: the cause's key
    series moved its way over the candidate's interval, its p-value (times the entities of its
    metric: a cause names the CPU or the device that moved most, one of several looks) combined
    with the candidate's own at `alpha` (app/analysis/confirm.py: the two together at the series'
    own false-alarm rate). A cause that shows in more than one series (Finding.also) tries each,
    the least p-value times their number (Bonferroni); the key alone is read as a gauge when the
    cause says so (Finding.gauge). A cause shown by no one series confirms nothing."""
    if proven is None or proven.key is None or alpha <= 0:
        return False
    keys = [proven.key, *proven.also]
    p_key = min(1.0, len(keys) * min(_key_p(k, proven, d, load, steady, others) for k in keys))
    return level_test.combined(d.own_p, p_key) <= alpha


def _key_p(
    series: Change,
    proven: Finding,
    d: Drop,
    load: Callable[[SeriesRef], Any],
    steady: Reference,
    others: list[SeriesRef],
) -> float:
    """One of a cause's series' p-value over the candidate (confirm.key_p), times the entities of
    its metric or, for the key, the looks the cause says it chose among; 1 where the run has no
    such series. What the cause says of its key (a gauge, statements counted) is for the key
    alone; the other series (Finding.also) are rates."""
    got = load(series.ref)
    if got is None:
        return 1.0
    ref, key = series.ref, series is proven.key
    looks = (proven.looks if key else 0) or max(
        1, sum(r.format == ref.format and r.metric == ref.metric for r in others)
    )
    span, up = (d.start, d.end), series.during > series.before
    return looks * key_p(got[0], got[1], span, steady, up, key and proven.gauge, key and proven.event)


def run_drops(
    data: RunData, run_id: int, ref: SeriesRef | None = None, sensitivity: str = "normal", top: int = 5
) -> list[RunDrop]:
    """Every throughput drop of the run, explained against its steady state (run_findings' drops)."""
    return run_findings(data, run_id, ref, sensitivity, top).drops


def run_findings(
    data: RunData, run_id: int, ref: SeriesRef | None = None, sensitivity: str = "normal", top: int = 5
) -> Findings:
    """Drops, recurring dips, latency rises while the throughput held, and stability."""
    ref, t, v = _series(data, run_id, ref)
    steps = _load_steps(data, run_id, ref)
    detected = detection(t, v, sensitivity, segments=steps)
    found = detected.drops
    lat_ref, every_up = latency_rises(data, run_id, ref, steps)
    # no steady state either: the bursts that drain a stall's queue (a rate-limited driver's, its
    # latency series perhaps not in the folder: the server's rate of a status loop or dool)
    aside = [*every_up, *detected.bursts]
    steady = _steady(t, v, found, aside, sensitivity, detected.span)
    # a drop its throughput alone does not prove, with a significant latency rise over it
    confirmed = [d for d in found if any(r.tested and _mostly_in(r, [d]) for r in every_up)]
    retest = partial(retested, t, v, found, sensitivity=sensitivity, segments=steps)
    drops = _explained(data, run_id, ref, found, steady, top, confirmed, retest)
    left_out = len(found) - len(drops)  # before two of one cause are joined: those were kept
    others = [r for r in data.available(run_id) if r.format != ref.format]
    load = partial(data.data, run_id)
    drops = _one_cause_joined(drops, t, v, lambda d: _explain_one(d, others, load, steady, top))
    drops = _edges_placed(drops, t, v, steady, lambda d, ref: _explain_one(d, others, load, ref, top), aside)
    drops = _phases_joined(drops, t, v)
    kept = [d.drop for d in drops]
    up = [r for r in every_up if not _mostly_in(r, kept)]
    groups, _ = recurring(kept)
    by_drop = {id(d.drop): d for d in drops}
    rec = [RecurringDrops(g, [by_drop[id(m)] for m in g.members]) for g in groups]
    rises_out = _explained(data, run_id, lat_ref, up, steady, top) if lat_ref is not None else []
    dismissed = left_out + len(up) - len(rises_out)
    stable = stability(t, v, steady.lo, steady.hi)
    return Findings(ref, drops, rec, rises_out, stable, (steady.lo, steady.hi), dismissed)


def explained_classes(found: Iterable[Findings]) -> Explained:
    """How much each resource class explains these runs' drops and rises (layout.Explains): per
    drop or rise, the summed weight of its entries of that class, and for the class of its proven
    cause (its verdict) more than all of them, since the verdict may rest on a series the top
    entries do not list (a checkpoint age at the sync point); the largest over them, 0 for a class
    that explains nothing; and the series that prove the verdicts, of the heaviest drops first."""
    out: dict[str, float] = {}
    proof: list[tuple[float, SeriesRef]] = []
    for rd in (rd for f in found for rd in (*f.drops, *f.rises)):
        per: dict[str, float] = {}
        for change in rd.explain:
            per[change.klass] = per.get(change.klass, 0.0) + change.weight
        proven = finding(rd.explain)
        if proven is not None:
            per[proven.klass] = sum(per.values()) + 1.0
            proof.extend((rd.drop.score, c.ref) for c in proven.proof())
        for klass, w in per.items():
            out[klass] = max(out.get(klass, 0.0), w)
    return Explained(out, tuple(r for _, r in sorted(proof, key=lambda x: -x[0])))


def _mostly_in(rise: Drop, drops: list[Drop]) -> bool:
    """A latency rise during a throughput drop is part of that drop, not a finding of its own."""
    overlap = sum(max(0.0, min(rise.end, d.end) - max(rise.start, d.start)) for d in drops)
    return overlap > 0.5 * max(rise.duration, 1e-9)
