"""Where a found drop's level changed: its edges placed by the series' two levels, not by the
thresholds that found it (issue #23: edges within a few seconds of the disturbance).

The thresholds (app/analysis/drops.py) mark where a smoothed series runs below a margin under a
rolling baseline, and a long drop drags that baseline down: held-out dump-long-hot (another
client's dumps for 40 s, commits 1,550 -> 1,080 a second) was found at 38-67 s against 30-70 s.
Once the drops are decided (their tests, their confirmations: which drops a run has does not
change here), each edge moves to where the series crossed the midpoint between its steady level
(the median of the steady samples around the drop, outside every other drop) and the drop's
(its median): the step of a two-level fit to which side of that midpoint each sample lies on
(_split), so that a single sample across it moves nothing and a drop that deepens halfway keeps
its shallower first step (dool-disk-writers-long-smooth: 11,800 -> 7,700 -> 5,500 statements a
second, its start at the first step). Each edge is searched within half the drop's length of its
own (at least EDGE_MIN samples), never into the next drop nor out of the steady span.

Measured on the recorded corpus (bench/drop_quality/README.md, session 17): disturbances found
with both edges within 3 s 96 -> 99 of 118; one edge moved more than a second further from its
truth, disk-writers-long-smooth's start (+1 -> -3 s: its commits fell by a third 5 s before its
writers started, then by 70 % with them). Measured and not kept: the interval of largest T
(level_test.statistic) within the same reach, 97 of 118, which puts a drop that deepens halfway
at its deeper step (dool-disk-writers-long-smooth +0.2 -> +6.2 s).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from benchlens.app.analysis import level_test
from benchlens.app.analysis.drops import Drop, _samples, drop_over, sample_step

# an edge is searched within this share of its drop's length either way, at least EDGE_MIN samples
EDGE_SHARE = 0.5
EDGE_MIN = 3


def placed(t: np.ndarray, v: np.ndarray, drops: list[Drop], span: tuple[float, float]) -> list[Drop]:
    """The drops (of throughput v(t), sorted by start) with their edges where the level changed;
    each keeps its baseline, its test and its confirmation. `span`: the series' steady part
    (epochs), which no edge leaves. A drop the search cannot place stays as it was."""
    t = np.asarray(t, np.float64)
    v = np.asarray(v, np.float64)
    if len(t) < level_test.MIN_LEN + 2 or not drops:
        return drops
    step = sample_step(t)
    inside = [_samples(t, d.start, d.end, step) for d in drops]
    steady = np.isfinite(v) & (t > span[0]) & (t <= span[1])
    out = []
    for i, d in enumerate(drops):
        got = None if d.kind != "drop" else _edges(v, steady, inside, i)
        if got is None or got == inside[i]:
            out.append(d)
            continue
        a, b = got
        moved = drop_over(t, v, d.baseline, float(t[a] - step), float(t[b]))
        out.append(replace(moved, tested=d.tested, confirm_alpha=d.confirm_alpha, own_p=d.own_p))
        inside[i] = got  # the next drop's search stops at this one's new end
    return out


def _edges(v: np.ndarray, steady: np.ndarray, inside: list[tuple[int, int]], i: int) -> tuple[int, int] | None:
    """The first and last sample of drop i where its series crossed the midpoint of its two levels,
    or None."""
    a, b = inside[i]
    reach = max(EDGE_MIN, round(EDGE_SHARE * (b - a + 1)))
    # the interval's edges: within reach, between the neighbours, in the steady span
    lo = max([0, a - reach, *(e + 1 for _, e in inside[:i])])
    hi = min([len(v) - 1, b + reach, *(s - 1 for s, _ in inside[i + 1 :])])
    # the steady level: the steady samples around it outside every other drop
    rest = steady.copy()
    rest[: max(0, lo - (b - a + 1))] = False
    rest[hi + (b - a + 1) + 1 :] = False
    for s, e in inside:
        rest[s : e + 1] = False
    level = v[a : b + 1][np.isfinite(v[a : b + 1])]
    if not rest.any() or not len(level):
        return None
    mid = (float(np.median(v[rest])) + float(np.median(level))) / 2.0
    low = steady & (v < mid)  # steady: finite samples of the steady span (placed)
    high = steady & (v >= mid)
    first = _split(high, low, lo, min(a + reach, b))
    last = _split(low, high, max(b - reach, first), hi + 1) - 1
    return (first, last) if last >= first else None


def _split(before: np.ndarray, after: np.ndarray, lo: int, hi: int) -> int:
    """The index k in lo..hi at which `before` holds most to its left (from lo) and `after` from
    it on (to hi, inclusive): the step of a two-level fit to which side of the midpoint each sample
    is on, robust to single samples across it; of equals, the one nearest the middle of lo..hi."""
    k = np.arange(lo, hi + 1)
    left = np.concatenate(([0], np.cumsum(before[lo:hi])))  # before-samples in lo..k-1
    right = np.cumsum(after[lo : hi + 1][::-1])[::-1]  # after-samples in k..hi
    right = np.concatenate((right, [0]))[: len(k)]
    score = left + right
    best = np.flatnonzero(score == score.max())
    return int(k[best[np.argmin(np.abs(best - (len(k) - 1) / 2))]])
