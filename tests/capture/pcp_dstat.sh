#!/bin/bash
# Real pcp-dstat captures (PCP 6.0.3: Debian's `dstat` since bookworm is /usr/bin/dstat ->
# pcp-dstat) under a CPU + direct-I/O load: the text and the --output CSV of one run, -t / -T,
# per-CPU/disk/interface lists, memory/swap/load/io/procs, a locale, and a CSV whose command has
# no count (killed by timeout, as a capture left running is). pmcd must run (it is started here).
# Usage: tests/capture/pcp_dstat.sh [OUT_DIR]      (default tests/fixtures/dstat)
. "$(dirname "$0")/common.sh"
OUT=${1:-$FIX/dstat}
command -v pcp-dstat >/dev/null || [ -x /usr/lib/pcp/bin/pcp-dstat ] || { echo "missing: pcp (apt-get install pcp)" >&2; exit 1; }
pgrep -x pmcd >/dev/null || /etc/init.d/pmcd start >/dev/null
VER=$(env -i PATH=/usr/bin:/bin dstat --version | awk 'NR==1{print $2}')   # 6.0.3

# cap NAME STYLE COUNT ARGS... : text to NAME.txt (and NAME.csv when ARGS hold --output)
cap() {
  local name=$1 style=$2 count=$3; shift 3
  load "$((count + 2))"
  # shellcheck disable=SC2068
  run_styled "$style" dstat $@ 1 "$count" >"$OUT/$name.txt" 2>/dev/null
  note "dstat/$name.txt" "${STYLE_ENV[$style]}" "dstat $* 1 $count"
  wait
}

P="pcp-dstat_${VER}"
cap "${P}_C_tcdngy-output" C 8 -tcdngy --output "$OUT/${P}_C_tcdngy-output.csv"
cap "${P}_C_T-C-D-N-lists" C 6 -T -c -C 0,1,total -d -D vda,total -n -N eth0,lo,total --output "$OUT/${P}_C_T-C-D-N-lists.csv"
cap "${P}_C_tcmsdn-load-io-proc" C 8 -tcmsdn --load --io --proc --output "$OUT/${P}_C_tcmsdn-load-io-proc.csv"
cap "${P}_de_DE_tcdngy-load" de_DE 5 -tcdngy --load
# no count: the capture is stopped from outside; the Cmdline row then ends in the delay
load 14
run_styled C timeout -s INT 13 dstat -cdn --output "$OUT/${P}_C_cdn-no-count-delay-5.csv" 5 >/dev/null 2>&1
note "dstat/${P}_C_cdn-no-count-delay-5.csv" "LC_ALL=C.UTF-8" "timeout -s INT 13 dstat -cdn --output F.csv 5"
wait
for f in "$OUT"/${P}_*.csv; do sed -i "s|$OUT/||" "$f"; done
