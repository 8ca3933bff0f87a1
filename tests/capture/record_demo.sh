#!/bin/bash
# Record the demo run folders resources/demo/{baseline,disk-stall,<third>}/ and rewrite
# resources/demo/MANIFEST.md. Real captures: a throw-away MariaDB (datadir under /tmp, unix
# socket only, skip-networking), sysbench oltp_read_write, vmstat/iostat/mpstat at 1 s.
#
#   sudo tests/capture/record_demo.sh               # 6 to ~25 minutes, see below
#   THIRD=flush-log-2 tests/capture/record_demo.sh  # third run with innodb_flush_log_at_trx_commit=2
#   THIRD=none        tests/capture/record_demo.sh  # only baseline + disk-stall
#   KEEP_META=/tmp/dir tests/capture/record_demo.sh # keep the timing notes the MANIFEST is built from
#   DEMO_DIR=/tmp/trial DURATION=60 tests/capture/record_demo.sh   # a trial that leaves resources/ alone
#
# The machine may be shared: before each run the script waits (<= QUIET_MAX s) until other
# processes use < 0.15 CPU, and re-records a run (<= 3 attempts) when others used more than
# FOREIGN_MAX CPUs during it or when a monitor vanished before sysbench ended.
#
# Needs root, Debian 12 with mariadb-server, sysbench, sysstat, procps, python3.
# Each run folder gets exactly vmstat.log, iostat.log, mpstat.log, sysbench.log.
# Bounded: every step has a time limit; the EXIT trap stops what was started (by PID) and
# removes /tmp/benchlens_demo. Only unix-socket traffic to the server.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DEMO=${DEMO_DIR:-$(cd "$HERE/../.." && pwd)/resources/demo}   # DEMO_DIR: elsewhere, for a trial
WORK=/tmp/benchlens_demo
THIRD=${THIRD:-small-buffer-pool}   # small-buffer-pool | flush-log-2 | none
DURATION=${DURATION:-90}            # sysbench --time (the demo folders use 90)
STALL_AT=40                         # disk-stall: seconds after sysbench start
STALL_LEN=12                        # disk-stall: seconds of direct writes
SMALL_BP_MB=16                      # small-buffer-pool: innodb_buffer_pool_size during that run
QUIET_MAX=120                       # wait up to this long for other people's load to calm down
FOREIGN_MAX=0.30                    # re-record a run if others used more CPUs than this on average

export TZ=UTC LC_ALL=C.UTF-8
MON_ENV=(env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TZ=UTC LC_ALL=C.UTF-8)

[ "$(id -u)" = 0 ] || { echo "run as root" >&2; exit 1; }
for c in mariadbd mariadb-install-db mariadb mariadb-admin sysbench vmstat iostat mpstat python3; do
  command -v "$c" >/dev/null || { echo "missing: $c (apt-get install mariadb-server sysbench sysstat procps)" >&2; exit 1; }
done

SOCK=$WORK/mysqld.sock
DB_PID=""
BG_PIDS=()
log() { printf '%s %s\n' "$(date -u +%T)" "$*" >&2; }

stop_server() {
  [ -n "$DB_PID" ] || return 0
  if kill -0 "$DB_PID" 2>/dev/null; then
    timeout 60 mariadb-admin -S "$SOCK" -uroot shutdown 2>/dev/null || kill "$DB_PID" 2>/dev/null || true
    for _ in $(seq 60); do kill -0 "$DB_PID" 2>/dev/null || break; sleep 1; done
    kill -9 "$DB_PID" 2>/dev/null || true
  fi
  wait "$DB_PID" 2>/dev/null || true
  DB_PID=""
}

