"""Does a second series say a drop happened? A cause's key series tested on its own (issue #23: a
cause's rule alone had no known false-alarm rate).

A short series' drop that its own test does not prove (level_test: at most one false drop per
10,000 s of noise) is kept when the series of its proven cause (more iowait, more sessions, rows
written, a history list growing, another client's FLUSH statements, the server's wait for each
client's next statement: causes.Finding.key) changed too, beyond chance for the two together, over
a stretch that meets the drop:

1. the throughput's candidate is above chance at even odds (level_test.judged at alpha PLAUSIBLE,
   measured without the run's other candidates): a filter against a key that moved while the
   throughput did not;
2. the key series' p-value: level_test's T of its stretches that meet the candidate, the largest of
   them, in the direction the cause says, against the critical values of the maximum over every
   stretch of a series of its length (the tables the throughput is tested with, key_p); a key
   that counts another client's statements one now and then (joins without an index: 0 in every
   steady sample, then one every few seconds) as arrivals in the candidate's samples against
   those of the rest, an exact binomial test (count_p);
3. the two p-values combined by Fisher's method (level_test.combined: the chance that two
   independent tests give as small a product), at alpha / k for the k such candidates in the
   series (step-down among them: run_drops._holm).

On noise alone, with the two series independent, the combination is at most alpha: the series'
share of one false drop per 10,000 s, the rate of the throughput's test alone (and the filter only
lowers it). A drop its throughput puts at p 0.06 and its key at 0.02 is kept at alpha 0.0135 (DBPA
I/O saturation case-012: the key alone needed 0.0135, the throughput alone 0.0135). The key's
stretch is its own (the throughput's edges are a few samples off the key's change: DBPA's I/O
saturation drops 20-115 s against iowait up 25-100 s), which the maximum's critical value allows
for.

A cause that names one of several series of a metric (the CPU or the device that moved most) has
chosen among them: run_drops multiplies the key's p-value by their number (Bonferroni), or by the
number the cause says it chose among (causes.Finding.looks: 1 for the one event it names, the
sessions' `idle` wait; the lock-wait events for the one that grew most). A cause that shows in
more than one series (causes.Finding.also: another process's syncs in the CPUs' iowait and in the
system CPU they spend) is confirmed by the least of their p-values times their number.

The independence is the assumption: a cause's key series is upstream of the throughput (another
client's sessions or rows, iowait, another process's CPU, a device's bytes, a client's round trip),
not what any slowdown makes grow (sessions waiting, latency), which causes.py never names as a
cause. The cause itself is chosen among the series that moved most over the same window, so the
second test's p-value is nominal; the recorded quiet runs and DBPA's normal cases measure what it
gives (bench/drop_quality).

Lock waits are the exception, and say so: lock contention is waiting (the verdict when lock waits
grew and nothing upstream did), and its series (the sessions in a row-lock wait, row lock time)
move with any slowdown of a workload bound by its locks. What stands between them and noise is
the cause's own condition (causes.lock_waits: row lock time up LOCK_WAIT_MS and LOCK_RATIO times
its steady level; row_locks_stuck: most running sessions in a wait), measured where nothing was
injected: the quiet runs of the lock-bound workloads (bursty, churn twice, hot rows, TPC-C-like),
the stretches of every run beside its disturbance and DBPA's normal cases, no drop confirmed so.
"""

from __future__ import annotations

import math

import numpy as np

from benchlens.app.analysis import level_test
from benchlens.app.analysis.drops import sample_step
from benchlens.app.analysis.explain import Reference, intervals, reference_index


