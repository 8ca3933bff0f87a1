#!/bin/bash
# Real run folders: the three tools started in the same second, stopped together by
# SIGINT (timeout -s INT, like a wrapper script ending a benchmark), a load burst in the middle.
#   runs/c_basic : vmstat -t 1, iostat -x -t 1, mpstat -P ALL 1   ~15 s, burst at 5..10 s
#   runs/notimes : vmstat 1,    iostat -x 1,    mpstat -P ALL 1   ~8 s,  burst at 3..6 s
. "$(dirname "$0")/common.sh"

sync_second() { sleep "$(python3 -c 'import time; print(1.02 - time.time() % 1)')"; }

# run3 DIR SECS BURST_AT BURST_LEN VMSTAT_ARGS IOSTAT_ARGS MPSTAT_ARGS
run3() {
  local dir=$FIX/runs/$1 secs=$2 at=$3 len=$4
  mkdir -p "$dir"; rm -f "$dir"/*.log
  sync_second
  ( sleep "$at"; load "$len"; wait ) &
  run_styled C timeout -s INT "$secs" vmstat $5 >"$dir/vmstat.log" &
  run_styled C timeout -s INT "$secs" iostat $6 >"$dir/iostat.log" &
  run_styled C timeout -s INT "$secs" mpstat $7 >"$dir/mpstat.log" &
  for t in "vmstat $5" "iostat $6" "mpstat $7"; do
    note "runs/$1/${t%% *}.log" "TZ=$TZ LC_ALL=C.UTF-8" "timeout -s INT $secs $t  (3 tools started in the same second; load burst at ${at}s for ${len}s)"
  done
  wait
}

run3 c_basic 15.5 5 5 "-t 1" "-x -t 1" "-P ALL 1"
run3 notimes 8.5 3 3 "1" "-x 1" "-P ALL 1"
