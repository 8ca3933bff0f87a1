"""The sections of `benchlens report` that say what the analysis found (no Qt): the runs, each run's
drops with their verdicts and cause windows (what `benchlens drops` prints), and B against A: the
settings that differ, then every series by quantity and per transaction (what `benchlens diff`
prints). Markup from app/report_html.py; every value read from a run goes through its escaping."""

from __future__ import annotations

import math
from collections.abc import Sequence

from benchlens.app.analysis.config import ConfigDiff
from benchlens.app.analysis.diff import RunDiff, SeriesDiff, series_by_quantity
from benchlens.app.analysis.evidence import Change
from benchlens.app.analysis.mechanism import worth_saying
from benchlens.app.analysis.run_drops import Findings, RunDrop
from benchlens.app.analysis.stability import Stability
from benchlens.app.model import Run, SeriesRef
from benchlens.app.report_html import Col, esc, folded, grid, number, paragraph, percent, span, when

DIFF_TOP = 20  # series by quantity shown before the fold, as `benchlens diff` prints by default
# ... and at most this many more in the fold: a run of the recorded corpus has ~600 quantities in
# common with another, 116 kB of rows a pair, and a report of 41 runs came to 7.6 MB
# (bench/report_size.py); the rest is in `benchlens diff --json`
DIFF_MORE = 100


def runs_table(runs: Sequence[Run]) -> str:
    cols = [Col("run"), Col("id", True), Col("start (UTC)"), Col("duration", True), Col("host"), Col("sources", True)]
    rows = []
    for r in runs:
        length = r.end - r.start if r.start is not None and r.end is not None else None
        rows.append([r.name, str(r.id), when(r.start), span(length), r.host or "–", str(r.sources)])
    return grid(cols, rows)


def stability_line(ref: str, s: Stability) -> str:
    """`benchlens drops`' first line: how steady the throughput was, warm-up left out."""
    if not s.n:
        return paragraph(f"{ref}: no steady part to measure")
    return paragraph(
        f"Stability of {ref}: cv {s.cv:.2f}, {s.under_text(number)}, p1 {number(s.p1)}, p5 {number(s.p5)} "
        f"({s.n} reports, warm-up left out)."
    )


def drops(run: Run, found: Findings | None) -> str:
    """One run's findings: stability, recurring dips, drops and latency rises by time, each with its
    verdict, its cause's window when the verdict says one, and the series that explain it."""
    if found is None:
        return paragraph(f"{run.name}: no benchmark log, so no throughput to scan for drops.", "note")
    parts = []
    if found.stability is not None:
        parts.append(stability_line(found.ref.spec(), found.stability))
    for g in found.recurring:
        members = ", ".join(f"{when(m.drop.start)} ({m.drop.label()})" for m in g.members)
        parts.append(
            f'<div class="finding recurring"><strong>{esc(when(g.pattern.start))} .. {esc(when(g.pattern.end))}'
            f'</strong> {esc(g.label())}<br><span class="note">{esc(members)}</span></div>'
        )
    for rd in sorted([*found.singles(), *found.rises], key=lambda d: d.drop.start):
        parts.append(_finding(rd))
    if not found.drops and not found.rises:
        parts.append(paragraph(f"No drops in {run.name}."))
    return "\n".join(parts)


def _finding(rd: RunDrop) -> str:
    d = rd.drop
    head = f"{when(d.start)} .. {when(d.end)}  {d.label()}  (baseline {number(d.baseline)})"
    out = [f'<div class="finding {esc(d.kind)}"><strong>{esc(head)}</strong>']
    out.append(f'<p class="verdict">{esc(rd.verdict())}</p>')
    if d.untested():  # kept because a second series confirmed it: a reader must know (`drops` says it too)
        out.append(paragraph(d.untested(), "note"))
    for k, phase in enumerate(rd.phases, 1):  # the levels it went through, each with its verdict
        when_ = f"{when(phase.drop.start)} .. {when(phase.drop.end)}"
        said = " ".join(x for x in (phase.verdict(), phase.drop.untested()) if x)
        out.append(paragraph(f"Phase {k}: {when_}  {phase.drop.label()}: {said}", "note"))
    if rd.cause is not None and worth_saying(rd.cause, d):
        out.append(paragraph(f"Cause window: {rd.cause.what}, {when(rd.cause.start)} .. {when(rd.cause.end)}", "note"))
    if rd.explain:
        out.append(changes_table(rd.explain))
    out.append("</div>")
    return "\n".join(out)


