#!/usr/bin/env bash
# Build the one-folder bundle dist/benchlens/ (run it as dist/benchlens/benchlens) with PyInstaller.
#
#   bash packaging/build_bundle.sh            # then: bash packaging/smoke_test.sh
#
# Steps: export the checkout's files (git-tracked and untracked-but-not-ignored, so no stale build/
# or in-place .so gets in) to build/bundle-src; make the build venv (build/bundle-venv, or
# $BUNDLE_VENV) with Python >= 3.11 ($PY to choose); `pip install` that export, not editable, so
# the compiled importers._scan and the resources come in as a pip user gets them; install
# PyInstaller from PyPI; build packaging/benchlens.spec into dist/benchlens/. Prints the build time
# and the bundle's size. Linux is what is tested here; the same script runs on macOS, and under
# Git Bash on Windows (see packaging/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
VENV=${BUNDLE_VENV:-$ROOT/build/bundle-venv}
SRC=$ROOT/build/bundle-src
PYINSTALLER_SPEC=${PYINSTALLER_SPEC:-pyinstaller>=6.10,<7}
start=$(date +%s)

pick_python() {
  for p in ${PY:-} python3.13 python3.12 python3.11 python3 python; do
    command -v "$p" >/dev/null 2>&1 && "$p" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null \
      && { echo "$p"; return; }
  done
  echo "build_bundle: benchlens needs Python >= 3.11 (none found on PATH; set PY=...)" >&2
  exit 1
}

if [ -x "$VENV/bin/python" ]; then VPY=$VENV/bin/python
elif [ -x "$VENV/Scripts/python.exe" ]; then VPY=$VENV/Scripts/python.exe
else
  "$(pick_python)" -m venv "$VENV"
  VPY=$VENV/bin/python; [ -x "$VPY" ] || VPY=$VENV/Scripts/python.exe
fi
echo "build_bundle: build venv $VENV ($("$VPY" -c 'import sys; print(sys.version.split()[0])'))"

rm -rf "$SRC" && mkdir -p "$SRC"
if git -C "$ROOT" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  git -C "$ROOT" ls-files -z --cached --others --exclude-standard \
    | while IFS= read -r -d '' f; do if [ -e "$f" ]; then printf '%s\0' "$f"; fi; done \
    | tar --null -T - -cf - | tar -xf - -C "$SRC"  # (files deleted but still tracked are skipped)
else  # a source tarball: copy it as it is, minus build output
  tar --exclude=./build --exclude=./dist --exclude=./.venv -cf - . | tar -xf - -C "$SRC"
fi

"$VPY" -m pip install -q --upgrade pip
extra=()
case "$(uname -s)" in Darwin | MINGW* | MSYS* | CYGWIN*) extra=(pillow) ;; esac  # PNG -> .icns/.ico exe icon
"$VPY" -m pip install -q "$SRC" "$PYINSTALLER_SPEC" "${extra[@]}"
core=$("$VPY" -c 'import benchlens.importers._tokens as t; print("compiled" if t.HAS_COMPILED_CORE else "pure Python")')
echo "build_bundle: installed $("$VPY" -m pip show benchlens | sed -n 's/^Version: //p') (tokenizer core: $core)," \
  "$("$VPY" -m PyInstaller --version | sed 's/^/PyInstaller /')"
[ "$core" = compiled ] || export BENCHLENS_ALLOW_PURE_CORE=1  # no C compiler: bundle the pure-Python core

# Run from build/ so nothing but the installed package can be found as `app` or `importers`.
cd "$ROOT/build"
"$VPY" -m PyInstaller --noconfirm --clean --log-level WARN \
  --distpath "$ROOT/dist" --workpath "$ROOT/build/pyinstaller" "$ROOT/packaging/benchlens.spec"
cd "$ROOT"
rm -rf "$SRC"

# A pyenv or self-built Python ships libpython and the stdlib extensions with debug info (~30 MB
# here): strip the debug sections of those only (Qt's and numpy's libraries come stripped; strip
# can corrupt their patched ELF headers, so they are left alone).
if [ "$(uname -s)" = Linux ] && command -v strip >/dev/null 2>&1; then
  find dist/benchlens/_internal -maxdepth 1 -type f -name 'libpython*.so*' -print0 | xargs -0 -r strip --strip-debug
  find dist/benchlens/_internal -type f -path '*/lib-dynload/*.so' -print0 | xargs -0 -r strip --strip-debug
fi

end=$(date +%s)
size=$(du -sm dist/benchlens | cut -f1)
files=$(find dist/benchlens -type f | wc -l)
echo "build_bundle: dist/benchlens/ built in $((end - start)) s: ${size} MB, ${files} files" \
  "(run dist/benchlens/benchlens; test it with packaging/smoke_test.sh)"
