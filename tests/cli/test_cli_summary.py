"""`benchlens summary`: every format renders the tables the API gives for the same window, bad
input is one `benchlens:` line, and no Qt module is loaded."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from benchlens.app.analysis.summary import Window, summarize
from benchlens.app.analysis.tables import to_csv, to_markdown, to_text
from benchlens.app.cli import main
from benchlens.app.model import SeriesRef
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests.conftest import ROOT, rid


def test_cli_summary_formats(summary_db: Path, capsys: pytest.CaptureFixture[str], summary_lib: Library) -> None:
    db = str(summary_db)
    args = ["summary", "baseline", "disk-stall", "--from", "35", "--to", "65", "--metric", "tps", "--db", db]
    capsys.readouterr()
    assert main([*args, "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["window"] == {"from": 35.0, "to": 65.0, "align": "run"}
    tables = {t["key"]: t for t in out["tables"]}
    a, b = rid(summary_lib, "baseline"), rid(summary_lib, "disk-stall")
    want = summarize(LibraryRunData(summary_lib), [a, b], Window(35.0, 65.0), [SeriesRef("sysbench", "tps")])
    (row,) = tables["diff"]["rows"]
    (wrow,) = next(t for t in want.tables() if t.key == "diff").rows
    assert row["series"] == "sysbench:tps" and row["Δ mean"] == pytest.approx(wrow[4])
    assert [r["run"] for r in tables["stats"]["rows"]] == ["baseline", "disk-stall"]
    for fmt_name, renderer in (("text", to_text), ("markdown", to_markdown), ("csv", to_csv)):
        assert main([*args, "--format", fmt_name]) == 0
        assert capsys.readouterr().out == renderer(want.tables())
    assert main(["summary", "baseline", "--db", db]) == 0  # default: the default layout's series
    text = capsys.readouterr().out
    assert "Statistics" in text and "iostat:%util:vda" in text and "B vs A" not in text


def test_cli_summary_rejects_bad_input(summary_db: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (
        ["summary", "baseline", "disk-stall", "recorded_mariadb_oltp"],
        ["summary", "baseline", "--from", "50", "--to", "20"],
        ["summary", "baseline", "--metric", "nosuch:metric"],
        ["summary", "no-such-run"],
        ["summary", "baseline", "--top", "0"],
    ):
        capsys.readouterr()
        assert main([*args, "--db", str(summary_db)]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("benchlens: ") and "Traceback" not in err[0]


def test_cli_summary_needs_no_qt(summary_db: Path) -> None:
    code = (
        "import sys; from benchlens.app.cli import main; "
        f"rc = main(['summary', 'baseline', '--format', 'csv', '--db', {str(summary_db)!r}]); "
        "assert rc == 0; assert not any(m.startswith(('PySide6', 'pyqtgraph')) for m in sys.modules), 'Qt loaded'"
    )
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert p.returncode == 0, p.stderr
    assert "series,unit,run,n,mean,median,p95,min,max" in p.stdout.splitlines()  # the statistics, then stability
