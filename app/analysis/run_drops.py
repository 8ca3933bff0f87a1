"""Drops of a run as the CLI and the app show them: detected on the benchmark's throughput (or
a chosen series), load steps segmented from the thread count, each explained by the run's other
series. Reads the library; no Qt."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.analysis.drops import Drop, detect, steps_from_threads
from app.analysis.explain import Change, explain
from app.analysis.layout import THROUGHPUT_SOURCES, SeriesRef
from app.store import Library, LibraryError


@dataclass(frozen=True)
class RunDrop:
    ref: SeriesRef
    drop: Drop
    explain: list[Change]

    def as_json(self) -> dict[str, object]:
        d: dict[str, object] = {"source": self.ref.source, "metric": self.ref.metric, "entity": self.ref.entity}
        d.update(self.drop.as_json())
        d["label"] = self.drop.label()
        d["explain"] = [c.as_json() for c in self.explain]
        return d


def decision(annotations: list[dict[str, Any]], drop: Drop) -> dict[str, Any] | None:
    """The user's saved decision on a detected drop (accepted, renamed, dismissed), if any."""
    for a in annotations:
        if a["kind"] == "drop" and abs(a["start"] - drop.start) < 0.5 and abs(a["end"] - drop.end) < 0.5:
            return a
    return None


def decided_label(annotations: list[dict[str, Any]], drop: Drop) -> tuple[str, str]:
    """(label, state) of a drop after the user's decision; state '', 'accepted' or 'dismissed'."""
    d = decision(annotations, drop)
    if d is None:
        return drop.label(), ""
    return (d["label"] or drop.label()), d["state"]


def throughput(lib: Library, run_id: int) -> SeriesRef | None:
    have = {(s.source, s.metric, s.entity) for s in lib.series(run_id)}
    for src in THROUGHPUT_SOURCES:
        if (src, "tps", "") in have:
            return SeriesRef(src, "tps")
    return None


def run_drops(
    lib: Library, run_id: int, ref: SeriesRef | None = None, sensitivity: str = "normal", top: int = 5
) -> list[RunDrop]:
    ref = ref or throughput(lib, run_id)
    if ref is None:
        raise LibraryError("the run has no throughput series (tps); choose one with --metric")
    infos = {SeriesRef(s.source, s.metric, s.entity): s for s in lib.series(run_id)}
    if ref not in infos:
        raise LibraryError(f"no series {ref.spec()} in the run")
    t, v = lib.load(infos[ref])
    segments = None
    threads = SeriesRef(ref.source, "thds")
    if threads in infos:
        tt, thds = lib.load(infos[threads])
        segments = steps_from_threads(tt, thds)
    drops = detect(t, v, sensitivity, segments=segments)
    others = [r for r in infos if r.source != ref.source]
    cache: dict[SeriesRef, tuple[object, object]] = {}

    def load(r: SeriesRef):  # type: ignore[no-untyped-def]
        if r not in cache:
            cache[r] = lib.load(infos[r])
        return cache[r]

    return [RunDrop(ref, d, explain(d, others, load, top)) for d in drops]
