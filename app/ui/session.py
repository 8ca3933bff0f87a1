"""Session: owns the library and the comparison being looked at, and tells the widgets when either
changes. Widgets get the session, never the main window."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path

import numpy as np
from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from benchlens.app.analysis.align import x_of
from benchlens.app.analysis.drops import SENSITIVITY, Drop
from benchlens.app.analysis.layout import Panel, layout_for_runs, more_for_runs
from benchlens.app.analysis.run_drops import (
    Findings,
    RunDrop,
    decided_label,
    decision,
    explained_classes,
    run_findings,
    throughput,
)
from benchlens.app.errors import BenchlensError
from benchlens.app.figure import Comparison
from benchlens.app.model import Annotation, Run, SeriesInfo, SeriesRef
from benchlens.app.palette import run_color
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library


class _Command(QUndoCommand):
    def __init__(self, text: str, do: Callable[[], None], undo: Callable[[], None], changed: Callable[[], None]):
        super().__init__(text)
        self._do, self._undo, self._changed = do, undo, changed

    def redo(self) -> None:
        self._do()
        self._changed()

    def undo(self) -> None:
        self._undo()
        self._changed()


class Session(QObject):
    runsChanged = Signal()
    comparisonChanged = Signal()

    def __init__(self, db_path: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.db_path = Path(db_path)
        self.lib = Library(self.db_path)
        self.comparison = Comparison()
        self.closed = False
        self.undo_stack = QUndoStack(self)
        self.rundata = LibraryRunData(self.lib)  # what analysis, summaries and export read
        self._runs: dict[int, Run] = {}
        self._findings: dict[int, Findings | None] = {}
        self.sensitivity = "normal"  # of drop detection: low, normal or high (`drops --sensitivity`)
        self.reload_runs()

    # ---- runs ---------------------------------------------------------------------------------
    def reload_runs(self) -> None:
        self.rundata.invalidate()
        self._runs = {r.id: r for r in self.rundata.runs()}
        self._findings.clear()
        self.comparison.runs = [r for r in self.comparison.runs if r in self._runs]
        self.runsChanged.emit()

    def runs_changed_elsewhere(self) -> bool:
        """Whether the library's runs differ from those shown (another window, an importer on
        another machine into a server library): reload them if so; cheap when nothing changed."""
        if self.closed:
            return False
        fresh = {r.id: r for r in self.lib.runs()}
        if fresh == self._runs:
            return False
        self.reload_runs()
        return True

    def runs(self) -> list[Run]:
        return list(self._runs.values())

    def run(self, run_id: int) -> Run:
        return self._runs[run_id]

    def rename_run(self, run_id: int, name: str) -> None:
        self.lib.rename_run(run_id, name)
        self.reload_runs()
        self.comparisonChanged.emit()

    def delete_run(self, run_id: int) -> None:
        self.lib.delete_run(run_id)
        self.reload_runs()
        self.comparisonChanged.emit()

    def color(self, run_id: int) -> str:
        """A run's colour is its place in the comparison, in every panel, view and export
        (app/palette.py); a run not compared is grey."""
        runs = self.comparison.runs
        return run_color(runs.index(run_id)) if run_id in runs else "#777777"

    def series(self, run_id: int) -> dict[SeriesRef, SeriesInfo]:
        """The run's series by reference (read once per run, until the runs change)."""
        return self.rundata.series(run_id)

    def available(self, run_id: int) -> list[SeriesRef]:
        return self.rundata.available(run_id)

    def unit(self, run_id: int, ref: SeriesRef) -> str:
        return self.rundata.unit(run_id, ref)

    def data(self, run_id: int, ref: SeriesRef) -> tuple[np.ndarray, np.ndarray] | None:
        return self.rundata.data(run_id, ref)

    def findings(self, run_id: int) -> Findings | None:
        """What a run's throughput says — drops, recurring dips, latency rises — (None without a
        benchmark log); computed once per run until the runs change."""
        if run_id not in self._findings:
            try:
                found = (
                    run_findings(self.rundata, run_id, sensitivity=self.sensitivity)
                    if throughput(self.rundata, run_id)
                    else None
                )
            except BenchlensError:
                found = None
            self._findings[run_id] = found
        return self._findings[run_id]

    def set_sensitivity(self, sensitivity: str) -> None:
        """Detect drops again at this sensitivity (the choices of `benchlens drops --sensitivity`):
        the charts, the drops list and exports follow."""
        if sensitivity in SENSITIVITY and sensitivity != self.sensitivity:
            self.sensitivity = sensitivity
            self._findings.clear()
            self.comparisonChanged.emit()

    def drops(self, run_id: int) -> list[RunDrop]:
        """Detected drops of a run's throughput, recurring dips included (none without a log)."""
        found = self.findings(run_id)
        return found.drops if found is not None else []

    def x_of(self, run_id: int, t: np.ndarray) -> np.ndarray:
        c = self.comparison
        runs = [self._runs[r] for r in c.runs if r in self._runs]
        return x_of(runs, run_id, t, c.align, c.offsets, c.side_by_side)

    def t_of(self, run_id: int, x: float) -> float:
        """The time of a run at plotted x (the inverse of x_of)."""
        return float(x - (self.x_of(run_id, np.array([0.0]))[0]))

    # ---- annotations: notes, and decisions on detected drops (undoable, saved with the run) -----
    def notes(self, run_id: int) -> list[Annotation]:
        return [a for a in self.lib.annotations(run_id) if a.kind == "note"]

    def drop_decision(self, run_id: int, drop: Drop) -> Annotation | None:
        return decision(self.lib.annotations(run_id), drop)

    def drop_label(self, run_id: int, drop: Drop) -> tuple[str, str]:
        """(label, state) of a detected drop after the user's decision ('', accepted, dismissed)."""
        return decided_label(self.lib.annotations(run_id), drop)

    def add_note(self, run_id: int, start: float, end: float, label: str) -> None:
        ids: list[int] = []

        def do() -> None:
            ids[:] = [self.lib.add_annotation(run_id, min(start, end), max(start, end), label)]

        def undo() -> None:
            self.lib.delete_annotation(ids[0])

        self._push(f"add note {label!r}", do, undo)

    def edit_note(self, ann_id: int, label: str) -> None:
        note = self.lib.annotation(ann_id)
        old = note.label if note is not None else ""
        self._push(
            f"edit note {label!r}",
            lambda: self.lib.update_annotation(ann_id, label=label),
            lambda: self.lib.update_annotation(ann_id, label=old),
        )

    def delete_note(self, ann_id: int) -> None:
        note = self.lib.annotation(ann_id)
        if note is None:
            return
        ids = [ann_id]

        def do() -> None:
            self.lib.delete_annotation(ids[0])

        def undo() -> None:
            ids[0] = self.lib.add_annotation(note.run_id, note.start, note.end, note.label)

        self._push(f"delete note {note.label!r}", do, undo)

    def decide_drop(self, run_id: int, drop: Drop, state: str, label: str | None = None) -> None:
        """Accept, rename or dismiss a detected drop (state '' restores it); label None keeps the
        name the user gave it, if any."""
        before = self.drop_decision(run_id, drop)
        name = label if label is not None else (before.label if before else "")

        def do() -> None:
            now = self.drop_decision(run_id, drop)
            if now is None:
                self.lib.add_annotation(run_id, drop.start, drop.end, name, kind="drop", state=state)
            else:
                self.lib.update_annotation(now.id, state=state, label=name)

        def undo() -> None:
            now = self.drop_decision(run_id, drop)
            if now is not None and before is None:
                self.lib.delete_annotation(now.id)
            elif now is not None and before is not None:
                self.lib.update_annotation(now.id, state=before.state, label=before.label)

        self._push(f"{state or 'restore'} drop", do, undo)

    def _push(self, text: str, do: Callable[[], None], undo: Callable[[], None]) -> None:
        self.undo_stack.push(_Command(text, do, undo, self.comparisonChanged.emit))

    # ---- comparison ---------------------------------------------------------------------------
    def add_runs(self, run_ids: list[int]) -> None:
        c = self.comparison
        new = [r for r in run_ids if r in self._runs and r not in c.runs]
        if not new:
            return
        c.runs.extend(new)
        if c.layout_is_default:
            c.panels = self.default_layout()
        self.comparisonChanged.emit()

    def remove_run(self, run_id: int) -> None:
        """Take a run out of the comparison (undoable; the run stays in the library)."""
        c = self.comparison
        if run_id not in c.runs:
            return
        at = c.runs.index(run_id)

        def do() -> None:
            if run_id in c.runs:
                c.runs.remove(run_id)

        def undo() -> None:
            if run_id not in c.runs:
                c.runs.insert(min(at, len(c.runs)), run_id)

        name = self._runs[run_id].name if run_id in self._runs else str(run_id)
        self._push(f"remove {name!r} from the comparison", do, undo)

    def default_layout(self) -> list[Panel]:
        return layout_for_runs(self.comparison.runs, self.available, self.data, self._explains())

    def compared_findings(self) -> dict[int, Findings]:
        """The findings of the compared runs that have a benchmark log (computed once per run)."""
        return {r: f for r in self.comparison.runs if (f := self.findings(r)) is not None}

    def _explains(self) -> Callable[[str], float]:
        """How much each resource class explains the compared runs' drops and rises (drawn next
        anyway)."""
        return explained_classes(self.compared_findings().values())

    def add_series(self, refs: list[SeriesRef], panel: int | None = None) -> None:
        """Add series to a panel (None: a new panel at the bottom)."""
        c = self.comparison
        if panel is None or not (0 <= panel < len(c.panels)):
            c.panels.append(Panel(" + ".join(r.label() for r in refs), list(refs)))
        else:
            c.panels[panel].refs.extend(r for r in refs if r not in c.panels[panel].refs)
        c.layout_is_default = False
        self.comparisonChanged.emit()

    def remove_panel(self, index: int) -> None:
        if 0 <= index < len(self.comparison.panels):
            title = self.comparison.panels[index].title
            self._edit_panels(f"remove panel {title!r}", lambda ps: ps.__delitem__(index))

    def more_panels(self) -> list[Panel]:
        """The default layout's candidates for these runs that no panel shows ("More panels")."""
        c = self.comparison
        shown = [p.refs for p in c.panels]
        explains = self._explains()
        every = layout_for_runs(c.runs, self.available, self.data, explains)
        every += more_for_runs(c.runs, self.available, self.data, explains)
        return [p for p in every if p.refs not in shown]

    def add_panel(self, panel: Panel, at: int | None = None) -> None:
        def change(panels: list[Panel]) -> None:
            panels.insert(len(panels) if at is None else at, copy.deepcopy(panel))

        self._edit_panels(f"add panel {panel.title!r}", change)

    def move_panel(self, index: int, delta: int) -> None:
        to = index + delta
        if 0 <= index < len(self.comparison.panels) and 0 <= to < len(self.comparison.panels):
            self._edit_panels("move panel", lambda ps: ps.insert(to, ps.pop(index)))

    def rename_panel(self, index: int, title: str) -> None:
        if 0 <= index < len(self.comparison.panels):
            self._edit_panels(f"rename panel {title!r}", lambda ps: setattr(ps[index], "title", title))

    def set_panel_rows(self, index: int, order: str) -> None:
        """A heatmap panel's rows by entity number or by load (issue #25), undoable, saved with the view."""
        if 0 <= index < len(self.comparison.panels):
            self._edit_panels("heatmap rows", lambda ps: setattr(ps[index], "order", order))

    def set_panel_scale(self, index: int, log_y: bool | None = None, y_zero: bool | None = None) -> None:
        if not 0 <= index < len(self.comparison.panels):
            return

        def change(panels: list[Panel]) -> None:
            if log_y is not None:
                panels[index].log_y = log_y
            if y_zero is not None:
                panels[index].y_zero = y_zero

        self._edit_panels("panel scale", change)

    def toggle_series(self, index: int, ref: SeriesRef) -> None:
        """Hide a panel's series, or show it again (a legend click); saved with the view, and
        exports leave it out too."""
        if not (0 <= index < len(self.comparison.panels)) or ref not in self.comparison.panels[index].refs:
            return
        off = ref in self.comparison.panels[index].hidden

        def change(panels: list[Panel]) -> None:
            hidden = panels[index].hidden
            if off:
                hidden.remove(ref)
            else:
                hidden.append(ref)

        self._edit_panels(f"{'show' if off else 'hide'} {ref.label()}", change)

    def split_series(self, index: int, ref: SeriesRef) -> None:
        """Move one series out of a panel into a panel of its own, just under it."""
        panels = self.comparison.panels
        if not (0 <= index < len(panels)) or ref not in panels[index].refs or len(panels[index].refs) < 2:
            return

        def change(ps: list[Panel]) -> None:
            ps[index].refs.remove(ref)
            if ref in ps[index].hidden:
                ps[index].hidden.remove(ref)
            ps.insert(index + 1, Panel(ref.label(), [ref], log_y=ps[index].log_y, y_zero=ps[index].y_zero))

        self._edit_panels(f"split {ref.label()} out", change)

    def merge_up(self, index: int) -> None:
        """Merge a panel into the one above it: its series join that panel (title and scale of
        the panel above kept)."""
        if not (1 <= index < len(self.comparison.panels)):
            return

        def change(ps: list[Panel]) -> None:
            below = ps.pop(index)
            above = ps[index - 1]
            above.refs.extend(r for r in below.refs if r not in above.refs)
            above.hidden.extend(r for r in below.hidden if r not in above.hidden)

        self._edit_panels("merge panel into the one above", change)

    def set_panel_height(self, index: int, height: int) -> None:
        """A panel resized in the window: kept with the view (and exports weigh panels by it).
        The charts have resized it already, so nothing is redrawn."""
        if 0 <= index < len(self.comparison.panels):
            self.comparison.panels[index].height = int(height)
            self.comparison.layout_is_default = False

    def _edit_panels(self, text: str, change: Callable[[list[Panel]], None]) -> None:
        """Change the panels as one undoable step: the layout is the user's from now on."""
        before = (copy.deepcopy(self.comparison.panels), self.comparison.layout_is_default)
        after = copy.deepcopy(before[0])
        change(after)

        def do() -> None:
            self.comparison.panels = copy.deepcopy(after)
            self.comparison.layout_is_default = False

        def undo() -> None:
            self.comparison.panels = copy.deepcopy(before[0])
            self.comparison.layout_is_default = before[1]

        self._push(text, do, undo)

    def set_align(self, mode: str) -> None:
        self.comparison.align = mode
        self.comparison.x_range = None
        self.comparisonChanged.emit()

    def set_offset(self, run_id: int, seconds: float) -> None:
        self.comparison.offsets[run_id] = seconds
        self.comparisonChanged.emit()

    def set_side_by_side(self, on: bool) -> None:
        self.comparison.side_by_side = on
        self.comparison.x_range = None
        self.comparisonChanged.emit()

    # ---- saved views --------------------------------------------------------------------------
    def save_view(self, name: str) -> None:
        self.lib.save_view(name, self.comparison.as_json())

    def view_names(self) -> list[str]:
        return self.lib.view_names()

    def open_view(self, name: str) -> bool:
        spec = self.lib.view(name)
        if spec is None:
            return False
        c = Comparison.from_json(spec)
        c.runs = [r for r in c.runs if r in self._runs]
        self.comparison = c
        self.comparisonChanged.emit()
        return True

    def close(self) -> None:
        self.closed = True
        self.lib.close()
