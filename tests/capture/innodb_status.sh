#!/bin/bash
# SHOW ENGINE INNODB STATUS fixtures from a private, throw-away MariaDB server.
# Usage (as root, Debian 12 with mariadb-server + mariadb-client): tests/capture/innodb_status.sh
# Writes tests/fixtures/innodb_status/innodb_status_<version>_mariadb_<variant>.txt
#
# The server runs with its own datadir, socket and pid file under $BASE, no TCP port
# (--skip-networking) and --no-defaults (no /etc/mysql config), so any other MariaDB on the
# machine is never touched. It is shut down and its datadir deleted on exit, whatever happens.
set -eu
CAPTURE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIX=$(cd "$CAPTURE_DIR/../fixtures" && pwd)/innodb_status
BASE=${BASE:-/tmp/bl_innodb_status}
DATA=$BASE/data
SOCK=$BASE/mysqld.sock
export TZ=UTC
mkdir -p "$FIX"

if [ -e "$BASE" ]; then
  echo "$BASE exists: a previous capture did not clean up; check it and remove it" >&2
  exit 1
fi
mkdir -p "$BASE"
chown mysql:mysql "$BASE"

SERVER_PID=
LOAD_PID=
cleanup() {
  [ -n "$LOAD_PID" ] && kill "$LOAD_PID" 2>/dev/null && wait "$LOAD_PID" 2>/dev/null
  if [ -n "$SERVER_PID" ]; then
    mariadb-admin --no-defaults -S "$SOCK" -u root shutdown 2>/dev/null || kill "$SERVER_PID" 2>/dev/null
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$BASE"
}
trap cleanup EXIT

mariadb-install-db --no-defaults --user=mysql --datadir="$DATA" --skip-test-db \
  --auth-root-authentication-method=socket >"$BASE/install.log" 2>&1
mariadbd --no-defaults --user=mysql --datadir="$DATA" --socket="$SOCK" --pid-file="$BASE/mysqld.pid" \
  --log-error="$BASE/mysqld.err" --skip-networking --innodb-buffer-pool-size=64M \
  --innodb-log-file-size=24M &   # a small redo log: checkpoints (and page writes) happen during the capture
SERVER_PID=$!

sql() { mariadb --no-defaults -S "$SOCK" -u root "$@"; }
for _ in $(seq 60); do
  sql -e 'SELECT 1' >/dev/null 2>&1 && break
  sleep 0.5
done
VER=$(sql -N -B -e 'SELECT VERSION()')   # e.g. 10.11.19-MariaDB-0+deb12u1
V=${VER%%-*}
echo "server $VER (pid $SERVER_PID), socket $SOCK"

sql -e "CREATE DATABASE bl; CREATE TABLE bl.t (id INT AUTO_INCREMENT PRIMARY KEY, k INT, pad CHAR(200), KEY (k)) ENGINE=InnoDB"

# load SECONDS: INSERTs and UPDATEs in a loop that stops by itself.
load() {
  local end=$((SECONDS + $1))
  while [ $SECONDS -lt "$end" ]; do
    sql bl -e "INSERT INTO t (k, pad) SELECT FLOOR(RAND()*1000), REPEAT('x', 200) FROM seq_1_to_500;
               UPDATE t SET k = k + 1, pad = REPEAT('y', 200) WHERE k < 100;
               DELETE FROM t WHERE k > 990 LIMIT 100;"
  done
}

status_g() { sql -e 'SHOW ENGINE INNODB STATUS\G'; }
marker() { echo "TS $(date +%s.%N) $(date '+%F %T')"; }

# 1. five \G snapshots 1 s apart under write load, each preceded by a pt-stalk style TS marker
load 12 &
LOAD_PID=$!
sleep 3
out=$FIX/innodb_status_${V}_mariadb_G-TS-5x1s.txt
: >"$out"
for _ in 1 2 3 4 5; do
  { marker; status_g; } >>"$out"
  sleep 1
done

# 2. three bare snapshots 2 s apart, no markers (timed by their own headers only), still under load
out=$FIX/innodb_status_${V}_mariadb_bare-3x2s.txt
: >"$out"
for _ in 1 2 3; do
  sql -N -B -r -e 'SHOW ENGINE INNODB STATUS' | sed '1s/^InnoDB\t\t//' >>"$out"
  sleep 2
done
wait "$LOAD_PID" || true
LOAD_PID=

# 3. the same idle snapshot in three shapes, taken at the same second after the load stopped:
#    batch (-B: one line, literal \n escapes), \G, and bare text (-N -B -r, the `InnoDB<TAB><TAB>` cell prefix removed)
sleep 5
sql -B -e 'SHOW ENGINE INNODB STATUS' >"$FIX/innodb_status_${V}_mariadb_B.txt" &
p1=$!
status_g >"$FIX/innodb_status_${V}_mariadb_G.txt" &
p2=$!
sql -N -B -r -e 'SHOW ENGINE INNODB STATUS' | sed '1s/^InnoDB\t\t//' >"$FIX/innodb_status_${V}_mariadb_bare.txt" &
p3=$!
wait "$p1" "$p2" "$p3"   # never a bare `wait`: the server is a background job of this shell too

echo "captured with MariaDB $VER:"
ls -l "$FIX"/innodb_status_"${V}"_mariadb_*.txt
