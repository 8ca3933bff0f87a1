"""The one base of every error benchlens reports to the user as one line (the CLI prints it
after `benchlens: `, the window in a message box). Anything else reaching the top is a bug."""

from __future__ import annotations


class BenchlensError(Exception):
    """A one-line reason for the user: bad input, a busy or newer library, a missing series ..."""


class AnalysisError(BenchlensError):
    """An analysis cannot run on these runs (no throughput series, unknown alignment ...)."""
