#!/usr/bin/env bash
# Capture SHOW GLOBAL STATUS restricted with LIKE (issue 22) from a private MariaDB with the
# RocksDB engine loaded, under a sysbench oltp_read_write load on an InnoDB and a RocksDB schema.
# The server is shut down and its directory deleted at the end.
#
#   bash tests/capture/status_like.sh     (as root, Debian 12: mariadb-server mariadb-client
#                                          mariadb-plugin-rocksdb sysbench)
#
# Writes tests/fixtures/global_status/global_status_mariadb-<ver>_like-*.txt.
set -euo pipefail
CAPTURE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIX=$(cd "$CAPTURE_DIR/../fixtures" && pwd)
export TZ=UTC
# shellcheck source=tests/capture/private_mariadb.sh
source "$CAPTURE_DIR/private_mariadb.sh"
start_private_mariadb /tmp/bl_status_like --plugin-load-add=ha_rocksdb
VER=$(db -N -B -e 'SELECT VERSION()' | sed 's/-.*//')
GS="$FIX/global_status/global_status_mariadb-${VER}"

db -e 'CREATE DATABASE sbinno; CREATE DATABASE sbrocks'
SB=(sysbench oltp_read_write --mysql-socket="$SOCK" --mysql-user=root --tables=2 --table-size=20000)
"${ENV[@]}" "${SB[@]}" --mysql-db=sbinno prepare >/dev/null
"${ENV[@]}" "${SB[@]}" --mysql-db=sbrocks --mysql-storage-engine=rocksdb prepare >/dev/null
("${ENV[@]}" "${SB[@]}" --mysql-db=sbinno --threads=2 --time=75 run >/dev/null 2>&1 || true) &
("${ENV[@]}" "${SB[@]}" --mysql-db=sbrocks --threads=2 --time=75 run >/dev/null 2>&1 || true) &
sleep 3

marker() { echo "TS $(date +%s.%N) $(date '+%F %T')"; }

for i in 1 2 3 4 5; do
  { marker; db -t -e "SHOW GLOBAL STATUS LIKE 'rocksdb%'"; } >>"$GS.rocks.tmp"
  { marker; db -t -e "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_read%'"; } >>"$GS.bpt.tmp"
  { marker; db -B -e "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_read%'"; } >>"$GS.bpb.tmp"
  { marker; db -e "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_read%'\G"; } >>"$GS.bpv.tmp"
  sleep 1
done
mv "$GS.rocks.tmp" "${GS}_like-rocksdb-table.txt"
mv "$GS.bpt.tmp" "${GS}_like-bp-read-table.txt"
mv "$GS.bpb.tmp" "${GS}_like-bp-read-batch.txt"
mv "$GS.bpv.tmp" "${GS}_like-bp-read-vertical.txt"

# A bare loop without markers (`while sleep 1; do mysql -e ...; done`): no times, no Uptime.
for i in 1 2 3 4; do db -t -e "SHOW GLOBAL STATUS LIKE 'rocksdb_rows%'"; sleep 1; done >"${GS}_like-rocksdb-rows-loop.txt"

for j in $(jobs -p); do [ "$j" = "$SERVER" ] || wait "$j" 2>/dev/null || true; done
echo "captured with MariaDB $VER:"
ls -l "$FIX"/global_status/*like*
