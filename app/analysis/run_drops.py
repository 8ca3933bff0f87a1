"""Drops of a run as the CLI and the app show them: detected on the benchmark's throughput (or
a chosen series), load steps segmented from the thread count, each explained by the run's other
series. Reads runs through app.model.RunData; no Qt, no library."""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

from benchlens.app.analysis.drops import Drop, detect
from benchlens.app.analysis.explain import Change, explain
from benchlens.app.analysis.layout import THROUGHPUT_FORMATS
from benchlens.app.analysis.steps import find_steps
from benchlens.app.errors import AnalysisError
from benchlens.app.model import Annotation, RunData, SeriesRef

# A saved decision belongs to a detected drop whose both ends are this close (seconds): detection
# reports whole samples, so a drop found again on the same data has the very same ends; the margin
# only absorbs float rounding through the library.
DECISION_MATCH_S = 0.5


@dataclass(frozen=True)
class RunDrop:
    ref: SeriesRef
    drop: Drop
    explain: list[Change]

    def as_json(self) -> dict[str, object]:
        d: dict[str, object] = {"source": self.ref.format, "metric": self.ref.metric, "entity": self.ref.entity}
        d.update(self.drop.as_json())
        d["label"] = self.drop.label()
        d["explain"] = [c.as_json() for c in self.explain]
        return d


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


def run_drops(
    data: RunData, run_id: int, ref: SeriesRef | None = None, sensitivity: str = "normal", top: int = 5
) -> list[RunDrop]:
    ref = ref or throughput(data, run_id)
    if ref is None:
        raise AnalysisError("the run has no throughput series (tps); choose one with --metric")
    series = data.data(run_id, ref)
    if series is None:
        raise AnalysisError(f"no series {ref.spec()} in the run")
    t, v = series
    threads = data.data(run_id, SeriesRef(ref.format, "thds"))
    segments = [s.core for s in find_steps(*threads) if s.core] if threads is not None else None
    drops = detect(t, v, sensitivity, segments=segments)
    others = [r for r in data.available(run_id) if r.format != ref.format]
    return [RunDrop(ref, d, explain(d, others, partial(data.data, run_id), top)) for d in drops]
