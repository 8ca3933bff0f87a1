#!/bin/bash
# Real dool captures (dool 1.3.x from PyPI, run by Debian's python3 so that its MySQL plugins find
# python3-mysqldb): the text and the --output CSV of one run, --noupdate with a delay, the
# "missed N ticks" rows (dool stopped with SIGSTOP for 3 s, then SIGCONT), and the MySQL/InnoDB
# plugins against a private MariaDB under a sysbench oltp_read_write load.
# Usage: tests/capture/dool.sh DOOL_SITE_PACKAGES [OUT_DIR]   (default OUT_DIR tests/fixtures/dstat)
#   e.g. python3 -m venv /tmp/dv && /tmp/dv/bin/pip install dool && tests/capture/dool.sh /tmp/dv/lib/python3.11/site-packages
. "$(dirname "$0")/common.sh"
. "$(dirname "$0")/private_mariadb.sh"
SITE=$1
OUT=${2:-$FIX/dstat}
ENVD=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TZ=UTC LC_ALL=C.UTF-8 TERM=xterm PYTHONPATH="$SITE")
DOOL=("${ENVD[@]}" /usr/bin/python3 -m dool)
VER=$("${DOOL[@]}" --version 2>/dev/null | awk 'NR==1{print $2}')   # 1.3.8
D="dool_${VER}"

if [ "${ONLY_MYSQL:-}" != 1 ]; then
load 11
# with --output dool prints nothing on the terminal (unless --display): only the CSV is kept
"${DOOL[@]}" -tcdngy --output "$OUT/${D}_C_tcdngy-output.csv" 1 8 >/dev/null 2>&1
note "dstat/${D}_C_tcdngy-output.csv" "LC_ALL=C.UTF-8" "dool -tcdngy --output F.csv 1 8"
wait
load 17
"${DOOL[@]}" -T -cdn --load --noupdate --output "$OUT/${D}_C_T-noupdate-delay-3.csv" 3 5 >/dev/null 2>&1
note "dstat/${D}_C_T-noupdate-delay-3.csv" "LC_ALL=C.UTF-8" "dool -T -cdn --load --noupdate --output F.csv 3 5"
wait
# missed ticks (on the terminal only; the CSV has no such mark): the process stopped for 3 s
# after its 4th row
load 16
"${DOOL[@]}" -tcdn 1 12 >"$OUT/${D}_C_tcdn-missed-ticks.txt" 2>/dev/null &
PID=$!
sleep 4.5; kill -STOP $PID; sleep 3; kill -CONT $PID
wait $PID
note "dstat/${D}_C_tcdn-missed-ticks.txt" "LC_ALL=C.UTF-8" "dool -tcdn 1 12 (SIGSTOP after 4.5 s, SIGCONT 3 s later)"
wait
fi

# MySQL / InnoDB plugins against a private MariaDB under load
start_private_mariadb /tmp/benchlens_dool_db
db -e "CREATE DATABASE sbtest"
SB=(sysbench oltp_read_write --db-driver=mysql --mysql-socket="$SOCK" --mysql-user=root --tables=2 --table-size=20000)
"${ENV[@]}" "${SB[@]}" prepare >/dev/null
"${ENV[@]}" "${SB[@]}" --threads=4 --time=20 run >/dev/null &
SBPID=$!
sleep 2
MY=(DOOL_MYSQL_SOCKET="$SOCK" DOOL_MYSQL_USER=root DOOL_MYSQL="-S $SOCK -uroot")
timeout 40 "${ENVD[@]}" "${MY[@]}" /usr/bin/python3 -m dool -t --mysql-conn --mysql-cmds --mysql-io --mysql-keys --innodb-io --innodb-ops --innodb-buffer \
  --output "$OUT/${D}_C_t-mysql-innodb-plugins.csv" 1 8 >/dev/null 2>&1
note "dstat/${D}_C_t-mysql-innodb-plugins.csv" "LC_ALL=C.UTF-8 DOOL_MYSQL_SOCKET=... DOOL_MYSQL=..." \
  "dool -t --mysql-conn --mysql-cmds --mysql-io --mysql-keys --innodb-io --innodb-ops --innodb-buffer --output F.csv 1 8"
timeout 40 "${ENVD[@]}" "${MY[@]}" DOOL_INNODB_OPT=full /usr/bin/python3 -m dool -T --mysql-innodb \
  --output "$OUT/${D}_C_T-mysql-innodb-full.csv" 1 6 >/dev/null 2>&1
note "dstat/${D}_C_T-mysql-innodb-full.csv" "LC_ALL=C.UTF-8 DOOL_INNODB_OPT=full DOOL_MYSQL=..." "dool -T --mysql-innodb --output F.csv 1 6"
wait $SBPID
for f in "$OUT"/${D}_*.csv; do sed -i "s|$OUT/||; s|$SITE|SITE|" "$f"; done
