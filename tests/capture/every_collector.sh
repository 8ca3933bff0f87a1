#!/bin/bash
# tests/fixtures/runs/every_collector_{quiet,cpuhog} (issue 24): two real runs with every collector
# (benchlens record + pidstat -u -h 1 + sar -n DEV 1), six busy loops for 12 s from 25 s in the second.
# As root; then gzip every log but bench.log (perfschema and innodb_mutex were empty on MariaDB: removed).
set -e
cd /work/wt-ui-b
source tests/capture/private_mariadb.sh
start_private_mariadb /tmp/uib_mdb
db -e "CREATE DATABASE sbtest"
SB=(sysbench oltp_read_write --db-driver=mysql --mysql-socket=$SOCK --mysql-user=root --tables=4 --table-size=20000 --threads=4 --report-interval=1)
"${SB[@]}" prepare >/dev/null
"${SB[@]}" --time=15 run >/dev/null
for name in every-quiet every-cpuhog; do
  out=/tmp/uib/rec/$name
  rm -rf $out; mkdir -p $out
  pidstat -u -h 1 > $out/pidstat.log 2>&1 & P1=$!
  sar -n DEV 1 > $out/sar.log 2>&1 & P2=$!
  if [ $name = every-cpuhog ]; then
    ( sleep 25; for i in 1 2 3 4 5 6; do timeout 12 sh -c 'while :; do :; done' & done; wait ) & H=$!
  fi
  /work/main/.venv/bin/python -m benchlens.app.cli record $out/run --mysql "-uroot -S $SOCK" --snapshot-every 2 -- "${SB[@]}" --time=60 run > $out/record.out 2>&1 || true
  kill $P1 $P2 2>/dev/null || true
  [ -n "${H:-}" ] && wait $H || true
  mv $out/pidstat.log $out/sar.log $out/run/ 2>/dev/null || true
done
