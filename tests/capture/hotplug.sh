#!/bin/bash
# iostat -x -t while a block device appears and disappears mid-capture:
# loop42 is created (LOOP_CTL_ADD) ~2.5 s after the start, written to, then detached and
# deleted (LOOP_CTL_REMOVE) ~3.5 s later, so /sys/block/loop42 really vanishes.
. "$(dirname "$0")/common.sh"

img=$(mktemp /tmp/benchlens_hot.XXXXXX)
truncate -s 64M "$img"
for s in C de_DE; do
  out=$FIX/iostat/iostat_${SYSSTAT_VER}_${s}_device-hotplug.txt
  run_styled "$s" iostat -x -t 1 9 >"$out" &
  note "${out#"$FIX"/}" "TZ=$TZ ${STYLE_ENV[$s]}" "iostat -x -t 1 9  (loop42 added at ~2.5 s, removed at ~6 s)"
done
sleep 2.5
date +'loop42 added   %T.%N' >&2
"$CAPTURE_DIR/loopctl.py" add 42 && losetup /dev/loop42 "$img"
for i in 1 2 3 4 5 6; do
  dd if=/dev/zero of=/dev/loop42 bs=1M count=16 oflag=direct conv=nocreat status=none
  dd if=/dev/loop42 of=/dev/null bs=1M count=8 iflag=direct status=none
  sleep 0.5
done
losetup -d /dev/loop42; sleep 0.2
"$CAPTURE_DIR/loopctl.py" remove 42
date +'loop42 removed %T.%N' >&2
rm -f "$img"
wait
