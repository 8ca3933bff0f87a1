"""Why did throughput drop? Rank the run's other series by how much they moved during the drop
against the window just before it (robust effect size: shift of the median over the MAD).

Everything that counts work (queries, rows, handler calls, fsyncs, bytes sent) falls with the
throughput, and on a database server those are most of the series: ranked by their raw change they
fill the top five with consequences of the drop. So a series ranks by the part of its change that
neither "it stayed the same" nor "it scaled with the work done" accounts for: the smaller of its
shift from the level before, and its shift from that level times the throughput's own ratio. A disk
whose latency rose, a run queue that grew or an idle CPU while the work stopped keep their whole
change; Com_select at 35% of its level while the TPS is at 35% ranks last."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

import numpy as np

from benchlens.app.analysis.drops import MAD_TO_SIGMA, Drop
from benchlens.app.model import SeriesRef


@dataclass(frozen=True)
class ExplainParams:
    # seconds: the window a drop is compared with ends at its start and is at least this long ...
    before_s: float = 30.0
    # ... and at least this many times the drop's duration; both chosen by hand, not measured
    before_durations: float = 2.0
    # samples in that window needed to measure a change; chosen by hand, not measured
    min_before: int = 3
    # floor on a series' spread before the drop, as a fraction of its level there; chosen by hand,
    # not measured
    level_floor: float = 0.05
    # floor on the spread as a fraction of the series' range over the run: on the disk-stall demo
    # a series flat at 0 before the drop then no longer tops the list (commit 1a7a7fc); the value
    # chosen by hand, not measured against others
    range_floor: float = 0.1
    # percentiles the run's range is read between, so that one spike does not set it; chosen by
    # hand, not measured
    range_percentiles: tuple[float, float] = (1.0, 99.0)
    # the last floor: a series constant over the whole run still divides by no zero
    min_spread: float = 1e-6


EXPLAIN = ExplainParams()
# Machine CPU shares as vmstat, iostat (avg-cpu) and mpstat print them: one quantity, three tools.
CPU_SHARES = {
    **dict.fromkeys(("id", "%idle"), "idle"),
    **dict.fromkeys(("us", "%user", "%usr"), "user"),
    **dict.fromkeys(("sy", "%system", "%sys"), "system"),
    **dict.fromkeys(("wa", "%iowait"), "iowait"),
    **dict.fromkeys(("st", "%steal"), "steal"),
}


def quantity(ref: SeriesRef) -> str:
    """What a series measures, whichever tool printed it. An explanation lists a quantity once
    (vmstat id, iostat %idle and mpstat %idle of every CPU all say "the CPUs went idle") and names
    the other series that showed it as similar; the top five then holds five different things."""
    cpu_column = ref.format in ("vmstat", "mpstat") or (ref.format == "iostat" and not ref.entity)
    if cpu_column and ref.metric in CPU_SHARES:
        return "cpu " + CPU_SHARES[ref.metric]
    if ref.format in ("innodb_status", "global_status"):  # pages_written/s and Innodb_pages_written
        return "innodb " + ref.metric.lower().removeprefix("innodb_").removesuffix("/s") + " " + ref.entity
    return ref.spec()


@dataclass(frozen=True)
class Change:
    ref: SeriesRef
    change: float  # effect size: (median during - median before) / robust sigma before; signed
    before: float
    during: float
    weight: float = 0.0  # rank: the part of the change not explained by scaling with the throughput
    similar: tuple[SeriesRef, ...] = ()  # other series of the same quantity (other tools, other CPUs)

    def as_json(self) -> dict[str, object]:
        return {
            "source": self.ref.format,
            "metric": self.ref.metric,
            "entity": self.ref.entity,
            "change": round(self.change, 2),
            "before": self.before,
            "during": self.during,
            "similar": [r.spec() for r in self.similar],
        }


def effect(t: np.ndarray, v: np.ndarray, drop: Drop, params: ExplainParams = EXPLAIN) -> Change | None:
    span = max(params.before_s, params.before_durations * drop.duration)
    before = v[(t >= drop.start - span) & (t < drop.start) & np.isfinite(v)]
    during = v[(t >= drop.start) & (t <= drop.end) & np.isfinite(v)]
    if len(before) < params.min_before or len(during) < 1:
        return None
    b, d = float(np.median(before)), float(np.median(during))
    mad = float(np.median(np.abs(before - b))) * MAD_TO_SIGMA
    # Floors on the spread. A series flat before the drop (0 discards/s) has no spread: its change
    # is measured against the series' own range over the run, so "0 -> anything" is not
    # automatically the top explanation; and never less than a fraction of its level.
    finite = v[np.isfinite(v)]
    lo, hi = params.range_percentiles
    run_range = float(np.percentile(finite, hi) - np.percentile(finite, lo)) if finite.size else 0.0
    scale = max(mad, params.level_floor * abs(b), params.range_floor * run_range, params.min_spread)
    raw = (d - b) / scale
    with_work = (d - b * (1.0 - drop.depth)) / scale  # the series had it scaled with the throughput
    return Change(SeriesRef("", ""), raw, b, d, min(abs(raw), abs(with_work)))


def explain(
    drop: Drop,
    refs: Iterable[SeriesRef],
    load: Callable[[SeriesRef], tuple[np.ndarray, np.ndarray] | None],
    top: int = 5,
    params: ExplainParams = EXPLAIN,
) -> list[Change]:
    """The `top` quantities that changed most during the drop, each with the other series that
    showed the same quantity."""
    out = []
    for ref in refs:
        data = load(ref)
        if data is None:
            continue
        c = effect(data[0], data[1], drop, params)
        if c is not None and np.isfinite(c.change) and c.change != 0:
            out.append(Change(ref, c.change, c.before, c.during, c.weight))
    out.sort(key=lambda c: -c.weight)
    return _one_per_quantity(out, top)


def _one_per_quantity(ranked: list[Change], top: int) -> list[Change]:
    shown: dict[str, Change] = {}
    for c in ranked:
        key = quantity(c.ref)
        if key in shown:
            shown[key] = replace(shown[key], similar=(*shown[key].similar, c.ref))
        elif len(shown) < top:
            shown[key] = c
    return list(shown.values())
