"""`benchlens drops | explain | diff` (app/cli_diagnose.py): the JSON keys of PRODUCT.md's contract
(drops keeps its earlier keys), the same answers as the analysis API, bad input as one
`benchlens:` line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from benchlens.app.analysis.diff import diff_runs
from benchlens.app.analysis.drops import NOT_TESTED
from benchlens.app.analysis.run_drops import run_findings
from benchlens.app.analysis.window import explain_window
from benchlens.app.cli import main
from benchlens.app.rundata import LibraryRunData
from benchlens.app.store import Library
from tests.conftest import ROOT, rid

DROP_KEYS = {"source", "metric", "entity", "start", "end", "depth", "baseline", "min", "score", "label", "explain"}
DROP_KEYS |= {"kind", "verdict", "classes", "cause", "tested", "edges_of_cause", "phases"}
ENTRY_KEYS = {"source", "metric", "entity", "change", "before", "during", "similar", "class", "score"}


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> object:
    capsys.readouterr()
    assert main(list(args)) == 0
    return json.loads(capsys.readouterr().out)


def test_drops_json_keeps_its_keys_and_adds_kind_verdict_classes(
    summary_db: Path, summary_lib: Library, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run_json(capsys, "drops", "disk-stall", "--json", "--db", str(summary_db))
    assert isinstance(out, list) and len(out) == 1
    (d,) = out
    assert set(d) == DROP_KEYS and d["kind"] == "drop" and d["classes"][0] == "disk"
    # the demo has no server counters: who wrote is not proven (app/analysis/causes.py disk_burst)
    assert "another writer, or the server's own (its writes not measured)" in d["verdict"], d["verdict"]
    # its edges are the writes' own (03:56:06-03:56:18, the writers' 06.061-18.171: MANIFEST.md); the
    # throughput alone put them at 02-21
    assert d["edges_of_cause"] is True and d["label"] == "\u221265% \u00b7 12 s", d["label"]
    assert all(set(e) == ENTRY_KEYS and e["class"] == "disk" for e in d["explain"][:3])
    want = run_findings(LibraryRunData(summary_lib), rid(summary_lib, "disk-stall"))
    assert d["start"] == want.drops[0].drop.start and d["end"] == want.drops[0].drop.end
    capsys.readouterr()
    assert main(["drops", "disk-stall", "--db", str(summary_db)]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith("stability of sysbench:tps: cv ") and text[1].endswith(
        f"(baseline {want.drops[0].drop.baseline:.6g})"
    )
    # the demo's 2-s reports over 200 s: too few for the throughput alone to prove the drop; the
    # disk's writes prove its cause, which keeps it, said before the verdict
    assert d["tested"] is False and text[2] == "    " + NOT_TESTED
    assert text[3] == "    " + want.drops[0].verdict()


def test_dips_the_short_test_leaves_out_are_counted_and_found_at_high_sensitivity(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The demo's small buffer pool stalls for 14 s between reports that alternate 475 and 1,044
    tps: in 90 reports that is not significant on its own (app/analysis/level_test.py) and nothing
    in its folder proves a cause, so `drops` says it left it out; at high sensitivity (ten false
    findings per 10,000 s) it is a drop."""
    from benchlens.app.resources import demo_folders

    db = str(tmp_path / "l.sqlite")
    (folder,) = [f for f in demo_folders() if f.name == "small-buffer-pool"]
    assert main(["import", str(folder), "--db", db]) == 0
    capsys.readouterr()
    assert main(["drops", "small-buffer-pool", "--db", db]) == 0
    text = capsys.readouterr().out.splitlines()
    assert "no drops in 'small-buffer-pool'" in text
    assert text[-1].startswith("2 dip(s) or rise(s) left out: not significant on their own")
    out = run_json(capsys, "drops", "small-buffer-pool", "--db", db, "--sensitivity", "high", "--json")
    assert isinstance(out, list)
    (d,) = [d for d in out if d["label"] == "\u2212100% \u00b7 14 s"]
    assert d["kind"] == "drop" and d["tested"] is True


