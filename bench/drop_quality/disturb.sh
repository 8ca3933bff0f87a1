#!/bin/bash
# disturb.sh SCENARIO TRUTH_FILE SOCKET SCRATCH_DIR -- BENCHMARK COMMAND...
# The benchmark command `benchlens record` runs for bench/drop_quality/record.sh: it starts the
# benchmark, injects one disturbance AT seconds later for about LEN seconds, and appends the
# true start and end (epoch seconds, measured around the disturbance itself) to TRUTH_FILE.
# The benchmark's output passes through untouched (it becomes bench.log); ours goes to stderr.
set -euo pipefail
scenario=$1 truth=$2 sock=$3 scratch=$4
shift 4
[ "$1" = -- ] && shift
AT=${AT:-30}

if [ "$scenario" = net-slow ] || [ "$scenario" = net-congest ]; then
  # the benchmark talks to the server through slow_proxy.py, which delays the server's replies
  # while $scratch/proxy.delay says so (a client slowed by its network; the kernel has no netem)
  rm -f "$scratch/proxy.sock" "$scratch/proxy.delay"  # a socket left by the run before would answer nothing
  python3 "$(dirname "$0")/slow_proxy.py" "$scratch/proxy.sock" "$sock" "$scratch/proxy.delay" &
  proxy=$!
  trap 'kill $proxy 2>/dev/null || true' EXIT
  for _ in $(seq 50); do [ -S "$scratch/proxy.sock" ] && break; sleep 0.1; done
  args=()
  for a in "$@"; do args+=("${a/#--mysql-socket=$sock/--mysql-socket=$scratch/proxy.sock}"); done
  set -- "${args[@]}"
fi

if [ "$scenario" = restore ]; then
  # the table the restore loads, dumped before the benchmark starts (sbtest1 as `restored`)
  mariadb-dump -uroot -S "$sock" sbtest sbtest1 | sed 's/`sbtest1`/`restored`/g' >"$scratch/restore.sql"
fi

"$@" &
bench=$!
t_bench=$EPOCHREALTIME
sleep "$(python3 -c "import time; print(max(0, $t_bench + $AT - time.time()))")"

