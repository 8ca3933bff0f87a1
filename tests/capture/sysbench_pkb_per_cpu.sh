#!/usr/bin/env bash
# Capture sysbench cpu and memory the way PerfKitBenchmarker's sysbench_memory benchmark runs them:
# one run per CPU, each pinned with taskset, `CPU N ` echoed before each run's banner (issue 22).
#
#   bash tests/capture/sysbench_pkb_per_cpu.sh     (Debian 12: sysbench, util-linux)
#
# Writes tests/fixtures/sysbench/sysbench_<ver>_C_{cpu,memory}-pkb-per-cpu-prefix.txt.
set -euo pipefail
FIX=$(cd "$(dirname "${BASH_SOURCE[0]}")/../fixtures/sysbench" && pwd)
VER=$(sysbench --version | awk '{print $2}')
LAST=$(($(nproc) - 1))
for test in cpu memory; do
  # PerfKitBenchmarker's command line, verbatim but for the test name
  env -i PATH=/usr/bin:/bin LC_ALL=C TZ=UTC bash -c \
    "for CPU in \`seq 0 $LAST\`; do echo -n \"CPU \$CPU \"; taskset --cpu-list \$CPU sysbench $test run; done" \
    >"$FIX/sysbench_${VER}_C_${test}-pkb-per-cpu-prefix.txt"
done
