"""Why run B differs from run A: the settings that differ (app/analysis/config.py: listed first), and
every series both runs have (not only the plotted ones), ranked by how much and how relevantly it
differs over each run's benchmark interval (warm-up excluded), each also per transaction, with its
resource class; and the throughput's stability of both runs.

The difference of a series is B's mean against A's, in robust sigmas of the runs' samples (the
larger of A's and B's, floored at 5% of A's level, capped as an explanation's effect is), times
its importance in absolute terms (app/analysis/relevance.py). A difference inside the runs' own
variation (`NOISE_FLOOR`: a mean that moved less than a typical sample deviates from it) is not
a difference: it ranks last, marked `noise`. Per transaction (`per_transaction`): what is counted per second, divided
by the run's mean throughput (fsyncs, bytes written, waits, wait ms per transaction), and the CPU
time a busy CPU share stands for (CPU ms per transaction, over all the run's CPUs); a level
(latency, queue length, request size, %util, pages, threads) has none: a latency per transaction
means nothing."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from benchlens.app.analysis import imbalance
from benchlens.app.analysis.config import ConfigDiff, config_diff
from benchlens.app.analysis.drops import MAD_TO_SIGMA, steady_span
from benchlens.app.analysis.explain import EXPLAIN, ExplainParams, by_quantity
from benchlens.app.analysis.relevance import class_of, importance, is_cpu_share, is_evidence
from benchlens.app.analysis.run_drops import throughput
from benchlens.app.analysis.stability import Stability, stability
from benchlens.app.errors import AnalysisError
from benchlens.app.model import RunData, SeriesRef


@dataclass(frozen=True)
class SeriesDiff:
    ref: SeriesRef
    a: float  # mean over A's benchmark interval
    b: float
    per_trx_a: float  # NaN when the quantity has no meaning per transaction (per_transaction)
    per_trx_b: float
    effect: float  # (b - a) / robust sigma of A; signed
    weight: float  # rank: capped |effect| x importance
    klass: str
    trx_unit: str = ""  # the unit of per_trx_a/b: "" a count, "kB", "ms", "CPU ms" ...
    noise: bool = False  # the difference is inside the runs' own variation (NOISE_FLOOR)

    @property
    def change(self) -> float:
        """(b - a) / |a|, NaN when a is 0."""
        return (self.b - self.a) / abs(self.a) if self.a else math.nan

    def as_json(self) -> dict[str, object]:
        def f(x: float) -> float | None:
            return x if math.isfinite(x) else None

        return {
            "source": self.ref.format,
            "metric": self.ref.metric,
            "entity": self.ref.entity,
            "a": f(self.a),
            "b": f(self.b),
            "change": f(self.change),
            "per_trx_a": f(self.per_trx_a),
            "per_trx_b": f(self.per_trx_b),
            "per_trx_unit": self.trx_unit if math.isfinite(self.per_trx_a) else None,
            "effect": f(round(self.effect, 2)),
            "score": round(self.weight, 3),
            "class": self.klass,
            "noise": self.noise,
        }


@dataclass(frozen=True)
class RunDiff:
    a: str
    b: str
    series: list[SeriesDiff]
    stability: tuple[Stability, Stability]
    config: ConfigDiff  # the settings that differ, listed before the series
    tps: tuple[float, float] = (math.nan, math.nan)  # each run's mean throughput, warm-up excluded
    spread: list[str] = field(default_factory=list)  # a share on far fewer cores in one run (imbalance.py)

    def as_json(self) -> dict[str, object]:
        return {
            "a": self.a,
            "b": self.b,
            "throughput": {"a": _finite(self.tps[0]), "b": _finite(self.tps[1])},
            "config": self.config.as_json(),
            "stability": {"a": self.stability[0].as_json(), "b": self.stability[1].as_json()},
            "series": [s.as_json() for s in self.series],
            "imbalance": self.spread,
        }


def _finite(x: float) -> float | None:
    return x if math.isfinite(x) else None


# A difference of means within this many of the runs' own sample variation (the larger run's robust
# sigma) is noise. Not the standard deviation: a burst of 12 s (the demo's disk stall, a foreign
# read in pair-flushlog-2) makes it larger than the difference the burst makes. Chosen by hand.
NOISE_FLOOR = 1.0
# the least weight of a difference held in few of B's samples (_held): a burst still ranks. By hand.
HELD_FLOOR = 0.2

# CPU shares that are CPU time spent (idle, iowait and steal are time not spent)
BUSY_CPU = {"us", "sy", "%user", "%usr", "%sys", "%system", "%nice", "%irq", "%soft", "%guest", "%gnice"}


def per_transaction(ref: SeriesRef, unit: str, mean: float, tps: float, cpus: int | None) -> tuple[float, str]:
    """(value per transaction, its unit) of a series' mean at a mean throughput of `tps`: a rate
    (unit "x/s") gives x per transaction ("1/s": a count); a busy CPU share (%) the CPU ms it
    stands for, over the machine's `cpus` for a whole-machine share (vmstat, mpstat's "all") and
    one CPU for a per-CPU one; anything else (NaN, "")."""
    if not (tps > 0 and math.isfinite(tps) and math.isfinite(mean)):
        return math.nan, ""
    if unit.endswith("/s") and len(unit) > 2:
        per = unit[:-2]
        return mean / tps, "" if per == "1" else per
    if unit == "%" and is_cpu_share(ref) and ref.metric in BUSY_CPU:
        one_cpu = ref.entity not in ("", "all")
        n = 1 if one_cpu else cpus
        if n:
            return mean / 100.0 * 1000.0 * n / tps, "CPU ms"
    return math.nan, ""


def series_by_quantity(series: list[SeriesDiff]) -> list[tuple[SeriesDiff, list[SeriesRef]]]:
    """One row per quantity (vmstat bo, iostat wkB/s, sar, dstat ... are the disks' writes), the
    best ranked series first, with the other series that measured it."""
    return by_quantity(series, lambda d: d.ref)


def bench_interval(data: RunData, run_id: int) -> tuple[float, float, float]:
    """(start, end, mean throughput) of a run's benchmark interval, warm-up excluded."""
    ref = throughput(data, run_id)
    series = data.data(run_id, ref) if ref is not None else None
    if series is None:
        raise AnalysisError(f"run {data.run(run_id).name!r} has no throughput series (tps) to compare")
    t, v = np.asarray(series[0], np.float64), np.asarray(series[1], np.float64)
    lo, hi = steady_span(t, v)
    x = v[(t > lo) & (t <= hi) & np.isfinite(v)]
    return lo, hi, float(np.mean(x)) if len(x) else math.nan


def _within(data: RunData, run_id: int, ref: SeriesRef, lo: float, hi: float) -> np.ndarray:
    series = data.data(run_id, ref)
    if series is None:
        return np.zeros(0)
    t, v = np.asarray(series[0], np.float64), np.asarray(series[1], np.float64)
    x = v[(t > lo) & (t <= hi)]
    return x[np.isfinite(x)]


def diff_runs(data: RunData, a: int, b: int, params: ExplainParams = EXPLAIN) -> RunDiff:
    """Every series of both runs ranked by its relevant difference, B against A."""
    lo_a, hi_a, tps_a = bench_interval(data, a)
    lo_b, hi_b, tps_b = bench_interval(data, b)
    means: dict[SeriesRef, tuple[np.ndarray, np.ndarray]] = {}
    for ref in sorted(set(data.available(a)) & set(data.available(b))):
        if is_evidence(ref):
            xa, xb = _within(data, a, ref, lo_a, hi_a), _within(data, b, ref, lo_b, hi_b)
            if len(xa) >= params.min_before and len(xb):
                means[ref] = (xa, xb)
    waits = {r: x for r, x in means.items() if r.format == "perfschema" and r.metric == "SUM_TIMER_WAIT"}
    wait_total = max(sum(float(np.mean(x[0])) for x in waits.values()), 0.0)
    wait_delta = {r.entity: float(np.mean(x[1]) - np.mean(x[0])) for r, x in waits.items()}
    runs = (data.run(a), data.run(b))
    out = [
        _series_diff(
            ref,
            xa,
            xb,
            (tps_a, tps_b),
            (wait_total, wait_delta.get(ref.entity)),
            params,
            (data.unit(b, ref), runs[0].cpus, runs[1].cpus),
        )
        for ref, (xa, xb) in means.items()
    ]
    out.sort(key=lambda s: -s.weight)
    stab = []
    for r, lo, hi in ((a, lo_a, hi_a), (b, lo_b, hi_b)):
        tref = throughput(data, r)
        series = data.data(r, tref) if tref is not None else None
        stab.append(stability(*series, lo, hi) if series is not None else stability(np.zeros(0), np.zeros(0)))
    names = (data.run(a).name, data.run(b).name)
    spread = _spread(data, ((a, lo_a, hi_a), (b, lo_b, hi_b)), names)
    return RunDiff(*names, out, (stab[0], stab[1]), config_diff(data, a, b), (tps_a, tps_b), spread)


def _spread(data: RunData, runs: tuple[tuple[int, float, float], ...], names: tuple[str, str]) -> list[str]:
    """Where one run has a CPU share (interrupts, work) on far fewer cores than the other."""
    for fmt in imbalance.SHARES:
        per = [
            {
                metric: {
                    c: float(x.mean())
                    for c in imbalance.cpus(fmt, data.available(r))
                    if len(x := _within(data, r, SeriesRef(fmt, metric, c), lo, hi))
                }
                for metric, _ in imbalance.SPREAD_WORDS
            }
            for r, lo, hi in runs
        ]
        notes = imbalance.spread_notes(names, per[0], per[1])
        if notes:
            return notes
    return []


def _series_diff(
    ref: SeriesRef,
    xa: np.ndarray,
    xb: np.ndarray,
    tps: tuple[float, float],
    wait: tuple[float, float | None],
    params: ExplainParams,
    unit_cpus: tuple[str, int | None, int | None] = ("", None, None),
) -> SeriesDiff:
    ma, mb = float(np.mean(xa)), float(np.mean(xb))
    sigma = max(_robust_sigma(xa), _robust_sigma(xb))
    scale = max(sigma, params.level_floor * abs(ma), params.min_spread)
    effect = (mb - ma) / scale
    if scale == params.min_spread and mb != ma:
        effect = math.copysign(math.inf, mb - ma)  # flat in both: no spread to count it in (explain.py does so too)
    noise = abs(mb - ma) <= NOISE_FLOOR * sigma
    elsewhere = float(np.percentile(np.abs(xa), params.elsewhere_percentile))
    imp, _ = importance(ref, mb - ma, elsewhere, *wait)
    unit, cpus_a, cpus_b = unit_cpus
    per_a, trx_unit = per_transaction(ref, unit, ma, tps[0], cpus_a)
    per_b, _ = per_transaction(ref, unit, mb, tps[1], cpus_b)
    weight = 0.0 if noise else min(abs(effect), params.effect_cap) * imp * _held(xa, xb, mb > ma)
    return SeriesDiff(ref, ma, mb, per_a, per_b, effect, weight, class_of(ref), trx_unit, noise)


def _held(xa: np.ndarray, xb: np.ndarray, up: bool) -> float:
    """How much of B is beyond A's usual range (its 5th-95th percentile) in the direction of the
    change, at least HELD_FLOOR: a setting's effect holds all along (fsyncs 609 -> 2 /s), a 12 s
    burst of foreign reads in a 60 s run does not, and ranks after it."""
    lo, hi = np.percentile(xa, [5, 95])
    share = float(np.mean(xb > hi)) if up else float(np.mean(xb < lo))
    return max(share, HELD_FLOOR)


def _robust_sigma(x: np.ndarray) -> float:
    return float(np.median(np.abs(x - np.median(x)))) * MAD_TO_SIGMA
