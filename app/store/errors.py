"""The store's error: one line for the user (locked, not found, ambiguous, newer schema ...)."""

from __future__ import annotations

from benchlens.app.errors import BenchlensError


class LibraryError(BenchlensError):
    """A one-line reason for the user (locked, not found, ambiguous, newer schema ...)."""
