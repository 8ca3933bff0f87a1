#!/usr/bin/env bash
# Capture Performance Schema selects with only some of the summary columns (issue 13: refused
# before), from a private MariaDB with performance_schema=ON (datadir and socket under
# /tmp/bl_mysql_pscols, no TCP, deleted at the end), under a bounded load, 5 snapshots 1 s apart
# with pt-stalk style `TS` markers (as tests/capture/mysql_snapshots.sh).
#
#   bash tests/capture/perfschema_columns.sh        (as root, Debian 12: mariadb-server mariadb-client)
#
# Writes tests/fixtures/perfschema/perfschema_mariadb-<ver>_<columns>.txt for the column subsets below;
# `ONLY=computed bash tests/capture/perfschema_columns.sh` captures only the select with computed
# columns (an expression and an alias beside COUNT_STAR: not Performance Schema columns).
set -euo pipefail
CAPTURE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIX=$(cd "$CAPTURE_DIR/../fixtures" && pwd)
export TZ=UTC
# shellcheck source=tests/capture/private_mariadb.sh
source "$CAPTURE_DIR/private_mariadb.sh"
start_private_mariadb /tmp/bl_mysql_pscols --performance-schema=ON --innodb-flush-method=O_DIRECT
mkdir -p "$FIX/perfschema"
VER=$(db -N -B -e 'SELECT VERSION()' | sed 's/-.*//')
PS="$FIX/perfschema/perfschema_mariadb-${VER}"

# Bounded load: 2 sessions of point updates and range selects, each stopped by `timeout`.
db -e 'CREATE DATABASE bl; CREATE TABLE bl.t (id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, pad CHAR(100) NOT NULL, KEY (k)) ENGINE=InnoDB'
db -e "INSERT INTO bl.t (k, pad) SELECT seq % 1000, REPEAT('x', 100) FROM bl.seq_1_to_20000"
for s in 1 2; do
  awk -v s="$s" 'BEGIN { for (i = 1; i <= 400000; i++) {
      id = (i * 7919 + s * 104729) % 20000 + 1
      if (i % 2 == 0) printf "UPDATE bl.t SET k = k + 1 WHERE id = %d;\n", id
      else printf "SELECT SUM(k) FROM bl.t WHERE id BETWEEN %d AND %d;\n", id, id + 50 } }' >"$BASE/load$s.sql"
  (timeout 45 "${ENV[@]}" mariadb --no-defaults -S "$SOCK" -uroot <"$BASE/load$s.sql" >/dev/null 2>&1 || true) &
done
sleep 2

marker() { echo "TS $(date +%s.%N) $(date '+%F %T')"; }
T=performance_schema.events_waits_summary_global_by_event_name
W="WHERE EVENT_NAME LIKE 'wait/io/table/%' OR EVENT_NAME LIKE 'wait/lock/table/%' OR EVENT_NAME LIKE 'wait/io/file/innodb/%'"
COMPUTED="SELECT EVENT_NAME, COUNT_STAR, SUM_TIMER_WAIT/1000000000 AS wait_ms, ROUND(AVG_TIMER_WAIT/1000000, 3) FROM $T $W"
for i in 1 2 3 4 5; do
  if [ "${ONLY:-}" = computed ]; then
    { marker; db -t -e "$COMPUTED"; } >>"$PS.computed.tmp"
  else
    { marker; db -t -e "SELECT EVENT_NAME, SUM_TIMER_WAIT FROM $T $W"; } >>"$PS.sum.tmp"
    { marker; db -t -e "SELECT EVENT_NAME, COUNT_STAR, AVG_TIMER_WAIT, MAX_TIMER_WAIT FROM $T $W"; } >>"$PS.count.tmp"
    { marker; db -B -e "SELECT EVENT_NAME, AVG_TIMER_WAIT, MIN_TIMER_WAIT, MAX_TIMER_WAIT FROM $T $W"; } >>"$PS.avg.tmp"
  fi
  sleep 1
done
if [ "${ONLY:-}" = computed ]; then
  mv "$PS.computed.tmp" "${PS}_table_event-name-count-computed.txt"
else
  mv "$PS.sum.tmp" "${PS}_table_event-name-sum-timer-wait.txt"
  mv "$PS.count.tmp" "${PS}_table_event-name-count-avg-max.txt"
  mv "$PS.avg.tmp" "${PS}_batch_event-name-avg-min-max.txt"
fi

for j in $(jobs -p); do [ "$j" = "$SERVER" ] || wait "$j" 2>/dev/null || true; done
echo "captured with MariaDB $VER:"
ls -l "${PS}"_*_event-name-*.txt
