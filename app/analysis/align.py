"""Time alignment of runs in a comparison: x = t - base(run) + offset(run)."""

from __future__ import annotations

from typing import Any

ALIGN_MODES = {
    "run": "relative to run start",
    "bench": "relative to benchmark start",
    "absolute": "absolute clock",
}


def base(run: dict[str, Any], mode: str) -> float:
    if mode == "absolute":
        return 0.0
    if mode == "bench" and run.get("bench_start") is not None:
        return float(run["bench_start"])
    return float(run.get("start") or 0.0)
