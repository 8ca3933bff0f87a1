"""Files of one folder that hold the same capture twice: the same SHOW GLOBAL STATUS loop as a
table and as `mysql -B` TSV started a few ms apart, the same iostat run twice or copied. Imported
both, they would merge into one series with every sample doubled (issue 12), so one is kept.

"Same" is decided from the data alone, never from the names: the two files give (nearly) the
same series (SAME_SERIES of the keys in common), their samples fall at the same times (within
SAME_TIME of the interval, for AGREEING of the shorter file's samples), and the values at those
times agree (within SAME_VALUE, for AGREEING_VALUES of them: two loops a few ms apart under load
read counters a few ms apart; values both files give as 0 are not counted). Rotated logs (no
common times) and runs of different servers (other values) are never the same. Which one is
kept, and why, is said in a warning naming both.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from benchlens.importers._types import Block

MAX_VALUES = 4_000_000  # a file with more values is not compared (memory: 8 bytes a value, twice)
SAME_SERIES = 0.9  # share of the (entity, metric) keys of either file found in the other
SAME_TIME = 0.25  # two samples are at the same time within this fraction of the interval
# Two values agree within this share of the series' largest value: two loops taking the same status
# one after the other read counters up to a few hundred ms apart on a busy host (rates then differ by
# ~10%: the status loops of tests/fixtures/runs/duplicate_loops, 2 overloaded cores).
SAME_VALUE = 0.1
AGREEING = 0.9  # share of the shorter file's samples that must fall at the same times
AGREEING_VALUES = 0.8  # share of the values compared (moving ones) that must agree
Key = tuple[str, str]


@dataclass
class Fingerprint:
    """A file's samples, per (entity, metric), as parsed with the folder's clock."""

    series: dict[Key, tuple[list[np.ndarray], list[np.ndarray]]] = field(default_factory=dict)
    values: int = 0
    warnings: int = 0
    complete: bool = True  # False: more than MAX_VALUES, not compared

    def add(self, blocks: Iterable[Block]) -> Iterator[Block]:
        """Pass the blocks through, keeping a copy of their samples."""
        for b in blocks:
            if self.complete:
                for metric, v in b.values.items():
                    ts, vs = self.series.setdefault((b.entity, metric), ([], []))
                    ts.append(np.array(b.t, np.float64))
                    vs.append(np.array(v, np.float64))
                    self.values += len(v)
                if self.values > MAX_VALUES:
                    self.complete, self.series = False, {}
            yield b

    def arrays(self, key: Key) -> tuple[np.ndarray, np.ndarray]:
        ts, vs = self.series[key]
        t, v = np.concatenate(ts), np.concatenate(vs)
        order = np.argsort(t, kind="stable")
        return t[order], v[order]

    @property
    def samples(self) -> int:
        return sum(sum(len(t) for t in ts) for ts, _ in self.series.values())


def same(a: Fingerprint, b: Fingerprint) -> str | None:
    """What makes the two files one capture ("12 series, 11 of 11 samples at the same times (within
    0.05 s), 99% of the values within 2%"), or None when they are not."""
    if not (a.complete and b.complete and a.series and b.series):
        return None
    common = a.series.keys() & b.series.keys()
    if len(common) < SAME_SERIES * max(len(a.series), len(b.series)):
        return None
    tally = np.zeros(4, np.int64)  # samples, at the same time, values compared, values agreeing
    worst = 0.0
    for key in sorted(common):
        counts, gap = _match(*a.arrays(key), *b.arrays(key))
        tally += counts
        worst = max(worst, gap)
    total, matched, compared, agree = (int(x) for x in tally)
    if total == 0 or matched < AGREEING * total or compared == 0 or agree < AGREEING_VALUES * compared:
        return None
    return (
        f"{len(common)} series, {matched} of {total} samples at the same times (within {worst:.3g} s), "
        f"{100 * agree / compared:.0f}% of the values within {SAME_VALUE:.0%} of the largest"
    )


def _match(ta: np.ndarray, va: np.ndarray, tb: np.ndarray, vb: np.ndarray) -> tuple[np.ndarray, float]:
    """([samples of the shorter, at the same time, values compared, agreeing], the largest time
    difference of a match) of one series in two files."""
    st, sv, lt, lv = (ta, va, tb, vb) if len(ta) <= len(tb) else (tb, vb, ta, va)
    if len(st) == 0 or len(lt) == 0:
        return np.array([len(st), 0, 0, 0]), 0.0
    step = float(np.median(np.diff(lt))) if len(lt) > 1 else 1.0
    j = np.searchsorted(lt, st)
    lo, hi = np.clip(j - 1, 0, len(lt) - 1), np.clip(j, 0, len(lt) - 1)
    nearer = np.where(np.abs(lt[lo] - st) <= np.abs(lt[hi] - st), lo, hi)
    gap = np.abs(lt[nearer] - st)
    hit = gap <= SAME_TIME * max(step, 1e-9)
    x, y = sv[hit], lv[nearer[hit]]
    # values both files give as 0 (idle counters) or NaN say nothing: two servers share those
    moving = ~((x == 0) & (y == 0)) & ~(np.isnan(x) & np.isnan(y))
    scale = max(_largest(sv), _largest(lv))
    with np.errstate(invalid="ignore"):
        close = np.abs(x - y) <= SAME_VALUE * scale
    counts = np.array([len(st), int(hit.sum()), int(moving.sum()), int((close & moving).sum())])
    return counts, float(gap[hit].max()) if hit.any() else 0.0


def _largest(v: np.ndarray) -> float:
    finite = np.abs(v[np.isfinite(v)])
    return float(finite.max()) if finite.size else 0.0


def keep_first(a: Fingerprint, b: Fingerprint, a_timed: bool, b_timed: bool) -> tuple[bool, str]:
    """(True when `a` is kept, why): more samples, then fewer warnings, then times of its own;
    otherwise `a`, the one written first (the caller orders them by modification time, then name)."""
    if a.samples != b.samples:
        return (
            a.samples > b.samples,
            f"it holds more samples ({max(a.samples, b.samples)} vs {min(a.samples, b.samples)})",
        )
    if a.warnings != b.warnings:
        return (
            a.warnings < b.warnings,
            f"it read with fewer warnings ({min(a.warnings, b.warnings)} vs {max(a.warnings, b.warnings)})",
        )
    if a_timed != b_timed:
        return a_timed, "it prints times of its own"
    return True, "the same samples in both; it was written first"
