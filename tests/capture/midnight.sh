#!/bin/bash
# mpstat -P ALL across midnight with libfaketime: the fake clock starts at 23:59:57 and
# advances at normal speed, so reports 3.. are stamped 00:00:xx of the next day.
. "$(dirname "$0")/common.sh"
START=${START:-2026-11-22 23:59:57}
load 7
for s in C en_US; do
  out=$FIX/mpstat/mpstat_${SYSSTAT_VER}_${s}_midnight.txt
  run_styled "$s" faketime -f "@$START" mpstat -P ALL 1 6 >"$out" 2>&1 &
  note "${out#"$FIX"/}" "TZ=$TZ ${STYLE_ENV[$s]}" "faketime -f '@$START' mpstat -P ALL 1 6"
done
wait
