#!/usr/bin/env bash
# Smoke test of the one-folder bundle (packaging/build_bundle.sh), offscreen, outside the checkout:
#
#   bash packaging/smoke_test.sh [BUNDLE_DIR]        # default dist/benchlens
#
# 1. `import` the bundled demo runs into a temporary --db with the compiled tokenizer core (the
#    bundle reports which core it loaded), `runs --json` lists them;
# 2. `export` the disk-stall comparison as PNG (checked valid and not blank by check_png.py), SVG,
#    PDF and CSV;
# 3. `screenshot --demo` renders the main window to a PNG (checked likewise);
# 4. `--demo` starts the window and is still running (no traceback) after a few seconds;
# 5. a copy of the bundle without the compiled extension imports the same runs through the
#    pure-Python core with identical series and drops.
# Nothing outside a temporary folder is touched (HOME, XDG dirs and BENCHLENS_DB point into it).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
BUNDLE=$(cd "${1:-dist/benchlens}" 2>/dev/null && pwd) || { echo "smoke_test: no bundle ${1:-dist/benchlens}" >&2; exit 1; }
EXE=$BUNDLE/benchlens
[ -x "$EXE" ] || EXE=$BUNDLE/benchlens.exe
[ -x "$EXE" ] || { echo "smoke_test: no executable in $BUNDLE (run packaging/build_bundle.sh)" >&2; exit 1; }
CHECK_PNG=$ROOT/packaging/check_png.py
PY=$(command -v python3 || command -v python)

T=$(mktemp -d "${TMPDIR:-/tmp}/benchlens-smoke.XXXXXX")
trap 'rm -rf "$T"' EXIT
mkdir -p "$T/home" "$T/config" "$T/data"
export QT_QPA_PLATFORM=offscreen HOME=$T/home XDG_CONFIG_HOME=$T/config XDG_DATA_HOME=$T/data
export BENCHLENS_DB=$T/never-used.sqlite
cd "$T"  # outside the checkout: the bundle must find everything inside itself

now() { local LC_ALL=C; echo "${EPOCHREALTIME:-$(date +%s)}"; }  # bash 5: microseconds, '.' decimal point
t0=$(now)
ok() { printf 'smoke_test: ok  %-58s %6.2f s\n' "$1" "$(awk -v a="$t0" -v b="$(now)" 'BEGIN { print b - a }')"; t0=$(now); }
fail() { echo "smoke_test: FAIL $*" >&2; exit 1; }

