#!/usr/bin/env bash
# A run folder holding the same snapshot loops twice (issue 12): SHOW GLOBAL STATUS every second as
# a table (`mysql -t`) and as `mysql -B` TSV, one right after the other in one loop (a few ms apart,
# two files), and `iostat -x -t 1` run twice at once, under a bounded load on a private MariaDB (tests/capture/private_mariadb.sh).
#
#   bash tests/capture/duplicate_loops.sh OUT     (as root, Debian 12: mariadb-server mariadb-client)
set -euo pipefail
OUT=${1:?usage: duplicate_loops.sh OUT}
CAPTURE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export TZ=UTC LC_ALL=C
# shellcheck source=tests/capture/private_mariadb.sh
source "$CAPTURE_DIR/private_mariadb.sh"
start_private_mariadb /tmp/bl_dup_loops
mkdir -p "$OUT"
db -e 'CREATE DATABASE bl; CREATE TABLE bl.t (id INT AUTO_INCREMENT PRIMARY KEY, k INT NOT NULL, pad CHAR(100) NOT NULL, KEY (k)) ENGINE=InnoDB'
db -e "INSERT INTO bl.t (k, pad) SELECT seq % 1000, REPEAT('x', 100) FROM bl.seq_1_to_20000"
awk 'BEGIN { for (i = 1; i <= 300000; i++) {
    id = (i * 7919) % 20000 + 1
    if (i % 2) printf "UPDATE bl.t SET k = k + 1 WHERE id = %d;\n", id
    else printf "SELECT SUM(k) FROM bl.t WHERE id BETWEEN %d AND %d;\n", id, id + 50 } }' >"$BASE/load.sql"
(timeout 14 "${ENV[@]}" mariadb --no-defaults -S "$SOCK" -uroot <"$BASE/load.sql" >/dev/null 2>&1 || true) &
LOAD=$!
loop() {  # 12 snapshots 1 s apart, each taken twice in a row: as a table and as -B TSV, behind pt-stalk markers
  for _ in $(seq 12); do
    echo "TS $(date +%s.%N) $(date '+%F %T')" >>"$OUT/status_table.log"
    db -t -e 'SHOW GLOBAL STATUS' >>"$OUT/status_table.log"
    echo "TS $(date +%s.%N) $(date '+%F %T')" >>"$OUT/status_tsv.log"
    db -B -e 'SHOW GLOBAL STATUS' >>"$OUT/status_tsv.log"
    sleep 1
  done
}
iostat -x -t 1 12 >"$OUT/iostat.log" &
A=$!
iostat -x -t 1 12 >"$OUT/iostat-copy.log" &
B=$!
loop
wait "$A" "$B" "$LOAD"  # not the server: it is stopped on exit
