#!/usr/bin/env bash
# Capture a top-N Performance Schema loop (`ORDER BY SUM_TIMER_WAIT DESC LIMIT 5`, as dashboards and
# pt-stalk-style scripts poll it) while the load changes, so that events leave the top five and come
# back: a row missing from a snapshot is then "not in the top N", not a counter at zero. From a
# private MariaDB with performance_schema=ON (datadir and socket under /tmp/bl_mysql_topn, no TCP,
# deleted at the end), 14 snapshots 1 s apart with pt-stalk style `TS` markers.
#
#   bash tests/capture/perfschema_top_n.sh        (as root, Debian 12: mariadb-server mariadb-client)
#
# Writes tests/fixtures/perfschema/perfschema_mariadb-<ver>_table_top5-by-sum-timer-wait.txt
set -euo pipefail
CAPTURE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIX=$(cd "$CAPTURE_DIR/../fixtures" && pwd)
export TZ=UTC
# shellcheck source=tests/capture/private_mariadb.sh
source "$CAPTURE_DIR/private_mariadb.sh"
start_private_mariadb /tmp/bl_mysql_topn --performance-schema=ON --performance-schema-instrument='wait/%=ON' \
  --innodb-flush-method=O_DIRECT
mkdir -p "$FIX/perfschema"
VER=$(db -N -B -e 'SELECT VERSION()' | sed 's/-.*//')
OUT="$FIX/perfschema/perfschema_mariadb-${VER}_table_top5-by-sum-timer-wait.txt"

db -e 'CREATE DATABASE bl; CREATE TABLE bl.t (id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, pad CHAR(100) NOT NULL, KEY (k)) ENGINE=InnoDB'
db -e "INSERT INTO bl.t (k, pad) SELECT seq % 1000, REPEAT('x', 100) FROM bl.seq_1_to_20000"
# Three phases of 5 s: point updates (redo, row waits), then SLEEP-free range scans (table I/O), then
# updates again; each phase one session, stopped by `timeout`.
phase() {  # phase KIND SECONDS
  awk -v kind="$1" 'BEGIN { for (i = 1; i <= 400000; i++) { id = (i * 7919) % 20000 + 1
      if (kind == "update") printf "UPDATE bl.t SET k = k + 1 WHERE id = %d;\n", id
      else printf "SELECT SUM(k) FROM bl.t WHERE id BETWEEN %d AND %d;\n", id, id + 500 } }' >"$BASE/$1.sql"
  timeout "$2" "${ENV[@]}" mariadb --no-defaults -S "$SOCK" -uroot <"$BASE/$1.sql" >/dev/null 2>&1 || true
}
(phase update 5; phase select 5; phase update 5) &
LOAD=$!

marker() { echo "TS $(date +%s.%N) $(date '+%F %T')"; }
T=performance_schema.events_waits_summary_global_by_event_name
for _ in $(seq 14); do
  { marker; db -t -e "SELECT EVENT_NAME, COUNT_STAR, SUM_TIMER_WAIT FROM $T WHERE COUNT_STAR > 0 ORDER BY SUM_TIMER_WAIT DESC LIMIT 5"; } >>"$OUT.tmp"
  sleep 1
done
wait "$LOAD" || true
mv "$OUT.tmp" "$OUT"
echo "captured with MariaDB $VER: $OUT"
