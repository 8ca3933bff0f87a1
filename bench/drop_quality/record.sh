#!/bin/bash
# Record the drop-quality corpus: sysbench oltp_read_write on a private MariaDB, each run captured
# by `benchlens record` (vmstat, iostat, mpstat, MySQL snapshots every 2 s), with one disturbance
# injected at a known time by disturb.sh, or none (the quiet runs).
#
#   bench/drop_quality/record.sh            # ~13 min; rewrites runs/ and truth/ next to this file
#   RUNS="quiet-1 cpu-hogs" bench/drop_quality/record.sh    # only these
#
# Needs root, mariadb-server, sysbench, sysstat, procps and the project installed (BENCHLENS=
# path of the benchlens command, default .venv/bin/benchlens). Private server: own datadir and
# socket under /tmp, no networking; the EXIT trap stops it and removes its files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BENCHLENS=${BENCHLENS:-$root/.venv/bin/benchlens}
RUNS=${RUNS:-"quiet-1 disk-burst quiet-2 cpu-hogs read-lock quiet-3 small-pool"}
DURATION=${DURATION:-75}
base=/tmp/bl_drop_quality
sock=$base/mysqld.sock
export TZ=UTC LC_ALL=C.UTF-8

[ "$(id -u)" = 0 ] || { echo "run as root" >&2; exit 1; }
stop() {
  mariadb-admin -uroot -S "$sock" shutdown 2>/dev/null || { [ -f "$base/pid" ] && kill "$(cat "$base/pid")"; } || true
  sleep 1
  rm -rf "$base"
}
trap stop EXIT
rm -rf "$base" && mkdir -p "$base/scratch"
mariadb-install-db --no-defaults --datadir="$base/data" --user=root >/dev/null
mariadbd --no-defaults --user=root --datadir="$base/data" --socket="$sock" --pid-file="$base/pid" \
  --skip-networking --innodb-buffer-pool-size=128M --performance-schema=ON >"$base/err.log" 2>&1 &
for _ in $(seq 60); do [ -S "$sock" ] && break; sleep 0.5; done
mariadb -uroot -S "$sock" -e "CREATE DATABASE sbtest"
SB=(sysbench oltp_read_write --db-driver=mysql --mysql-socket="$sock" --mysql-user=root --tables=4 --table-size=20000)
"${SB[@]}" prepare >/dev/null

q() { mariadb -uroot -S "$sock" -N -B -e "$1"; }
# settle: write back the dirty pages left by the previous step, so that every run starts from the
# same clean state. Without it the first run after `prepare` met a real InnoDB flushing stall
# (checkpoint age 13 -> 38 MB, TPS -36% for 9 s) that no disturbance had caused.
settle() {
  local dirty
  q "SET GLOBAL innodb_max_dirty_pages_pct = 0"
  for _ in $(seq 240); do
    dirty=$(q "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_pages_dirty'" | cut -f2)
    [ "$dirty" -lt 20 ] && break
    sleep 0.5
  done
  q "SET GLOBAL innodb_max_dirty_pages_pct = 90"
  printf 'dirty_pages_at_start\t%s\n' "$dirty" >>"$1"
  sleep 5
}
# A discarded warm-up run: caches, adaptive hash index and the purge thread reach their steady state.
"${SB[@]}" --threads=4 --time=30 run >/dev/null

mkdir -p "$here/runs" "$here/truth"
for name in $RUNS; do
  scenario=${name%-[0-9]}
  out=$here/runs/$name truth=$here/truth/$name.tsv
  rm -rf "$out"; : >"$truth"
  settle "$truth"
  printf 'scenario\t%s\nload_before\t%s\n' "$scenario" "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$truth"
  echo "$(date -u +%T) $name" >&2
  "$BENCHLENS" record "$out" --mysql "-uroot -S $sock" --snapshot-every 2 -- \
    "$here/disturb.sh" "$scenario" "$truth" "$sock" "$base/scratch" -- \
    "${SB[@]}" --threads=4 --time="$DURATION" --report-interval=1 run >/dev/null
  printf 'load_after\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$truth"
done
