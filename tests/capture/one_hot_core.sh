#!/usr/bin/env bash
# tests/fixtures/runs/one_hot_core (issue 25): what the aggregate hides, recorded on this 2-CPU VM.
# mpstat -P ALL 1, sar -P ALL 1 and iostat -x 1 for 60 s; from 10 s to 35 s a single-threaded hog
# pinned to CPU 1 (taskset); from 40 s to 55 s a UDP flood over loopback, sender and receiver pinned
# to CPU 0, so that CPU does the network stack's softirq work. Bash, util-linux, sysstat, socat.
#
#   bash tests/capture/one_hot_core.sh
set -euo pipefail
OUT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../fixtures" && pwd)/runs/one_hot_core
mkdir -p "$OUT"
E=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TZ=UTC LC_ALL=C.UTF-8)
"${E[@]}" mpstat -P ALL 1 60 >"$OUT/mpstat.log" & M=$!
"${E[@]}" sar -P ALL 1 60 >"$OUT/sar.log" & S=$!
"${E[@]}" iostat -x -t 1 60 >"$OUT/iostat.log" & I=$!
sleep 10
timeout 25 taskset -c 1 sh -c 'while :; do :; done' || true
sleep 5
timeout 15 taskset -c 0 socat -u UDP-RECV:47999 /dev/null & R=$!
sleep 0.2
timeout 15 taskset -c 0 socat -u /dev/zero UDP-SENDTO:127.0.0.1:47999 || true
wait $R || true
wait $M $S $I
