"""What a file of a run folder that no importer reads is, in one line for the skipped list.

Run folders hold more than captures: the run script, the server's error log, fio's results,
`dmesg`, `top -b`, pt-summary reports, another tool's JSON. None of them is a series; each is
listed as skipped with what it is, so the user sees it was looked at and why it is left out
(never "matches several formats", never a traceback). Recognised by content only:
- JSON (an object, an array, or JSON lines): its top-level keys, and the tool when they name one
  (fio `--output-format=json`, also behind the `note:` lines fio prints when stderr goes to the
  same file, pt-query-digest `--output json`, PerfKitBenchmarker's samples);
- a shell script (`#!` line of sh/bash/dash/ksh/zsh, or shell lines under a `.sh` name);
- the kernel log (`dmesg`, `dmesg -T`), a MySQL/MariaDB error log (5.x, 8.x and MariaDB stamps),
  `top -b`, fio's text report, pt-summary and pt-mysql-summary;
- never captures, whatever queries they quote (checked before the importers sniff: not_a_capture):
  scripts (`#!`), the server's slow and general query logs, pt-query-digest's report.
"""

from __future__ import annotations

import json
import re

NOT_READ = "not a format benchlens reads"
_MAX_KEYS = 8

_SHEBANG = re.compile(r"#!\s*(?:/\S*/)?(?:env\s+(?:-\S+\s+)*)?(sh|bash|dash|ksh|zsh|ash)\b")
_SHELL_LINE = re.compile(r"^\s*(?:#|export\s|for\s|while\s|if\s|done\b|fi\b|[A-Za-z_]\w*=|\w[\w./-]*\s.*[&|>]\s*\S)")
_DMESG = re.compile(r"^\[\s*(?:\d+\.\d{6}|[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4})\] ", re.M)
# 8.0 `2026-11-27T00:24:49.123456Z 0 [System] [MY-010116]`, MariaDB `2026-11-27  0:24:49 0 [Note]`,
# 5.5 `161027 12:00:01 [Note]`, mysqld_safe `161027 12:00:01 mysqld_safe Starting`
_ERROR_LOG = re.compile(
    r"^(?:\d{4}-\d\d-\d\d[T ]\s?\d{1,2}:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)?\s+\d+\s+"
    r"|\d{6}\s+\d{1,2}:\d\d:\d\d\s+(?:\d+\s+)?)(?:\[(?:Note|Warning|ERROR|System|Info)\]|mysqld_safe)",
    re.M,
)
_TOP = re.compile(r"^top - \d\d:\d\d:\d\d up .*\n(?:Tasks|Threads):", re.M)
_FIO_TEXT = re.compile(r"^\S+: \(g=\d+\): rw=\w+", re.M)
_FIO_VERSION = re.compile(r"^fio-(\d[\w.]*)$", re.M)
_NOTES_THEN_JSON = re.compile(r"(?:(?:note|fio|warning|error)\b[^\n]*\n){1,5}(?=\{\s*\n?\s*\")", re.I)
_PT_DIGEST = re.compile(r"^# Overall: \d+ total, \d+ unique", re.M)
# the three lines a server writes at the top of its slow or general log, and a slow log's entry
_SERVER_LOG = re.compile(r"\S*(?:mysqld|mariadbd)(?:\.exe)?, Version: .*started with:\s*\n")
_SLOW_ENTRY = re.compile(r"^# User@Host: .*\n(?:# .*\n){0,4}# Query_time: \d", re.M)
_PT = re.compile(r"^# Percona Toolkit (System|MySQL) Summary Report #")


def not_a_capture(head: str, name: str = "") -> str | None:
    """What the file is when it is a kind that is never a capture, whatever words it quotes (a
    slow log or pt-query-digest's report quotes `SHOW ENGINE INNODB MUTEX` and `SELECT EVENT_NAME,
    COUNT_STAR ...` as queries; a run script runs them): checked before the importers sniff."""
    text = head.lstrip("\ufeff")
    if text.startswith("#!"):
        return (
            "shell script: not data, not imported"
            if _shell(text, name)
            else f"script ({_interpreter(text)}): {NOT_READ}"
        )
    if m := _PT.match(text):
        tool = "pt-summary" if m.group(1) == "System" else "pt-mysql-summary"
        return f"{tool} report (Percona Toolkit): {NOT_READ}"
    if _PT_DIGEST.search(text[:4096]):
        return f"pt-query-digest report: {NOT_READ}"
    if _SERVER_LOG.match(text) or _SLOW_ENTRY.search(text[:8192]):
        kind = "slow query log" if _SLOW_ENTRY.search(text[:65536]) else "general query log"
        return f"MySQL/MariaDB {kind}: {NOT_READ}"
    return None


