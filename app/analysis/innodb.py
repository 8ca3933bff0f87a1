"""InnoDB's own limits, the way the field's analyses read a checkpoint-age chart: the checkpoint
age at which the page cleaner starts flushing ahead (the async point) and the one at which user
threads wait for flushing (the sync point), both from the redo log's capacity; and the dirty-page
share the page cleaner holds the buffer pool to (innodb_max_dirty_pages_pct).

Thresholds, per server (redo capacity C = innodb_log_file_size x innodb_log_files_in_group, or
innodb_redo_log_capacity on MySQL 8.0.30+; page size P = 16 KiB):

- MySQL 5.5-5.7, Percona Server / XtraDB, MariaDB 10.0-10.4 (log0log.cc log_calc_max_ages()):
  capacity = (file size - 2 KiB header) x files, less 1/10; margin = capacity - P x (4 x (10 +
  innodb_thread_concurrency) + 8), less 1/10; async = margin - margin/8 (max_modified_age_async),
  sync = margin - margin/16 (max_modified_age_sync), max_checkpoint_age = margin.
  Checked: a Percona 5.5 status with 2 x 5 MiB logs prints `Max checkpoint age 7782360`, this
  formula's margin to the byte (../shared/samples/innodb_status/pt-mysql-summary_temp007...).
- MySQL 8.0.0-8.0.29 (log0chkp.cc log_calc_max_ages()): real = files x (size - 2 KiB); safety =
  min(real/10, 256 x 4 pages); limit = (real - safety) less 5 % (the extra margin of the log
  writer); async = limit - limit/8, sync = limit - limit/16.
- MySQL 8.0.30+ (log0files_capacity.cc, log0constants.h): the logical capacity is 30/32 of
  innodb_redo_log_capacity (two of the 32 files kept free), less the writer's 5 %; adaptive
  flushing from 7/8 of it (adaptive_flush_min_age, LOG_FORCING_ADAPTIVE_FLUSH_RATIO_MIN = 8), sync
  flushing from 15/16 (adaptive_flush_max_age, _RATIO_MAX = 16). The concurrency margin taken off
  it as well is left out (a few MB on a default server): these points are a little high.
- MariaDB 10.5+ (log0log.cc log_t::set_capacity(), mtr0mtr.cc): one log file; capacity = (size -
  header) less 1/10; margin = capacity - 48 pages, less 1/10; async = margin - margin/8
  (max_modified_age_async), and at max_checkpoint_age = margin the flushing turns "furious" and
  writers wait in log_checkpoint_margin(): that is the sync point. MariaDB and XtraDB publish the
  margin itself as the status variable Innodb_checkpoint_max_age (a MariaDB 10.11 with a 96 MiB log
  shows 80819529, the formula's margin), which is read first when the run has it.

innodb_max_dirty_pages_pct defaults: 75 on MySQL 5.5-5.7 and MariaDB up to 10.5.6, 90 on MySQL
8.0+ and MariaDB 10.5.7+ (the reference manuals' variable tables).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from benchlens.app.model import RunData, SeriesRef

PAGE = 16384
HEADER = 2048  # LOG_FILE_HDR_SIZE: 4 blocks of 512 B
MARIADB_START = 12288  # log_t::START_OFFSET of MariaDB 10.8+'s single file (10.5-10.7: 2048)
SERVERS = ("mysql-5", "mysql-8.0", "mysql-8.0.30", "mariadb-10.5")
MAX_DIRTY_DEFAULT = {"mysql-5": 75.0, "mysql-8.0": 90.0, "mysql-8.0.30": 90.0, "mariadb-10.5": 90.0}

CHECKPOINT_AGE = (SeriesRef("innodb_status", "checkpoint_age"), SeriesRef("global_status", "Innodb_checkpoint_age"))
MAX_AGE = SeriesRef("global_status", "Innodb_checkpoint_max_age")


@dataclass(frozen=True)
class FlushPoints:
    """Checkpoint ages (bytes) where InnoDB starts flushing ahead (async) and where user threads
    wait for the flushing (sync); `how` says where the numbers came from."""

    async_age: float
    sync_age: float
    server: str
    how: str


def flush_points(capacity: float, server: str, files: int = 2, thread_concurrency: int = 0) -> FlushPoints:
    """The flush points of a server (SERVERS) with `capacity` bytes of redo log in `files` files
    (innodb_log_file_size x files; innodb_redo_log_capacity on 8.0.30+, one file on MariaDB)."""
    if server == "mysql-5":
        cap = (capacity / files - HEADER) * files
        cap -= cap // 10
        margin = cap - PAGE * (4 * (10 + thread_concurrency) + 8)
        margin -= margin // 10
        return FlushPoints(margin - margin // 8, margin - margin // 16, server, "redo log size")
    if server == "mysql-8.0":
        real = (capacity / files - HEADER) * files
        limit = (real - min(real // 10, 256 * 4 * PAGE)) * 0.95
        return FlushPoints(limit - limit // 8, limit - limit // 16, server, "redo log size")
    if server == "mysql-8.0.30":
        soft = capacity * 30 / 32 * 0.95
        return FlushPoints(soft - soft // 8, soft - soft // 16, server, "innodb_redo_log_capacity")
    cap = capacity - MARIADB_START
    cap -= cap // 10
    margin = cap - 48 * PAGE
    margin -= margin // 10
    return from_max_checkpoint_age(margin, server)


def from_max_checkpoint_age(margin: float, server: str) -> FlushPoints:
    """The flush points from InnoDB's max_checkpoint_age (Innodb_checkpoint_max_age, XtraDB's
    `Max checkpoint age` line): MariaDB 10.5+ waits at the margin itself, the others at 15/16."""
    sync = margin if server == "mariadb-10.5" else margin - margin // 16
    return FlushPoints(margin - margin // 8, sync, server, "Innodb_checkpoint_max_age")


def server_of(have: set[SeriesRef]) -> str:
    """Which server a run's InnoDB figures come from, as far as the series say: the max-age status
    variable is MariaDB's or XtraDB's; MariaDB 10.6+ prints no semaphore counters."""
    if MAX_AGE in have:
        return "mariadb-10.5" if SeriesRef("innodb_status", "mutex_spin_waits/s") not in have else "mysql-5"
    return "mysql-5"


def run_flush_points(data: RunData, run_id: int) -> FlushPoints | None:
    """The run's flush points, when its series say what the redo capacity is."""
    have = set(data.available(run_id))
    if MAX_AGE not in have:
        return None
    series = data.data(run_id, MAX_AGE)
    if series is None:
        return None
    v = np.asarray(series[1], np.float64)
    v = v[np.isfinite(v) & (v > 0)]
    return from_max_checkpoint_age(float(np.median(v)), server_of(have)) if len(v) else None


def is_checkpoint_age(ref: SeriesRef) -> bool:
    return ref in CHECKPOINT_AGE
