#!/bin/bash
# Files a run folder holds beside its captures, none of them a format benchlens reads (issue 22):
# run as root on Debian 12 (fio 3.33, percona-toolkit 3.2.1, MariaDB 10.11.19, procps 4.0.2).
#
#   bash tests/capture/unread_files.sh OUT
# OUT/fio.json, fio.txt          fio --output-format=json / normal, 2 s of 4k random reads
# OUT/fio_notes.json             fio --output-format=json >fio_notes.json 2>&1: its `note:` line first
# OUT/dmesg.txt                  dmesg (the kernel's command line left out of the fixture)
# OUT/top.txt                    top -b -n 3 -d 1 (the fixture keeps the first screen)
# OUT/pt-summary.txt             pt-summary (the fixture keeps the first 30 lines)
# OUT/mariadb.err                a private MariaDB's error log, from start to "ready for connections"
# OUT/pt-mysql-summary.txt       pt-mysql-summary on it (first 30 lines kept)
# OUT/query_digest.json          pt-query-digest --output json of its slow log (long_query_time=0)
#                                while sysbench ran and the snapshot queries of `benchlens record`
#                                looped, filtered to those queries (the JSON quotes them); its text
#                                report (query_digest.txt) and an excerpt of the slow log (slow.log)
set -euo pipefail
OUT=${1:?usage: unread_files.sh OUT}
M=/tmp/unread_files_maria
mkdir -p "$OUT" "$M"
export LC_ALL=C TZ=UTC
cd "$OUT"
fio --name=randread --filename="$M/fio.dat" --size=16M --rw=randread --bs=4k --runtime=2 --time_based \
  --output-format=json --output=fio.json
fio --name=randread --filename="$M/fio.dat" --size=16M --rw=randread --bs=4k --runtime=2 --time_based --output=fio.txt
# fio's note on stderr lands before the JSON when both go to one file
fio --name=seqwrite --filename="$M/fio2.dat" --size=16M --rw=write --bs=64k --iodepth=8 --ioengine=psync --runtime=1 \
  --time_based --output-format=json >fio_notes.json 2>&1
dmesg >dmesg.txt
top -b -n 3 -d 1 >top.txt
pt-summary >pt-summary.txt
mariadb-install-db --no-defaults --datadir="$M/data" --auth-root-authentication-method=normal >/dev/null
mariadbd --no-defaults --datadir="$M/data" --socket="$M/mysqld.sock" --skip-networking --user=root \
  --log-error="$M/mariadb.err" --slow-query-log --slow-query-log-file="$M/slow.log" --long-query-time=0 \
  --performance-schema=ON --innodb-buffer-pool-size=64M &
PID=$!
sleep 5
S=(mariadb -S "$M/mysqld.sock" -uroot)
SB=(--db-driver=mysql --mysql-socket="$M/mysqld.sock" --mysql-user=root --tables=1 --table-size=2000)
"${S[@]}" -e "CREATE DATABASE sbtest"
sysbench oltp_read_write "${SB[@]}" prepare >/dev/null
sysbench oltp_read_write "${SB[@]}" --threads=1 --time=6 run >/dev/null &
for _ in 1 2 3; do
  "${S[@]}" -e 'SHOW ENGINE INNODB MUTEX' >/dev/null
  "${S[@]}" -e 'SELECT EVENT_NAME, COUNT_STAR, SUM_TIMER_WAIT FROM performance_schema.events_waits_summary_global_by_event_name WHERE COUNT_STAR > 0' >/dev/null
  "${S[@]}" -e 'SHOW GLOBAL STATUS' >/dev/null
  sleep 2
done
wait %2 || true
pt-query-digest --limit 100% --filter '$event->{arg} =~ m/show engine innodb mutex|performance_schema\.events_waits/i' \
  --output json "$M/slow.log" >query_digest.json
pt-query-digest --limit 100% --filter '$event->{arg} =~ m/show engine innodb mutex|performance_schema\.events_waits/i' \
  "$M/slow.log" >query_digest.txt
{ sed -n 1,10p "$M/slow.log"; sed -n 43,66p "$M/slow.log"; } >slow.log  # the prepare's INSERT left out
pt-mysql-summary -- --socket="$M/mysqld.sock" --user=root >pt-mysql-summary.txt
cp "$M/mariadb.err" .
kill "$PID"
