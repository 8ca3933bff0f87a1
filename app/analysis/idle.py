"""Idle and background waits: an editable list of the Performance Schema events and InnoDB mutexes
that are never the cause of anything (a session waiting for its next statement, a timer, a service
thread sleeping between rounds). Explanations, diffs, the Top waits tables and the default top-waits
panel leave them out; real lock waits such as `MDL_context::COND_wait_status` stay.

The list is the shipped resources/idle_waits.txt, then the user's file: `$BENCHLENS_IDLE_WAITS`, else
`$XDG_CONFIG_HOME/benchlens/idle_waits.txt` (~/.config/benchlens/idle_waits.txt). One pattern a line
(`#` comments), matched case-insensitively with `*`/`?` wildcards: a pattern with a `/` against the
whole event name, one without against its last part; `!pattern` keeps a wait; a later line wins.
An unreadable user file is as good as none (its text is never an error: lines are only patterns)."""

from __future__ import annotations

import fnmatch
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from benchlens.app.resources import resources_dir

DEFAULT_FILE = "idle_waits.txt"
MAX_LINES = 10_000  # a user file longer than this is cut (a wrong file named by mistake)


@dataclass(frozen=True)
class Rule:
    keep: bool  # `!pattern`: a real wait
    whole: bool  # the pattern has a '/': matched against the whole name
    regex: re.Pattern[str]
    text: str  # as written, for display


@dataclass
class IdleWaits:
    """The rules in the order they were read; `is_idle(name)` by the last rule that matches."""

    rules: list[Rule]
    files: list[str]  # where they came from, for display
    _seen: dict[str, bool] = field(default_factory=dict, repr=False)

    def is_idle(self, name: str) -> bool:
        known = self._seen.get(name)
        if known is not None:
            return known
        last = name.rsplit("/", 1)[-1]
        idle = False
        for rule in self.rules:
            if rule.regex.fullmatch(name if rule.whole else last):
                idle = not rule.keep
        self._seen[name] = idle
        return idle


def parse_rules(text: str) -> list[Rule]:
    """The rules of one list's text (blank lines and `#` comments skipped)."""
    rules = []
    for raw in text.splitlines()[:MAX_LINES]:
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keep = line.startswith("!")
        pattern = line[1:].strip() if keep else line
        if pattern:
            regex = re.compile(fnmatch.translate(pattern), re.IGNORECASE)
            rules.append(Rule(keep, "/" in pattern, regex, line))
    return rules


def user_file() -> Path:
    named = os.environ.get("BENCHLENS_IDLE_WAITS")
    if named:
        return Path(named)
    base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / "benchlens" / DEFAULT_FILE


def _read(path: Path) -> str | None:
    try:
        with path.open("rb") as f:
            raw = f.read(1 << 20)
    except OSError:  # absent, a folder, unreadable
        return None
    return raw.decode("utf-8", errors="replace")


def load(user: Path | None = None) -> IdleWaits:
    """The shipped list, then the user's (`user`, default user_file())."""
    rules: list[Rule] = []
    files: list[str] = []
    for path in (resources_dir() / DEFAULT_FILE, user if user is not None else user_file()):
        text = _read(path)
        if text is not None:
            rules += parse_rules(text)
            files.append(str(path))
    return IdleWaits(rules, files)


_current: IdleWaits | None = None


def idle_waits() -> IdleWaits:
    """The list in use (read once; reload() reads it again)."""
    global _current
    if _current is None:
        _current = load()
    return _current


def reload() -> IdleWaits:
    global _current
    _current = load()
    return _current


def is_idle_wait(name: str) -> bool:
    """An idle or background wait by the list in use, never a real lock wait."""
    return idle_waits().is_idle(name)
