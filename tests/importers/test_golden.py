"""Every captured fixture parses to its reviewed golden summary."""

from __future__ import annotations

import pytest

from benchlens import importers
from tests import golden
from tests.conftest import TABLE_FORMATS, fixture_files

CASES = [(fmt, p) for fmt in TABLE_FORMATS for p in fixture_files(fmt)]


@pytest.mark.parametrize(("fmt", "path"), CASES, ids=[p.name for _, p in CASES])
def test_fixture_matches_golden(fmt: str, path) -> None:
    got = golden.check(importers.by_name(fmt), path)
    if "human" in path.name:  # documented as not imported, with one clear warning
        assert not got["series"] and any("--human" in w for w in got["warnings"])
    else:
        assert got["series"], "a fixture must yield series"