note() { printf '%s\t%s\n' "$1" "$2" >>"$truth"; }
micro() {  # micro EPOCH VAR: EPOCH (seconds, any decimals) in microseconds, into VAR, no process
  local s=${1%.*} f=${1#*.}
  [ "$f" = "$1" ] && f=0
  f=${f}000000
  printf -v "$2" '%s' "$((s * 1000000 + 10#${f:0:6}))"
}
until_() {  # until_ EPOCH: true while the clock is before EPOCH (bash's own clock: until 2026-11-28
  # it started a python3 for each look, a process a loop's turn beside the disturbance's own)
  local end now
  micro "$1" end; micro "$EPOCHREALTIME" now
  ((now < end))
}
again() {  # again SQL: another client runs SQL over and over for LEN s through one connection (one
  # mariadb client fed a statement at a time, each followed by a marker it echoes back when the
  # statement is done), its start and end noted. Until 2026-11-28 each turn started a client and
  # a python3: 68 processes a second on a short statement, a CPU load of the harness's own
  local t0 end line
  t0=$EPOCHREALTIME; note start "$t0"
  end=$(python3 -c "print($t0 + $LEN)")
  coproc CLIENT { mariadb -uroot -S "$sock" -N -B -n --force 2>/dev/null; }
  while until_ "$end"; do
    printf '%s;\nSELECT "again-done";\n' "${1%;}" >&"${CLIENT[1]}" || break
    while IFS= read -r line <&"${CLIENT[0]}"; do [ "$line" = again-done ] && continue 2; done
    break  # the client is gone (the server stopped): no more turns
  done
  note end "$EPOCHREALTIME"
  [ -n "${CLIENT[1]:-}" ] && eval "exec ${CLIENT[1]}>&-"
  wait "${CLIENT_PID:-}" 2>/dev/null || true
}

repeat() {  # repeat COMMAND...: COMMAND over and over (its failures ignored) for LEN s, its start
  # and end noted
  local t0 end
  t0=$EPOCHREALTIME; note start "$t0"
  end=$(python3 -c "print($t0 + $LEN)")
  while until_ "$end"; do "$@" || true; done
  note end "$EPOCHREALTIME"
}

case $scenario in
  quiet) ;;
  disk-burst)   # two writers repeating 128 MiB O_DIRECT writes to the datadir's disk
    LEN=12; t0=$EPOCHREALTIME; note start "$t0"
    end=$(python3 -c "print($t0 + $LEN)") pids=()
    for j in 1 2; do
      ( i=0; while until_ "$end" && [ $i -lt 300 ]; do
          dd if=/dev/zero of="$scratch/burst$j.bin" bs=1M count=128 oflag=direct status=none; i=$((i + 1)); done
        rm -f "$scratch/burst$j.bin" ) & pids+=($!)
    done
    wait "${pids[@]}"
    note end "$EPOCHREALTIME" ;;
  cpu-hogs)     # six busy loops on a 2-CPU machine (sysbench runs 4 threads)
    LEN=12; t0=$EPOCHREALTIME; note start "$t0"
    pids=()
    for _ in 1 2 3 4 5 6; do timeout "$LEN" sh -c 'while :; do :; done' & pids+=($!); done
    wait "${pids[@]}" || true
    note end "$EPOCHREALTIME" ;;
  read-lock)    # a global read lock held 8 s: writers queue behind it
    out=$(mariadb -uroot -S "$sock" -N -B -e "FLUSH TABLES WITH READ LOCK; SELECT UNIX_TIMESTAMP(NOW(6));
      SELECT SLEEP(8); SELECT UNIX_TIMESTAMP(NOW(6)); UNLOCK TABLES;")
    note start "$(sed -n 1p <<<"$out")"; note end "$(sed -n 3p <<<"$out")" ;;
  small-pool)   # buffer pool shrunk online below the data size for ~15 s, then restored
    mb() { mariadb -uroot -S "$sock" -N -B -e "$1"; }
    status() { mb "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_resize_status'" | cut -f2; }
    wait_resized() { for _ in $(seq 600); do case $(status) in *omplet*|"") return;; esac; sleep 0.1; done; }
    t0=$EPOCHREALTIME
    mb "SET GLOBAL innodb_buffer_pool_size = 8*1024*1024"; wait_resized
    note requested "$t0"; note start "$EPOCHREALTIME"
    sleep 15
    t1=$EPOCHREALTIME
    mb "SET GLOBAL innodb_buffer_pool_size = 128*1024*1024"; wait_resized
    note end "$t1"; note restored "$EPOCHREALTIME"
    note pool "$(mb 'SELECT @@innodb_buffer_pool_size')" ;;
  # --- issue 14 scenarios (record_diagnosis.sh): LEN from the environment, DB/TABLES/SIZE name the
  # benchmark's tables; every one writes its true start and end the same way.
  row-lock)     # one session holds the hot rows of every table FOR UPDATE, its transaction open:
    # sysbench's default (special) distribution sends 75 % of its ids to the 1 % in the middle of
    # the range, so the middle 10 % of the ids
    # (on a table of a few rows the one in the middle takes them all: that row alone, since a range
    # taken row by row loses every deadlock against 32 clients)
    size=${SIZE:-20000} sql="BEGIN;" where="id BETWEEN $((size * 45 / 100)) AND $((size * 55 / 100 + 1))"
    [ "$size" -lt 100 ] && where="id = $(( (size + 1) / 2 ))"
    for t in $(seq "${TABLES:-4}"); do
      sql+=" SELECT COUNT(*) FROM ${DB:-sbtest}.sbtest$t WHERE $where FOR UPDATE;"
    done
    # against 32 clients fighting over the same rows the session can be a deadlock victim before it
    # holds them all: then it tries again (its start is taken once it holds them)
    for _ in 1 2 3 4 5 6 7 8 9 10; do
      out=$(mariadb -uroot -S "$sock" -N -B -e "$sql SELECT UNIX_TIMESTAMP(NOW(6)); SELECT SLEEP($LEN);
        SELECT UNIX_TIMESTAMP(NOW(6)); ROLLBACK;" | tail -n 3) && break
      echo "row-lock: attempt failed, again" >&2
    done
    note start "$(sed -n 1p <<<"$out")"; note end "$(sed -n 3p <<<"$out")" ;;
  global-read-lock)  # FLUSH TABLES WITH READ LOCK held LEN s (times from the server's clock). The
    # writers queue from the request on; the lock itself may come much later (FTWRL waits for every
    # statement using a table: on the bursty workload, a client in a row-lock wait), so the truth
    # starts at the request and `locked` says when the lock was held
    t0=$EPOCHREALTIME
    out=$(mariadb -uroot -S "$sock" -N -B -e "FLUSH TABLES WITH READ LOCK; SELECT UNIX_TIMESTAMP(NOW(6));
      SELECT SLEEP($LEN); SELECT UNIX_TIMESTAMP(NOW(6)); UNLOCK TABLES;")
    note start "$t0"; note locked "$(sed -n 1p <<<"$out")"; note end "$(sed -n 3p <<<"$out")" ;;
  table-lock)   # LOCK TABLES ... WRITE on every table of the benchmark, held LEN s: each client
    # waits for the table's metadata lock (times from the server's clock; the request noted first)
    t0=$EPOCHREALTIME tabs=""
    for t in $(seq "${TABLES:-4}"); do tabs+="${tabs:+, }${DB:-sbtest}.sbtest$t WRITE"; done
    out=$(mariadb -uroot -S "$sock" -N -B -e "LOCK TABLES $tabs; SELECT UNIX_TIMESTAMP(NOW(6));
      SELECT SLEEP($LEN); SELECT UNIX_TIMESTAMP(NOW(6)); UNLOCK TABLES;")
    note start "$t0"; note locked "$(sed -n 1p <<<"$out")"; note end "$(sed -n 3p <<<"$out")" ;;
  purge-lag)    # a read view held open LEN s: the history list grows, purge cannot run. On the
    # churn workload (ids in a secondary index, each deleted and inserted again ~30 times a second)
    # every unpurged delete leaves an (id, row) entry each lookup must visit: the cost grows with it
    out=$(mariadb -uroot -S "$sock" -N -B -e "START TRANSACTION WITH CONSISTENT SNAPSHOT;
      SELECT UNIX_TIMESTAMP(NOW(6)); SELECT SLEEP($LEN); SELECT UNIX_TIMESTAMP(NOW(6)); COMMIT;")
    note start "$(sed -n 1p <<<"$out")"; note end "$(sed -n 3p <<<"$out")" ;;
  flushing)     # the redo log resized to 16 MB (MariaDB 10.11's least: innodb_log_buffer_size) for LEN
                # s under the write load: checkpoint age pinned near the sync flush point (~12 of
                # 16 MB, furious flushing, 680 -> ~250 tps in a trial); then back to its size
    mb() { mariadb -uroot -S "$sock" -N -B -e "$1"; }
    size=$(mb "SELECT @@innodb_log_file_size")
    t0=$EPOCHREALTIME; mb "SET GLOBAL innodb_log_file_size = 16*1024*1024"
    note requested "$t0"; note start "$t0"
    sleep "$LEN"
    t1=$EPOCHREALTIME; mb "SET GLOBAL innodb_log_file_size = $size"
    note end "$t1"; note restored "$EPOCHREALTIME"; note log_file_size "$(mb 'SELECT @@innodb_log_file_size')" ;;
  flush-throttle)  # the page cleaner's writes slowed for LEN s: mariadbd moved into a cgroup-v1
    # blkio group whose writes to the datadir's disk are throttled to THROTTLE_BPS (20 MB/s). With the
    # `writes` server (16 MB redo log, uniform updates over ~95,000 pages, the log written buffered:
    # cgroup v1 charges buffered writeback to the root group, so only the O_DIRECT data-file and
    # doublewrite writes are slowed) the checkpoint age sits at its sync point and every page the
    # log needs back must be written first: user threads wait for flushing
    pid=$(cat "$(dirname "$sock")/mysqld.pid") dev=$(stat -c '%Hd:%Ld' "$(dirname "$sock")/data")
    cg=/sys/fs/cgroup/blkio/benchlens_flush_$$
    mkdir "$cg"; echo "$pid" >"$cg/cgroup.procs"
    t0=$EPOCHREALTIME; echo "$dev ${THROTTLE_BPS:-20971520}" >"$cg/blkio.throttle.write_bps_device"
    note start "$t0"; note throttle "$dev ${THROTTLE_BPS:-20971520} B/s"
    sleep "$LEN"
    t1=$EPOCHREALTIME; echo "$dev 0" >"$cg/blkio.throttle.write_bps_device"; note end "$t1"
    echo "$pid" >/sys/fs/cgroup/blkio/cgroup.procs; rmdir "$cg" ;;
  cpu-system)   # four `dd if=/dev/zero of=/dev/null`: CPU time spent in the kernel
    t0=$EPOCHREALTIME; note start "$t0"; pids=()
    for _ in 1 2 3 4; do timeout "$LEN" dd if=/dev/zero of=/dev/null bs=64k status=none & pids+=($!); done
    wait "${pids[@]}" || true
    note end "$EPOCHREALTIME" ;;
  cpu-user|cpu-nice)  # six busy loops in user space; cpu-nice: at nice 5, as a batch job or a
    # backup is often started, their CPU time counted as nice, not user (mpstat %nice; vmstat's us
    # holds both; recorded 2026-11-29, session 33, to test the CPU causes on a share they did not read)
    pre=(); [ "$scenario" = cpu-nice ] && pre=(nice -n 5)
    t0=$EPOCHREALTIME; note start "$t0"; pids=()
    for _ in 1 2 3 4 5 6; do timeout "$LEN" "${pre[@]}" sh -c 'while :; do :; done' & pids+=($!); done
    wait "${pids[@]}" || true
    note end "$EPOCHREALTIME" ;;
  disk-writers) # two writers repeating 128 MiB O_DIRECT writes for LEN s
    t0=$EPOCHREALTIME; note start "$t0"
    end=$(python3 -c "print($t0 + $LEN)") pids=()
    for j in 1 2; do
      ( while until_ "$end"; do
          dd if=/dev/zero of="$scratch/burst$j.bin" bs=1M count=128 oflag=direct status=none; done
        rm -f "$scratch/burst$j.bin" ) & pids+=($!)
    done
    wait "${pids[@]}"
    note end "$EPOCHREALTIME" ;;
  flush-tables) # another client flushes the table cache and the logs again and again for LEN s
    # (FLUSH TABLES; FLUSH LOGS, no read lock): every open table closed and reopened, statements
    # waiting for the flush of the tables they use
    again "FLUSH TABLES; FLUSH LOGS" ;;
  io-sync)      # four workers calling sync() in a loop for LEN s (`stress-ng -i 4`, DBPA's I/O
    # saturation): every dirty page of the machine written back again and again, the server's
    # fsyncs queued behind them; iowait up, no more bytes of its own
    t0=$EPOCHREALTIME; note start "$t0"
    stress-ng -i 4 --timeout "${LEN}s" >/dev/null 2>&1 || true
    note end "$EPOCHREALTIME" ;;
  pool-shrink)  # buffer pool 8 MB for LEN s, then back
    mb() { mariadb -uroot -S "$sock" -N -B -e "$1"; }
    status() { mb "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_resize_status'" | cut -f2; }
    wait_resized() { for _ in $(seq 600); do case $(status) in *omplet*|"") return;; esac; sleep 0.1; done; }
    size=$(mb "SELECT @@innodb_buffer_pool_size")
    t0=$EPOCHREALTIME; mb "SET GLOBAL innodb_buffer_pool_size = 8*1024*1024"; wait_resized
    note requested "$t0"; note start "$EPOCHREALTIME"
    sleep "$LEN"
    t1=$EPOCHREALTIME; mb "SET GLOBAL innodb_buffer_pool_size = $size"; wait_resized
    note end "$t1"; note restored "$EPOCHREALTIME"; note pool "$(mb 'SELECT @@innodb_buffer_pool_size')" ;;
  dump)         # another client dumps the benchmark's tables for LEN s (mysqldump
    # --single-transaction to /dev/null, again and again): full scans, rows read, bytes sent to a client
    dump_() { mariadb-dump -uroot -S "$sock" --single-transaction "${DB:-sbtest}" >/dev/null 2>&1; }
    repeat dump_ ;;
  scan)         # another client's analytic queries for LEN s: full scans of the benchmark's tables
    # (sbtest, whatever the workload's own schema) that send one row back each, 20 a connection:
    # rows read by full scans, CPU, no bytes to speak of (a dump's scans send the rows: `dump`)
    again "$(for _ in $(seq 5); do for k in 1 2 3 4; do
      printf 'SELECT COUNT(*), SUM(LENGTH(pad)) FROM sbtest.sbtest%s WHERE c LIKE "%%zz%%";' "$k"; done; done)" ;;
  rebuild)      # another client rebuilds a table of 20,000 rows again and again for LEN s (ALTER
    # TABLE sbtest.sbtest1 FORCE, online, whatever the workload's own schema: the table's rows read
    # and copied into a new tablespace, redo and pages written, a metadata lock taken for an
    # instant at each rebuild's end)
    again "ALTER TABLE sbtest.sbtest1 FORCE" ;;
  bulk-insert)  # another client copies a benchmark table into a table of its own for LEN s (INSERT
    # ... SELECT, each copy committed): rows inserted, redo written, pages flushed
    mb() { mariadb -uroot -S "$sock" -N -B -e "$1"; }
    mb "CREATE TABLE IF NOT EXISTS ${DB:-sbtest}.bulk LIKE ${DB:-sbtest}.sbtest1; ALTER TABLE ${DB:-sbtest}.bulk
      MODIFY id INT NOT NULL, DROP PRIMARY KEY, ADD COLUMN n INT NOT NULL AUTO_INCREMENT PRIMARY KEY"
    repeat mb "INSERT INTO ${DB:-sbtest}.bulk (id, k, c, pad) SELECT id, k, c, pad FROM ${DB:-sbtest}.sbtest1"
    mb "DROP TABLE ${DB:-sbtest}.bulk" ;;
  client-spike) # 16 more sysbench clients for LEN s beside a rate-limited benchmark: a workload spike
    t0=$EPOCHREALTIME; note start "$t0"
    sysbench oltp_read_write --db-driver=mysql --mysql-socket="$sock" --mysql-user=root --tables=4 \
      --table-size=20000 --threads=16 --time="$LEN" run >/dev/null 2>&1 || true
    note end "$EPOCHREALTIME" ;;
  join)         # another client's poorly written query for LEN s (the TPC-C study's): a join on an
    # unindexed column (sbtest1's first 2,000 rows against sbtest2's 20,000, a block nested loop
    # comparing each pair, ~1.5 s a query on an idle server), one query after another
    again "SELECT COUNT(*) FROM sbtest.sbtest1 a JOIN sbtest.sbtest2 b ON a.c = b.c WHERE a.id <= 2000" ;;
  hot-rows)     # the benchmark's own transactions turn to one row of one table for LEN s (hot.lua,
    # which reads HOT_FLAG): they wait on each other's row lock, as the TPC-C study's lock
    # contention (its mix moved to one warehouse and district); no other client, nothing else
    [ -n "${HOT_FLAG:-}" ] || { echo "hot-rows needs the hot workload (HOT_FLAG)" >&2; kill "$bench"; exit 2; }
    t0=$EPOCHREALTIME; : >"$HOT_FLAG"; note start "$t0"
    sleep "$LEN"
    t1=$EPOCHREALTIME; rm -f "$HOT_FLAG"; note end "$t1" ;;
  drop-index)   # the benchmark's own queries lose an index for LEN s (the TPC-C study's poor
    # physical design: an index the workload uses dropped, then built again): tpcc.lua's order
    # status finds a customer's last order through orders.by_customer; without it, it reads the
    # district's orders backwards from the newest (thousands of rows). Starts when the drop is
    # done, ends when the index is built again (the build is inside the window)
    [ "${DB:-sbtest}" = tpcc ] || { echo "drop-index needs the tpcc workload" >&2; kill "$bench"; exit 2; }
    mb() { mariadb -uroot -S "$sock" -N -B -e "$1"; }
    t0=$EPOCHREALTIME; mb "ALTER TABLE tpcc.orders DROP INDEX by_customer"
    note requested "$t0"; note start "$EPOCHREALTIME"
    sleep "$LEN"
    t1=$EPOCHREALTIME; mb "ALTER TABLE tpcc.orders ADD INDEX by_customer (o_w_id, o_d_id, o_c_id, o_id)"
    note rebuild "$t1"; note end "$EPOCHREALTIME" ;;
  restore)      # another client restores a dumped table again and again for LEN s (the TPC-C
    # study's table restore: `mariadb < dump`, the table dropped, created and loaded by multi-row
    # INSERTs, 20,000 rows each time): rows inserted, redo and pages written
    restore_() { mariadb -uroot -S "$sock" sbtest <"$scratch/restore.sql" >/dev/null 2>&1; }
    repeat restore_
    mariadb -uroot -S "$sock" -e "DROP TABLE IF EXISTS sbtest.restored" ;;
  checksum)     # another client checksums the benchmark's four 20,000-row tables again and again for
    # LEN s (CHECKSUM TABLE: each table read whole, one row sent back; sbtest whatever the workload's
    # own schema). Recorded 2026-11-28 after app/analysis/statements.py, to test it on kinds it was
    # not written on
    again "CHECKSUM TABLE sbtest.sbtest1, sbtest.sbtest2, sbtest.sbtest3, sbtest.sbtest4" ;;
  add-index)    # another client builds an index on a 20,000-row table and drops it, again and again
    # for LEN s (CREATE INDEX / DROP INDEX on sbtest.sbtest1's c: the rows read and sorted, the
    # index's pages and redo written, a metadata lock at each statement's end)
    again "CREATE INDEX bl_c ON sbtest.sbtest1 (c); DROP INDEX bl_c ON sbtest.sbtest1" ;;
  optimize)     # another client optimizes a 20,000-row table again and again for LEN s (OPTIMIZE
    # TABLE sbtest.sbtest2: InnoDB rebuilds it and reads its statistics)
    again "OPTIMIZE TABLE sbtest.sbtest2" ;;
  load-data)    # another client bulk-loads a 20,000-row file into a table of its own again and again
    # for LEN s (TRUNCATE, then LOAD DATA LOCAL INFILE of sbtest1's rows, dumped before): rows
    # inserted, redo and pages written, the file's bytes received
    mb() { mariadb -uroot -S "$sock" --local-infile=1 -N -B -e "$1"; }
    mb "SELECT * FROM sbtest.sbtest1" >"$scratch/load.tsv"
    mb "CREATE TABLE IF NOT EXISTS sbtest.loaded LIKE sbtest.sbtest1"
    repeat mb "TRUNCATE TABLE sbtest.loaded; LOAD DATA LOCAL INFILE '$scratch/load.tsv' INTO TABLE sbtest.loaded"
    mb "DROP TABLE sbtest.loaded" ;;
  dump-locked)  # another client dumps the benchmark's tables for LEN s with mysqldump's defaults
    # (--lock-tables: each database's tables locked for reading while it is dumped, no
    # --single-transaction), to /dev/null, again and again: scans, bytes sent, writers held
    dump_locked() { mariadb-dump -uroot -S "$sock" "${DB:-sbtest}" >/dev/null 2>&1; }
    repeat dump_locked ;;
  net-slow|net-congest)  # every reply of the server held DELAY s by the proxy for LEN s (default 2
    # ms; net-congest: 300 ms, the TPC-C study's network congestion, `tc` adding 300 ms to every
    # packet): round trips slower, the server idle between statements, bytes per transaction unchanged
    delay=${DELAY:-0.002}; [ "$scenario" = net-congest ] && delay=${DELAY:-0.3}
    t0=$EPOCHREALTIME; note start "$t0"
    echo "$delay" >"$scratch/proxy.delay"
    sleep "$LEN"
    echo 0 >"$scratch/proxy.delay"
    note end "$EPOCHREALTIME" ;;
  *) echo "unknown scenario $scenario" >&2; kill "$bench"; exit 2 ;;
esac
wait "$bench"
