"""Drag-and-drop payloads between the runs table, the metric browser and the charts."""

from __future__ import annotations

import json

from PySide6.QtCore import QMimeData

from benchlens.app.model import SeriesRef

RUNS = "application/x-benchlens-runs"
SERIES = "application/x-benchlens-series"


def runs_mime(ids: list[int]) -> QMimeData:
    m = QMimeData()
    m.setData(RUNS, json.dumps(ids).encode())
    return m


def series_mime(refs: list[SeriesRef]) -> QMimeData:
    m = QMimeData()
    m.setData(SERIES, json.dumps([r.spec() for r in refs]).encode())
    return m


def read_runs(m: QMimeData) -> list[int]:
    if not m.hasFormat(RUNS):
        return []
    try:
        return [int(x) for x in json.loads(bytes(m.data(RUNS).data()).decode())]
    except (ValueError, TypeError):
        return []


def read_series(m: QMimeData) -> list[SeriesRef]:
    if not m.hasFormat(SERIES):
        return []
    try:
        return [SeriesRef.parse(str(s)) for s in json.loads(bytes(m.data(SERIES).data()).decode())]
    except (ValueError, TypeError):
        return []
