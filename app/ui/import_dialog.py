"""Import in the background: a worker thread with its own library connection, a progress bar,
Cancel (the transaction is rolled back, the library stays as it was) and a per-file report."""

from __future__ import annotations

import html
import threading
import traceback
from pathlib import Path

from PySide6.QtCore import QObject, QThread, Signal, Slot
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QProgressBar, QTextBrowser, QVBoxLayout, QWidget

from benchlens.app.errors import BenchlensError
from benchlens.app.ingest import Options, RunReport, import_path
from benchlens.app.store import Library
from benchlens.importers._types import WARNING_KINDS, ImportCancelled, SourceWarning


class ImportWorker(QObject):
    progress = Signal(int, int)  # bytes done, bytes total
    finished = Signal(object)  # list[RunReport]
    failed = Signal(str)

    def __init__(self, db_path: Path, paths: list[Path]) -> None:
        super().__init__()
        self.db_path = db_path
        self.paths = paths
        self.cancel = threading.Event()

    def _progress(self, done: int, total: int) -> None:
        if self.cancel.is_set():
            raise ImportCancelled()
        self.progress.emit(done, total)

    @Slot()
    def run(self) -> None:
        reports: list[RunReport] = []
        try:
            with Library(self.db_path) as lib:
                for p in self.paths:
                    reports.append(import_path(lib, p, Options(progress=self._progress)))
        except ImportCancelled:
            self.failed.emit("Import cancelled: the library is unchanged.")
            return
        except (BenchlensError, OSError) as e:
            self.failed.emit(str(e))
            return
        except Exception as e:  # a bug: said in the window (and on stderr), never a dialog stuck on "Importing…"
            traceback.print_exc()
            self.failed.emit(f"The import failed on an internal error ({type(e).__name__}: {e}); nothing was written.")
            return
        self.finished.emit(reports)


SHOWN_PER_KIND = 3  # warnings quoted per kind; the count says how many there are


def warnings_html(warnings: list[SourceWarning]) -> str:
    """A file's warnings grouped by kind, most frequent first: the count, what the kind means,
    and the first few (a file with 5,000 cut lines is one line of the report, not 5,000)."""
    groups: dict[str, list[SourceWarning]] = {}
    for w in warnings:
        groups.setdefault(w.kind, []).append(w)
    items = []
    for kind, ws in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        quoted = "; ".join(html.escape(str(w)) for w in ws[:SHOWN_PER_KIND])
        more = f"; … {len(ws) - SHOWN_PER_KIND} more" if len(ws) > SHOWN_PER_KIND else ""
        meaning = html.escape(WARNING_KINDS.get(kind, kind))
        items.append(f"<li><b>{len(ws)} × {html.escape(kind)}</b> <i>({meaning})</i>: {quoted}{more}</li>")
    return "<ul>" + "".join(items) + "</ul>"


def report_html(reports: list[RunReport]) -> str:
    out = []
    for r in reports:
        state = "unchanged (already imported)" if r.unchanged else "imported"
        out.append(f"<h3>{html.escape(r.name)} — {state}</h3><ul>")
        for note in r.warnings:
            out.append(f"<li><i>{html.escape(note)}</i></li>")
        for s in r.sources:
            out.append(
                f"<li><b>{html.escape(s.path)}</b>: {s.format} ({html.escape(s.variant)}), "
                f"{s.series} series, {s.samples} samples"
            )
            if s.warnings:
                out.append(warnings_html(s.warnings))
            out.append("</li>")
        for sk in r.skipped:
            out.append(f"<li>skipped <b>{html.escape(sk['path'])}</b>: {html.escape(sk['reason'])}</li>")
        out.append("</ul>")
    return "".join(out)


class ImportDialog(QDialog):
    imported = Signal(object)  # list[RunReport], in the GUI thread
    failed = Signal(str)  # the reason, in the GUI thread

    def __init__(self, db_path: Path, paths: list[Path], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Import run folders")
        self.resize(640, 420)
        self.label = QLabel("Importing " + ", ".join(html.escape(p.name) for p in paths) + " …")
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        self.report = QTextBrowser()
        self.report.hide()
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.buttons.rejected.connect(self.on_cancel)
        lay = QVBoxLayout(self)
        for w in (self.label, self.bar, self.report, self.buttons):
            lay.addWidget(w)
        self.worker_thread = QThread(self)
        self.worker = ImportWorker(db_path, paths)
        self.worker.moveToThread(self.worker_thread)
        self.worker_thread.started.connect(self.worker.run)
        self.worker.progress.connect(self.on_progress)
        self.worker.finished.connect(self.on_finished)
        self.worker.failed.connect(self.on_failed)
        self.done_ = False

    def start(self) -> None:
        self.worker_thread.start()

    def on_progress(self, done: int, total: int) -> None:
        self.bar.setValue(int(1000 * done / max(total, 1)))

    def on_cancel(self) -> None:
        if self.done_:
            self.reject()
            return
        self.worker.cancel.set()
        self.label.setText("Cancelling…")

    def _end(self) -> None:
        self.done_ = True
        self.worker_thread.quit()
        self.worker_thread.wait()
        self.buttons.setStandardButtons(QDialogButtonBox.StandardButton.Close)
        self.buttons.rejected.connect(self.reject)
        self.report.show()

    def on_finished(self, reports: list[RunReport]) -> None:
        self._end()
        self.bar.setValue(1000)
        self.label.setText("Done.")
        self.report.setHtml(report_html(reports))
        self.imported.emit(reports)

    def on_failed(self, message: str) -> None:
        self._end()
        self.label.setText(html.escape(message))
        self.report.hide()
        self.failed.emit(message)

    def closeEvent(self, event: object) -> None:
        if not self.done_:
            self.worker.cancel.set()
            self.worker_thread.quit()
            self.worker_thread.wait()
        super().closeEvent(event)  # type: ignore[arg-type]
