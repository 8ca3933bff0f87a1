#!/usr/bin/env bash
# Record tests/fixtures/diagnosis/bursty_long_drops: a bursty, low-throughput run (sysbench at a
# fixed arrival rate of 15 transactions/s from 16 threads: per-second commits swing like a TPC-C
# run's) with long disturbances, for bench/detection_quality.py and the detection tests.
#
#   tests/capture/diagnosis_bursty.sh [OUT]      # as root, ~3 min
#
#   at  30 s  FLUSH TABLES WITH READ LOCK held 45 s            -> a long stall at 0 commits/s
#   at 115 s  two writers of 128 MiB O_DIRECT to the end (150 s) -> a drop lasting to the end
#
# True start and end (epoch s) in OUT.truth.tsv; every log but bench.log gzip-compressed.
set -euo pipefail
here=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-$here/tests/fixtures/diagnosis/bursty_long_drops}
truth=$out.truth.tsv
# shellcheck source=tests/capture/private_mariadb.sh
source "$here/tests/capture/private_mariadb.sh"
start_private_mariadb /tmp/bl_diagnosis_bursty --performance-schema=ON --innodb-buffer-pool-size=128M
db -e "CREATE DATABASE sbtest"
SB=(sysbench oltp_read_write --db-driver=mysql --mysql-socket="$SOCK" --mysql-user=root --tables=4 --table-size=20000)
"${ENV[@]}" "${SB[@]}" prepare >/dev/null
"${ENV[@]}" "${SB[@]}" --threads=4 --time=20 run >/dev/null   # warm caches, discarded
sleep 5
rm -rf "$out" && mkdir -p "$(dirname "$out")" && : >"$truth"

note() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$truth"; }
disturb() {
  local t0 end pids
  sleep 30
  out_=$(db -N -B -e "FLUSH TABLES WITH READ LOCK; SELECT UNIX_TIMESTAMP(NOW(6)); SELECT SLEEP(45);
    SELECT UNIX_TIMESTAMP(NOW(6)); UNLOCK TABLES;")
  note read-lock-45s "$(sed -n 1p <<<"$out_")" "$(sed -n 3p <<<"$out_")"
  sleep 40
  t0=$EPOCHREALTIME; end=$(python3 -c "print($t0 + 40)"); pids=()
  for j in 1 2; do
    ( while python3 -c "import sys, time; sys.exit(time.time() >= $end)"; do
        dd if=/dev/zero of="$BASE/burst$j.bin" bs=1M count=128 oflag=direct status=none; done
      rm -f "$BASE/burst$j.bin" ) & pids+=($!)
  done
  wait "${pids[@]}"
  note disk-to-the-end "$t0" "$EPOCHREALTIME"
}
disturb &
dpid=$!
"${BENCHLENS:-$here/.venv/bin/benchlens}" record "$out" --mysql "-uroot -S $SOCK" --snapshot-every 2 -- \
  "${SB[@]}" --threads=16 --rate=15 --time=150 --report-interval=1 run >/dev/null
wait "$dpid"
for f in "$out"/*.log; do
  [ "$(basename "$f")" = bench.log ] && continue
  [ -f "$f" ] && gzip -9 "$f"
done
cat "$truth"
