"""Deliberately simple readers of C-locale captures, written without the importers' code, so the
importers can be checked against the raw text: {(source, metric, entity): [(epoch, value), ...]}."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

Series = dict[tuple[str, str, str], list[tuple[float, float]]]


def _epoch(text: str, fmt: str) -> float:
    return datetime.strptime(text, fmt).replace(tzinfo=UTC).timestamp()


def vmstat_t(path: Path) -> Series:
    out: Series = {}
    names: list[str] = []
    first = True
    for line in path.read_text().splitlines():
        w = line.split()
        if w and w[0] == "r":
            names = w[:-1]  # the zone closes the names line
        elif w and w[0].isdigit():
            if first:  # since boot
                first = False
                continue
            t = _epoch(f"{w[-2]} {w[-1]}", "%Y-%m-%d %H:%M:%S")
            for name, value in zip(names, w[:-2], strict=True):
                out.setdefault(("vmstat", name, ""), []).append((t, float(value)))
    return out


def iostat_xt(path: Path) -> Series:
    out: Series = {}
    report, t, cols, avg, mode = -1, 0.0, [], [], ""
    for line in path.read_text().splitlines():
        w = line.split()
        if len(w) == 2 and w[0].count("/") == 2:
            report += 1
            t = _epoch(line.strip(), "%m/%d/%y %H:%M:%S")
        elif w[:1] == ["avg-cpu:"]:
            avg, mode = w[1:], "avg"
        elif w[:1] == ["Device"]:
            cols, mode = w[1:], "dev"
        elif not w:
            mode = "" if mode == "dev" else mode
        elif mode == "avg":
            if report > 0:
                for c, v in zip(avg, w, strict=True):
                    out.setdefault(("iostat", c, ""), []).append((t, float(v)))
            mode = ""
        elif mode == "dev" and report > 0:
            for c, v in zip(cols, w[1:], strict=True):
                out.setdefault(("iostat", c, w[0]), []).append((t, float(v)))
    return out


def mpstat_p_all(path: Path) -> Series:
    out: Series = {}
    lines = path.read_text().splitlines()
    day = datetime.strptime(lines[0].split("\t")[1].strip(), "%m/%d/%y").date()
    cols: list[str] = []
    for line in lines[1:]:
        w = line.split()
        if not w or w[0].startswith("Average"):
            continue
        if w[1] == "CPU":
            cols = w[2:]
            continue
        t = _epoch(f"{day} {w[0]}", "%Y-%m-%d %H:%M:%S")
        for c, v in zip(cols, w[2:], strict=True):
            out.setdefault(("mpstat", c, w[1]), []).append((t, float(v)))
    return out
