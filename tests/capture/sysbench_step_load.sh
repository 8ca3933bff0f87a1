#!/bin/bash
# Real sysbench step loads for the load-step summaries: `sysbench cpu` at 1, 2, 4 and 8 threads, one
# run after the other into one log (how step loads are usually captured), for two configurations
# (--cpu-max-prime 10000 and 20000, i.e. events twice as expensive). No server needed.
# Waits for a quiet machine first (no /tmp/benchlens-recording.lock, 1-min load < $QUIET, at most
# $WAIT_S seconds) and prints the load averages before and after: on 2 CPUs, foreign load shows up as
# a 2-thread step no faster than the 1-thread one.
# Usage: tests/capture/sysbench_step_load.sh [OUT_DIR]    (default tests/fixtures/sysbench)
# Writes OUT_DIR/sysbench_<ver>_C_cpu-step-load-prime<P>.txt
set -euo pipefail
OUT=${1:-"$(cd "$(dirname "$0")/.." && pwd)/fixtures/sysbench"}
QUIET=${QUIET:-0.7}
WAIT_S=${WAIT_S:-1800}
STEP_S=${STEP_S:-10}
command -v sysbench >/dev/null || { echo "missing: sysbench (apt-get install sysbench)" >&2; exit 1; }
VER=$(sysbench --version | awk '{print $2}')

for _ in $(seq 1 $((WAIT_S / 10))); do
  load1=$(cut -d' ' -f1 /proc/loadavg)
  if [ ! -e /tmp/benchlens-recording.lock ] && awk "BEGIN{exit !($load1 < $QUIET)}"; then break; fi
  sleep 10
done
echo "start $(date -u +%FT%TZ), load averages $(cut -d' ' -f1-3 /proc/loadavg)"
for prime in 10000 20000; do
  out=$OUT/sysbench_${VER}_C_cpu-step-load-prime${prime}.txt
  env -i PATH=/usr/bin:/bin TZ=UTC LC_ALL=C.UTF-8 bash -c "
    for threads in 1 2 4 8; do
      sysbench cpu --cpu-max-prime=$prime --threads=\$threads --time=$STEP_S --report-interval=1 run
    done" >"$out" 2>&1
  echo "$out: $(grep -c '^\[' "$out") reports"
done
echo "end $(date -u +%FT%TZ), load averages $(cut -d' ' -f1-3 /proc/loadavg)"
