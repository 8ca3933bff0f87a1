"""`benchlens explain` on 32 hot CPUs of 256 (issue #25; synthetic: bench/heatmap_data.py): the
verdict counts them against the average, and each entry names a few of the CPUs it stands for,
not all 256."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bench.heatmap_data import many_cpus
from benchlens.app.cli import main
from benchlens.app.store import Library


def test_explain_says_the_hot_cpus_and_names_a_few_of_the_rest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "cpus.sqlite"
    with Library(db) as lib:
        many_cpus(lib, 600)  # CPUs 64-95 at 90-99 % from 300 s for 120 s
    assert main(["explain", "256-cpus", "--from", "300", "--to", "420", "--top", "3", "--db", str(db)]) == 0
    first, *entries = capsys.readouterr().out.splitlines()
    assert first.endswith("while the 256 CPUs average 38 %: a bottleneck on 32 cores"), first
    assert "32 CPUs \u2265 90 % busy (CPU " in first
    assert entries and all(len(e) < 240 for e in entries)
    assert any(re.search(r"also (mpstat:%\w+:\w+, ){2}mpstat:%\w+:\w+ and 25\d more$", e) for e in entries)
