# Shared helpers for the fixture capture scripts (source this file; bash only).
# Everything here is bounded: load generators stop by themselves and remove their temp files.

set -u
CAPTURE_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
FIX=$(cd "$CAPTURE_DIR/../fixtures" && pwd)
export TZ=${TZ:-UTC}

VMSTAT_VER=$(vmstat -V | awk '{print $NF}')              # e.g. 4.0.2
SYSSTAT_VER=$(iostat -V 2>&1 | awk '/version/{print $3}')  # e.g. 12.6.1

# Locale "styles" -> environment. ISO = C locale + sysstat's S_TIME_FORMAT=ISO.
declare -A STYLE_ENV=(
  [C]="LC_ALL=C.UTF-8"
  [en_US]="LC_ALL=en_US.UTF-8"
  [de_DE]="LC_ALL=de_DE.UTF-8"
  [fr_FR]="LC_ALL=fr_FR.UTF-8"
  [ISO]="LC_ALL=C.UTF-8 S_TIME_FORMAT=ISO"
)

# run_styled STYLE CMD...  : run CMD with a clean environment for that style.
run_styled() {
  local style=$1; shift
  # shellcheck disable=SC2086
  env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin TZ="$TZ" TERM="${TERM:-xterm}" ${STYLE_ENV[$style]} "$@"
}

# load SECONDS : background CPU + disk load that ends by itself after SECONDS.
# Direct I/O so the virtio disk really sees reads and writes.
load() {
  local secs=${1:-3}
  (
    f=$(mktemp /tmp/benchlens_load.XXXXXX)
    end=$((SECONDS + secs)); i=0
    while [ $SECONDS -lt $end ] && [ $i -lt 100 ]; do
      dd if=/dev/zero of="$f" bs=1M count=64 oflag=direct status=none
      dd if="$f" of=/dev/null bs=64k iflag=direct status=none
      sleep 0.2; i=$((i + 1))
    done
    rm -f "$f"
  ) &
  timeout "$secs" yes >/dev/null &
}

# log a capture for the MANIFEST: file, env, command
note() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"${NOTE_FILE:-/tmp/benchlens_capture.tsv}"; }
