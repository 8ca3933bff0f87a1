#!/bin/bash
# One run folder with every system source recorded together (issue 13): sadc's binary file and
# `sar -A` printed from it, pidstat, a pt-stalk-style /proc/diskstats loop, and a sysbench log
# (sysbench cpu, 2 threads, --report-interval=1) run by `benchlens record` (which adds vmstat,
# iostat, mpstat and benchlens-run.json with the benchmark's start: on a busy shared machine no
# load onset shows in the CPU series), with a direct-I/O writer beside it so the disk moves.
#
#   bash tests/capture/allsources.sh OUT_FOLDER [LOAD_SECONDS]   (benchlens on PATH or BENCHLENS=...)
set -euo pipefail
OUT=$(realpath -m "${1:?usage: allsources.sh OUT_FOLDER [LOAD_SECONDS]}")
LOAD=${2:-40}
SETTLE=10
TOTAL=$((LOAD + 2 * SETTLE))
mkdir -p "$OUT"
cd "$OUT"
export LC_ALL=C TZ=UTC
/usr/lib/sysstat/sadc -S XALL 1 "$TOTAL" sa.bin &
SADC=$!
pidstat -u -d -r -w 1 "$TOTAL" >pidstat.txt &
PIDSTAT=$!
( for _ in $(seq "$TOTAL"); do date +"TS %s.%N %F %T"; cat /proc/diskstats; sleep 1; done ) >diskstats.txt &
LOOP=$!
sleep "$SETTLE"
dd if=/dev/zero of=/tmp/allsources-writer.tmp bs=1M count=$((LOAD * 8)) oflag=direct status=none &
DD=$!
# benchlens record writes into an empty folder: its files join the others afterwards
"${BENCHLENS:-benchlens}" record "$OUT.record" --interval 1 -- sysbench cpu --threads=2 --time="$LOAD" --report-interval=1 run
wait "$DD"
mv "$OUT.record"/* . && rmdir "$OUT.record"
rm -f /tmp/allsources-writer.tmp
wait "$SADC" "$PIDSTAT" "$LOOP"
sar -A -f sa.bin >sar-A.txt
printf 'sadc -S XALL 1 %s sa.bin; sar -A -f sa.bin > sar-A.txt\npidstat -u -d -r -w 1 %s\n' "$TOTAL" "$TOTAL" >commands.txt
printf 'TS loop of /proc/diskstats every 1 s; benchlens record -- sysbench cpu --threads=2 --time=%s --report-interval=1 run\n' "$LOAD" >>commands.txt
