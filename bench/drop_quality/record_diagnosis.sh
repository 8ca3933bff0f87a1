#!/bin/bash
# Record the issue-14 part of the drop-quality corpus: each disturbance with its expected resource
# class, short (12 s) or long (40 s, or lasting to the end of the run), on a smooth workload or a
# bursty one, plus a workload spike (a latency rise) and two pairs of runs that differ by one
# setting (for `benchlens diff`). Every run is captured by `benchlens record` on a private MariaDB
# 10.11 (tests/capture/private_mariadb.sh) with the synch and metadata-lock instruments on.
#
#   bench/drop_quality/record_diagnosis.sh                 # as root, ~40 min, every run below
#   RUNS="row-lock-short-smooth quiet-bursty" bench/drop_quality/record_diagnosis.sh   # only these
#
# Run table: name  scenario  class  length  workload  duration  at  len
#   smooth  sysbench oltp_read_write, 4 tables x 20,000 rows, 4 threads (~1,300 tps, steady)
#   bursty  sysbench oltp_read_write, 32 threads on one table of 10 rows (~230 tps in row-lock
#           convoys and deadlocks: per-second commits swing 175-285, like a TPC-C run's)
#   rated   sysbench oltp_read_write at a fixed 100 tps from 8 threads (the throughput rides out
#           load; at 250 tps a 16-client spike cut it to 160 on this shared machine: a drop)
# `len` past the benchmark's end makes a disturbance that lasts to the end of the run.
# The monitor and snapshot logs are gzip-compressed (the importers read gzip by content), the
# server's options go to my.cnf and its SHOW GLOBAL VARIABLES to global_variables.txt in the folder.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BENCHLENS=${BENCHLENS:-$root/.venv/bin/benchlens}
export TZ=UTC LC_ALL=C.UTF-8

TABLE="
row-lock-short-smooth     row-lock          locks       short smooth 75  30 12
row-lock-long-bursty      row-lock          locks       long  bursty 100 30 40
global-read-lock-long-smooth global-read-lock locks     long  smooth 100 30 40
purge-lag-long-smooth     purge-lag         purge       long  smooth 110 30 60
cpu-system-short-smooth   cpu-system        cpu         short smooth 75  30 12
cpu-system-long-bursty    cpu-system        cpu         long  bursty 100 30 40
cpu-user-end-smooth       cpu-user          cpu         long  smooth 90  40 52
cpu-user-short-bursty     cpu-user          cpu         short bursty 75  30 12
disk-writers-long-smooth  disk-writers      disk        long  smooth 100 30 40
disk-writers-end-bursty   disk-writers      disk        long  bursty 90  40 52
pool-shrink-long-smooth   pool-shrink       buffer_pool long  smooth 100 30 40
client-spike-rated        client-spike      workload    short rated  75  30 15
quiet-bursty              quiet             -           -     bursty 75  30 0
quiet-rated               quiet             -           -     rated  75  30 0
global-read-lock-end-bursty global-read-lock locks      long  bursty 75  30 12
table-lock-short-bursty   table-lock        locks       short bursty 75  30 12
disk-writers-short-bursty disk-writers      disk        short bursty 75  30 12
"
# Recorded and left out (README): flushing on either workload (the redo log at 16 MB held the
# checkpoint age at its sync point for 40 s with no loss of throughput: too few hot pages).
# global-read-lock-end-bursty was planned as a 12 s lock: waiting for it stalled the run to its end.
# pairs: name  setting (one mariadbd option; the rest as every run)
PAIRS="
pair-flushlog-1 --innodb-flush-log-at-trx-commit=1
pair-flushlog-2 --innodb-flush-log-at-trx-commit=2
pair-pool-128M  --innodb-buffer-pool-size=128M
pair-pool-16M   --innodb-buffer-pool-size=16M
"
ALL=$(awk 'NF {print $1}' <<<"$TABLE$PAIRS" | tr '\n' ' ')
RUNS=${RUNS:-$ALL}

[ "$(id -u)" = 0 ] || { echo "run as root" >&2; exit 1; }
# shellcheck source=tests/capture/private_mariadb.sh
source "$root/tests/capture/private_mariadb.sh"
OPTS=(--performance-schema=ON --innodb-buffer-pool-size=128M --innodb-lock-wait-timeout=120
  "--performance-schema-instrument=wait/synch/%=ON" "--performance-schema-instrument=wait/lock/metadata/sql/mdl=ON")

