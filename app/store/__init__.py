"""The library: one SQLite file holding runs, sources, series, annotations and saved views.
sqlite3 + numpy only; no Qt."""

from app.store.library import Library, LibraryError, SeriesInfo

__all__ = ["Library", "LibraryError", "SeriesInfo"]
