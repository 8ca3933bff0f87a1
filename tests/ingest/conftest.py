"""The ingest tests' shared fixture: the clean c_basic captures imported alone, the reference a
damaged copy is compared with."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from benchlens.app.store import Library
from tests.bad_input import clean, import_one
from tests.conftest import run_series


@pytest.fixture
def reference(lib: Library, tmp_path: Path) -> Callable[[str], dict]:
    """The series of each clean c_basic file imported alone (as UTC), by format."""
    cache: dict[str, dict] = {}

    def get(fmt: str) -> dict:
        if fmt not in cache:
            rep = import_one(lib, tmp_path, f"clean_{fmt}", fmt, clean(fmt))
            cache[fmt] = run_series(lib, rep.id)
            assert cache[fmt]
        return cache[fmt]

    return get