def test_a_drop_in_phases_lists_each_with_its_verdict(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Held-out rebuild-long-hot: another client's table copy (-37 %, kept because its redo confirms
    it), then its metadata lock (0 commits), with no second back at the baseline: one drop, each
    phase said in text and JSON, the one its own series did not prove saying so."""
    db = str(tmp_path / "lib.sqlite")
    assert main(["--db", db, "import", str(ROOT / "bench" / "drop_quality" / "runs" / "rebuild-long-hot")]) == 0
    (d,) = run_json(capsys, "--db", db, "drops", "rebuild-long-hot", "--json")
    phases = d["phases"]
    assert len(phases) == 2 and phases[0]["end"] == phases[1]["start"] and phases[0]["depth"] < phases[1]["depth"]
    assert (d["start"], d["end"]) == (phases[0]["start"], phases[1]["end"]) and d["tested"]
    assert d["verdict"].startswith("began with " + phases[0]["verdict"]), d["verdict"]
    assert main(["--db", db, "drops", "rebuild-long-hot"]) == 0
    text = capsys.readouterr().out
    assert "    phase 2: " in text and phases[1]["verdict"] in text and "ALTER TABLE" in phases[1]["verdict"]
    first, second = text.split("    phase 1: ", 1)[1].split("    phase 2: ", 1)
    assert not phases[0]["tested"] and NOT_TESTED in first and NOT_TESTED not in second


def test_explain_a_window_json_and_text(
    summary_db: Path, summary_lib: Library, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ("explain", "disk-stall", "--from", "40", "--to", "52", "--align", "bench", "--db", str(summary_db))
    out = run_json(capsys, *args, "--json")
    assert isinstance(out, dict)
    assert set(out) == {"from", "to", "work", "against", "verdict", "classes", "explain"}
    assert out["classes"][0] == "disk" and out["work"] < 0.5
    run = summary_lib.run("disk-stall")
    assert out["from"] == pytest.approx((run.bench_start or 0) + 40)
    want = explain_window(LibraryRunData(summary_lib), run.id, (40, 52), "bench")
    assert [e["metric"] for e in out["explain"]] == [c.ref.metric for c in want.explain]
    against = run_json(capsys, *args, "--json", "--against", "0:30", "--top", "2")
    assert isinstance(against, dict) and len(against["explain"]) == 2
    assert against["against"]["to"] == pytest.approx((run.bench_start or 0) + 30)
    capsys.readouterr()
    assert main(list(args)) == 0
    assert "another writer, or the server's own" in capsys.readouterr().out  # the demo's stall is a dd writer


def test_diff_ranks_every_series_per_transaction_too(
    summary_db: Path, summary_lib: Library, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run_json(capsys, "diff", "baseline", "disk-stall", "--json", "--db", str(summary_db))
    assert isinstance(out, dict) and out["a"] == "baseline" and out["b"] == "disk-stall"
    assert set(out["stability"]) == {"a", "b"} and out["stability"]["b"]["under_half"] > 0
    first = out["series"][0]
    assert first["class"] == "disk" and first["b"] > first["a"]
    assert first["per_trx_b"] == pytest.approx(first["b"] / out["stability"]["b"]["mean"], rel=0.02)
    want = diff_runs(LibraryRunData(summary_lib), rid(summary_lib, "baseline"), rid(summary_lib, "disk-stall"))
    assert len(out["series"]) == len(want.series) > 50  # every series both runs have, not only the plotted


@pytest.mark.parametrize(
    "args",
    [
        ["explain", "disk-stall", "--from", "50", "--to", "20"],
        ["explain", "disk-stall", "--from", "1", "--to", "20", "--against", "nope"],
        ["explain", "disk-stall", "--from", "1", "--to", "20", "--top", "0"],
        ["explain", "no-such-run", "--from", "1", "--to", "20"],
        ["diff", "baseline", "no-such-run"],
        ["diff", "baseline", "mutex56"],  # no throughput to compare
        ["drops", "disk-stall", "--metric", "vmstat:nosuch"],
    ],
)
def test_bad_input_is_one_line(summary_db: Path, capsys: pytest.CaptureFixture[str], args: list[str]) -> None:
    capsys.readouterr()
    assert main([*args, "--db", str(summary_db)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("benchlens: ") and "Traceback" not in err[0]