cleanup() {
  local p
  for p in "${BG_PIDS[@]}"; do kill -INT "$p" 2>/dev/null || true; done
  sleep 0.5
  for p in "${BG_PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  stop_server
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

sql() { timeout 60 mariadb -S "$SOCK" -uroot -N -B -e "$1"; }
SB=(sysbench oltp_read_write --mysql-socket="$SOCK" --mysql-user=sbtest --mysql-password=sbtest
    --mysql-db=sbtest --tables=4 --table-size=20000)

# ---------------------------------------------------------------- server + data
rm -rf "$WORK"; mkdir -p "$WORK/data" "$WORK/meta"; chown mysql:mysql "$WORK" "$WORK/data"
cat >"$WORK/my.cnf" <<EOF
[mysqld]
user=mysql
datadir=$WORK/data
socket=$SOCK
pid-file=$WORK/mysqld.pid
log-error=$WORK/error.log
skip-networking
innodb_buffer_pool_size=128M
EOF
log "mariadb-install-db"
timeout 120 mariadb-install-db --defaults-file="$WORK/my.cnf" --auth-root-authentication-method=socket >"$WORK/install.log" 2>&1
# start_server [extra mariadbd options]
start_server() {
  mariadbd --defaults-file="$WORK/my.cnf" "$@" >/dev/null 2>&1 &
  DB_PID=$!
  for _ in $(seq 60); do sql "SELECT 1" >/dev/null 2>&1 && break; sleep 1; done
  sql "SELECT 1" >/dev/null
}
start_server
sql "CREATE DATABASE sbtest; CREATE USER sbtest@localhost IDENTIFIED BY 'sbtest';
     GRANT ALL ON sbtest.* TO sbtest@localhost;"
log "sysbench prepare"
timeout 300 "${SB[@]}" prepare >"$WORK/prepare.log" 2>&1
sleep 5

# ---------------------------------------------------------------- one run
sync_second() { sleep "$(python3 -c 'import time; print(1.02 - time.time() % 1)')"; }

# stall M0 : from M0+STALL_AT to M0+STALL_AT+STALL_LEN, two writers each repeating 128 MiB
# O_DIRECT writes to the same disk (one writer alone gave only a ~40 % TPS drop here).
stall() {
  local start=$1 t0 t1 j n=0
  sleep "$(python3 -c "import time; print(max(0, $start + $STALL_AT - time.time()))")"
  t0=$EPOCHREALTIME
  for j in 1 2; do
    (
      i=0
      while python3 -c "import sys,time; sys.exit(time.time() >= $t0 + $STALL_LEN)" && [ $i -lt 300 ]; do
        dd if=/dev/zero of="$WORK/stall$j.bin" bs=1M count=128 oflag=direct status=none
        i=$((i + 1))
      done
      rm -f "$WORK/stall$j.bin"
      echo "$i" >"$WORK/meta/stall$j.count"
    ) &
  done
  wait
  t1=$EPOCHREALTIME
  for j in 1 2; do n=$((n + $(cat "$WORK/meta/stall$j.count"))); done
  printf 'stall_start\t%s\nstall_end\t%s\nstall_dd_runs\t%s\n' "$t0" "$t1" "$n" >>"$WORK/meta/disk-stall.tsv"
}

# cpu_jiffies : "<machine user+nice+system ticks> <ticks of this script's processes>". Ours = the
# server plus everything this script started and already waited for (cutime/cstime of $$).
cpu_jiffies() {
  local busy ours
  busy=$(awk '/^cpu /{print $2 + $3 + $4}' /proc/stat)
  ours=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$$/stat")
  [ -n "$DB_PID" ] && ours=$((ours + $(awk '{print $14 + $15}' "/proc/$DB_PID/stat")))
  echo "$busy $ours"
}
# foreign_cpus T0 "BUSY0 OURS0" : CPUs used on average by other people's processes since T0.
foreign_cpus() {
  local t0=$1 b0 o0 b1 o1 hz
  read -r b0 o0 <<<"$2"; read -r b1 o1 <<<"$(cpu_jiffies)"; hz=$(getconf CLK_TCK)
  python3 -c "import time; print('%.2f' % max(0, ($b1 - $b0 - ($o1 - $o0)) / $hz / (time.time() - $t0)))"
}
# Wait (at most QUIET_MAX s) until others use less than 0.15 CPU over 5 s.
wait_quiet() {
  local t0 j f waited=0
  while :; do
    t0=$EPOCHREALTIME; j=$(cpu_jiffies); sleep 5; f=$(foreign_cpus "$t0" "$j")
    python3 -c "import sys; sys.exit(not $f < 0.15)" && break
    waited=$((waited + 5)); [ $waited -ge "$QUIET_MAX" ] && break
  done
  printf 'quiet_wait\t%s\nforeign_before\t%s\n' "$waited" "$f" >>"$1"
}

record() {
  local name=$1 dir=$DEMO/$1 meta=$WORK/meta/$1.tsv stall_pid="" sb_t0 rc vm_pid io_pid mp_pid
  log "run $name"
  RUN_OK=0 RUN_WHY=""
  mkdir -p "$dir"; rm -f "$dir"/*; : >"$meta"
  case $name in
    flush-log-2) sql "SET GLOBAL innodb_flush_log_at_trx_commit=2" ;;
    small-buffer-pool)
      # A restart with the small pool: shrunk online (SET GLOBAL) the pool gave 2 s at 0 tps every
      # ~4 s with the machine idle; after a restart such seconds are much rarer.
      stop_server; start_server --innodb-buffer-pool-size=${SMALL_BP_MB}M; sleep 3 ;;
  esac
  {
    printf 'load_before\t%s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
    printf 'vars\t%s\n' "$(sql "SELECT CONCAT('innodb_flush_log_at_trx_commit=',@@innodb_flush_log_at_trx_commit,
      ' innodb_buffer_pool_size=',@@innodb_buffer_pool_size,' innodb_flush_method=',@@innodb_flush_method,
      ' log_bin=',@@log_bin)")"
  } >>"$meta"
  wait_quiet "$meta"
  sync_second
  local cpu0 t_cpu0=$EPOCHREALTIME
  cpu0=$(cpu_jiffies)
  printf 'monitors_start\t%s\n' "$EPOCHREALTIME" >>"$meta"
  "${MON_ENV[@]}" vmstat -t 1 >"$dir/vmstat.log" & vm_pid=$!
  "${MON_ENV[@]}" iostat -x -t 1 >"$dir/iostat.log" & io_pid=$!
  "${MON_ENV[@]}" mpstat -P ALL 1 >"$dir/mpstat.log" & mp_pid=$!
  BG_PIDS+=("$vm_pid" "$io_pid" "$mp_pid")
  sleep 2
  sb_t0=$EPOCHREALTIME
  printf 'sysbench_start\t%s\n' "$sb_t0" >>"$meta"
  if [ "$name" = disk-stall ]; then stall "$sb_t0" & stall_pid=$!; BG_PIDS+=($!); fi
  # sysbench.log gets sysbench's own output only; a copy with arrival times goes to $WORK.
  set +e
  timeout $((DURATION + 120)) stdbuf -oL "${SB[@]}" --threads=4 --time=$DURATION --report-interval=1 run 2>&1 |
    tee "$dir/sysbench.log" |
    while IFS= read -r line; do printf '%s\t%s\n' "$EPOCHREALTIME" "$line"; done >"$WORK/meta/$name.stamped"
  rc=${PIPESTATUS[0]}
  set -e
  printf 'sysbench_end\t%s\nsysbench_rc\t%s\n' "$EPOCHREALTIME" "$rc" >>"$meta"
  if [ -n "$stall_pid" ]; then wait "$stall_pid" || true; fi
  sleep 2
  # The monitors must still be running here (on this shared machine they were once found dead
  # mid-run, killed from outside); such a run is recorded again.
  local alive=1
  kill -0 "$vm_pid" 2>/dev/null && kill -0 "$io_pid" 2>/dev/null && kill -0 "$mp_pid" 2>/dev/null || alive=0
  # Background jobs of a non-interactive shell ignore SIGINT: iostat and mpstat install their own
  # handler (mpstat then prints its Average: block), vmstat does not, so it gets SIGTERM.
  kill -INT "$io_pid" "$mp_pid" 2>/dev/null || true
  kill -TERM "$vm_pid" 2>/dev/null || true
  for _ in $(seq 20); do
    kill -0 "$vm_pid" 2>/dev/null || kill -0 "$io_pid" 2>/dev/null || kill -0 "$mp_pid" 2>/dev/null || break
    sleep 0.25
  done
  kill -9 "$vm_pid" "$io_pid" "$mp_pid" 2>/dev/null || true
  wait "$vm_pid" "$io_pid" "$mp_pid" 2>/dev/null || true
  BG_PIDS=()
  local foreign
  foreign=$(foreign_cpus "$t_cpu0" "$cpu0")
  printf 'monitors_end\t%s\nload_after\t%s\nforeign_during\t%s\n' "$EPOCHREALTIME" "$(cut -d' ' -f1-3 /proc/loadavg)" "$foreign" >>"$meta"
  case $name in
    flush-log-2) sql "SET GLOBAL innodb_flush_log_at_trx_commit=1" ;;
    small-buffer-pool) stop_server; start_server ;;
  esac
  [ "$rc" = 0 ] || { echo "sysbench failed in $name (rc=$rc)" >&2; exit 1; }
  if [ "$alive" = 0 ] || [ "$(grep -c '^\[ [0-9]*s \] thds:' "$dir/sysbench.log")" -lt "$DURATION" ]; then
    RUN_WHY="a monitor was gone (killed from outside) before sysbench ended, or interval lines were missing"
    log "run $name: $RUN_WHY"
    RUN_OK=0
  elif python3 -c "import sys; sys.exit(not $foreign > $FOREIGN_MAX)"; then
    RUN_WHY="other processes used $foreign CPUs on average during the run (limit $FOREIGN_MAX)"
    log "run $name: $RUN_WHY"
    RUN_OK=2   # usable, but re-recorded if attempts are left
  else
    RUN_OK=1
  fi
  sleep 8   # let purge and page flushing of the previous run settle
}

runs=(baseline disk-stall)
[ "$THIRD" != none ] && runs+=("$THIRD")
# Remove demo run folders of an earlier recording that this one does not rewrite.
for d in baseline disk-stall small-buffer-pool flush-log-2; do
  [[ " ${runs[*]} " == *" $d "* ]] || rm -rf "${DEMO:?}/$d"
done
for r in "${runs[@]}"; do
  for attempt in 1 2 3; do
    record "$r"
    printf 'attempts\t%s\n' "$attempt" >>"$WORK/meta/$r.tsv"
    [ "$RUN_OK" = 1 ] && break
    if [ "$attempt" -lt 3 ] || [ "$RUN_OK" = 0 ]; then
      printf 'attempt %s discarded: %s (re-recorded)\n' "$attempt" "$RUN_WHY" >>"$WORK/meta/$r.discarded"
    else
      printf 'attempt %s kept although %s\n' "$attempt" "$RUN_WHY" >>"$WORK/meta/$r.discarded"
    fi
  done
  [ "$RUN_OK" != 0 ] || { echo "giving up on $r after 3 attempts" >&2; exit 1; }
done

# ---------------------------------------------------------------- manifest
{
  printf 'mariadb\t%s\n' "$(sql 'SELECT VERSION()')"
  printf 'sysbench\t%s\n' "$(sysbench --version)"
  printf 'vmstat\t%s\n' "$(vmstat -V | head -1)"
  printf 'sysstat\t%s\n' "$(iostat -V 2>&1 | head -1)"
  printf 'nproc\t%s\n' "$(nproc)"
  printf 'cpu\t%s\n' "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
  printf 'mem\t%s\n' "$(free -m | awk '/^Mem:/{print $2" MiB"}')"
  printf 'kernel\t%s\n' "$(uname -srmv)"
  printf 'os\t%s\n' "$(. /etc/os-release; echo "$PRETTY_NAME")"
  printf 'lsblk\t%s\n' "$(lsblk -d -o NAME,SIZE,ROTA,TYPE,MODEL | tr '\n' '|')"
  printf 'tmpfs\t%s\n' "$(df -h --output=source,fstype,target /tmp | tail -1)"
} >"$WORK/meta/machine.tsv"
cp "$WORK/my.cnf" "$WORK/meta/my.cnf"
cp "$WORK/error.log" "$WORK/meta/error.log" 2>/dev/null || true
FOREIGN_MAX=$FOREIGN_MAX DURATION=$DURATION python3 - "$WORK/meta" "$DEMO" "${runs[@]}" >"$DEMO/MANIFEST.md" <<'PY'
import math, os, re, statistics, sys
from datetime import datetime, timezone

meta, demo, runs = sys.argv[1], sys.argv[2], sys.argv[3:]

def tsv(path):
    out = {}
    if os.path.exists(path):
        for line in open(path):
            k, _, v = line.rstrip("\n").partition("\t")
            out[k] = v
    return out

def utc(t, frac=3):
    t = float(t)
    s = datetime.fromtimestamp(t, timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    return s + ("%.*f" % (frac, t % 1))[1:] if frac else s

def stamp(t):
    return "%.3f (%s UTC)" % (float(t), utc(t))

LINE = re.compile(r"^\[ (\d+)s \] thds: (\d+) tps: ([\d.]+) ")

def sysbench(name):
    lines, stamped, origin = {}, [], None
    for row in open(os.path.join(meta, name + ".stamped")):
        t, _, text = row.rstrip("\n").partition("\t")
        stamped.append((float(t), text))
        m = LINE.match(text)
        if m:
            lines[int(m.group(1))] = (float(m.group(3)), text, float(t))
    if 1 in lines:
        origin = lines[1][2] - 1.0
    summary = [tx for _, tx in stamped if not LINE.match(tx)]
    return lines, origin, summary

def sizes(name):
    d = os.path.join(demo, name)
    return [(f, os.path.getsize(os.path.join(d, f))) for f in sorted(os.listdir(d))]

def coverage(name):
    d = os.path.join(demo, name)
    out = {}
    v = [l.split() for l in open(os.path.join(d, "vmstat.log"))]
    v = [r[-2] + " " + r[-1] for r in v if r and r[0].isdigit()]
    out["vmstat"] = (v[0], v[-1], len(v)) if v else None
    io = [l.strip() for l in open(os.path.join(d, "iostat.log"))]
    io = [l for l in io if re.match(r"^\d\d/\d\d/\d\d \d\d:\d\d:\d\d$", l)]
    out["iostat"] = (io[0], io[-1], len(io)) if io else None
    mp = [l.split() for l in open(os.path.join(d, "mpstat.log"))]
    mp = [r[0] for r in mp if len(r) > 2 and re.match(r"^\d\d:\d\d:\d\d$", r[0]) and r[1] == "all"]
    out["mpstat"] = (mp[0], mp[-1], len(mp)) if mp else None
    util = []
    dev = None
    for l in open(os.path.join(d, "iostat.log")):
        f = l.split()
        if f and f[0] == "Device":
            dev = f
        elif dev and f and f[0] == "vda" and len(f) == len(dev):
            util.append(float(f[dev.index("%util")]))
    out["vda_util"] = util
    return out

mach = tsv(os.path.join(meta, "machine.tsv"))
P = print
P("# Demo run folders: provenance\n")
P("Generated by `tests/capture/record_demo.sh` (do not edit by hand: re-run the script, it rewrites the")
P("run folders and this file). Real captures on the machine below; nothing was edited after capture.\n")
P("Each run folder holds exactly `vmstat.log`, `iostat.log`, `mpstat.log`, `sysbench.log`.\n")
P("## Machine and versions\n")
for k, label in [("os", "OS"), ("kernel", "kernel (`uname -srmv`)"), ("nproc", "nproc"), ("cpu", "CPU"),
                 ("mem", "memory"), ("lsblk", "disks (`lsblk -d -o NAME,SIZE,ROTA,TYPE,MODEL`)"),
                 ("tmpfs", "/tmp (datadir and stall file) is on"), ("mariadb", "MariaDB"),
                 ("sysbench", "sysbench"), ("vmstat", "vmstat"), ("sysstat", "sysstat")]:
    v = mach.get(k, "?")
    if k == "lsblk":
        v = "; ".join(" ".join(x.split()) for x in v.split("|") if x.strip())
    P("- %s: `%s`" % (label, v))
P("\nThe machine is shared: other people's processes (tests, builds) were running at the same time, so")
P("some TPS wobble in every run is foreign load, not the benchmark. Load averages are listed per run.\n")
P("## Common setup\n")
P("Throw-away server, unix socket only (`skip-networking`), started as `mariadbd --defaults-file=my.cnf`")
P("after `mariadb-install-db --defaults-file=my.cnf --auth-root-authentication-method=socket`:\n")
P("```ini\n" + open(os.path.join(meta, "my.cnf")).read().rstrip() + "\n```\n")
P("```sh")
P("CREATE DATABASE sbtest; CREATE USER sbtest@localhost IDENTIFIED BY 'sbtest'; GRANT ALL ON sbtest.* TO sbtest@localhost;")
SB = ("sysbench oltp_read_write --mysql-socket=/tmp/benchlens_demo/mysqld.sock --mysql-user=sbtest "
      "--mysql-password=sbtest --mysql-db=sbtest --tables=4 --table-size=20000")
P(SB + " prepare")
P("```\n")
P("Per run, in this order (all runs against the same data, one after the other, ~10 s apart):\n")
P("```sh")
P("# started on a fresh second, environment: env -i PATH=... TZ=UTC LC_ALL=C.UTF-8")
P("vmstat -t 1 > vmstat.log &  iostat -x -t 1 > iostat.log &  mpstat -P ALL 1 > mpstat.log &")
P("sleep 2")
P(SB + " --threads=4 --time=%s --report-interval=1 run > sysbench.log 2>&1" % os.environ.get("DURATION", "90"))
P("sleep 2; kill -INT <iostat> <mpstat>; kill -TERM <vmstat>   # mpstat prints its Average: block on SIGINT")
P("```\n")
P("Times below: `EPOCHREALTIME` taken by the script; *report clock* = sysbench's `[ Ns ]` clock, origin")
P("estimated as (arrival time of the `[ 1s ]` line) - 1 s, so `[ Ns ]` covers origin+N-1 .. origin+N.\n")

notes = []
for name in runs:
    m = tsv(os.path.join(meta, name + ".tsv"))
    lines, origin, summary = sysbench(name)
    cov = coverage(name)
    P("## `%s/`\n" % name)
    what = {
        "baseline": "Undisturbed run.",
        "disk-stall": "Same as baseline, plus a burst of O_DIRECT writes (two concurrent dd writers) to the same disk (vda) from 40 s after sysbench start for ~12 s.",
        "small-buffer-pool": "Same as baseline, but the server was restarted with `mariadbd --defaults-file=my.cnf --innodb-buffer-pool-size=16M` before the monitors started (restarted again with the 128M of my.cnf after the run). The data set is ~57 MB on disk, and with the default `innodb_lru_scan_depth=1536` (more than the pool's 1014 pages) InnoDB keeps most of the small pool free, so most page reads go to vda (O_DIRECT): an I/O-bound run at a much lower TPS level.",
        "flush-log-2": "Same as baseline, but `SET GLOBAL innodb_flush_log_at_trx_commit=2` before the monitors start, restored to 1 after the run.",
    }[name]
    P(what + "\n")
    P("- files: " + ", ".join("`%s` %.1f KB" % (f, s / 1000) for f, s in sizes(name))
      + "; total %.1f KB" % (sum(s for _, s in sizes(name)) / 1000))
    P("- server variables during the run: `%s`" % m.get("vars"))
    P("- monitors started: %s; stopped: %s" % (stamp(m["monitors_start"]), stamp(m["monitors_end"])))
    P("- sysbench started: %s; ended: %s; exit status %s" % (stamp(m["sysbench_start"]), stamp(m["sysbench_end"]), m.get("sysbench_rc")))
    if origin is not None:
        P("- sysbench report clock origin: %s (%.3f s after the sysbench process was started)" % (stamp(origin), origin - float(m["sysbench_start"])))
    for tool in ("vmstat", "iostat", "mpstat"):
        c = cov[tool]
        P("- %s samples (UTC): first `%s`, last `%s`, %d reports%s" % (
            tool, c[0], c[1], c[2], " (the first is the since-boot average)" if tool != "mpstat" else ""))
    u = cov["vda_util"][1:]
    if u:
        P("- iostat vda `%%util` over the 1 s reports: median %.1f, max %.1f" % (statistics.median(u), max(u)))
        if max(u) > 100:
            notes.append("`%s/iostat.log`: vda `%%util` above 100 in %d report(s) (max %.2f), as printed by sysstat "
                         "(it does not clamp the value); importers should accept it." % (
                             name, sum(x > 100 for x in u), max(u)))
    P("- load average (1/5/15 min) before: %s; after: %s" % (m.get("load_before"), m.get("load_after")))
    P("- CPU used by other people's processes (and kernel threads), in CPUs out of %s: %s on average during the "
      "run; %s just before it, after waiting %s s for the machine to calm down" % (
          mach.get("nproc", "?"), m.get("foreign_during"), m.get("foreign_before"), m.get("quiet_wait")))
    disc = os.path.join(meta, name + ".discarded")
    if os.path.exists(disc):
        for l in open(disc):
            if l.strip():
                P("- " + l.strip())
    tps = [lines[k][0] for k in sorted(lines)]
    if tps:
        med = statistics.median(tps)
        P("- per-second tps: %d lines, median %.2f, min %.2f (at [ %ds ]), max %.2f (at [ %ds ])" % (
            len(tps), med, min(tps), min(lines, key=lambda k: lines[k][0]), max(tps), max(lines, key=lambda k: lines[k][0])))
    keep = [s for s in summary if re.search(r"transactions:|queries:|ignored errors|avg:|95th percentile|max:|total time", s)]
    P("\nsysbench summary (from `sysbench.log`):\n\n```")
    for s in keep:
        P(s.rstrip())
    P("```\n")
    if name == "disk-stall":
        s0, s1 = float(m["stall_start"]), float(m["stall_end"])
        r0, r1 = s0 - origin, s1 - origin
        P("### Disturbance ground truth\n")
        P("What: two concurrent writers, each running `dd if=/dev/zero of=/tmp/benchlens_demo/stallN.bin bs=1M count=128 oflag=direct` "
          "back-to-back (%s dd runs in total, %d MiB written) on vda, the disk holding the datadir; each writer "
          "stops at the first dd ending after start+%d s, then removes its file. *end* = both writers done.\n" % (m["stall_dd_runs"], 128 * int(m["stall_dd_runs"]), 12))
        P("| | UTC epoch | UTC wall clock | sysbench process + | report clock |")
        P("|---|---|---|---|---|")
        for lab, t in (("start", s0), ("end", s1)):
            P("| %s | %.3f | %s | %.3f s | %.3f s |" % (lab, t, utc(t), t - float(m["sysbench_start"]), t - origin))
        first_full, last_full = math.ceil(r0) + 1, math.floor(r1)
        P("\nSeconds fully inside the disturbance: `[ %ds ]` .. `[ %ds ]`. "
          "Partly affected: `[ %ds ]` and `[ %ds ]`.\n" % (first_full, last_full, first_full - 1, last_full + 1))
        before = [lines[k][0] for k in range(first_full - 11, first_full - 1) if k in lines]
        during = [lines[k][0] for k in range(first_full, last_full + 1) if k in lines]
        after = [lines[k][0] for k in range(last_full + 4, last_full + 14) if k in lines]
        mean = lambda xs: sum(xs) / len(xs) if xs else float("nan")
        P("Mean tps: before (`[ %ds ]`..`[ %ds ]`) **%.1f**, during (`[ %ds ]`..`[ %ds ]`) **%.1f** (%.0f%% of before), "
          "after (`[ %ds ]`..`[ %ds ]`) **%.1f**.\n" % (
              first_full - 11, first_full - 2, mean(before), first_full, last_full, mean(during),
              100 * mean(during) / mean(before), last_full + 4, last_full + 13, mean(after)))
        P("Lines around it, verbatim from `sysbench.log`:\n\n```")
        for k in range(first_full - 4, last_full + 6):
            if k in lines:
                P(lines[k][1])
        P("```\n")
    errs = [lines[k][1] for k in sorted(lines) if " err/s: 0.00 " not in lines[k][1]]
    if errs:
        notes.append("`%s/`: sysbench reported errors (ignored, e.g. deadlocks) in: %s" % (
            name, "; ".join("`" + e.split(" thds:")[0] + " ... " + e[e.index("err/s:"):] + "`" for e in errs)))
    if tps and name != "disk-stall":
        dips = [k for k in sorted(lines) if lines[k][0] < 0.6 * med]
        if dips:
            shown = ", ".join("`[ %ds ]` %.0f" % (k, lines[k][0]) for k in dips[:12])
            if len(dips) > 12:
                shown += " and %d more" % (len(dips) - 12)
            notes.append("`%s/`: %d second(s) with tps below 60%% of the run's median (%.0f), with no injected "
                         "disturbance: %s (foreign load on the shared machine, or InnoDB's own flushing)." % (
                             name, len(dips), med, shown))

P("## Notes\n")
P("- Times are UTC everywhere (`TZ=UTC`); iostat/mpstat banners carry the date, mpstat rows only `HH:MM:SS`.")
P("- The first vmstat and iostat report of each file is the average since boot.")
P("- vmstat, iostat and mpstat were started in the same second, about 2 s before sysbench, and stopped ~2 s after it, so they cover the whole sysbench run; sysbench's own clock starts a few ms to ~0.1 s after its process (connection set-up).")
P("- The workload is CPU-bound on 2 vCPUs (mariadbd + sysbench use both), so the fsync behaviour barely matters: on this machine on 2026-11-22, `innodb_flush_log_at_trx_commit=2` gave no TPS gain over `=1` (20 s A/B tests: 2016/1864 vs 2002/1250 tps; a 60 s trial of this script with `THIRD=flush-log-2` on a quiet machine: 1806 tps baseline vs 1790 tps with `=2`), nor did `general_log=ON` cost visible TPS. That is why the third run shrinks the buffer pool instead (`THIRD=flush-log-2` records the flush-log variant anyway).")
P("- `small-buffer-pool/` has seconds at 0 tps during which the whole machine is idle (vmstat `id` 100, no `bi`/`bo`): all four sysbench threads wait inside the server with nothing to do. Seen in every 16 MB-pool attempt on this machine and never with 128 MB; after an online `SET GLOBAL innodb_buffer_pool_size=16M` it even came every ~4 s, hence the restart. Cause not established (in a 20 s check with the online-shrunk pool, `Innodb_buffer_pool_wait_free` stayed 0 and ~800 of the 1014 pages were free).")
P("- The disk stall hurts partly through the disk (vda busy, InnoDB's own writes and fsyncs queue behind 1 MiB direct writes) and partly through CPU: dd's kernel time competes with mariadbd on the 2 vCPUs. See vmstat `sy`/`wa` and mpstat `%sys`/`%iowait` during the window.")
for n in notes:
    P("- " + n)
starts = [float(tsv(os.path.join(meta, r + ".tsv"))["monitors_start"]) for r in runs]
first = datetime.fromtimestamp(min(starts), timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
elog = os.path.join(meta, "error.log")
if os.path.exists(elog):
    out = []
    for l in open(elog):
        mm = re.match(r"^(\d{4}-\d\d-\d\d) +(\d+):(\d\d):(\d\d) ", l)
        if mm and "%s %02d:%s:%s" % (mm.group(1), int(mm.group(2)), mm.group(3), mm.group(4)) >= first:
            out.append(l.rstrip())
    bad = [l for l in out if "[Note]" not in l]
    P("- MariaDB error log during the runs (server runs with TZ=UTC): %d lines, %d `[Note]` (restarts, "
      "buffer pool load/dump), %d other%s" % (len(out), len(out) - len(bad), len(bad), ":" if bad else "."))
    if bad:
        P("\n```")
        for l in bad[:30]:
            P(l)
        if len(bad) > 30:
            P("... (%d more)" % (len(bad) - 30))
        P("```")
PY
[ -n "${KEEP_META:-}" ] && { rm -rf "$KEEP_META"; cp -r "$WORK/meta" "$KEEP_META"; }
log "done: $(du -sh "$DEMO"/*/ | tr '\n' ' ')"
