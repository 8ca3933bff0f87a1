#!/bin/bash
# Real dstat captures (Debian's dstat 0.7.4-6.1, which prints "Dstat 0.8.0") under a CPU + direct-I/O
# load: text with and without -t, per-CPU/disk/interface lists, epoch column, memory/swap, the
# float columns (--load --io), C / de_DE / fr_FR locales, and the --output CSV next to the text.
#
# Debian's dstat crashes in its CSV writer under Python 3.11 (`NameError: name 'types' is not
# defined` in showcsv: a leftover of the Python 2 code): every --output file ends after the header
# rows. The CSVs are therefore written by a copy of /usr/bin/dstat with only that line fixed
# (`types.ListType/TupleType/StringType` -> list/tuple/str); what it prints is dstat's own code.
# `--disk-util` is not captured: its plugin raises KeyError 'tot_ticks' on kernel 6.x here.
# Usage: tests/capture/dstat.sh [OUT_DIR]      (default tests/fixtures/dstat)
. "$(dirname "$0")/common.sh"
OUT=${1:-$FIX/dstat}
command -v dstat >/dev/null || { echo "missing: dstat (apt-get install dstat)" >&2; exit 1; }
PATCHED=$(mktemp /tmp/dstat-csvfix.XXXXXX)
trap 'rm -f "$PATCHED"' EXIT
sed -e 's/types\.ListType/list/; s/types\.TupleType/tuple/; s/types\.StringType/str/' /usr/bin/dstat >"$PATCHED"
VER=0.7.4

# cap NAME STYLE COUNT ARGS... : text to NAME.txt (and NAME.csv when ARGS hold --output)
cap() {
  local name=$1 style=$2 count=$3; shift 3
  load "$((count + 1))"
  # shellcheck disable=SC2068
  run_styled "$style" python3 "$PATCHED" $@ 1 "$count" >"$OUT/$name.txt" 2>/dev/null
  note "dstat/$name.txt" "${STYLE_ENV[$style]}" "dstat $* 1 $count"
  wait
}

cap "dstat_${VER}_C_tcdngy-output" C 12 -tcdngy --output "$OUT/dstat_${VER}_C_tcdngy-output.csv"
cap "dstat_${VER}_C_cdngy-no-time-output" C 8 -cdngy --output "$OUT/dstat_${VER}_C_cdngy-no-time-output.csv"
cap "dstat_${VER}_C_tcmsdn-epoch" C 8 -tcmsdn -T
cap "dstat_${VER}_C_t-C-D-N-lists" C 8 -t -c -C 0,1,total -d -D vda,total -n -N eth0,lo,total --output "$OUT/dstat_${VER}_C_t-C-D-N-lists.csv"
cap "dstat_${VER}_C_t-load-io-proc" C 30 -tcdngy --load --io --proc
cap "dstat_${VER}_de_DE_tcdngy-load-io" de_DE 6 -tcdngy --load --io
cap "dstat_${VER}_fr_FR_tcdngy-load-io" fr_FR 6 -tcdngy --load --io
# the text a --output run prints to the terminal is the same as without; the CSV files keep the
# absolute path of the --output argument in their Cmdline row: make it the plain file name
for f in "$OUT"/*.csv; do sed -i "s|$OUT/||" "$f"; done
# on a terminal (script(1) gives dstat a 10-line tty): colours and the header repeated every screen
timeout 30 script -q -c "stty rows 10 cols 100; env -i PATH=/usr/bin:/bin TZ=UTC LC_ALL=C.UTF-8 TERM=xterm dstat -tcdn 1 14" \
  "$OUT/dstat_${VER}_C_tcdn-tty-color-repeated-header.txt" >/dev/null
note "dstat/dstat_${VER}_C_tcdn-tty-color-repeated-header.txt" "LC_ALL=C.UTF-8 TERM=xterm" "script -q -c 'stty rows 10 cols 100; dstat -tcdn 1 14'"
