#!/bin/bash
# pt-stalk's /proc collectors, done as pt-stalk does them (its collect loop: a `TS <epoch> <date>`
# line, then the raw /proc file, once a second), then a diskstats loop with `iostat -x -t 1` over the same
# seconds for the diskstats cross-check (tests/importers/test_proc_collectors.py), read when iostat reads.
# Writes tests/fixtures/{diskstats,procstat,meminfo,procvmstat}/*.txt; run as root on Linux.
# shellcheck source=common.sh
. "$(dirname "$0")/common.sh"
N=${N:-25}
KERNEL=$(uname -r | cut -d- -f1)
DS="$FIX/diskstats/diskstats_${KERNEL}_dd-direct-write.txt"
PS="$FIX/procstat/procstat_${KERNEL}_busy-loop.txt"
MI="$FIX/meminfo/meminfo_${KERNEL}_dd-direct-write.txt"
VM="$FIX/procvmstat/procvmstat_${KERNEL}_dd-direct-write.txt"
mkdir -p "$FIX/diskstats" "$FIX/procstat" "$FIX/meminfo" "$FIX/procvmstat"

collect() {  # collect FILE /proc/x : pt-stalk's loop
  local out=$1 src=$2 i=0
  : >"$out"
  while [ $i -lt "$N" ]; do
    date +"TS %s.%N %F %T" >>"$out"  # pt-stalk: local ts="$(date +"TS %s.%N %F %T")"
    # diskstats: keep vda and one idle loop device (the others are all-zero copies of it)
    if [ "$src" = /proc/diskstats ]; then grep -E ' (vda|loop0|zram0) ' "$src" >>"$out"; else cat "$src" >>"$out"; fi
    sleep 1; i=$((i + 1))
  done
}

if [ -z "${SYNCED_ONLY:-}" ]; then
load $((N - 3))
collect "$DS" /proc/diskstats &
collect "$PS" /proc/stat &
collect "$MI" /proc/meminfo &
collect "$VM" /proc/vmstat &
wait
fi

# The cross-check pair: a diskstats loop read right when iostat reads (on each report's time line,
# which iostat prints after reading /proc/diskstats and flushes), so both see the same intervals
# to within a millisecond or so (the marker has microseconds: bash's $EPOCHREALTIME).
SDS="$FIX/diskstats/diskstats_${KERNEL}_iostat-synced.txt"
SIO="$FIX/diskstats/iostat_${SYSSTAT_VER}_C_x-t_synced.iostat.log"
: >"$SDS"
load $((N - 3))
run_styled C iostat -x -t 1 $((N + 1)) | while IFS= read -r line; do
  if [[ $line =~ ^[0-9][0-9]/[0-9][0-9]/[0-9][0-9]\ [0-9:]{8}$ ]]; then
    # bash builtins only (no fork between iostat's read and ours): $EPOCHREALTIME, printf %()T, mapfile
    mapfile -t disks </proc/diskstats
    printf -v now '%(%F %T)T' -1
    { echo "TS $EPOCHREALTIME $now"; printf '%s\n' "${disks[@]}" | grep -E ' (vda|loop0) '; } >>"$SDS"
  fi
  printf '%s\n' "$line"
done >"$SIO"
wait
