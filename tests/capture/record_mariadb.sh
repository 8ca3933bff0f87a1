#!/usr/bin/env bash
# Record tests/fixtures/runs/recorded_mariadb_oltp with `benchlens record` around sysbench
# oltp_read_write on a private MariaDB (own datadir and socket, no network), then stop it.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$here/tests/fixtures/runs/recorded_mariadb_oltp}
base=/tmp/bl_record_mariadb
sock=$base/mysqld.sock
rm -rf "$base" && mkdir -p "$base"
stop() {  # whatever happens, the private server goes away with its files
  mysqladmin -uroot -S "$sock" shutdown 2>/dev/null || { [ -f "$base/pid" ] && kill "$(cat "$base/pid")"; } || true
  sleep 1
  rm -rf "$base"
}
trap stop EXIT
mariadb-install-db --no-defaults --datadir="$base/data" --user=root >/dev/null
mariadbd --no-defaults --user=root --datadir="$base/data" --socket="$sock" --pid-file="$base/pid" \
  --skip-networking --innodb-buffer-pool-size=64M --innodb-log-file-size=24M --performance-schema=ON \
  >"$base/err.log" 2>&1 &
for _ in $(seq 60); do [ -S "$sock" ] && break; sleep 0.5; done
mysql -uroot -S "$sock" -e "CREATE DATABASE sbtest"
sysbench oltp_read_write --db-driver=mysql --mysql-socket="$sock" --mysql-user=root --tables=2 --table-size=20000 prepare >/dev/null
sleep 3  # let the machine settle: the monitors must see idle before the load
rm -rf "$out"
"${BENCHLENS:-$here/.venv/bin/benchlens}" record "$out" --mysql "-uroot -S $sock" --snapshot-every 2 -- \
  sysbench oltp_read_write --db-driver=mysql --mysql-socket="$sock" --mysql-user=root --tables=2 \
  --table-size=20000 --threads=2 --time=20 --report-interval=1 run
