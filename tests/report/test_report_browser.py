"""The report opened in a real browser: Debian's chromium, headless, driven by Playwright (its own
browser download is never used). The page must render (its figures laid out at their size), the
charts' text must be there as text, the console must hold no error, nothing may be fetched, and a
run name with markup in it must run nothing. Skipped, with the reason, only when no chromium or no
Playwright can be found (packaging/system-deps.sh installs chromium as root; `make test` runs it)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from benchlens.app.store import Library
from tests.report.conftest import DEMO_RUNS, HOSTILE, trend_data

CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium() -> str:
    path = os.environ.get("BENCHLENS_CHROMIUM") or next(filter(None, map(shutil.which, CHROMIUM_NAMES)), None)
    if not path:
        pytest.skip("no chromium on PATH (Debian: apt-get install chromium; packaging/system-deps.sh does it as root)")
    return path


@pytest.fixture(scope="module")
def opened(report_db: Path, tmp_path_factory: pytest.TempPathFactory, qapp) -> Any:
    """The report of the hostile run and the three demo runs, with a trend, as the browser shows it."""
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright is in the dev extra: pip install -e .[dev]"
    )
    from benchlens.app.report import build_report, write_report
    from benchlens.app.rundata import LibraryRunData

    exe = chromium()
    out = tmp_path_factory.mktemp("browser") / "report.html"
    names = [HOSTILE, *DEMO_RUNS]
    with Library(report_db) as lib:
        ids = [lib.run(n).id for n in names]
        trend = trend_data([f"nightly-{k + 1:03d}" for k in range(40)])
        write_report(build_report(LibraryRunData(lib), ids, HOSTILE, trend), out)
    console: list[tuple[str, str]] = []
    errors: list[str] = []
    requests: list[str] = []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=exe, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1366, "height": 2000})
        page.on("console", lambda m: console.append((m.type, m.text)))
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: requests.append(r.url))
        page.goto(out.as_uri(), wait_until="load")
        seen = page.evaluate(
            """() => ({
            title: document.title,
            pwned: window.__pwned === undefined ? null : window.__pwned,
            scripts: document.scripts.length,
            images: document.images.length,
            h1: document.querySelector('h1').textContent,
            figure: [...document.querySelectorAll('#comparison svg text')].map(t => t.textContent),
            trend: [...document.querySelectorAll('#trend svg text')].map(t => t.textContent),
            figureBox: document.querySelector('#comparison svg').getBoundingClientRect().toJSON(),
            titleBox: document.querySelector('#comparison svg text').getBBox().width,
            points: document.querySelectorAll('#trend svg circle').length,
            runCells: [...document.querySelectorAll('#runs td:first-child')].map(t => t.textContent),
            sections: [...document.querySelectorAll('section h2')].map(h => h.textContent),
        })"""
        )
        browser.close()
    return {"seen": seen, "console": console, "errors": errors, "requests": requests, "uri": out.as_uri()}


def test_it_renders_with_no_console_error(opened: dict[str, Any]) -> None:
    assert opened["errors"] == []
    assert [m for m in opened["console"] if m[0] in ("error", "warning")] == []
    assert opened["requests"] == [opened["uri"]]  # the page itself, nothing else fetched
    seen = opened["seen"]
    assert seen["sections"][:4] == ["Runs", "Trend across runs", "The comparison", "Drops, explained"]
    assert seen["figureBox"]["width"] > 1000 and seen["figureBox"]["height"] > 600  # laid out at its size
    assert seen["titleBox"] > 100  # the figure's title drawn as text, with a width


def test_the_charts_text_is_text(opened: dict[str, Any]) -> None:
    seen = opened["seen"]
    for want in (*DEMO_RUNS, "Throughput (tps)", "seconds, relative to run start"):
        assert want in seen["figure"], want
    assert HOSTILE in seen["figure"]  # the legend names the run as it is called, markup and all, as text
    assert "-7.9 % regression" in seen["trend"] and "+11.3 % improvement" in seen["trend"]
    assert seen["points"] == 39


def test_markup_in_a_run_name_runs_nothing(opened: dict[str, Any]) -> None:
    seen = opened["seen"]
    assert seen["pwned"] is None and seen["scripts"] == 0 and seen["images"] == 0
    assert seen["title"] == HOSTILE and seen["h1"] == HOSTILE
    assert seen["runCells"][0] == HOSTILE