def _interpreter(text: str) -> str:
    words = text[2:].split("\n", 1)[0].split()
    prog = words[0].rsplit("/", 1)[-1] if words else "?"
    return words[1].rsplit("/", 1)[-1] if prog == "env" and len(words) > 1 else prog


def what(head: str, name: str = "") -> str | None:
    """One line saying what the file is and that it is not read; None when it is not recognised."""
    text = head.lstrip("\ufeff")
    if (j := _json(text)) is not None:
        return f"{j}: {NOT_READ}"
    if (m := _NOTES_THEN_JSON.match(text)) and (j := _json(text[m.end() :])) is not None:
        # `fio --output-format=json > out.json 2>&1`: its notes on stderr come first
        return f"{j}, after {m.group().count(chr(10))} line(s) of messages: {NOT_READ}"
    if (said := not_a_capture(text, name)) is not None:
        return said
    if _shell(text, name):
        return "shell script: not data, not imported"
    lines = text.splitlines()[:50]
    if sum(1 for x in lines if _DMESG.match(x)) * 2 > len(lines):
        return f"kernel log (dmesg): {NOT_READ}"
    if len(_ERROR_LOG.findall(text[:16384])) >= 2:
        return f"MySQL/MariaDB error log: {NOT_READ}"
    if _TOP.search(text[:4096]):
        return f"top -b output: {NOT_READ}"
    if _FIO_TEXT.search(text[:8192]):
        v = _FIO_VERSION.search(text[:8192])
        return f"fio report (text{', fio-' + v.group(1) if v else ''}): {NOT_READ}"
    return None


def is_shell_script(head: str, name: str = "") -> bool:
    return _shell(head.lstrip("\ufeff"), name)


def _shell(text: str, name: str) -> bool:
    first = text.split("\n", 1)[0]
    if first.startswith("#!"):
        return _SHEBANG.match(first) is not None
    if not name.endswith((".sh", ".bash")):
        return False
    lines = [x for x in text.splitlines()[:40] if x.strip()]
    return bool(lines) and sum(1 for x in lines if _SHELL_LINE.match(x)) * 2 >= len(lines)


# ---- JSON -------------------------------------------------------------------------------------


def _json(text: str) -> str | None:
    """What a JSON text is (from the head: it may be cut), or None when it is not JSON."""
    start = text.lstrip()
    if not start.startswith(("{", "[")):
        return None
    first = start.split("\n", 1)[0].strip()
    rest = start[len(first) :].lstrip()
    if first.startswith("{") and rest.startswith("{") and _loads(first) is not None:
        return "JSON lines" + _about(_keys(first), _loads(first), "keys")
    if start.startswith("["):
        if not re.match(r"\[\s*[\[{\"\]]", start):
            return None
        inner = start[1:].lstrip()
        return "JSON array" + (_about(_keys(inner), label="keys of its first item") if inner.startswith("{") else "")
    keys = _keys(start)
    if not keys and not re.match(r"\{\s*(?:\}|\")", start):
        return None
    return "JSON" + _about(keys, _loads(start))


def _loads(text: str) -> object | None:
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        return None


def _about(keys: list[str], doc: object = None, label: str = "top-level keys") -> str:
    tool = _tool(keys, doc)
    listed = ", ".join(keys[:_MAX_KEYS]) + (f" (+{len(keys) - _MAX_KEYS} more)" if len(keys) > _MAX_KEYS else "")
    return (f" of {tool}" if tool else " of another tool") + (f" ({label}: {listed})" if keys else "")


def _tool(keys: list[str], doc: object) -> str | None:
    k = set(keys)
    if "fio version" in k:
        version = doc.get("fio version") if isinstance(doc, dict) else None
        return f"fio --output-format=json ({version})" if isinstance(version, str) else "fio --output-format=json"
    if {"global", "classes"} <= k:
        return "pt-query-digest --output json"
    if {"metric", "value", "unit", "metadata"} <= k:
        return "PerfKitBenchmarker samples"
    return None


def _keys(text: str) -> list[str]:
    """The keys of the object `text` starts with, in order, read without parsing the rest (the
    head may stop in the middle of it)."""
    keys: list[str] = []
    depth, i, n = 0, 0, len(text)
    expect_key = False
    while i < n:
        c = text[i]
        if c == '"':
            end = i + 1
            while end < n and text[end] != '"':
                end += 2 if text[end] == "\\" else 1
            if depth == 1 and expect_key:
                keys.append(text[i + 1 : end])
                expect_key = False
            i = end + 1
            continue
        if c in "{[":
            depth += 1
            expect_key = depth == 1 and c == "{"
        elif c in "}]":
            depth -= 1
            if depth <= 0:
                break
        elif c == "," and depth == 1:
            expect_key = True
        i += 1
    return keys
