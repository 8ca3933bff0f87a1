#!/usr/bin/env bash
# Capture the configuration fixtures of issue 14 (format `config`), as root on Debian 12 with
# mariadb-server, mariadb-client and sysbench installed:
# - Debian's own option files as the packages ship them (mariadb-server 10.11, mysql-common);
# - SHOW GLOBAL VARIABLES of a private MariaDB started from an option file, in every client shape
#   (-t table, -B, -B -N, \G) and as two marker-timed snapshots with a SET GLOBAL between them;
# - two recorded runs (benchlens record + sysbench oltp_write_only, 8 s) of a server whose option
#   files differ by innodb_flush_log_at_trx_commit (1, 2) and spell the buffer pool size
#   differently (64M, 67108864): each folder holds its my.cnf and a SHOW GLOBAL VARIABLES capture.
#   bash tests/capture/config.sh
set -euo pipefail
CAPTURE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
HERE=$(cd "$CAPTURE_DIR/../.." && pwd)
FIX=$HERE/tests/fixtures
OUT=$FIX/config
export TZ=UTC
ENV=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TZ=UTC LC_ALL=C.UTF-8)
BASE=/tmp/bl_config
SOCK=$BASE/mysqld.sock
SERVER=""
mkdir -p "$OUT"

cp /etc/mysql/mariadb.cnf "$OUT/config_debian12_mariadb.cnf.txt"
cp /etc/mysql/mariadb.conf.d/50-server.cnf "$OUT/config_debian12_mariadb-10.11_50-server.cnf.txt"
cp /etc/mysql/my.cnf.fallback "$OUT/config_debian12_mysql-common_my.cnf.fallback.txt"

stop() {
  if [ -n "$SERVER" ]; then
    "${ENV[@]}" mariadb-admin --no-defaults -S "$SOCK" -uroot shutdown 2>/dev/null || kill "$SERVER" 2>/dev/null || true
    for _ in $(seq 60); do kill -0 "$SERVER" 2>/dev/null || break; sleep 0.5; done
    SERVER=""
  fi
  rm -rf "$BASE"
}
trap stop EXIT
start() {  # start OPTION_FILE: a fresh server whose options come from that file only
  rm -rf "$BASE" && mkdir -p "$BASE" && chown mysql:mysql "$BASE"
  mariadb-install-db --no-defaults --user=mysql --datadir="$BASE/data" --auth-root-authentication-method=socket >"$BASE/install.log" 2>&1
  mariadbd --defaults-file="$1" --user=mysql >/dev/null 2>&1 &
  SERVER=$!
  for _ in $(seq 60); do [ -S "$SOCK" ] && break; sleep 0.5; done
  [ -S "$SOCK" ] || { echo "server did not start" >&2; exit 1; }
}
db() { "${ENV[@]}" mariadb --no-defaults -S "$SOCK" -uroot "$@"; }
write_cnf() {  # write_cnf FILE TRX_COMMIT POOL_SPELLING
  cat >"$1" <<CNF
# private benchmark server (tests/capture/config.sh)
[client-server]
socket = $SOCK

[mysqld]
datadir = $BASE/data
pid-file = $BASE/mysqld.pid
log-error = $BASE/error.log
skip-networking
$3
innodb_log_file_size = 24M
innodb_flush_log_at_trx_commit = $2
innodb-flush-method = O_DIRECT   # no double buffering
max_connections = 50
character-set-server = "utf8mb4"
performance_schema = ON
!include $BASE/extra.cnf
CNF
}

# every client shape of SHOW GLOBAL VARIABLES
write_cnf "$OUT/config_private_my.cnf.txt" 2 "innodb_buffer_pool_size = 64M"
start "$OUT/config_private_my.cnf.txt"
VER=$(db -N -B -e 'SELECT VERSION()' | sed 's/-.*//')
V=$OUT/config_mariadb-${VER}_variables
db -t -e 'SHOW GLOBAL VARIABLES' >"${V}_table.txt"
db -B -e 'SHOW GLOBAL VARIABLES' >"${V}_batch.txt"
db -B -N -e 'SHOW GLOBAL VARIABLES' >"${V}_batch-N.txt"
db -e 'SHOW GLOBAL VARIABLES\G' >"${V}_vertical.txt"
marker() { echo "TS $(date +%s.%N) $(date '+%F %T')"; }
{ marker; db -B -e 'SHOW GLOBAL VARIABLES'; } >"${V}_snapshots-set-global.txt"
db -e 'SET GLOBAL innodb_flush_log_at_trx_commit = 0, GLOBAL max_connections = 80'
sleep 1
{ marker; db -B -e 'SHOW GLOBAL VARIABLES'; } >>"${V}_snapshots-set-global.txt"
stop

# two runs that differ by one setting
for n in 1 2; do
  run=$FIX/runs/config_trx_commit_$n
  rm -rf "$run"
  mkdir -p "$BASE.cnf"
  pool="innodb_buffer_pool_size = 64M"
  [ "$n" = 2 ] && pool="innodb-buffer-pool-size=67108864"
  write_cnf "$BASE.cnf/my.cnf" "$n" "$pool"
  start "$BASE.cnf/my.cnf"
  db -e 'CREATE DATABASE sbtest'
  "${ENV[@]}" sysbench oltp_write_only --db-driver=mysql --mysql-socket="$SOCK" --mysql-user=root --tables=2 --table-size=10000 prepare >/dev/null
  sleep 2
  "$HERE/.venv/bin/benchlens" record "$run" --mysql "-uroot -S $SOCK" --snapshot-every 2 -- \
    sysbench oltp_write_only --db-driver=mysql --mysql-socket="$SOCK" --mysql-user=root --tables=2 \
    --table-size=10000 --threads=2 --time=8 --report-interval=1 run
  cp "$BASE.cnf/my.cnf" "$run/my.cnf"
  db -B -e 'SHOW GLOBAL VARIABLES' >"$run/variables.txt"
  stop
  rm -rf "$BASE.cnf"
done
ls -l "$OUT" "$FIX/runs/config_trx_commit_1" "$FIX/runs/config_trx_commit_2"
