#!/usr/bin/env bash
# System packages benchlens needs on Debian/Ubuntu: Qt's runtime libraries (offscreen and xcb),
# venv support and a C compiler for the optional tokenizer core. Installs what is missing when
# run as root with apt-get; otherwise says what to install and carries on.
set -u
[ "$(uname -s)" = Linux ] || exit 0
command -v dpkg-query >/dev/null 2>&1 || exit 0
# (libxcb-icccm4 and libxcb-keysyms1: Qt's xcb platform plugin cannot load without them, so a real
# window on X11 needs them; desktops have them, minimal images do not.)
# (libmariadb-dev: the MariaDB driver of benchlens[server], in the dev extra, builds against it;
# mariadb-server: the store's tests start a private server of their own, tests/store/private_server.py.)
# (chromium: the report's tests open `benchlens report`'s HTML in headless Chromium, tests/report/.)
pkgs=(libglib2.0-0 libgl1 libegl1 libx11-6 libxkbcommon0 libfontconfig1 libfreetype6 libdbus-1-3
      libxkbcommon-x11-0 libxcb-cursor0 libxcb-icccm4 libxcb-keysyms1 gcc
      libmariadb-dev pkg-config mariadb-server chromium)
py=$(command -v python3 || true)
case "$(readlink -f "${py:-/nonexistent}")" in
  /usr/bin/*) pkgs+=(python3-venv python3-dev) ;;  # Debian's python3: ensurepip and headers are separate
esac
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing system packages: ${missing[*]}"
  # another apt-get (a second checkout's make, unattended upgrades) may hold the lock: wait for it
  # (DPkg::Lock::Timeout), and try again a few times when it still fails
  apt_get() { DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=120 "$@"; }
  for try in 1 2 3 4; do
    apt_get update -qq >/dev/null && apt_get install -y -qq "${missing[@]}" >/dev/null && exit 0
    [ "$try" = 4 ] || { echo "apt-get failed (try $try of 4): again in 20 s"; sleep 20; }
  done
  echo "apt-get install failed for: ${missing[*]}"
  exit 1
else
  echo "note: missing system packages (install them as root): ${missing[*]}"
fi
