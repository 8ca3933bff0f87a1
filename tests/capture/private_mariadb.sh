# A private MariaDB for the capture scripts (source this file; bash only): datadir, socket and logs
# under BASE, no TCP, shut down and deleted when the script exits.
#
#   start_private_mariadb BASE [mariadbd option ...]
#
# then `db` runs the client and `madmin` mysqladmin, both under a clean environment (C locale,
# UTC) on that socket only. Needs root and Debian's mariadb-server + mariadb-client.

ENV=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TZ=UTC LC_ALL=C.UTF-8)
SERVER=""

start_private_mariadb() {
  BASE=$1; shift
  SOCK=$BASE/mysqld.sock
  if [ -e "$BASE" ]; then
    echo "$BASE exists (a capture running, or left over): remove it first" >&2
    exit 1
  fi
  mkdir -p "$BASE"
  chown mysql:mysql "$BASE"
  trap _stop_private_mariadb EXIT
  mariadb-install-db --no-defaults --user=mysql --datadir="$BASE/data" \
    --auth-root-authentication-method=socket >"$BASE/install.log" 2>&1
  mariadbd --no-defaults --user=mysql --datadir="$BASE/data" --socket="$SOCK" --skip-networking \
    --pid-file="$BASE/mysqld.pid" --log-error="$BASE/error.log" --innodb-buffer-pool-size=64M "$@" \
    >/dev/null 2>&1 &
  SERVER=$!
  for _ in $(seq 60); do [ -S "$SOCK" ] && break; sleep 0.5; done
  [ -S "$SOCK" ] || { echo "server did not start; see $BASE/error.log" >&2; cat "$BASE/error.log" >&2; exit 1; }
}

_stop_private_mariadb() {
  if [ -n "$SERVER" ]; then
    "${ENV[@]}" mariadb-admin --no-defaults -S "$SOCK" -uroot shutdown 2>/dev/null || kill "$SERVER" 2>/dev/null || true
    for _ in $(seq 60); do kill -0 "$SERVER" 2>/dev/null || break; sleep 0.5; done
  fi
  rm -rf "$BASE"
}

db() { "${ENV[@]}" mariadb --no-defaults -S "$SOCK" -uroot "$@"; }
madmin() { "${ENV[@]}" mysqladmin --no-defaults -S "$SOCK" -uroot "$@"; }
