#!/usr/bin/env bash
# Capture `SHOW GLOBAL STATUS LIKE 'wsrep%'` (a Galera monitoring loop's query) from a private
# MariaDB without a cluster: the wsrep status variables are lower-case, like SHOW VARIABLES' names.
#
#   bash tests/capture/status_like_wsrep.sh     (as root, Debian 12: mariadb-server mariadb-client)
#
# Writes tests/fixtures/global_status/global_status_mariadb-<ver>_like-wsrep-table.txt.
set -euo pipefail
CAPTURE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIX=$(cd "$CAPTURE_DIR/../fixtures" && pwd)
export TZ=UTC
# shellcheck source=tests/capture/private_mariadb.sh
source "$CAPTURE_DIR/private_mariadb.sh"
start_private_mariadb /tmp/bl_status_wsrep
VER=$(db -N -B -e 'SELECT VERSION()' | sed 's/-.*//')
OUT="$FIX/global_status/global_status_mariadb-${VER}_like-wsrep-table.txt"
marker() { echo "TS $(date +%s.%N) $(date '+%F %T')"; }
for i in 1 2 3; do { marker; db -t -e "SHOW GLOBAL STATUS LIKE 'wsrep%'"; } >>"$OUT.tmp"; sleep 1; done
mv "$OUT.tmp" "$OUT"
cat "$OUT"
