"""Golden summaries of what an importer reads from a fixture (`<fixture>.json` next to it).
Regenerate after a deliberate change with `BENCHLENS_REGEN=1 pytest tests/importers` (the table
formats' goldens are checked in tests/importers/test_golden.py, global_status's and innodb_mutex's
in their own tests there) and review the diff. A golden only catches change: the values themselves
are checked against the raw text by tests/naive.py's readers (tests/ingest/test_run_folders.py), by
the per-format tests in tests/importers/ and by the fuzzer's oracle (tests/importers/test_fuzz.py)."""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

from tests.conftest import parse_bytes

HOST_FACTS = ("cpus", "host", "kernel", "zone_abbrev")  # the SourceMeta fields a golden holds


def summary(fmt: ModuleType, path: Path) -> dict[str, Any]:
    blocks, ctx = parse_bytes(fmt, path.read_bytes())
    series: dict[str, dict[str, list[float]]] = {}
    for b in blocks:
        for metric, v in b.values.items():
            s = series.setdefault(f"{metric}|{b.entity}", {"t": [], "v": []})
            s["t"].extend(float(x) for x in b.t)
            s["v"].extend(float(x) for x in v)
    out: dict[str, Any] = {}
    for key in sorted(series):
        t, v = np.array(series[key]["t"]), np.array(series[key]["v"])
        out[key] = {
            "n": len(t),
            "t_first": t[0],
            "t_last": t[-1],
            "v_first": _num(v[0]),
            "v_last": _num(v[-1]),
            "v_sum": _num(round(float(np.nansum(v)), 6)),
            "unit": ctx.units.get(key.split("|")[0], ""),
        }
    return {
        "format": fmt.name,
        "variant": ctx.variant,
        "meta": {k: v for k in HOST_FACTS if (v := getattr(ctx.meta, k)) is not None},
        "warnings": [str(w) for w in ctx.warnings],
        "series": out,
    }


def _num(x: float) -> float | None:
    return None if math.isnan(x) else float(x)


def check(fmt: ModuleType, path: Path) -> dict[str, Any]:
    """The fixture's summary equals its reviewed golden (BENCHLENS_REGEN=1 rewrites it)."""
    got = summary(fmt, path)
    if os.environ.get("BENCHLENS_REGEN"):
        save(path, got)
    assert golden_path(path).exists(), "no golden: run with BENCHLENS_REGEN=1 and review it"
    assert got == load(path)
    return got


def golden_path(path: Path) -> Path:
    return path.with_name(path.name + ".json")


def load(path: Path) -> dict[str, Any]:
    return json.loads(golden_path(path).read_text())


def save(path: Path, data: dict[str, Any]) -> None:
    golden_path(path).write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
