#!/usr/bin/env bash
# Add benchlens to the desktop's application menu (Linux, freedesktop): the .desktop entry and the
# icon in the hicolor theme, for this user (default) or system-wide (--system, as root).
#
#   bash packaging/install_desktop.sh [--system] [BENCHLENS_EXECUTABLE]
#   bash packaging/install_desktop.sh --uninstall [--system]
#
# BENCHLENS_EXECUTABLE defaults to the `benchlens` on PATH (pip/pipx install); give
# dist/benchlens/benchlens for the bundle. Its absolute path is written into Exec= and TryExec=,
# so the entry works even when the menu's PATH lacks ~/.local/bin.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
RES=$ROOT/resources
prefix=${XDG_DATA_HOME:-$HOME/.local/share}
action=install
exe=
for arg in "$@"; do
  case $arg in
    --system) prefix=/usr/local/share ;;
    --uninstall) action=uninstall ;;
    -h | --help) sed -n '2,10p' "$0"; exit 0 ;;
    *) exe=$arg ;;
  esac
done
apps=$prefix/applications
icons=$prefix/icons/hicolor
refresh() {
  command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$apps" || true
  command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t -f "$icons" || true
}

if [ $action = uninstall ]; then
  rm -f "$apps/benchlens.desktop" "$icons/scalable/apps/benchlens.svg" "$icons"/*/apps/benchlens.png
  refresh
  echo "removed benchlens from $apps and $icons"
  exit 0
fi

exe=${exe:-$(command -v benchlens || true)}
[ -n "$exe" ] && [ -x "$exe" ] || { echo "install_desktop: no benchlens executable (give its path)" >&2; exit 1; }
exe=$(cd "$(dirname "$exe")" && pwd)/$(basename "$exe")
case $exe in *[[:space:]\"\'\\\$\`]*)
  echo "install_desktop: $exe: a path with spaces or quotes is not supported here" >&2; exit 1 ;;
esac

mkdir -p "$apps" "$icons/scalable/apps"
sed -e "s|^Exec=.*|Exec=$exe|" -e "s|^TryExec=.*|TryExec=$exe|" "$RES/benchlens.desktop" >"$apps/benchlens.desktop"
cp "$RES/icons/benchlens.svg" "$icons/scalable/apps/benchlens.svg"
for png in "$RES"/icons/benchlens-*.png; do
  n=$(basename "$png" .png); n=${n#benchlens-}
  mkdir -p "$icons/${n}x${n}/apps" && cp "$png" "$icons/${n}x${n}/apps/benchlens.png"
done
refresh
echo "installed $apps/benchlens.desktop (Exec=$exe) and the icon in $icons"
