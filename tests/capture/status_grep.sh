#!/usr/bin/env bash
# Capture `mysqladmin extended-status -r -i 1 -c N | grep ...`, the usual way to watch a few status
# variables (mysqladmin has no LIKE): table rows without header or borders (issue 22). Private
# MariaDB under a sysbench oltp_read_write load; shut down and deleted at the end.
#
#   bash tests/capture/status_grep.sh     (as root, Debian 12: mariadb-server mariadb-client sysbench)
#
# Writes tests/fixtures/global_status/global_status_mariadb-<ver>_mysqladmin-*-grep-*.txt.
set -euo pipefail
CAPTURE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIX=$(cd "$CAPTURE_DIR/../fixtures" && pwd)
export TZ=UTC
# shellcheck source=tests/capture/private_mariadb.sh
source "$CAPTURE_DIR/private_mariadb.sh"
start_private_mariadb /tmp/bl_status_grep
VER=$(db -N -B -e 'SELECT VERSION()' | sed 's/-.*//')
GS="$FIX/global_status/global_status_mariadb-${VER}"
db -e 'CREATE DATABASE sbinno'
SB=(sysbench oltp_read_write --mysql-socket="$SOCK" --mysql-user=root --mysql-db=sbinno --tables=2 --table-size=20000)
"${ENV[@]}" "${SB[@]}" prepare >/dev/null
("${ENV[@]}" "${SB[@]}" --threads=2 --time=30 run >/dev/null 2>&1 || true) &
sleep 3
madmin extended-status -r -i 1 -c 4 | grep -E 'Innodb_buffer_pool_read' >"${GS}_mysqladmin-r-i1-c4-grep-bp-read.txt" || true
madmin extended-status -r -i 2 -c 4 | grep -E '\| (Uptime|Com_select|Innodb_buffer_pool_read_requests) ' \
  >"${GS}_mysqladmin-r-i2-c4-grep-uptime.txt" || true
madmin extended-status -i 1 -c 4 | grep -E '\| (Com_select|Innodb_buffer_pool_read_requests|Threads_running) ' \
  >"${GS}_mysqladmin-i1-c4-grep-totals.txt" || true
for j in $(jobs -p); do [ "$j" = "$SERVER" ] || wait "$j" 2>/dev/null || true; done
ls -l "$FIX"/global_status/*grep*
