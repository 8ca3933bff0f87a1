#!/usr/bin/env bash
# Record tests/fixtures/diagnosis/three_disturbances: one `benchlens record` run of sysbench
# oltp_read_write on a private MariaDB with four disturbances injected at known times, for the
# explanation tests (tests/analysis/test_diagnosis_recorded.py). Not part of bench/drop_quality.
#
#   tests/capture/diagnosis_disturbances.sh [OUT]      # as root, ~3 min
#
#   at  30 s  FLUSH TABLES WITH READ LOCK held 10 s          -> locks (MDL wait, Com_flush)
#   at  60 s  four `dd if=/dev/zero of=/dev/null` for 12 s   -> cpu (kernel time: system CPU)
#   at  90 s  two writers of 128 MiB O_DIRECT for 12 s        -> disk
#   at 120 s  six busy loops for 12 s                         -> cpu (user time)
#
# The true start and end of each (epoch s, measured around the disturbance) go to OUT.truth.tsv.
# The monitor and snapshot logs are gzip-compressed afterwards (the importers read gzip by content) to keep
# the fixture small.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$here/tests/fixtures/diagnosis/three_disturbances}
truth=$out.truth.tsv
# shellcheck source=tests/capture/private_mariadb.sh
source "$here/tests/capture/private_mariadb.sh"
# synch instruments on: MariaDB times no mutex, rw-lock or condition wait by default, and the global
# read lock shows only as the metadata-lock condition wait (MDL_context::COND_wait_status)
start_private_mariadb /tmp/bl_diagnosis --performance-schema=ON --innodb-buffer-pool-size=128M \
  "--performance-schema-instrument=wait/synch/%=ON"
db -e "CREATE DATABASE sbtest"
SB=(sysbench oltp_read_write --db-driver=mysql --mysql-socket="$SOCK" --mysql-user=root --tables=4 --table-size=20000)
"${ENV[@]}" "${SB[@]}" prepare >/dev/null
"${ENV[@]}" "${SB[@]}" --threads=4 --time=20 run >/dev/null   # warm caches, discarded
sleep 5
rm -rf "$out" && mkdir -p "$(dirname "$out")" && : >"$truth"

note() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$truth"; }
disturb() {  # runs beside the benchmark, which `benchlens record` starts at about the same moment
  local t0 t1 end pids
  sleep 30
  out_=$(db -N -B -e "FLUSH TABLES WITH READ LOCK; SELECT UNIX_TIMESTAMP(NOW(6)); SELECT SLEEP(10);
    SELECT UNIX_TIMESTAMP(NOW(6)); UNLOCK TABLES;")
  note read-lock "$(sed -n 1p <<<"$out_")" "$(sed -n 3p <<<"$out_")"
  sleep 18
  t0=$EPOCHREALTIME; pids=()
  for _ in 1 2 3 4; do timeout 12 dd if=/dev/zero of=/dev/null bs=64k status=none & pids+=($!); done
  wait "${pids[@]}" || true
  note cpu-system "$t0" "$EPOCHREALTIME"
  sleep 18
  t0=$EPOCHREALTIME; end=$(python3 -c "print($t0 + 12)"); pids=()
  for j in 1 2; do
    ( while python3 -c "import sys, time; sys.exit(time.time() >= $end)"; do
        dd if=/dev/zero of="$BASE/burst$j.bin" bs=1M count=128 oflag=direct status=none; done
      rm -f "$BASE/burst$j.bin" ) & pids+=($!)
  done
  wait "${pids[@]}"
  note disk-burst "$t0" "$EPOCHREALTIME"
  sleep 18
  t0=$EPOCHREALTIME; pids=()
  for _ in 1 2 3 4 5 6; do timeout 12 sh -c 'while :; do :; done' & pids+=($!); done
  wait "${pids[@]}" || true
  t1=$EPOCHREALTIME
  note cpu-user "$t0" "$t1"
}
disturb &
dpid=$!
"${BENCHLENS:-$here/.venv/bin/benchlens}" record "$out" --mysql "-uroot -S $SOCK" --snapshot-every 2 -- \
  "${SB[@]}" --threads=4 --time=160 --report-interval=1 run >/dev/null
wait "$dpid"
for f in "$out"/*.log; do
  [ "$(basename "$f")" = bench.log ] && continue
  [ -f "$f" ] && gzip -9 "$f"
done
cat "$truth"
