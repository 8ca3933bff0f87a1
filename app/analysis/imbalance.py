"""What the aggregate hides (issue #25): one CPU saturated while the machine's average looks idle.

vmstat, iostat and sar -u print averages; a single-threaded bottleneck (one core at 100 % while
the others idle) or network interrupts served on one core never show in them, and vmstat counts
`%irq` and `%soft` as idle. Where per-CPU data exist (mpstat -P ALL, sar -P ALL, /proc/stat),
this module makes two series per CPU from the stored ones, as the run data makes a command's
processes (app/rundata.py):

- `FORMAT:%busy:CPU`, 100 - %idle: the CPU's busy share, whatever it was busy with;
- `FORMAT:%intr:CPU`, %irq + %soft: interrupt work (mpstat, procstat, sar -u ALL).

`hot_cpu` finds the CPU that diverges from the aggregate (at least HOT_BUSY % busy while `all` is
at most HOT_RATIO of that, for HOT_SAMPLES samples at least) and `describe` says it in words:
which CPU, which share, against what average. The default layout (app/analysis/layout.py) puts
that CPU beside `all`; the verdicts (app/analysis/causes.py) and `diff` say it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from benchlens.app.model import SeriesRef

BUSY = "%busy"
INTR = "%intr"
AGGREGATE = "all"
# the per-CPU formats and their shares, in the words a verdict uses (sar -u prints %user and
# %system, sar -u ALL and mpstat %usr and %sys)
SHARES = {
    "mpstat": (("%usr", "user"), ("%sys", "system"), ("%soft", "softirq"), ("%irq", "irq"), ("%iowait", "iowait")),
    "procstat": (("%usr", "user"), ("%sys", "system"), ("%soft", "softirq"), ("%irq", "irq"), ("%iowait", "iowait")),
    "sar": (
        ("%user", "user"),
        ("%usr", "user"),
        ("%system", "system"),
        ("%sys", "system"),
        ("%soft", "softirq"),
        ("%irq", "irq"),
        ("%iowait", "iowait"),
    ),
}
# A core counts as saturated from 90 % busy (the figure). The machine's average must be at
# most HOT_RATIO of it: "under half" in the issue, 0.55 here because on a 2-CPU host one saturated
# core and an idle one average 50-53 % (tests/fixtures/runs/one_hot_core: `all` 50.3-52.8 % while
# CPU 1 ran the pinned hog at 100 %). HOT_SAMPLES: a stretch, not one sample's noise. Chosen by
# hand from that recording and the cases, not calibrated.
HOT_BUSY = 90.0
HOT_RATIO = 0.55
HOT_SAMPLES = 3

Data = Callable[[SeriesRef], tuple[np.ndarray, np.ndarray] | None]


def parts(ref: SeriesRef) -> tuple[SeriesRef, ...]:
    """The stored series a made per-CPU series is computed from; () for any other series."""
    if ref.format not in SHARES or not ref.entity:
        return ()
    if ref.metric == BUSY:
        return (SeriesRef(ref.format, "%idle", ref.entity),)
    if ref.metric == INTR:
        return (SeriesRef(ref.format, "%irq", ref.entity), SeriesRef(ref.format, "%soft", ref.entity))
    return ()


def make(ref: SeriesRef, data: Data) -> tuple[np.ndarray, np.ndarray] | None:
    """The values of a made series (parts), None when its parts are not all there."""
    got = [data(p) for p in parts(ref)]
    if not got or any(g is None or not len(g[0]) for g in got):
        return None
    t = got[0][0]  # type: ignore[index]
    if ref.metric == BUSY:
        return t, 100.0 - got[0][1]  # type: ignore[index]
    total = np.zeros(len(t))
    for g in got:
        assert g is not None
        if len(g[0]) != len(t) or not np.array_equal(g[0], t):  # one report: one time array
            return None
        total = total + g[1]
    return t, total


def cpus(fmt: str, available: Iterable[SeriesRef]) -> list[str]:
    """The CPUs of a format (not `all`), in number order."""
    names = {r.entity for r in available if r.format == fmt and r.metric == "%idle" and r.entity}
    return sorted(names - {AGGREGATE}, key=natural)


def natural(name: str) -> tuple[object, ...]:
    """A sort key that puts `2` before `10` and `sdb` before `sdb1`."""
    out: list[object] = []
    for chunk in _chunks(name):
        out.append((0, int(chunk), "") if chunk.isdigit() else (1, 0, chunk))
    return tuple(out)


def _chunks(name: str) -> list[str]:
    out, cur = [], ""
    for ch in name:
        if cur and ch.isdigit() != cur[-1].isdigit():
            out.append(cur)
            cur = ""
        cur += ch
    return [*out, cur] if cur else out


@dataclass(frozen=True)
class Hot:
    """A CPU that diverges from the machine's average: its busy share and the average at the same
    samples (medians over the hot samples), its largest share and the CPU count."""

    fmt: str
    cpu: str
    busy: float
    average: float
    share: str  # user, system, softirq, irq, iowait
    share_level: float
    cpus: int
    start: float
    end: float
    hot: int = 1  # how many CPUs were saturated so (the busiest is `cpu`)


def hot_cpu(fmt: str, available: Iterable[SeriesRef], data: Data) -> Hot | None:
    """The CPU that was saturated longest while `all` stayed at most HOT_RATIO of it."""
    names = cpus(fmt, available)
    every = data(SeriesRef(fmt, BUSY, AGGREGATE))
    if len(names) < 2 or every is None:
        return None
    best: tuple[int, float, str, np.ndarray, np.ndarray] | None = None
    count = 0
    for cpu in names:
        got = data(SeriesRef(fmt, BUSY, cpu))
        if got is None:
            continue
        t, at_all, at_cpu = _common(every, got)
        hot = np.flatnonzero(at_cpu >= HOT_BUSY)  # few samples: NaN (no sample) is never hot
        hot = hot[at_all[hot] <= HOT_RATIO * at_cpu[hot]] if len(hot) >= HOT_SAMPLES else hot[:0]
        if len(hot) < HOT_SAMPLES:
            continue
        count += 1
        level = float(np.median(at_cpu[hot]))
        if best is None or (len(hot), level) > best[:2]:
            best = (len(hot), level, cpu, t[hot], at_all[hot])
    if best is None:
        return None
    _, busy, cpu, when, average = best
    share, level = _largest_share(fmt, cpu, when, data)
    edges = (float(when[0]), float(when[-1]))
    return Hot(fmt, cpu, busy, float(np.median(average)), share, level, len(names), *edges, hot=count)


def _common(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray]) -> tuple[np.ndarray, ...]:
    """Two series on their common times: as they are when they share one time array (one report,
    the common case: no copy of 86,400 samples per CPU), else at the times both have."""
    if a[0] is b[0] or (len(a[0]) == len(b[0]) and np.array_equal(a[0], b[0])):
        return a[0], a[1], b[1]
    t, ia, ib = np.intersect1d(a[0], b[0], assume_unique=False, return_indices=True)
    return t, a[1][ia], b[1][ib]


def _largest_share(fmt: str, cpu: str, when: np.ndarray, data: Data) -> tuple[str, float]:
    """The share (user, system, softirq ...) that took most of a CPU over these samples."""
    best = ("", 0.0)
    for metric, word in SHARES[fmt]:
        got = data(SeriesRef(fmt, metric, cpu))
        if got is None:
            continue
        _, idx, _ = np.intersect1d(got[0], when, return_indices=True)
        vals = got[1][idx]
        vals = vals[np.isfinite(vals)]
        if vals.size and float(np.median(vals)) > best[1]:
            best = (word, float(np.median(vals)))
    return best


Level = Callable[[str, str], tuple[float, float] | None]  # (metric, cpu) -> level before, during


def hot_in_window(fmt: str, names: list[str], level: Level) -> tuple[Hot, float] | None:
    """The CPU saturated during a window while the average was not, from each series' level
    before and during it (an explanation's levels), and that CPU's busy share before."""
    every = level("%idle", AGGREGATE)
    if every is None or len(names) < 2:
        return None
    average = 100.0 - every[1]
    busy = {c: 100.0 - got[1] for c in names if (got := level("%idle", c)) is not None}
    hot = [c for c, b in busy.items() if b >= HOT_BUSY and average <= HOT_RATIO * b]
    if not hot:
        return None
    cpu = max(hot, key=lambda c: busy[c])
    shares = [(word, got[1]) for metric, word in SHARES[fmt] if (got := level(metric, cpu)) is not None]
    share, at = max(shares, key=lambda s: s[1], default=("", 0.0))
    before = level("%idle", cpu)
    assert before is not None
    return Hot(fmt, cpu, busy[cpu], average, share, at, len(names), 0.0, 0.0, len(hot)), 100.0 - before[0]


def describe(h: Hot) -> str:
    """The hot CPU in words: 'CPU 3 96 % busy (softirq 87 %) while the 8 CPUs average 22 %:
    network interrupts on one core'; several: '32 CPUs >= 90 % busy (CPU 64 97 %, user 78 %)
    while the 256 CPUs average 38 %: a bottleneck on 32 cores'."""
    share = f"{h.share} {h.share_level:.0f} %" if h.share else ""
    average = f"while the {h.cpus} CPUs average {h.average:.0f} %"
    if h.hot > 1:
        which = f"CPU {h.cpu} {h.busy:.0f} %" + (f", {share}" if share else "")
        return f"{h.hot} CPUs \u2265 {HOT_BUSY:.0f} % busy ({which}) {average}: a bottleneck on {h.hot} cores"
    return f"CPU {h.cpu} {h.busy:.0f} % busy" + (f" ({share})" if share else "") + f" {average}: {meaning(h.share)}"


def meaning(share: str) -> str:
    """What one saturated core busy with this share is."""
    if share in ("softirq", "irq"):
        return "network interrupts on one core" if share == "softirq" else "interrupts on one core"
    if share == "iowait":
        return "one core waiting on I/O"
    if share == "system":
        return "a single-core bottleneck in the kernel"
    return "a single-core bottleneck"


# How many cores a share is spread over: the CPUs carrying at least SPREAD_SHARE of the busiest
# one's (8 CPUs at 5 % each: 8; one at 40 % and seven at 0.5 %: 1). Two runs' counts are worth
# saying when one is at least SPREAD_RATIO times the other and the share is at least SPREAD_MIN
# points of one CPU in both (below that there is nothing to spread). Chosen by hand.
SPREAD_SHARE = 0.5
SPREAD_RATIO = 2
SPREAD_MIN = 5.0
SPREAD_WORDS = ((INTR, "interrupts"), (BUSY, "its work"))


def cores(means: dict[str, float]) -> tuple[int, str]:
    """How many CPUs carry at least SPREAD_SHARE of the busiest one's share, and the busiest."""
    hot = max(means, key=lambda c: means[c])
    return sum(v >= SPREAD_SHARE * means[hot] for v in means.values()), hot


def spread_notes(names: tuple[str, str], a: dict[str, dict[str, float]], b: dict[str, dict[str, float]]) -> list[str]:
    """B against A in words where a share sits on far fewer cores in one run: 'run B spreads
    interrupts over 8 cores, run A on one (CPU 3)'. `a`, `b`: metric -> CPU -> mean."""
    out = []
    for metric, word in SPREAD_WORDS:
        ma, mb = a.get(metric, {}), b.get(metric, {})
        if len(ma) < 2 or len(mb) < 2 or min(sum(ma.values()), sum(mb.values())) < SPREAD_MIN:
            continue
        (ka, hot_a), (kb, hot_b) = cores(ma), cores(mb)
        if max(ka, kb) < SPREAD_RATIO * min(ka, kb):
            continue
        (wide, k_wide), (narrow, k_narrow, hot) = (
            ((names[1], kb), (names[0], ka, hot_a)) if kb > ka else ((names[0], ka), (names[1], kb, hot_b))
        )
        on = f"one (CPU {hot})" if k_narrow == 1 else f"{k_narrow}"
        out.append(f"run {wide} spreads {word} over {k_wide} cores, run {narrow} on {on}")
    return out
