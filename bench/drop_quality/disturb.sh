#!/bin/bash
# disturb.sh SCENARIO TRUTH_FILE SOCKET SCRATCH_DIR -- BENCHMARK COMMAND...
# The benchmark command `benchlens record` runs for bench/drop_quality/record.sh: it starts the
# benchmark, injects one disturbance AT seconds later for about LEN seconds, and appends the
# true start and end (epoch seconds, measured around the disturbance itself) to TRUTH_FILE.
# The benchmark's output passes through untouched (it becomes bench.log); ours goes to stderr.
set -euo pipefail
scenario=$1 truth=$2 sock=$3 scratch=$4
shift 4
[ "$1" = -- ] && shift
AT=${AT:-30}

"$@" &
bench=$!
t_bench=$EPOCHREALTIME
sleep "$(python3 -c "import time; print(max(0, $t_bench + $AT - time.time()))")"

note() { printf '%s\t%s\n' "$1" "$2" >>"$truth"; }
until_() { python3 -c "import sys, time; sys.exit(time.time() >= $1)"; }

case $scenario in
  quiet) ;;
  disk-burst)   # two writers repeating 128 MiB O_DIRECT writes to the datadir's disk
    LEN=12; t0=$EPOCHREALTIME; note start "$t0"
    end=$(python3 -c "print($t0 + $LEN)") pids=()
    for j in 1 2; do
      ( i=0; while until_ "$end" && [ $i -lt 300 ]; do
          dd if=/dev/zero of="$scratch/burst$j.bin" bs=1M count=128 oflag=direct status=none; i=$((i + 1)); done
        rm -f "$scratch/burst$j.bin" ) & pids+=($!)
    done
    wait "${pids[@]}"
    note end "$EPOCHREALTIME" ;;
  cpu-hogs)     # six busy loops on a 2-CPU machine (sysbench runs 4 threads)
    LEN=12; t0=$EPOCHREALTIME; note start "$t0"
    pids=()
    for _ in 1 2 3 4 5 6; do timeout "$LEN" sh -c 'while :; do :; done' & pids+=($!); done
    wait "${pids[@]}" || true
    note end "$EPOCHREALTIME" ;;
  read-lock)    # a global read lock held 8 s: writers queue behind it
    out=$(mariadb -uroot -S "$sock" -N -B -e "FLUSH TABLES WITH READ LOCK; SELECT UNIX_TIMESTAMP(NOW(6));
      SELECT SLEEP(8); SELECT UNIX_TIMESTAMP(NOW(6)); UNLOCK TABLES;")
    note start "$(sed -n 1p <<<"$out")"; note end "$(sed -n 3p <<<"$out")" ;;
  small-pool)   # buffer pool shrunk online below the data size for ~15 s, then restored
    mb() { mariadb -uroot -S "$sock" -N -B -e "$1"; }
    status() { mb "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_resize_status'" | cut -f2; }
    wait_resized() { for _ in $(seq 600); do case $(status) in *omplet*|"") return;; esac; sleep 0.1; done; }
    t0=$EPOCHREALTIME
    mb "SET GLOBAL innodb_buffer_pool_size = 8*1024*1024"; wait_resized
    note requested "$t0"; note start "$EPOCHREALTIME"
    sleep 15
    t1=$EPOCHREALTIME
    mb "SET GLOBAL innodb_buffer_pool_size = 128*1024*1024"; wait_resized
    note end "$t1"; note restored "$EPOCHREALTIME"
    note pool "$(mb 'SELECT @@innodb_buffer_pool_size')" ;;
  *) echo "unknown scenario $scenario" >&2; kill "$bench"; exit 2 ;;
esac
wait "$bench"
