#!/bin/bash
# Single-tool fixtures: every variant under every locale style, the styles of one
# variant captured in parallel (same seconds, same load burst, similar numbers).
# Usage: [ONLY=variant] single.sh [vmstat] [iostat] [mpstat]     (default: all three)
# Writes tests/fixtures/{vmstat,iostat,mpstat}/<tool>_<ver>_<style>_<variant>.txt
. "$(dirname "$0")/common.sh"

# cap TOOL VARIANT "STYLES" CMD...   (command printed to stdout -> file)
cap() {
  local tool=$1 variant=$2 styles=$3; shift 3
  [ -n "${ONLY:-}" ] && [ "$variant" != "$ONLY" ] && return
  local ver=$SYSSTAT_VER; [ "$tool" = vmstat ] && ver=$VMSTAT_VER
  load "${LOAD_SECS:-4}"
  local s out
  for s in $styles; do
    out=$FIX/$tool/${tool}_${ver}_${s}_${variant}.txt
    run_styled "$s" "$@" >"$out" 2>&1 &
    note "${out#"$FIX"/}" "TZ=$TZ ${STYLE_ENV[$s]}" "$*"
  done
  wait   # tools, load generator and yes
}

# cap_tty: like cap, but under script(1) on a 10-row pty so vmstat repeats its header.
# script turns LF into CRLF; the CRs are removed (nothing else is changed).
cap_tty() {
  local tool=$1 variant=$2 styles=$3; shift 3
  [ -n "${ONLY:-}" ] && [ "$variant" != "$ONLY" ] && return
  local s out
  LOAD_SECS=12 load 12
  for s in $styles; do
    out=$FIX/$tool/${tool}_${VMSTAT_VER}_${s}_${variant}.txt
    run_styled "$s" script -qec "stty rows 10 cols 120; $*" /dev/null | tr -d '\r' >"$out" &
    note "${out#"$FIX"/}" "TZ=$TZ ${STYLE_ENV[$s]}" "script -qec 'stty rows 10 cols 120; $*' /dev/null | tr -d '\\r'"
  done
  wait
}

do_vmstat() {
  local L="C en_US de_DE fr_FR"
  cap vmstat plain "$L" vmstat 1 4
  cap vmstat t     "$L" vmstat -t 1 4
  cap vmstat w     "$L" vmstat -w 1 4
  cap vmstat a     "$L" vmstat -a 1 4
  cap vmstat S-M   "$L" vmstat -S M 1 4
  cap vmstat t-w   "$L" vmstat -t -w 1 4
  cap_tty vmstat header-repeat "$L" vmstat 1 25
  cap_tty vmstat n "C de_DE" vmstat -n 1 25
  # not a tty at all: procps 4.0.2 still repeats the header (every 22 rows)
  LOAD_SECS=10 cap vmstat header-repeat-pipe "C" vmstat 1 25
}

do_iostat() {
  local L="C en_US de_DE fr_FR ISO"
  cap iostat x        "$L" iostat -x 1 3
  cap iostat x-t      "$L" iostat -x -t 1 3
  cap iostat x-k-t    "$L" iostat -x -k -t 1 3
  cap iostat x-m-t    "$L" iostat -x -m -t 1 3
  # -z: 2 s of load then idle, so vda is omitted from the idle reports
  LOAD_SECS=2 cap iostat x-z-t "$L" iostat -x -z -t 1 5
  cap iostat JSON-x-t "$L" iostat -o JSON -x -t 1 3
  cap iostat t        "$L" iostat -t 1 3
  cap iostat human-x  "$L" iostat --human -x 1 3
  do_iostat_part
}

do_iostat_part() {
  [ -n "${ONLY:-}" ] && [ "$ONLY" != x-p-ALL-t ] && return
  local L="C en_US de_DE fr_FR ISO"
  # -p ALL needs partitions; the virtio disk has none, so a partitioned loop device
  # (2 GPT partitions) is set up and exercised during this capture only. This kernel has
  # no partition-table parsers (CONFIG_EFI_PARTITION unset), so partx -a adds them (BLKPG).
  local img dev=/dev/loop77; img=$(mktemp /tmp/benchlens_part.XXXXXX)
  truncate -s 256M "$img"
  printf 'label: gpt\n,100M\n,\n' | sfdisk -q "$img"
  "$CAPTURE_DIR/loopctl.py" add 77 && losetup "$dev" "$img" && partx -a "$dev"
  test -b "${dev}p2" || { echo "no ${dev}p2" >&2; losetup -d "$dev"; "$CAPTURE_DIR/loopctl.py" remove 77; rm -f "$img"; return 1; }
  ( for i in 1 2 3 4 5 6; do
      dd if=/dev/zero of="${dev}p1" bs=1M count=32 oflag=direct conv=nocreat status=none
      dd if="${dev}p2" of=/dev/null bs=1M count=16 iflag=direct status=none
      sleep 0.5; done ) &
  cap iostat x-p-ALL-t "$L" iostat -x -p ALL -t 1 3
  partx -d "$dev"; losetup -d "$dev"; rm -f "$img"
  sleep 0.5; "$CAPTURE_DIR/loopctl.py" remove 77   # device and its counters vanish
}

do_mpstat() {
  local L="C en_US de_DE fr_FR ISO"
  cap mpstat P-ALL      "$L" mpstat -P ALL 1 3
  cap mpstat A          "$L" mpstat -A 1 2
  cap mpstat u          "$L" mpstat -u 1 3
  cap mpstat JSON-P-ALL "$L" mpstat -o JSON -P ALL 1 2
}

[ $# -eq 0 ] && set -- vmstat iostat mpstat
for t in "$@"; do "do_$t"; done
