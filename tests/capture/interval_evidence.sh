#!/bin/bash
# Run folders whose untimed captures are placed by the evidence the folder holds (issue 13), and
# iostat without -t under every locale's banner date (sysstat 12.6.1 here).
#
#   bash tests/capture/interval_evidence.sh OUT
# OUT/span_sysbench/    iostat -x 2 (no -t), sysbench cpu --report-interval=1 --time=24 beside it
# OUT/cmdline/          `+ iostat -mx 5 6` printed before iostat's output (as `set -x` does), and vmstat -t 5
# OUT/banner/iostat_<locale>[_ISO]_x.txt   iostat -x 1 3 under C, en_US, de_DE, fr_FR, ja_JP, with and without S_TIME_FORMAT=ISO
set -euo pipefail
OUT=${1:?usage: interval_evidence.sh OUT}
mkdir -p "$OUT/span_sysbench" "$OUT/cmdline" "$OUT/banner"
export LC_ALL=C TZ=UTC

( cd "$OUT/span_sysbench"
  iostat -x 2 16 >iostat.log &
  sleep 4
  sysbench cpu --threads=2 --time=24 --report-interval=1 run >sysbench.log
  wait )

( cd "$OUT/cmdline"
  { echo "+ iostat -mx 5 6"; iostat -mx 5 6; } >iostat.log &
  vmstat -t 5 6 >vmstat.log &
  sleep 8
  sysbench cpu --threads=2 --time=12 run >/dev/null
  wait
  stat -c '%n %Y' iostat.log vmstat.log >mtimes.txt )

for loc in C en_US.UTF-8 de_DE.UTF-8 fr_FR.UTF-8 ja_JP.UTF-8; do
  short=${loc%.UTF-8}
  env LC_ALL="$loc" iostat -x 1 3 >"$OUT/banner/iostat_12.6.1_${short}_x-no-t.txt" &
  env LC_ALL="$loc" S_TIME_FORMAT=ISO iostat -x 1 3 >"$OUT/banner/iostat_12.6.1_${short}_ISO_x-no-t.txt" &
done
wait
