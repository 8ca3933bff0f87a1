#!/usr/bin/env bash
# Capture status tables whose real spacing differs from the nominal one, from a private MariaDB
# (as tests/capture/mysql_snapshots.sh: datadir and socket under /tmp/bl_mysql_uptime, no TCP,
# deleted at the end), under a bounded load. Issue 13: their rates must divide by the Uptime delta.
#
#   bash tests/capture/uptime_clock.sh        (as root, Debian 12: mariadb-server mariadb-client)
#
# Writes tests/fixtures/global_status/global_status_mariadb-<ver>_mysqladmin-r-i3-c5.txt
#        (mysqladmin sleeps 3 s *after* each query: Uptime steps of 3 or 4 s) and
#        ..._table-loop-uneven-sleeps.txt (a bare `mariadb -t` loop, no markers, sleeping 1, 3, 2, 4 s).
set -euo pipefail
CAPTURE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIX=$(cd "$CAPTURE_DIR/../fixtures" && pwd)
export TZ=UTC
# shellcheck source=tests/capture/private_mariadb.sh
source "$CAPTURE_DIR/private_mariadb.sh"
start_private_mariadb /tmp/bl_mysql_uptime
mkdir -p "$FIX/global_status"
VER=$(db -N -B -e 'SELECT VERSION()' | sed 's/-.*//')
GS="$FIX/global_status/global_status_mariadb-${VER}"

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

madmin extended-status -r -i 3 -c 5 >"${GS}_mysqladmin-r-i3-c5.txt"
for pause in 1 3 2 4 0; do
  db -t -e 'SHOW GLOBAL STATUS' >>"$GS.loop.tmp"
  sleep "$pause"
done
mv "$GS.loop.tmp" "${GS}_table-loop-uneven-sleeps.txt"

for j in $(jobs -p); do [ "$j" = "$SERVER" ] || wait "$j" 2>/dev/null || true; done
echo "captured with MariaDB $VER:"
ls -l "${GS}_mysqladmin-r-i3-c5.txt" "${GS}_table-loop-uneven-sleeps.txt"
