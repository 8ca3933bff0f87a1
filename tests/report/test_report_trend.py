"""The report's trend section, drawn from plain data in the shape of `benchlens trend --json`: a
point per run with a value, the levels between change points, each change point marked and listed;
what is not a finite number is left out, never drawn at 0; names stay text."""

from __future__ import annotations

import math
import re

from benchlens.app.report_html import esc
from benchlens.app.report_trend import H, W, chart, points_of, section
from tests.report.conftest import HOSTILE, trend_data

NAMES = [f"nightly-{k + 1:03d}" for k in range(40)]


def test_every_run_a_point_every_change_marked_and_listed() -> None:
    html = section(trend_data(NAMES))
    svg = html[html.index("<svg") : html.index("</svg>")]
    assert svg.count("<circle") == 39  # 40 runs, one without a value
    tips = re.findall(r"<circle[^>]*><title>([^<]*)</title>", svg)
    assert tips[0] == "nightly-001: 1600.0\n2026-09-21 14:13:20 UTC\nversion=11.4.0"
    dashed = re.findall(r'<line x1="([\d.]+)"[^>]*stroke-dasharray', svg)
    assert len(dashed) == 2  # the change at index 44 lies outside the 40 points: ignored
    assert [float(x) for x in dashed][0] < [float(x) for x in dashed][1]
    texts = re.findall(r"<text\b[^>]*>([^<]*)</text>", svg)
    assert "-7.9 % regression" in texts and "+11.3 % improvement" in texts
    assert "nightly-001" in texts  # run names under the axis (every few: they never overlap)
    table = html[html.index("<tbody>") :]
    rows = re.findall(r"<tr>(.*?)</tr>", table)
    assert len(rows) == 2
    assert '<td class="n bad">-7.9 %</td>' in rows[0] and '<td class="good">improvement</td>' in rows[1]
    assert "<td>nightly-026</td>" in rows[0]


def test_the_levels_between_change_points() -> None:
    svg = section(trend_data(NAMES))
    levels = re.findall(
        r'<line x1="([\d.]+)" y1="([\d.]+)" x2="([\d.]+)" y2="\2" stroke="#202020" stroke-width="2"', svg
    )
    assert len(levels) == 3  # before the regression, between, after the improvement
    ys = [float(y) for _, y, _ in levels]
    assert ys[1] > ys[0] > ys[2]  # SVG's y grows downwards: 1489 lowest, 1657 highest
    starts = [float(x0) for x0, _, _ in levels]
    assert starts == sorted(starts)


def test_what_is_not_a_number_is_left_out() -> None:
    points = [{"run": "a", "value": v} for v in (1.0, math.nan, math.inf, "12", True, None, 3.0)]
    group = {"key": {}, "points": points, "changes": [{"index": 1.5}, {"index": True}, {"index": 0}]}
    assert [p.value for p in points_of(group) if math.isfinite(p.value)] == [1.0, 3.0]
    html = section({"groups": [group]})
    assert html.count("<circle") == 2 and "stroke-dasharray" not in html
    assert "No change point among these 7 runs." in html
    assert "all runs" in html  # an empty key


def test_names_and_tags_stay_text() -> None:
    group = {
        "key": {"host": HOSTILE},
        "points": [{"run": HOSTILE, "value": 1.0, "tags": {"commit": HOSTILE}}, {"run": "b", "value": 2.0}],
        "changes": [{"run": HOSTILE, "index": 1, "before": 1.0, "after": 2.0, "kind": "improvement"}],
    }
    html = section({"metric": HOSTILE, "groups": [group]})
    assert "<script" not in html and "<img" not in html
    assert esc(HOSTILE) in html
    assert "+100.0 % improvement" in html  # the change from before and after when it is not given


def test_no_groups_and_a_single_run() -> None:
    assert "No run has a value to put on a trend." in section({"groups": []})
    one = chart(points_of({"points": [{"run": "only", "value": 5.0}]}), [], "tps")
    cx = float(re.search(r'<circle cx="([\d.]+)"', one).group(1))
    assert 0 < cx < W and f'viewBox="0 0 {W} {H}"' in one


def test_run_names_stay_inside_the_chart() -> None:
    points = points_of({"points": [{"run": f"nightly-{k:03d}", "value": 100.0 + k} for k in range(1, 10)]})
    svg = chart(points, [], "tps")
    names = re.findall(r'<text x="([\d.]+)" y="[\d.]+" text-anchor="middle" fill="#202020">(nightly-\d+)</text>', svg)
    assert [n for _, n in names] == [p.run for p in points]  # nine fit: every one named
    for x, name in names:  # the first and the last too, whose point is at the chart's edge
        half = len(name) * 12 * 0.62 / 2
        assert float(x) - half > 0 and float(x) + half < W, name
