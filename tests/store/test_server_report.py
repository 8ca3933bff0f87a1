"""`benchlens report` on a server library (the private MariaDB of tests/store/private_server.py)
makes the very page it makes on a library file, but for the moment it was made."""

from __future__ import annotations

import re
from pathlib import Path

from benchlens.app.cli import main
from tests.conftest import DEMO

RUNS = ("baseline", "disk-stall")


def test_the_report_of_a_server_library_is_the_report_of_a_file(server_url: str, tmp_path: Path, qapp) -> None:
    pages = []
    for k, db in enumerate((str(tmp_path / "lib.sqlite"), server_url)):
        assert main(["import", *(str(DEMO / r) for r in RUNS), "--db", db]) == 0
        out = tmp_path / f"{k}.html"
        assert main(["report", *RUNS, "--db", db, "--out", str(out)]) == 0
        page = out.read_text(encoding="utf-8")
        made = re.findall(r"made by benchlens \S+ on \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", page)
        assert len(made) == 1
        pages.append(page.replace(made[0], "made by benchlens"))
    assert pages[1] == pages[0]
    assert "another writer, or the server" in pages[0]  # the disk stall's verdict: the pages are not empty
