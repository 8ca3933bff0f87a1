#!/usr/bin/env bash
# Capture Performance Schema wait summaries with EVERY wait instrument on (idle and socket waits
# included, off by default), from a private MariaDB (datadir and socket under /tmp/bl_idle_waits, no
# TCP, deleted at the end), while sessions are idle, sleep (SELECT SLEEP), run a bounded load, and
# wait on real locks: a metadata lock (LOCK TABLES ... WRITE held by another session) and the
# global read lock (FLUSH TABLES WITH READ LOCK). Tests the shipped idle-wait list (issue 14).
#
#   bash tests/capture/idle_waits.sh        (as root, Debian 12: mariadb-server mariadb-client)
#
# Writes tests/fixtures/idle_waits/perfschema_mariadb-<ver>_all-instruments.txt: 4 snapshots 2 s
# apart of `SELECT EVENT_NAME, COUNT_STAR, SUM_TIMER_WAIT ... WHERE COUNT_STAR > 0` (-B), each after
# a `TS <epoch> <date time>` marker.
set -euo pipefail
CAPTURE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIX=$(cd "$CAPTURE_DIR/../fixtures" && pwd)
export TZ=UTC
# shellcheck source=tests/capture/private_mariadb.sh
source "$CAPTURE_DIR/private_mariadb.sh"
start_private_mariadb /tmp/bl_idle_waits --performance-schema=ON \
  "--performance-schema-instrument=%=ON" --performance-schema-consumer-events-waits-current=ON
mkdir -p "$FIX/idle_waits"
VER=$(db -N -B -e 'SELECT VERSION()' | sed 's/-.*//')
OUT="$FIX/idle_waits/perfschema_mariadb-${VER}_all-instruments.txt"

db -e 'CREATE DATABASE bl; CREATE TABLE bl.t (id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, pad CHAR(100) NOT NULL, KEY (k)) ENGINE=InnoDB'
db -e "INSERT INTO bl.t (k, pad) SELECT seq % 1000, REPEAT('x', 100) FROM bl.seq_1_to_20000"
db -e 'CREATE TABLE bl.m (id INT PRIMARY KEY) ENGINE=InnoDB'
# 3 sessions connected and idle between statements, 1 sleeping
for s in 1 2 3; do (db -e 'SELECT 1; DO SLEEP(7); SELECT 2' >/dev/null 2>&1 || true) & done
(db -e 'SELECT SLEEP(7)' >/dev/null 2>&1 || true) &
# a bounded load: point updates and range selects
awk 'BEGIN { for (i = 1; i <= 200000; i++) { id = (i * 7919) % 20000 + 1
    if (i % 2 == 0) printf "UPDATE bl.t SET k = k + 1 WHERE id = %d;\n", id
    else printf "SELECT SUM(k) FROM bl.t WHERE id BETWEEN %d AND %d;\n", id, id + 50 } }' >"$BASE/load.sql"
(timeout 8 "${ENV[@]}" mariadb --no-defaults -S "$SOCK" -uroot <"$BASE/load.sql" >/dev/null 2>&1 || true) &
# a metadata lock held 3 s, waited for by another session
(db -e 'LOCK TABLES bl.m WRITE; DO SLEEP(3); UNLOCK TABLES' >/dev/null 2>&1 || true) &
sleep 0.5
(db -e 'SELECT COUNT(*) FROM bl.m' >/dev/null 2>&1 || true) &
# the global read lock held 2 s from 3.5 s, an insert waiting for it
(sleep 3; db -e 'FLUSH TABLES WITH READ LOCK; DO SLEEP(2); UNLOCK TABLES' >/dev/null 2>&1 || true) &
(sleep 3.5; db -e 'INSERT INTO bl.m VALUES (1)' >/dev/null 2>&1 || true) &

marker() { echo "TS $(date +%s.%N) $(date '+%F %T')"; }
T=performance_schema.events_waits_summary_global_by_event_name
for _ in 1 2 3 4; do
  { marker; db -B -e "SELECT EVENT_NAME, COUNT_STAR, SUM_TIMER_WAIT FROM $T WHERE COUNT_STAR > 0"; } >>"$OUT.tmp"
  sleep 2
done
mv "$OUT.tmp" "$OUT"
for j in $(jobs -p); do [ "$j" = "$SERVER" ] || wait "$j" 2>/dev/null || true; done
echo "captured with MariaDB $VER:"
ls -l "$OUT"
