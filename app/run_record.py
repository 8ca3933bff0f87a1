"""benchlens-run.json as the import reads it: the fields that place a run, checked.

`benchlens record` writes the file (app/record.py, version 1). A record is untrusted input like any
file of a folder, and may come from an older or newer benchlens: each field the import uses must be
of its type or it is left out, with a warning that names it; a newer version's fields this version
does not know are named once, never guessed at.
"""

from __future__ import annotations

import json
import math
import re
from typing import Any

VERSION = 1  # the record version this benchlens writes and reads
RECORD_MARK = re.compile(r'"format"\s*:\s*"benchlens-run"')
# the fields the import reads (times in epoch seconds, the zone's offset in seconds)
NUMBERS = ("start", "bench_start", "bench_end", "end", "interval", "utc_offset")
TABLES = ("commands", "tools")
KNOWN = frozenset({"format", "version", "host", "zone", "bench_exit_code", "bench_command", "tags", *NUMBERS, *TABLES})
MAX_TAG = 255  # a tag's name, as the library holds it


def checked_record(meta: dict[str, Any]) -> list[str]:
    """Remove the fields of `meta` the import cannot use (wrong type); what was said about them."""
    said = []
    version = meta.get("version")
    if "version" not in meta:
        said.append(f"no record version: read as version {VERSION}, the fields it knows are used")
    elif not isinstance(version, int) or isinstance(version, bool) or version != VERSION:
        said.append(
            f"written as record version {_short(version)}; this benchlens reads version {VERSION}: "
            "the fields it knows are used"
        )
    for key in NUMBERS:
        if key in meta and not _number(meta[key]):
            said.append(f"{key} is not a number ({_short(meta[key])}): not used")
            del meta[key]
    for key in TABLES:
        if key in meta and not isinstance(meta[key], dict):
            said.append(f"{key} is not a table of names ({_short(meta[key])}): not used")
            del meta[key]
    said += _checked_tags(meta)
    unknown = sorted(k for k in meta if k not in KNOWN)
    if unknown:
        more = f" (+{len(unknown) - 6} more)" if len(unknown) > 6 else ""
        said.append(f"fields this benchlens does not know, ignored: {', '.join(unknown[:6])}{more}")
    return said


def _checked_tags(meta: dict[str, Any]) -> list[str]:
    """The "tags" object: names of names (1-255 characters) and strings or numbers (kept as text)."""
    tags = meta.get("tags")
    if tags is None:
        return []
    if not isinstance(tags, dict):
        del meta["tags"]
        return [f"tags is not an object of names and values ({_short(tags)}): not used"]
    good = {
        k.strip(): str(v).strip()
        for k, v in tags.items()
        if 0 < len(k.strip()) <= MAX_TAG and isinstance(v, str | int | float) and not isinstance(v, bool)
    }
    meta["tags"] = {k: v for k, v in good.items() if v}
    bad = [k for k in tags if k.strip() not in good]
    return [f"tags not used (a tag is a name and a text or number): {', '.join(map(_short, bad[:6]))}"] if bad else []


def _number(x: object) -> bool:
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


def _short(x: object) -> str:
    text = repr(x)
    return text if len(text) <= 40 else text[:37] + "..."


def used_for(meta: dict[str, Any]) -> str:
    """The note on the record's source: what in it places the run."""
    uses = [
        what
        for keys, what in (
            (("utc_offset",), "the zone"),
            (("bench_start",), "the benchmark's start"),
            (("bench_end",), "the benchmark's end"),
            (("commands",), "the monitors' commands (their intervals)"),
        )
        if all(k in meta for k in keys)
    ]
    said = ", ".join(uses) if uses else "nothing in it places the run"
    return f"benchlens' run record: {'used for ' if uses else ''}{said}"


def why_not_read(head: str, size: int) -> str:
    """Why a file marked as a record (`"format": "benchlens-run"`) gave no record: `head` is the
    start of it that was read (64 KiB), `size` its size."""
    if size > len(head.encode()):
        return f"larger than {len(head.encode()) >> 10} KiB (a record is a few kB)"
    try:
        json.loads(head)
    except json.JSONDecodeError as e:
        return f"not valid JSON (line {e.lineno} column {e.colno}: {e.msg}; the file was cut?)"
    except (ValueError, RecursionError):
        pass
    return "not a JSON object"