q() { db -N -B -e "$1"; }
sb() {  # sb WORKLOAD: the sysbench command line of that workload, one word a line
  local common=(--db-driver=mysql "--mysql-socket=$SOCK" --mysql-user=root)
  case $1 in
    smooth) printf '%s\n' sysbench oltp_read_write "${common[@]}" --tables=4 --table-size=20000 --threads=4 ;;
    rated) printf '%s\n' sysbench oltp_read_write "${common[@]}" --tables=4 --table-size=20000 --threads=8 --rate=100 ;;
    bursty) printf '%s\n' sysbench oltp_read_write "${common[@]}" --mysql-db=sbburst --tables=1 --table-size=10 --threads=32 ;;
  esac
}
server() {  # server [extra option]: a fresh private server with both schemas prepared and warmed
  [ -n "$SERVER" ] && _stop_private_mariadb && SERVER=""
  start_private_mariadb /tmp/bl_drop_quality_14 "${OPTS[@]}" "$@"
  mkdir -p "$BASE/scratch"
  q "CREATE DATABASE sbtest; CREATE DATABASE sbburst"
  mapfile -t s < <(sb smooth); "${ENV[@]}" "${s[@]}" prepare >/dev/null
  mapfile -t s < <(sb bursty); "${ENV[@]}" "${s[@]}" prepare >/dev/null
  mapfile -t s < <(sb smooth); "${ENV[@]}" "${s[@]}" --time=30 run >/dev/null  # discarded warm-up
  SERVER_OPTS=("${OPTS[@]}" "$@")
}
# settle: write back the previous run's dirty pages so that every run starts from the same state
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
finish() {  # finish FOLDER: the server's configuration beside the logs, the logs compressed
  local out=$1
  { echo "[mysqld]"; for o in "${SERVER_OPTS[@]}"; do echo "${o#--}"; done; } >"$out/my.cnf"
  db -B -e "SHOW GLOBAL VARIABLES" >"$out/global_variables.txt"
  for f in "$out"/*.log "$out/global_variables.txt"; do
    [ "$(basename "$f")" = bench.log ] || gzip -9 "$f"
  done
}
record_one() {  # record_one NAME SCENARIO CLASS LENGTH WORKLOAD DURATION AT LEN [SETTING]
  local name=$1 scenario=$2 class=$3 length=$4 workload=$5 duration=$6 at=$7 len=$8 setting=${9:-}
  local out=$here/runs/$name truth=$here/truth/$name.tsv cmd
  rm -rf "$out"; : >"$truth"
  settle "$truth"
  printf 'scenario\t%s\nclass\t%s\nlength\t%s\nworkload\t%s\n' "$scenario" "$class" "$length" "$workload" >>"$truth"
  [ -n "$setting" ] && printf 'setting\t%s\n' "$setting" >>"$truth"
  printf 'load_before\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$truth"
  echo "$(date -u +%T) $name" >&2
  mapfile -t cmd < <(sb "$workload")
  read -r tables size db_ < <(case $workload in bursty) echo 1 10 sbburst;; *) echo 4 20000 sbtest;; esac)
  AT=$at LEN=$len TABLES=$tables SIZE=$size DB=$db_ "$BENCHLENS" record "$out" --mysql "-uroot -S $SOCK" \
    --snapshot-every 2 -- "$here/disturb.sh" "$scenario" "$truth" "$SOCK" "$BASE/scratch" -- \
    "${cmd[@]}" --time="$duration" --report-interval=1 run >/dev/null
  printf 'load_after\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)" >>"$truth"
  finish "$out"
}

mkdir -p "$here/runs" "$here/truth"
started=""
for name in $RUNS; do
  row=$(awk -v n="$name" '$1 == n' <<<"$TABLE")
  if [ -n "$row" ]; then
    [ -z "$started" ] && server && started=1
    # shellcheck disable=SC2086
    record_one $row
    continue
  fi
  pair=$(awk -v n="$name" '$1 == n {print $2}' <<<"$PAIRS")
  [ -n "$pair" ] || { echo "unknown run $name" >&2; exit 2; }
  server "$pair"; started=""  # the next table run gets the common server again
  record_one "$name" quiet - - smooth 60 30 0 "${pair#--}"
done