def changes_table(changes: Sequence[Change]) -> str:
    """The series that explain a drop, ranked: what `benchlens drops` and `explain` list."""
    cols = [Col("series"), Col("class"), Col("before", True), Col("during", True), Col("effect", True)]
    cols += [Col("score", True), Col("also")]
    rows = [
        [
            c.ref.spec(),
            c.klass,
            number(c.before),
            number(c.during),
            c.effect(),
            f"{c.weight:.1f}",
            ", ".join(r.spec() for r in c.similar),
        ]
        for c in changes
    ]
    return grid(cols, rows)


def settings(config: ConfigDiff) -> str:
    """The settings that differ, before anything measured: they are the likeliest reason."""
    a, b = config.known
    if not config.changed and not config.only:
        said = "No settings differ" if all(config.known) else "Settings: a run has no configuration imported"
        return paragraph(f"{said} ({a} settings in A, {b} in B).")
    rows = []
    for d in [*config.changed, *config.only]:
        rows.append(
            [
                d.group,
                d.name,
                d.a.value if d.a else "(not set)",
                d.b.value if d.b else "(not set)",
                " / ".join(dict.fromkeys(s.origin for s in (d.a, d.b) if s is not None)),  # once when the same
            ]
        )
    out = [paragraph(f"Settings that differ ({a} settings in A, {b} in B):")]
    out.append(grid([Col("group"), Col("setting"), Col("A"), Col("B"), Col("read from")], rows))
    if config.unlisted:
        out.append(paragraph(f"({config.unlisted} variables only one server has, not listed)", "note"))
    return "\n".join(out)


def versus(result: RunDiff, top: int = DIFF_TOP) -> str:
    """B against A: settings, both throughputs' stability, then one row per quantity, ranked."""
    out = [settings(result.config)]
    for tag, name, s in zip(("A", "B"), (result.a, result.b), result.stability, strict=True):
        out.append(
            paragraph(
                f"{tag} ({name}): mean {number(s.mean)}, cv {s.cv:.2f}, under half the median "
                f"{s.under_half:.1%}, p5 {number(s.p5)}"
            )
        )
    rows = series_by_quantity(result.series)
    if not rows:
        out.append(paragraph("The runs have no series in common to compare.", "note"))
        return "\n".join(out)
    out.append(_quantities(rows[:top]))
    more = rows[top : top + DIFF_MORE]
    if more:
        left = len(rows) - top - len(more)
        label = f"the next {len(more)} quantities" + (f" ({left} more: benchlens diff --json)" if left else "")
        out.append(folded(label, _quantities(more)))
    out.append(
        paragraph(
            "Each series' mean over its run's benchmark interval (warm-up left out), ranked by how much and how "
            "relevantly it differs; per transaction: a rate divided by the run's mean throughput.",
            "note",
        )
    )
    return "\n".join(out)


def _quantities(rows: Sequence[tuple[SeriesDiff, list[SeriesRef]]]) -> str:
    cols = [Col("series"), Col("class"), Col("A", True), Col("B", True), Col("change", True)]
    cols += [Col("A per trx", True), Col("B per trx", True), Col("per trx unit"), Col("also")]
    cells = []
    for d, also in rows:
        per = math.isfinite(d.per_trx_a) or math.isfinite(d.per_trx_b)  # a level has no per-transaction value
        cells.append(
            [
                d.ref.spec(),
                d.klass,
                number(d.a),
                number(d.b),
                percent(d.change) if math.isfinite(d.change) else "A=0",
                number(d.per_trx_a) if per else "",
                number(d.per_trx_b) if per else "",
                d.trx_unit if per else "",
                ", ".join(r.spec() for r in also),
            ]
        )
    return grid(cols, cells)
