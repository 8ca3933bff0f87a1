#!/bin/bash
# The same measurements printed under several locale settings (runs/locales_<STYLE>/).
# 1. record 10 snapshots (1/s) of the files vmstat/iostat/mpstat read, with a load burst
#    in the middle (skipped with --reuse: replays the committed snapshot file again);
# 2. replay them in a private mount namespace while vmstat -t, iostat -x -t and
#    mpstat -P ALL run under every style at once (see replay.py);
# 3. verify that all styles carry identical numbers, times and dates.
. "$(dirname "$0")/common.sh"
SNAP=${SNAP:-$CAPTURE_DIR/locales_snapshots.json.gz}
STYLES="C en_US de_DE ISO fr_FR"
if [ "${1:-}" != --reuse ] || [ ! -f "$SNAP" ]; then
  ( sleep 3; load 4; wait ) &
  python3 "$CAPTURE_DIR/replay.py" record "$SNAP" 10
  wait
fi
python3 "$CAPTURE_DIR/replay.py" replay "$SNAP" "$FIX/runs" $STYLES
for s in $STYLES; do
  for t in "vmstat -t 1 9" "iostat -x -t 1 9" "mpstat -P ALL 1 8"; do
    note "runs/locales_$s/${t%% *}.log" "TZ=$TZ ${STYLE_ENV[$s]}" "$t  (replayed /proc+/sys snapshots, all styles started in the same second: tests/capture/locales.sh)"
  done
done
python3 "$CAPTURE_DIR/replay.py" verify "$FIX/runs" $STYLES
