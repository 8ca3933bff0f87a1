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

from app.analysis.drops import Drop
from app.analysis.layout import SeriesRef

MAD_TO_SIGMA = 1.4826
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
    cpu_column = ref.source in ("vmstat", "mpstat") or (ref.source == "iostat" and not ref.entity)
    if cpu_column and ref.metric in CPU_SHARES:
        return "cpu " + CPU_SHARES[ref.metric]
    if ref.source in ("innodb_status", "global_status"):  # pages_written/s and Innodb_pages_written
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
            "source": self.ref.source,
            "metric": self.ref.metric,
            "entity": self.ref.entity,
            "change": round(self.change, 2),
            "before": self.before,
            "during": self.during,
            "similar": [r.spec() for r in self.similar],
        }


def effect(t: np.ndarray, v: np.ndarray, drop: Drop) -> Change | None:
    span = max(30.0, 2.0 * drop.duration)
    before = v[(t >= drop.start - span) & (t < drop.start) & np.isfinite(v)]
    during = v[(t >= drop.start) & (t <= drop.end) & np.isfinite(v)]
    if len(before) < 3 or len(during) < 1:
        return None
    b, d = float(np.median(before)), float(np.median(during))
    mad = float(np.median(np.abs(before - b))) * MAD_TO_SIGMA
    # Floors on the spread. A series flat before the drop (0 discards/s) has no spread: its change
    # is measured against the series' own range over the run, so "0 -> anything" is not
    # automatically the top explanation; and never less than 5% of its level.
    finite = v[np.isfinite(v)]
    run_range = float(np.percentile(finite, 99) - np.percentile(finite, 1)) if finite.size else 0.0
    scale = max(mad, 0.05 * abs(b), 0.1 * run_range, 1e-6)
    raw = (d - b) / scale
    with_work = (d - b * (1.0 - drop.depth)) / scale  # the series had it scaled with the throughput
    return Change(SeriesRef("", ""), raw, b, d, min(abs(raw), abs(with_work)))


def explain(
    drop: Drop,
    refs: Iterable[SeriesRef],
    load: Callable[[SeriesRef], tuple[np.ndarray, np.ndarray] | None],
    top: int = 5,
) -> list[Change]:
    out = []
    for ref in refs:
        data = load(ref)
        if data is None:
            continue
        c = effect(data[0], data[1], drop)
        if c is not None and np.isfinite(c.change) and c.change != 0:
            out.append(Change(ref, c.change, c.before, c.during, c.weight))
    out.sort(key=lambda c: -c.weight)
    shown: dict[str, Change] = {}
    for c in out:
        key = quantity(c.ref)
        if key in shown:
            shown[key] = replace(shown[key], similar=(*shown[key].similar, c.ref))
        elif len(shown) < top:
            shown[key] = c
    return list(shown.values())