DEMO=$(find "$BUNDLE" -type d -path '*app/_resources/demo' | head -n 1)
[ -n "$DEMO" ] || fail "no app/_resources/demo in the bundle"
RUNS=()
while IFS= read -r d; do RUNS+=("$d"); done < <(find "$DEMO" -mindepth 1 -maxdepth 1 -type d | sort)
[ ${#RUNS[@]} -ge 2 ] || fail "fewer than 2 demo runs in $DEMO"
SO=$(find "$BUNDLE" -path '*importers/_scan*' \( -name '*.so' -o -name '*.pyd' \) | head -n 1)
[ -n "$SO" ] || fail "the compiled importers._scan is not in the bundle"

# 1. import (compiled core)
BENCHLENS_REPORT_CORE=1 "$EXE" import "${RUNS[@]}" --db "$T/c.sqlite" >"$T/import.out" 2>"$T/import.err" \
  || fail "import: $(cat "$T/import.err")"
grep -q "tokenizer core: compiled" "$T/import.err" || fail "the bundle did not load the compiled core: $(cat "$T/import.err")"
"$EXE" runs --db "$T/c.sqlite" --json >"$T/runs.json"
n=$("$PY" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$T/runs.json")
[ "$n" = "${#RUNS[@]}" ] || fail "runs --json lists $n runs, expected ${#RUNS[@]}"
ok "import ${#RUNS[@]} demo runs (compiled core), runs --json"

# 2. export
A=$(basename "${RUNS[0]}"); B=$(basename "${RUNS[1]}")
for r in "${RUNS[@]}"; do case $(basename "$r") in baseline) A=baseline ;; disk-stall) B=disk-stall ;; esac; done
"$EXE" export --db "$T/c.sqlite" --run "$A" --run "$B" --out "$T/demo.png" >/dev/null 2>"$T/export.err" \
  || fail "export png: $(cat "$T/export.err")"
"$PY" "$CHECK_PNG" "$T/demo.png" --min-size 1200x675 || fail "export png is not a valid, non-blank chart"
ok "export --run $A --run $B --out demo.png"
"$EXE" export --db "$T/c.sqlite" --run "$A" --run "$B" --out "$T/demo.svg" >/dev/null
"$EXE" export --db "$T/c.sqlite" --run "$A" --run "$B" --out "$T/demo.pdf" >/dev/null
"$EXE" export --db "$T/c.sqlite" --run "$A" --run "$B" --out "$T/demo.csv" >/dev/null
grep -q "<svg" "$T/demo.svg" || fail "export svg has no <svg> element"
head -c 5 "$T/demo.pdf" | grep -q "%PDF-" || fail "export pdf is not a PDF"
[ "$(wc -l <"$T/demo.csv")" -gt 10 ] || fail "export csv has fewer than 10 lines"
ok "export .svg ($(wc -c <"$T/demo.svg") B), .pdf ($(wc -c <"$T/demo.pdf") B), .csv ($(wc -l <"$T/demo.csv") lines)"

# 3. screenshot of the window on the demo comparison
"$EXE" screenshot "$T/window.png" --demo --db "$T/d.sqlite" >/dev/null 2>"$T/shot.err" \
  || fail "screenshot: $(cat "$T/shot.err")"
"$PY" "$CHECK_PNG" "$T/window.png" --min-size 1400x900 || fail "screenshot is not a valid, non-blank window"
ok "screenshot window.png --demo"

# 4. the app itself (coreutils timeout: gtimeout on macOS with Homebrew's coreutils)
TIMEOUT=$(command -v timeout || command -v gtimeout || true)
if [ -n "$TIMEOUT" ]; then
  set +e
  "$TIMEOUT" 8 "$EXE" --demo --db "$T/d.sqlite" >"$T/app.out" 2>"$T/app.err"
  rc=$?
  set -e
  [ $rc = 124 ] || fail "benchlens --demo exited with $rc before 8 s: $(tail -n 5 "$T/app.err")"
  ! grep -q Traceback "$T/app.err" || fail "benchlens --demo printed a traceback: $(cat "$T/app.err")"
  ok "benchlens --demo runs (stopped after 8 s)"
else
  echo "smoke_test: skipped benchlens --demo (no timeout command)"
fi

# 5. the pure-Python core in a copy of the bundle without the extension
cp -al "$BUNDLE" "$T/pure" 2>/dev/null || cp -a "$BUNDLE" "$T/pure"
rm -f "$T/pure/${SO#"$BUNDLE"/}"
PEXE=$T/pure/$(basename "$EXE")
BENCHLENS_REPORT_CORE=1 "$PEXE" import "${RUNS[@]}" --db "$T/p.sqlite" >/dev/null 2>"$T/pimport.err" \
  || fail "import (pure core): $(cat "$T/pimport.err")"
grep -q "tokenizer core: pure Python" "$T/pimport.err" || fail "the copy did not fall back: $(cat "$T/pimport.err")"
for r in "${RUNS[@]}"; do
  name=$(basename "$r")
  for cmd in series drops; do
    "$EXE" "$cmd" "$name" --db "$T/c.sqlite" --json >"$T/c.json"
    "$PEXE" "$cmd" "$name" --db "$T/p.sqlite" --json >"$T/p.json"
    cmp -s "$T/c.json" "$T/p.json" || fail "$cmd $name differs between the compiled and the pure-Python core"
  done
done
"$EXE" dump "$B" --source iostat --metric w/s --entity vda --db "$T/c.sqlite" --json >"$T/c.json"
"$PEXE" dump "$B" --source iostat --metric w/s --entity vda --db "$T/p.sqlite" --json >"$T/p.json"
cmp -s "$T/c.json" "$T/p.json" || fail "dump $B iostat w/s differs between the cores"
ok "pure-Python core: same series, drops and iostat w/s"

echo "smoke_test: passed ($(du -sm "$BUNDLE" | cut -f1) MB bundle at $BUNDLE)"
