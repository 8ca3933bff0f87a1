#!/bin/bash
# Re-capture every fixture, then rewrite tests/fixtures/MANIFEST.md (~5 minutes, needs root).
# `locales.sh --reuse` would replay the committed snapshots instead of recording new ones.
set -e
cd "$(dirname "$0")"
export NOTE_FILE=${NOTE_FILE:-/tmp/benchlens_capture.tsv}
rm -f "$NOTE_FILE"
./single.sh
./hotplug.sh
./midnight.sh
./runs.sh
./locales.sh "$@"
python3 manifest.py > ../fixtures/MANIFEST.md
