#!/bin/bash
# Real sysbench 1.0 outputs besides the `[ 1s ] thds: ...` reports (issue 13): fileio interval reports
# and summaries, --report-csv-style interval lines (the `sysbench.report_csv` hook), and logs with
# the final summary only (cpu, oltp_read_only, a step load of summaries), against a private
# MariaDB on a socket (tests/capture/private_mariadb.sh). sysbench 1.0 has no --report-csv
# option: its Lua API prints CSV reports when a script sets
# `sysbench.hooks.report_intermediate = sysbench.report_csv` (what wrapper scripts do).
# Usage: tests/capture/sysbench_outputs.sh [OUT_DIR]     (default tests/fixtures/sysbench)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-"$HERE/../fixtures/sysbench"}
for c in sysbench mariadbd mariadb; do command -v $c >/dev/null || { echo "missing: $c" >&2; exit 1; }; done
VER=$(sysbench --version | awk '{print $2}')
. "$HERE/private_mariadb.sh"
start_private_mariadb /tmp/benchlens-sbout
db -e "CREATE DATABASE sbtest"
WORK=$(mktemp -d /tmp/benchlens-sbout-work.XXXXXX)
trap 'rm -rf "$WORK"; _stop_private_mariadb' EXIT
SB=(env -i PATH=/usr/bin:/bin TZ=UTC LC_ALL=C.UTF-8 sysbench)
DB=(--db-driver=mysql --mysql-socket="$SOCK" --mysql-user=root --tables=2 --table-size=5000)
cat >"$WORK/oltp_ro_csv.lua" <<'LUA'
-- oltp_read_only with CSV interval reports
dofile("/usr/share/sysbench/oltp_read_only.lua")
sysbench.hooks.report_intermediate = sysbench.report_csv
LUA
"${SB[@]}" oltp_read_only "${DB[@]}" prepare >/dev/null

cd "$WORK"
"${SB[@]}" "$WORK/oltp_ro_csv.lua" "${DB[@]}" --threads=2 --time=8 --report-interval=1 run \
  >"$OUT/sysbench_${VER}_C_oltp-read-only-report-csv.txt" 2>&1
"${SB[@]}" oltp_read_only "${DB[@]}" --threads=2 --time=5 run \
  >"$OUT/sysbench_${VER}_C_oltp-read-only-summary-only.txt" 2>&1
for t in 1 2 4; do
  "${SB[@]}" oltp_read_only "${DB[@]}" --threads=$t --time=4 --percentile=99 run
done >"$OUT/sysbench_${VER}_C_oltp-read-only-summary-only-step-load-99pct.txt" 2>&1
"${SB[@]}" fileio --file-total-size=32M --file-num=4 prepare >/dev/null
"${SB[@]}" fileio --file-total-size=32M --file-num=4 --file-test-mode=rndrw --time=6 --report-interval=1 run \
  >"$OUT/sysbench_${VER}_C_fileio-rndrw-report-interval.txt" 2>&1
"${SB[@]}" fileio --file-total-size=32M --file-num=4 --file-test-mode=seqwr --time=4 --report-interval=1 run \
  >"$OUT/sysbench_${VER}_C_fileio-seqwr-report-interval.txt" 2>&1
"${SB[@]}" fileio --file-total-size=32M --file-num=4 --file-test-mode=rndrd --time=3 run \
  >"$OUT/sysbench_${VER}_C_fileio-rndrd-summary-only.txt" 2>&1
"${SB[@]}" fileio --file-total-size=32M --file-num=4 cleanup >/dev/null
