#!/usr/bin/env bash
# Capture the SHOW GLOBAL STATUS / mysqladmin extended-status / SHOW ENGINE INNODB MUTEX fixtures
# from a private MariaDB started here (datadir, socket and logs under /tmp/bl_mysql_snap, no TCP),
# under a bounded load. The server is shut down and its directory deleted at the end.
#
#   bash tests/capture/mysql_snapshots.sh        (as root, Debian 12: mariadb-server mariadb-client)
#
# Writes tests/fixtures/global_status/global_status_mariadb-<ver>_*.txt and
#        tests/fixtures/innodb_mutex/innodb_mutex_mariadb-<ver>_*.txt.
# The *_handwritten.txt fixtures (MySQL 5.0 ... 8.0, which cannot run here) are not written by
# this script; see the MANIFEST.md of each folder.
set -euo pipefail
CAPTURE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIX=$(cd "$CAPTURE_DIR/../fixtures" && pwd)
export TZ=UTC
# shellcheck source=tests/capture/private_mariadb.sh
source "$CAPTURE_DIR/private_mariadb.sh"
start_private_mariadb /tmp/bl_mysql_snap
mkdir -p "$FIX/global_status" "$FIX/innodb_mutex"
VER=$(db -N -B -e 'SELECT VERSION()' | sed 's/-.*//')  # 10.11.19
GS="$FIX/global_status/global_status_mariadb-${VER}"
MX="$FIX/innodb_mutex/innodb_mutex_mariadb-${VER}"

# Bounded load: 4 sessions of inserts, updates and range selects, each stopped by `timeout`.
db -e 'CREATE DATABASE bl; CREATE TABLE bl.t (id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, pad CHAR(100) NOT NULL, KEY (k)) ENGINE=InnoDB'
db -e "INSERT INTO bl.t (k, pad) SELECT seq % 1000, REPEAT('x', 100) FROM bl.seq_1_to_20000"
for s in 1 2 3 4; do
  awk -v s="$s" 'BEGIN { for (i = 1; i <= 400000; i++) {
      id = (i * 7919 + s * 104729) % 20000 + 1
      if (i % 3 == 0) printf "UPDATE bl.t SET k = k + 1 WHERE id = %d;\n", id
      else if (i % 3 == 1) printf "SELECT SUM(k) FROM bl.t WHERE id BETWEEN %d AND %d;\n", id, id + 50
      else printf "INSERT INTO bl.t (k, pad) VALUES (%d, REPEAT(\"y\", 100));\n", id % 1000 } }' >"$BASE/load$s.sql"
  (timeout 60 "${ENV[@]}" mariadb --no-defaults -S "$SOCK" -uroot <"$BASE/load$s.sql" >/dev/null 2>&1 || true) &
done
sleep 2

marker() { echo "TS $(date +%s.%N) $(date '+%F %T')"; }

# SHOW GLOBAL STATUS, 5 snapshots 1 s apart, one file per client shape (pt-stalk style markers).
for i in 1 2 3 4 5; do
  { marker; db -t -e 'SHOW GLOBAL STATUS'; } >>"$GS.table.tmp"
  { marker; db -B -e 'SHOW GLOBAL STATUS'; } >>"$GS.batch.tmp"
  { marker; db -e 'SHOW GLOBAL STATUS\G'; } >>"$GS.vertical.tmp"
  sleep 1
done
mv "$GS.table.tmp" "${GS}_table.txt"; mv "$GS.batch.tmp" "${GS}_batch.txt"; mv "$GS.vertical.tmp" "${GS}_vertical.txt"

# A FLUSH STATUS between the 3rd and the 4th snapshot: a real counter reset.
for i in 1 2 3 4 5; do
  [ "$i" = 4 ] && db -e 'FLUSH STATUS'
  { marker; db -t -e 'SHOW GLOBAL STATUS'; } >>"$GS.flush.tmp"
  sleep 1
done
mv "$GS.flush.tmp" "${GS}_table-flush-status.txt"

# mysqladmin: no times at all; -r prints differences after the first table.
madmin extended-status -i 1 -c 4 >"${GS}_mysqladmin-i1-c4.txt"
madmin extended-status -r -i 1 -c 4 >"${GS}_mysqladmin-r-i1-c4.txt"

# SHOW ENGINE INNODB MUTEX: MariaDB 10.x returns an empty result, so the plain shapes hold only
# the markers; -vvv echoes the statement and prints `Empty set`.
for i in 1 2 3 4 5; do
  { marker; db -t -e 'SHOW ENGINE INNODB MUTEX'; } >>"$MX.table.tmp"
  { marker; db -B -e 'SHOW ENGINE INNODB MUTEX'; } >>"$MX.batch.tmp"
  { marker; db -e 'SHOW ENGINE INNODB MUTEX\G'; } >>"$MX.vertical.tmp"
  { marker; db -t -vvv -e 'SHOW ENGINE INNODB MUTEX'; } >>"$MX.verbose.tmp"
  sleep 1
done
mv "$MX.table.tmp" "${MX}_table.txt"; mv "$MX.batch.tmp" "${MX}_batch.txt"
mv "$MX.vertical.tmp" "${MX}_vertical.txt"; mv "$MX.verbose.tmp" "${MX}_table-vvv.txt"

# The 5.0 statement is gone from MariaDB: what a capture loop records then (stderr included).
for i in 1 2; do
  { marker; db -t -e 'SHOW MUTEX STATUS' 2>&1 || true; } >>"$MX.old.tmp"
done
mv "$MX.old.tmp" "${MX}_show-mutex-status-error.txt"

wait_load() { for j in $(jobs -p); do [ "$j" = "$SERVER" ] || wait "$j" 2>/dev/null || true; done; }
wait_load
echo "captured with MariaDB $VER:"
ls -l "$FIX"/global_status/*mariadb* "$FIX"/innodb_mutex/*mariadb*
