"""The library: one SQLite file holding runs, sources, series, annotations and saved views.
sqlite3 + numpy only; no Qt. Every SQL statement of benchlens is in this package."""

from benchlens.app.store.errors import LibraryError
from benchlens.app.store.library import Library

__all__ = ["Library", "LibraryError"]