def key_p(
    t: np.ndarray,
    x: np.ndarray,
    span: tuple[float, float],
    ref: Reference,
    up: bool,
    gauge: bool = False,
    event: bool = False,
) -> float:
    """The p-value of a key series (times t, values x) having changed (up, or down) over a stretch
    of its own that meets `span` (epoch s: a drop's interval), 1 when it cannot be tested: the
    series being its finite samples of the run's steady span (ref.lo .. ref.hi) outside the other
    spans ref excludes (the throughput's other candidates: a run with four disturbances moves its
    key in each, and on noise alone those spans are chosen by the throughput, not by the key).
    `gauge`: x is a value read at an instant (sessions connected, the history list), held to that
    noise at its step, not to a mean's (level_test.sample_phi). `event`: x counts statements
    another client issued (causes.Finding.event), tested as counts where it holds whole ones
    (count_p)."""
    t = np.asarray(t, np.float64)
    x = np.asarray(x, np.float64)
    if len(t) < level_test.MIN_LEN + 2:
        return 1.0
    step = sample_step(t)
    idx, lo, hi = _tested(t, x, span, ref, step)
    if event and up:
        p = count_p(x[idx] * (hi - lo), (hi > span[0]) & (lo < span[1]), hi - lo)
        if p is not None:
            return p
    y = -x[idx] if up else x[idx]
    n = len(y)
    if n < level_test.MIN_LEN + 2:
        return 1.0
    meets = np.flatnonzero((hi > span[0]) & (lo < span[1]))
    if not len(meets):
        return 1.0
    # every stretch [a, b] with a <= the candidate's last sample and b >= its first
    first, last = level_test.every_interval(n)
    pick = (first <= meets[-1]) & (last >= meets[0])
    t_max = float(level_test.statistic(y, first[pick], last[pick]).max(initial=-np.inf))
    return level_test.p_value(n, t_max, step=step, gauge=gauge)


def _tested(
    t: np.ndarray, x: np.ndarray, span: tuple[float, float], ref: Reference, step: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The samples a key is tested on (its finite ones of the steady span and the candidate's, the
    throughput's other candidates left out: chosen by the throughput, not by x) and the interval
    (lo, hi) each covers."""
    others = tuple((a, b) for a, b in ref.exclude if b <= span[0] or a >= span[1])
    idx = reference_index(t, Reference(ref.lo, ref.hi, others), step=step)
    idx = idx[np.isfinite(x[idx])]
    lo, hi = intervals(t, idx, step=step)
    return idx, lo, hi


# a rate times its sample's interval within this of a whole number is a count (a counter's
# difference over the interval it was read across: 0.499539/s over 2.0018 s is one join)
WHOLE = 0.02


def count_p(counts: np.ndarray, inside: np.ndarray, seconds: np.ndarray) -> float | None:
    """The p-value of the statements counted in each sample (`counts`: another client's joins or
    FLUSH statements) arriving in the samples `inside` the candidate as often as they did. An
    arrival is a sample that counts statements after one that counted none (a bunch over
    consecutive samples is one: its statements are not independent). None where they are not
    whole counts, where most samples count some, or where most samples that count some are in
    bunches: a loop counted sample after sample is a level (level_test; held-out
    flush-tables-short-hot, a FLUSH TABLES loop of 12 s, is one arrival).
    On noise alone arrivals come independently of the throughput's candidate: given the N of the
    samples tested, the k inside are binomial, N trials at the inside's share f of the `seconds`
    (the conditional test of two Poisson rates), p = P(X >= k). A key at 0 in every steady sample
    that counted seven joins, one at a time, in the 21 of 46 samples a drop covers has p = 0.46^7
    = 0.004 (held-out join-long-tpcc, where level_test, which holds every series to AR(1) noise of
    phi 0.9, read 0.18). On simulated nulls (tests/analysis/test_confirm.py) P(p <= a) <= a."""
    if len(counts) < level_test.MIN_LEN + 2 or np.any(np.abs(counts - np.round(counts)) > WHOLE):
        return None
    some = np.round(counts) > 0
    if np.any(counts < -WHOLE) or not inside.any() or inside.all() or 2 * some.sum() >= len(some):
        return None
    arrivals = some & ~np.concatenate(([False], some[:-1]))
    if 2 * arrivals.sum() < some.sum():
        return None
    share = float(seconds[inside].sum() / seconds.sum())
    return binomial_tail(int(arrivals[inside].sum()), int(arrivals.sum()), share)


def binomial_tail(k: int, n: int, f: float) -> float:
    """P(X >= k) for X binomial of n trials at probability f, summed in logs (n may be thousands)."""
    if k <= 0 or f >= 1.0:
        return 1.0
    if k > n or f <= 0.0:
        return 0.0
    log_f, log_g = math.log(f), math.log1p(-f)
    first = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * log_f + (n - k) * log_g
    j = np.arange(k, n, dtype=np.float64)
    logs = first + np.concatenate(([0.0], np.cumsum(np.log((n - j) / (j + 1)) + log_f - log_g)))
    top = float(logs.max())
    return min(1.0, math.exp(top) * float(np.exp(logs - top).sum()))
